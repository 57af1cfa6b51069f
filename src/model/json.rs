//! Reading the JSON input formats exactly, with errors that name the file, the line and the field.
//!
//! Two things a plain `serde_json::from_str` does not do:
//! - **Exact numbers.** serde_json is built with `arbitrary_precision` (Cargo.toml), so a number
//!   that does not fit a machine word reaches the readers as the literal text the user wrote
//!   instead of the nearest `f64`. Times are read exactly by [`crate::time::Time`]'s
//!   `Deserialize`; integer counts (processor counts, failure counts, job indices, attempt
//!   numbers, node ids, p̄, grid bits) by the functions of this module, for use with
//!   `#[serde(deserialize_with = "...")]`. A count written as `1e3` or `2.0` is the integer it
//!   denotes; `2.5`, `-1`, `1e400` or `2^70` is refused with the range expected, never truncated
//!   or rounded through a float.
//! - **Field paths.** [`parse_json`] tracks where the deserializer is (`jobs[3].procs`) and puts
//!   that path in the message, beside serde's line and column.
//!
//! Every format carries an optional `format_version` (absent: version 1): [`parse_versioned`]
//! and [`check_format_version`] refuse a version newer than the reader's, naming the field, and
//! [`newer_format_version`] makes that the message when a newer file's new fields break the parse.
use crate::error::{Error, FieldError, Result};
use crate::time::Time;
use serde::de::{self, Deserialize, Deserializer, Unexpected, Visitor};
use std::fmt;

/// Parses JSON text into `T`, reporting `file`, line, column and the field path on bad input.
///
/// serde_json's recursion limit (128 nested values) stays on: deeply nested input is an error,
/// not a stack overflow.
pub fn parse_json<T: de::DeserializeOwned>(text: &str, file: &str) -> Result<T> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        json_error(file, e.inner(), Some(path))
    })?;
    // Trailing characters after the value (`{...} x`) are malformed input too.
    de.end().map_err(|e| json_error(file, &e, None))?;
    Ok(value)
}

/// Checks a format's `format_version` field against `reads`, the newest version this build
/// reads: absent is version 1 (every file written before the field existed), a newer one is
/// refused, naming the field, with what to do.
pub fn check_format_version(found: Option<u32>, reads: u32) -> Result<(), FieldError> {
    match found {
        Some(0) => Err(FieldError::new(
            FORMAT_VERSION_FIELD,
            "version 0 does not exist (the first version is 1)",
        )),
        Some(v) if v > reads => Err(newer(u64::from(v), reads)),
        _ => Ok(()),
    }
}

/// The name of the version field of every JSON format and protocol.
pub const FORMAT_VERSION_FIELD: &str = "format_version";

/// The error of a version `v` newer than `reads`.
fn newer(v: u64, reads: u32) -> FieldError {
    FieldError::new(
        FORMAT_VERSION_FIELD,
        format!("version {v} is newer than this resched reads ({reads}); upgrade resched"),
    )
}

/// After `text` failed to parse: the version error when it declares a `format_version` newer
/// than `reads` (a newer format's new fields are then what broke the parse, and the version is
/// the clear message), else `None` (the parse error stands). Costs nothing on the happy path.
pub fn newer_format_version(text: &str, reads: u32) -> Option<FieldError> {
    /// Only the version; every other field is skipped unread.
    #[derive(serde::Deserialize)]
    struct Probe {
        #[serde(default)]
        format_version: Option<serde_json::Value>,
    }
    let v = serde_json::from_str::<Probe>(text)
        .ok()?
        .format_version?
        .as_u64()?;
    (v > u64::from(reads)).then(|| newer(v, reads))
}

/// [`parse_json`] for a versioned format: the value's own `format_version` (`version_of`) is
/// checked against `reads`, and a parse error of a file that declares a newer version is
/// reported as that version ([`newer_format_version`]).
pub fn parse_versioned<T: de::DeserializeOwned>(
    text: &str,
    file: &str,
    reads: u32,
    version_of: impl Fn(&T) -> Option<u32>,
) -> Result<T> {
    match parse_json::<T>(text, file) {
        Ok(t) => {
            check_format_version(version_of(&t), reads).map_err(|e| e.in_file(file))?;
            Ok(t)
        }
        Err(e) => Err(newer_format_version(text, reads).map_or(e, |v| v.in_file(file))),
    }
}

