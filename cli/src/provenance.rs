//! Provenance: which build of resched made a result. `resched --version` prints it, and every
//! file that records a result (campaign manifests and cells, shard records, merge outputs, diff
//! counterexamples, `--json` outputs, batch responses, figure metadata) carries it, so that a
//! published number can be tied to the code that computed it.
//!
//! The commit and the dirty flag are read by `cli/build.rs` when the program is compiled; a
//! build outside a git checkout says "unknown" for both.
//!
//! # Where it is written
//! - JSON documents get a field `"resched": {"version": …, "commit": …, "dirty": …}` (`dirty` is
//!   `null` when unknown): campaign manifests, `results.json`, every cell file (put first by
//!   [`stamp_object`], taken off again by [`unstamp_object`] when a cell is read back), shard
//!   records, `prove`'s `found.json` and `parts.json`, golden cases written by `diff` and
//!   `prove --search --save`, the `--json` outputs of `simulate`, `opt` and `prove <id>` (also
//!   its `--export` directory's `ledger.json`), and every batch
//!   response line (see [`crate::batch`]).
//! - A campaign's CSV files carry none: their provenance is in the JSON manifest beside them
//!   (`manifest.json` and `results.json`). The CSVs written alone (`steal --csv`, `--jobs-csv`)
//!   end every row with a column `resched` holding [`Provenance::tag`], since CSV has no
//!   comment convention every reader follows and a trailing constant column breaks no reader.
//! - Figures: SVG in a `<metadata>` element, PNG in `tEXt` chunks (`Software` and `resched`),
//!   see [`crate::render`].
//!
//! # Same code
//! [`Provenance::same_code`] is the rule `resched merge` applies: shards are joined only when
//! they were made by this very build, a clean commit; [`mismatch`] says why not.
use serde::{Deserialize, Serialize};

/// The version of resched (the workspace's, shared by every crate).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The git commit the program was built from, or "unknown".
pub const COMMIT: &str = env!("RESCHED_GIT_COMMIT");
/// "clean", "dirty" (tracked files differed from the commit at build time) or "unknown".
pub const TREE: &str = env!("RESCHED_GIT_DIRTY");

/// The provenance record written into result files, as `"resched": {…}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    pub version: String,
    pub commit: String,
    /// `true` when the tree had uncommitted changes; `null` (or absent) when unknown.
    #[serde(default)]
    pub dirty: Option<bool>,
}

impl Provenance {
    /// The build this program is.
    pub fn current() -> Provenance {
        Provenance {
            version: VERSION.to_string(),
            commit: COMMIT.to_string(),
            dirty: match TREE {
                "dirty" => Some(true),
                "clean" => Some(false),
                _ => None,
            },
        }
    }

    /// The same code: equal version and commit, and neither built from a dirty tree (two dirty
    /// builds of one commit may differ, so they are not called the same).
    pub fn same_code(&self, other: &Provenance) -> bool {
        self.version == other.version
            && self.commit == other.commit
            && self.commit != "unknown"
            && self.dirty != Some(true)
            && other.dirty != Some(true)
    }

    /// One word for a CSV cell, in semver's build-metadata form: `0.2.0+<commit>`, with `.dirty`
    /// appended for a dirty tree and `.tree-unknown` when the tree state is not known
    /// (`0.2.0+unknown` outside a git checkout).
    pub fn tag(&self) -> String {
        let tree = match self.dirty {
            Some(true) => ".dirty",
            Some(false) => "",
            None if self.commit == "unknown" => "",
            None => ".tree-unknown",
        };
        format!("{}+{}{tree}", self.version, self.commit)
    }

    /// As a JSON value, for outputs built with `serde_json::json!`.
    pub fn json(&self) -> serde_json::Value {
        serde_json::Value::Object(self.json_map())
    }

    /// As a JSON object (`dirty` is `null` when unknown).
    pub fn json_map(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        m.insert("version".into(), self.version.clone().into());
        m.insert("commit".into(), self.commit.clone().into());
        m.insert("dirty".into(), self.dirty.into());
        m
    }
}

impl std::fmt::Display for Provenance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (commit {}", self.version, self.commit)?;
        match self.dirty {
            Some(true) => write!(f, ", dirty tree)"),
            Some(false) => write!(f, ")"),
            None => write!(f, ", tree state unknown)"),
        }
    }
}

