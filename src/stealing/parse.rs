//! Text values of the node-stealing model's parameters (node-stealing paper, Sections 5.2 and
//! 7.1): durations with units (also every other duration resched reads, e.g. `opt`'s time
//! limit), the variant list (Baseline, SFSJ, Hxyz) and the measurement window `A:B` of
//! Section 5.3.3. Errors name the parameter they were given for.
//!
//! Durations accept exact numbers of seconds (`3600`, `1/3`, `12.5`) or a unit suffix
//! `s`, `min`, `h`, `d` (`1h`, `10min`; years are not accepted: their length is ambiguous).
use crate::error::{Error, Result};
use crate::stealing::Variant;
use crate::time::Time;

/// Parses a duration: exact seconds or with a unit `s`, `min`, `h`, `d`; errors name parameter `name`.
pub fn parse_duration(s: &str, name: &str) -> Result<Time> {
    let t = s.trim();
    let (num, mult) = if let Some(x) = t.strip_suffix("min") {
        (x, 60)
    } else if let Some(x) = t.strip_suffix('h') {
        (x, 3600)
    } else if let Some(x) = t.strip_suffix('d') {
        (x, 86_400)
    } else if let Some(x) = t.strip_suffix('s') {
        (x, 1)
    } else {
        (t, 1)
    };
    let v: Time = num.trim().parse().map_err(|e| {
        Error::param(
            name,
            format!("`{s}` is not a duration ({e}); use seconds or 10min, 1h, 1d"),
        )
    })?;
    if v.is_negative() {
        return Err(Error::param(name, format!("negative duration `{s}`")));
    }
    Ok(v.mul_int(mult))
}

/// Parses a variant list (`all`, or names separated by commas); errors name `variants`.
pub fn parse_variants(s: &str) -> Result<Vec<Variant>> {
    if s.trim().eq_ignore_ascii_case("all") {
        return Ok(Variant::all());
    }
    let mut out = Vec::new();
    for part in s.split(',').filter(|p| !p.trim().is_empty()) {
        let v: Variant = part
            .parse()
            .map_err(|e: String| Error::param("variants", e))?;
        if !out.contains(&v) {
            out.push(v);
        }
    }
    if out.is_empty() {
        return Err(Error::param("variants", "no variant given"));
    }
    Ok(out)
}

/// Parses a measurement window `A:B` (durations, A < B); errors name `window`.
pub fn parse_window(s: &str) -> Result<(Time, Time)> {
    let (a, b) = s
        .split_once(':')
        .ok_or_else(|| Error::param("window", format!("`{s}`: expected A:B")))?;
    let (a, b) = (parse_duration(a, "window")?, parse_duration(b, "window")?);
    if b <= a {
        return Err(Error::param("window", format!("empty window `{s}`")));
    }
    Ok((a, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("1h", "x").unwrap(), Time::from_int(3600));
        assert_eq!(parse_duration("10min", "x").unwrap(), Time::from_int(600));
        assert_eq!(
            parse_duration("1.5d", "x").unwrap(),
            Time::from_int(129_600)
        );
        assert_eq!(
            parse_duration("7/2", "x").unwrap(),
            Time::new(7, 2).unwrap()
        );
        assert_eq!(parse_duration("30s", "x").unwrap(), Time::from_int(30));
        let e = parse_duration("-1h", "platform_mtbf")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("parameter `platform_mtbf`: ") && e.contains("negative"),
            "{e}"
        );
        assert!(parse_duration("soon", "downtime")
            .unwrap_err()
            .to_string()
            .contains("parameter `downtime`"));
    }

    #[test]
    fn variant_lists() {
        assert_eq!(parse_variants("all").unwrap().len(), 19);
        assert_eq!(parse_variants("baseline,SFSJ,H111").unwrap().len(), 2);
        assert!(parse_variants("H999")
            .unwrap_err()
            .to_string()
            .contains("parameter `variants`"));
    }
}