/// An [`Error::Json`] with the field path (when there is one) in front of serde's message, and
/// serde's own " at line L column C" suffix dropped (the position is already in the prefix).
fn json_error(file: &str, e: &serde_json::Error, path: Option<String>) -> Error {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    // default: serde's message has no position suffix to strip
    let msg = full.strip_suffix(&suffix).unwrap_or(&full);
    let msg = match path.as_deref() {
        // `.` is the whole document: a syntax error or a wrong top-level type.
        Some(p) if p != "." && !p.is_empty() => format!("field `{p}`: {msg}"),
        _ => msg.to_string(),
    };
    Error::Json {
        file: file.to_string(),
        line: e.line(),
        column: e.column(),
        msg,
    }
}

/// An integer count in `0..=max`, read from any JSON number that denotes one exactly.
struct CountVisitor {
    max: u64,
}

impl CountVisitor {
    /// Accepts an exact value that is an integer in range; `literal` is what the user wrote.
    fn exact<E: de::Error>(&self, v: &Time, literal: &str) -> Result<u64, E> {
        if v.is_integer() && !v.is_negative() {
            if let Some(n) = num_traits::ToPrimitive::to_u64(&v.numer()) {
                if n <= self.max {
                    return Ok(n);
                }
            }
        }
        Err(E::invalid_value(Unexpected::Other(literal), self))
    }
}

impl<'de> Visitor<'de> for CountVisitor {
    type Value = u64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an integer in 0..={}", self.max)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
        if v <= self.max {
            Ok(v)
        } else {
            Err(E::invalid_value(Unexpected::Unsigned(v), &self))
        }
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
        match u64::try_from(v) {
            Ok(u) => self.visit_u64(u),
            Err(_) => Err(E::invalid_value(Unexpected::Signed(v), &self)),
        }
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<u64, E> {
        match u64::try_from(v) {
            Ok(u) => self.visit_u64(u),
            Err(_) => Err(E::invalid_value(Unexpected::Other(&v.to_string()), &self)),
        }
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<u64, E> {
        match u64::try_from(v) {
            Ok(u) => self.visit_u64(u),
            Err(_) => Err(E::invalid_value(Unexpected::Other(&v.to_string()), &self)),
        }
    }

    /// Reached for a float literal that is exactly its `f64`'s shortest form (`2.0`, `2.5`), so
    /// the decimal reading is the value written.
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<u64, E> {
        match Time::from_f64_decimal(v) {
            Some(t) => self.exact(&t, &v.to_string()),
            None => Err(E::invalid_value(Unexpected::Float(v), &self)),
        }
    }

    /// Any other number (`1e3`, `1e400`, 30 digits) arrives as its literal text.
    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<u64, A::Error> {
        let Some(literal) = crate::time::json_number_literal(map) else {
            return Err(de::Error::invalid_type(Unexpected::Map, &self));
        };
        match literal.parse::<Time>() {
            Ok(t) => self.exact(&t, &literal),
            Err(_) => Err(de::Error::invalid_value(Unexpected::Other(&literal), &self)),
        }
    }
}

/// A `u32` count (processors, failures, attempt numbers, node ids, p̄, bits).
struct U32(u32);

impl<'de> Deserialize<'de> for U32 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<U32, D::Error> {
        let v = d.deserialize_any(CountVisitor {
            max: u64::from(u32::MAX),
        })?;
        // The visitor bounded v by u32::MAX.
        u32::try_from(v)
            .map(U32)
            .map_err(|_| de::Error::invalid_value(Unexpected::Unsigned(v), &"a u32"))
    }
}

/// A `usize` index (a job index in a schedule).
struct Usize(usize);

impl<'de> Deserialize<'de> for Usize {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Usize, D::Error> {
        // default: usize is at most 64 bits on every supported target
        let max = u64::try_from(usize::MAX).unwrap_or(u64::MAX);
        let v = d.deserialize_any(CountVisitor { max })?;
        usize::try_from(v)
            .map(Usize)
            .map_err(|_| de::Error::invalid_value(Unexpected::Unsigned(v), &"a usize"))
    }
}

/// `deserialize_with` for a `u32` count.
pub fn u32<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    U32::deserialize(d).map(|x| x.0)
}