/// This build's provenance, made once.
pub fn this_build() -> &'static Provenance {
    static THIS: std::sync::OnceLock<Provenance> = std::sync::OnceLock::new();
    THIS.get_or_init(Provenance::current)
}

/// Why a result made by `made` (`None`: a file that records no build, written before resched
/// recorded provenance) is not known to be the work of the same code as `this` build; `None`
/// when it is ([`Provenance::same_code`]). The text completes "\<the file> …".
pub fn mismatch(made: Option<&Provenance>, this: &Provenance) -> Option<String> {
    let Some(made) = made else {
        return Some(
            "records no build (it was written by a resched that did not record its provenance): \
             an unknown build"
                .to_string(),
        );
    };
    if made.same_code(this) {
        return None;
    }
    Some(
        if made.version != this.version || made.commit != this.commit {
            format!("was made by resched {made}, and this is resched {this}")
        } else if made.commit == "unknown" {
            format!("was made by resched {made}: builds of unknown commit cannot be told apart")
        } else if made.dirty == Some(true) {
            format!("was made by resched {made}: builds from a dirty tree cannot be told apart")
        } else {
            format!(
                "was made by resched {made}, and this is resched {this}: builds from a dirty tree \
             cannot be told apart"
            )
        },
    )
}

/// Puts `"resched": {…}` (this build) first in the compact JSON text of an object; any other
/// text (an array, a number) is returned as it is. The rest of the text is kept byte for byte.
pub fn stamp_object(text: &str) -> String {
    let Some(rest) = text.strip_prefix('{') else {
        return text.to_string();
    };
    let prov = serde_json::to_string(this_build())
        // unreachable: a struct of strings and a flag always serializes
        .unwrap_or_else(|_| "null".into());
    let sep = if rest.trim_start().starts_with('}') {
        ""
    } else {
        ","
    };
    format!("{{{STAMP_KEY}{prov}{sep}{rest}")
}

/// What [`stamp_object`] puts in front of an object's fields.
const STAMP_KEY: &str = "\"resched\":";

/// The inverse of [`stamp_object`]: the recorded build (`None` for text without it, written
/// before provenance was recorded) and the object's text without it, byte for byte as it was
/// before stamping, for the object's own reader. `Err` names what is malformed.
pub fn unstamp_object(
    text: &str,
) -> Result<(Option<Provenance>, std::borrow::Cow<'_, str>), String> {
    let Some(rest) = text
        .strip_prefix('{')
        .and_then(|r| r.strip_prefix(STAMP_KEY))
    else {
        return Ok((None, std::borrow::Cow::Borrowed(text)));
    };
    let mut it = serde_json::Deserializer::from_str(rest).into_iter::<Provenance>();
    let prov = match it.next() {
        Some(Ok(p)) => p,
        Some(Err(e)) => return Err(format!("field `resched`: {e}")),
        None => return Err("field `resched`: no value".into()),
    };
    let after = &rest[it.byte_offset()..];
    let fields = match after.strip_prefix(',') {
        Some(f) => format!("{{{f}"),
        None if after.trim_start().starts_with('}') => format!("{{{}", after.trim_start()),
        None => return Err("expected `,` or `}` after field `resched`".into()),
    };
    Ok((Some(prov), std::borrow::Cow::Owned(fields)))
}

/// A serializable value with this build's provenance in front of its own fields (`value` must
/// serialize as a struct or a map): `{"resched": {…}, <value's fields>}`.
#[derive(Debug, Serialize)]
pub struct Stamped<'a, T: Serialize> {
    pub resched: &'static Provenance,
    #[serde(flatten)]
    pub value: &'a T,
}

