//! What the other implementation answered, read from its output.
//!
//! Accepted answers (the whole standard output, surrounding blanks ignored; in the JSONL
//! protocol the same objects arrive as fields of the response line):
//! - a makespan alone: `17`, `7/2`, `3.5`, `1.2e3`, or a JSON string of one (`"7/2"`); read
//!   exactly, so `0.1` is 1/10;
//! - a bare schedule in resched's format, `{"attempts": [...]}` (optionally with `makespan` and
//!   `algorithm`, as `resched verify` reads it);
//! - the object `resched simulate --json` prints: its `schedule` field is the schedule, its
//!   `makespan` field (if any) the stated makespan; every other field is ignored.
//!
//! Anything else (several numbers, text, JSON without one of those fields) is unparsable output,
//! reported with what was expected.
use resched::model::Schedule;
use resched::time::Time;
use serde::Deserialize;
use serde_json::{Map, Value};

/// An answer: a stated makespan, a schedule, or both.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Answer {
    /// The makespan the program stated (alone, or beside its schedule).
    pub makespan: Option<Time>,
    pub schedule: Option<Schedule>,
}

/// How many characters of a program's raw output a report quotes.
pub const QUOTE: usize = 400;

/// The first [`QUOTE`] characters of `s`, with `…` when cut.
pub fn quote(s: &str) -> String {
    let s = s.trim();
    match s.char_indices().nth(QUOTE) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// `s` with every control character but the line feed and the tab written as an escape
/// (`\x1b`, `\0`, `\r`, `\u{85}`): a report quotes what another program printed, and its raw
/// bytes must not reach the terminal (an ESC sequence would be obeyed, a NUL or a carriage
/// return would hide text).
pub fn escape_controls(s: &str) -> std::borrow::Cow<'_, str> {
    let bad = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !s.chars().any(bad) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            '\0' => out.push_str("\\0"),
            '\r' => out.push_str("\\r"),
            c if bad(c) && (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if bad(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Reads a whole standard output. `Err` says why it is not an answer.
pub fn from_stdout(text: &str) -> Result<Answer, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("it printed nothing (expected a makespan or a JSON schedule)".into());
    }
    if t.starts_with(['{', '"', '[']) {
        let v: Value = serde_json::from_str(t).map_err(|e| format!("malformed JSON: {e}"))?;
        return from_value(&v);
    }
    let mut tokens = t.split_whitespace();
    let (Some(first), None) = (tokens.next(), tokens.next()) else {
        return Err(
            "expected one number (a makespan) or a JSON schedule, found several words".into(),
        );
    };
    first
        .parse::<Time>()
        .map(|m| Answer {
            makespan: Some(m),
            schedule: None,
        })
        .map_err(|e| format!("expected a makespan: {e}"))
}

/// Reads an answer from a JSON value: a number or string (a makespan), or an object (module doc).
pub fn from_value(v: &Value) -> Result<Answer, String> {
    match v {
        Value::Object(o) => from_object(o),
        Value::Number(_) | Value::String(_) => Ok(Answer {
            makespan: Some(time(v, "makespan")?),
            schedule: None,
        }),
        _ => Err(format!(
            "expected a makespan or a schedule object, found `{}`",
            quote(&v.to_string())
        )),
    }
}

/// An object with `attempts` (a bare schedule), `schedule` (simulate --json) or `makespan`.
pub fn from_object(o: &Map<String, Value>) -> Result<Answer, String> {
    // `simulate --json` also has an `attempts` field (a count): its `schedule` comes first.
    let schedule = if let Some(s) = o.get("schedule") {
        Some(schedule(s)?)
    } else if o.get("attempts").is_some_and(Value::is_array) {
        Some(schedule(&Value::Object(o.clone()))?)
    } else {
        None
    };
    let stated = match o.get("makespan") {
        Some(Value::Null) | None => None,
        Some(m) => Some(time(m, "makespan")?),
    };
    // A bare schedule's own `makespan` field is the stated makespan too.
    let makespan = stated.or_else(|| schedule.as_ref().and_then(|s| s.makespan.clone()));
    if schedule.is_none() && makespan.is_none() {
        return Err(
            "a JSON object without `attempts`, `schedule` or `makespan` (module doc of diff::answer)"
                .into(),
        );
    }
    Ok(Answer { makespan, schedule })
}

/// Checks a JSON Lines response's `id` against the request's `id`: the protocol echoes it as
/// the JSON number it was sent as. A string holding the number (`"0"`), a fraction, a negative
/// number or `null` is named for what it is, never called missing, so that a program that
/// writes its ids as strings learns why each of its answers is refused.
pub fn check_id(o: &Map<String, Value>, id: u64) -> Result<(), String> {
    let expected = format!("expected {id} (the request's id, echoed as a JSON number)");
    match o.get("id") {
        None => Err(format!("response id missing, {expected}")),
        Some(v) => match v.as_u64() {
            Some(got) if got == id => Ok(()),
            Some(got) => Err(format!(
                "response id {got}, expected {id} (one response per request, in order)"
            )),
            None => {
                let what = match v {
                    Value::String(_) => "a string",
                    Value::Number(_) => "not a non-negative integer",
                    Value::Null => "null",
                    Value::Bool(_) => "a boolean",
                    Value::Array(_) | Value::Object(_) => "not a number",
                };
                Err(format!(
                    "response id `{}` is {what}, {expected}",
                    quote(&v.to_string())
                ))
            }
        },
    }
}

fn schedule(v: &Value) -> Result<Schedule, String> {
    Schedule::deserialize(v).map_err(|e| format!("not a schedule in resched's format: {e}"))
}

fn time(v: &Value, field: &str) -> Result<Time, String> {
    Time::deserialize(v).map_err(|e| format!("`{field}`: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Time {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn makespans_in_every_spelling() {
        for (text, want) in [
            ("17\n", "17"),
            (" 7/2 ", "7/2"),
            ("3.5", "7/2"),
            ("1.2e3", "1200"),
            ("\"7/2\"", "7/2"),
            ("{\"makespan\": 0.1}", "1/10"),
        ] {
            let a = from_stdout(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(a.makespan, Some(t(want)), "{text}");
            assert!(a.schedule.is_none());
        }
    }

    #[test]
    fn schedules_bare_and_inside_simulate_json() {
        let bare = r#"{"attempts": [{"job": 0, "attempt": 1, "start": 0, "procs": 1, "duration": "3/2"}]}"#;
        let a = from_stdout(bare).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(a.schedule.map(|s| s.makespan()), Some(t("3/2")));
        assert_eq!(a.makespan, None);
        let whole = format!(
            r#"{{"algorithm": "x", "attempts": 1, "makespan": "3/2", "ratio": 1, "schedule": {bare}}}"#
        );
        let a = from_stdout(&whole).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(a.makespan, Some(t("3/2")));
        assert!(a.schedule.is_some());
    }

    #[test]
    fn response_ids_are_named_for_what_they_are() {
        let obj = |text: &str| match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(o)) => o,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(check_id(&obj(r#"{"id": 0}"#), 0), Ok(()));
        assert_eq!(check_id(&obj(r#"{"id": 12}"#), 12), Ok(()));
        for (text, want) in [
            (
                r#"{"id": "0"}"#,
                r#"response id `"0"` is a string, expected 0 (the request's id, echoed as a JSON number)"#,
            ),
            (
                r#"{"makespan": 1}"#,
                "response id missing, expected 0 (the request's id, echoed as a JSON number)",
            ),
            (
                r#"{"id": 7}"#,
                "response id 7, expected 0 (one response per request, in order)",
            ),
            (
                r#"{"id": -1}"#,
                "response id `-1` is not a non-negative integer",
            ),
            (
                r#"{"id": 0.0}"#,
                "response id `0.0` is not a non-negative integer",
            ),
            (r#"{"id": null}"#, "response id `null` is null"),
            (r#"{"id": [0]}"#, "response id `[0]` is not a number"),
        ] {
            let e = check_id(&obj(text), 0).unwrap_err();
            assert!(e.starts_with(want), "{text}: {e}");
        }
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(escape_controls("a\tb\nc"), "a\tb\nc");
        assert_eq!(
            escape_controls("x\0y\u{1b}[2J\r\u{7}\u{85}"),
            "x\\0y\\x1b[2J\\r\\x07\\u{85}"
        );
    }

    #[test]
    fn garbage_says_what_was_expected() {
        for (text, want) in [
            ("", "printed nothing"),
            ("makespan: 3", "several words"),
            ("abc", "expected a makespan"),
            ("{\"attempts\": 3", "malformed JSON"),
            ("{\"result\": 3}", "without `attempts`"),
            ("{\"attempts\": [{\"job\": 0}]}", "not a schedule"),
            ("[1, 2]", "expected a makespan or a schedule"),
        ] {
            let e = from_stdout(text).err().unwrap_or_default();
            assert!(e.contains(want), "{text}: {e}");
        }
    }
}