/// `deserialize_with` for an optional `u32` count (use with `#[serde(default)]`).
pub fn opt_u32<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    Option::<U32>::deserialize(d).map(|o| o.map(|x| x.0))
}

/// `deserialize_with` for a list of `u32` counts.
pub fn vec_u32<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u32>, D::Error> {
    Vec::<U32>::deserialize(d).map(|v| v.into_iter().map(|x| x.0).collect())
}

/// `deserialize_with` for an optional list of `u32` counts (use with `#[serde(default)]`).
pub fn opt_vec_u32<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<u32>>, D::Error> {
    Option::<Vec<U32>>::deserialize(d).map(|o| o.map(|v| v.into_iter().map(|x| x.0).collect()))
}

/// `deserialize_with` for a `usize` index.
pub fn usize<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    Usize::deserialize(d).map(|x| x.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Probe {
        #[serde(deserialize_with = "u32")]
        n: u32,
        #[serde(default, deserialize_with = "opt_vec_u32")]
        v: Option<Vec<u32>>,
        #[serde(default)]
        t: Option<Time>,
    }

    fn probe(text: &str) -> Result<Probe> {
        parse_json(text, "p.json")
    }

    #[test]
    fn counts_are_exact_or_refused() {
        for (lit, want) in [
            ("7", 7u32),
            ("1e3", 1000),
            ("2.0", 2),
            ("4294967295", u32::MAX),
            ("42949672.95e2", u32::MAX),
            ("0", 0),
            ("-0", 0),
        ] {
            let p = probe(&format!(r#"{{"n": {lit}}}"#)).unwrap();
            assert_eq!(p.n, want, "{lit}");
        }
        for lit in [
            "-1",
            "2.5",
            "1e400",
            "1e-7",
            "4294967296",
            "1180591620717411303424",
            "1e99999",
            "\"3\"",
            "{}",
            "[1]",
        ] {
            let e = probe(&format!(r#"{{"n": {lit}}}"#))
                .unwrap_err()
                .to_string();
            assert!(e.starts_with("p.json:1:"), "{lit}: {e}");
            assert!(e.contains("field `n`"), "{lit}: {e}");
            assert!(!e.contains("inf") && !e.contains("NaN"), "{lit}: {e}");
        }
        let p = probe(r#"{"n": 1, "v": [1, 2e0, 3.0]}"#).unwrap();
        assert_eq!(p.v, Some(vec![1, 2, 3]));
        let e = probe(r#"{"n": 1, "v": [1, 2, 1e400]}"#)
            .unwrap_err()
            .to_string();
        // serde_json hands the literal over normalised (`1e400` → `1e+400`).
        assert!(e.contains("field `v[2]`") && e.contains("1e+400"), "{e}");
    }

    #[test]
    fn times_keep_every_digit() {
        let p = probe(r#"{"n": 1, "t": 12345678901234567890123}"#).unwrap();
        assert_eq!(p.t.unwrap().to_string(), "12345678901234567890123");
        let p = probe(r#"{"n": 1, "t": 0.1}"#).unwrap();
        assert_eq!(p.t.unwrap(), Time::new(1, 10).unwrap());
        let p = probe(r#"{"n": 1, "t": 1e-7}"#).unwrap();
        assert_eq!(p.t.unwrap(), Time::new(1, 10_000_000).unwrap());
        let p = probe(r#"{"n": 1, "t": 1e400}"#).unwrap();
        assert_eq!(p.t.unwrap().to_string(), format!("1{}", "0".repeat(400)));
        let e = probe(r#"{"n": 1, "t": 1e5000}"#).unwrap_err().to_string();
        assert!(e.contains("field `t`") && e.contains("exponent"), "{e}");
        let e = probe(r#"{"n": 1, "t": {"a": 1}}"#).unwrap_err().to_string();
        assert!(
            e.contains("field `t") && e.contains("invalid type: map"),
            "{e}"
        );
    }

    #[test]
    fn errors_have_no_duplicated_position_and_trailing_text_fails() {
        let e = probe("{\"n\": 1,\n \"x\": 2}").unwrap_err().to_string();
        assert!(e.starts_with("p.json:2:"), "{e}");
        assert!(!e.contains(" at line "), "{e}");
        let e = probe(r#"{"n": 1} x"#).unwrap_err().to_string();
        assert!(e.contains("trailing characters"), "{e}");
    }
}