impl<'a, T: Serialize> Stamped<'a, T> {
    /// `value` stamped with this build.
    pub fn new(value: &'a T) -> Stamped<'a, T> {
        Stamped {
            resched: this_build(),
            value,
        }
    }
}

/// Adds `"resched": {…}` (this build) to a JSON object (a map keeps its keys sorted, so the
/// field lands in its alphabetical place); any other value is left as it is.
pub fn stamp_value(v: &mut serde_json::Value) {
    if let Some(o) = v.as_object_mut() {
        o.insert("resched".into(), this_build().json());
    }
}

/// The text of `resched --version`.
pub fn long_version() -> &'static str {
    static TEXT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TEXT.get_or_init(|| this_build().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dirty_or_unknown_builds_are_never_the_same_code() {
        let clean = Provenance {
            version: "0.2.0".into(),
            commit: "abc".into(),
            dirty: Some(false),
        };
        assert!(clean.same_code(&clean.clone()));
        let dirty = Provenance {
            dirty: Some(true),
            ..clean.clone()
        };
        assert!(!clean.same_code(&dirty));
        let unknown = Provenance {
            commit: "unknown".into(),
            ..clean.clone()
        };
        assert!(!unknown.same_code(&unknown.clone()));
        let other = Provenance {
            commit: "def".into(),
            ..clean.clone()
        };
        assert!(!clean.same_code(&other));
    }

    #[test]
    fn csv_tags_tell_every_tree_state_apart() {
        let p = |commit: &str, dirty| Provenance {
            version: "0.2.0".into(),
            commit: commit.into(),
            dirty,
        };
        assert_eq!(p("abc", Some(false)).tag(), "0.2.0+abc");
        assert_eq!(p("abc", Some(true)).tag(), "0.2.0+abc.dirty");
        assert_eq!(p("abc", None).tag(), "0.2.0+abc.tree-unknown");
        assert_eq!(p("unknown", None).tag(), "0.2.0+unknown");
        // One CSV field: nothing the csv crate would have to quote.
        let t = this_build().tag();
        assert!(!t.contains([',', '"', ' ', '\n']), "{t}");
    }

    #[test]
    fn stamps_come_off_byte_for_byte() {
        let prov = serde_json::to_string(this_build()).unwrap();
        for text in [r#"{"a":1,"b":[{"c":"}"}]}"#, "{}", r#"{"x":0.1}"#] {
            let stamped = stamp_object(text);
            assert!(
                stamped.starts_with(&format!("{{\"resched\":{prov}")),
                "{stamped}"
            );
            let v: serde_json::Value = serde_json::from_str(&stamped).unwrap();
            assert_eq!(v["resched"], this_build().json());
            let (p, rest) = unstamp_object(&stamped).unwrap();
            assert_eq!((p.as_ref(), rest.as_ref()), (Some(this_build()), text));
            // Text without a stamp is read as it is, with no build.
            let (p, rest) = unstamp_object(text).unwrap();
            assert_eq!((p, rest.as_ref()), (None, text));
        }
        assert_eq!(stamp_object("[1]"), "[1]");
        assert!(unstamp_object(r#"{"resched":{"version":1}}"#).is_err());
        assert!(unstamp_object(r#"{"resched":{"version":"1","commit":"c"} "a":1}"#).is_err());
    }

    #[test]
    fn mismatch_says_why_builds_differ() {
        let clean = Provenance {
            version: "0.2.0".into(),
            commit: "abc".into(),
            dirty: Some(false),
        };
        assert_eq!(mismatch(Some(&clean), &clean), None);
        let other = Provenance {
            commit: "def".into(),
            ..clean.clone()
        };
        assert_eq!(
            mismatch(Some(&other), &clean).unwrap(),
            "was made by resched 0.2.0 (commit def), and this is resched 0.2.0 (commit abc)"
        );
        let dirty = Provenance {
            dirty: Some(true),
            ..clean.clone()
        };
        assert!(mismatch(Some(&dirty), &dirty)
            .unwrap()
            .ends_with("builds from a dirty tree cannot be told apart"));
        assert!(mismatch(Some(&clean), &dirty)
            .unwrap()
            .contains("and this is resched 0.2.0 (commit abc, dirty tree)"));
        let unknown = Provenance {
            commit: "unknown".into(),
            dirty: None,
            ..clean.clone()
        };
        assert!(mismatch(Some(&unknown), &unknown)
            .unwrap()
            .ends_with("builds of unknown commit cannot be told apart"));
        assert!(mismatch(None, &clean).unwrap().contains("an unknown build"));
        // Written with `dirty` always present (null when unknown), read with it absent too.
        assert_eq!(
            serde_json::to_string(&unknown).unwrap(),
            r#"{"version":"0.2.0","commit":"unknown","dirty":null}"#
        );
        let old: Provenance = serde_json::from_str(r#"{"version":"0.2.0","commit":"c"}"#).unwrap();
        assert_eq!(old.dirty, None);
    }

    #[test]
    fn display_names_version_commit_and_tree() {
        let p = Provenance {
            version: "0.2.0".into(),
            commit: "abc".into(),
            dirty: Some(true),
        };
        assert_eq!(p.to_string(), "0.2.0 (commit abc, dirty tree)");
    }
}
