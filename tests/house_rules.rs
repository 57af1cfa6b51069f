//! House rule: a code comment keeps the *why* and leaves the *history* to version control. No
//! comment of the Rust sources (`src/`, `proofs/`, `cli/`, `tests/`, `benches/`, `examples/`,
//! `fuzz/fuzz_targets/`, `python/src/`) nor of the scripts and manifests (the `#` comments of
//! the shell, Python and TOML files of `slurm/`, `fuzz/`, `.ci/`, `python/`, `tests/`, the
//! crates and the workspace) cites an issue number or a date: it states the requirement itself.
//!
//! The scan is a character scan, not a parser. In Rust, the text after `//` (so `///` and `//!`
//! too) and inside `/* */` is comment; string, raw-string and character literals are skipped,
//! so a `//` inside `"http://…"` or inside a message is not a comment. In a script, a `#`
//! outside quotes, at the start of a line or after white space, starts a comment (`$#` and
//! `${#a[@]}` do not). A date glued to a name, as in a trace file `Mira-…-10days.swf.gz`,
//! names data, not history, and is allowed.
use crate::support::{repo, rust_files};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The comment syntax of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// `//`, `///`, `//!` and `/* */`.
    Rust,
    /// `#`, with no escape inside single quotes (shell, TOML).
    Hash,
    /// `#`, with `\` escaping inside both kinds of quotes.
    Python,
}

/// The comments of `text` as (1-based line, comment text), one entry per line of a comment.
fn comments(text: &str, kind: Kind) -> Vec<(usize, String)> {
    match kind {
        Kind::Rust => rust_comments(text),
        Kind::Hash => hash_comments(text, false),
        Kind::Python => hash_comments(text, true),
    }
}

fn is_word(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '_'
}

/// The comments of a Rust source: line comments and (nested) block comments, outside string,
/// raw-string, byte-string and character literals.
fn rust_comments(text: &str) -> Vec<(usize, String)> {
    let c: Vec<char> = text.chars().collect();
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch == '/' && next == Some('/') {
            let mut end = i + 2;
            while end < c.len() && c[end] != '\n' {
                end += 1;
            }
            out.push((line, c[i + 2..end].iter().collect()));
            i = end;
        } else if ch == '/' && next == Some('*') {
            let mut depth = 1;
            let mut current = String::new();
            i += 2;
            while i < c.len() && depth > 0 {
                let pair = (c[i], c.get(i + 1).copied());
                if pair == ('/', Some('*')) {
                    depth += 1;
                    current.push_str("/*");
                    i += 2;
                } else if pair == ('*', Some('/')) {
                    depth -= 1;
                    current.push_str("*/");
                    i += 2;
                } else if c[i] == '\n' {
                    out.push((line, std::mem::take(&mut current)));
                    line += 1;
                    i += 1;
                } else {
                    current.push(c[i]);
                    i += 1;
                }
            }
            out.push((line, current));
        } else if let Some(end) = raw_string_end(&c, i) {
            line += c[i..end].iter().filter(|&&x| x == '\n').count();
            i = end;
        } else if ch == '"' {
            // A string, or a byte string (its `b` was passed over as code).
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                if c[j] == '\\' {
                    j += 1;
                }
                if c.get(j) == Some(&'\n') {
                    line += 1;
                }
                j += 1;
            }
            i = j + 1;
        } else if ch == '\'' && next == Some('\\') {
            // An escaped character literal: '\n', '\'', '\\', '\u{…}'.
            let mut j = i + 3;
            while j < c.len() && c[j] != '\'' && c[j] != '\n' {
                j += 1;
            }
            i = j + 1;
        } else if ch == '\'' && c.get(i + 2) == Some(&'\'') {
            // A character literal such as '"' or '/' (a lifetime has no closing quote).
            i += 3;
        } else {
            i += 1;
        }
    }
    out
}

/// Where the raw string that starts at `i` (`r"…"`, `r#"…"#`, `br"…"`, `cr"…"`) ends, if one
/// does.
fn raw_string_end(c: &[char], i: usize) -> Option<usize> {
    if c[i] != 'r' {
        return None;
    }
    let prefix_ok = match i {
        0 => true,
        1 => !is_word(c[0]) || matches!(c[0], 'b' | 'c'),
        _ => !is_word(c[i - 1]) || (matches!(c[i - 1], 'b' | 'c') && !is_word(c[i - 2])),
    };
    if !prefix_ok {
        return None;
    }
    let mut j = i + 1;
    let mut hashes = 0;
    while c.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if c.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < c.len() {
        if c[j] == '"' && (1..=hashes).all(|k| c.get(j + k) == Some(&'#')) {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(c.len())
}

/// The `#` comments of a script, line by line, outside single and double quotes; `\` escapes
/// the next character outside quotes and inside double quotes, and inside single quotes too
/// when `escapes_in_single_quotes` (Python).
fn hash_comments(text: &str, escapes_in_single_quotes: bool) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let c: Vec<char> = line.chars().collect();
        let (mut single, mut double) = (false, false);
        let mut i = 0;
        while i < c.len() {
            match c[i] {
                '\\' if !single || escapes_in_single_quotes => i += 1,
                '\'' if !double => single = !single,
                '"' if !single => double = !double,
                '#' if !single && !double && (i == 0 || c[i - 1].is_whitespace()) => {
                    out.push((k + 1, c[i + 1..].iter().collect()));
                    break;
                }
                _ => {}
            }
            i += 1;
        }
    }
    out
}

/// What a comment may not cite, if `comment` cites it.
fn violation(comment: &str) -> Option<&'static str> {
    let c: Vec<char> = comment.chars().collect();
    if cites_issue(&c) {
        Some("an issue number")
    } else if cites_date(&c) {
        Some("a date")
    } else {
        None
    }
}

/// `(?i)\bissues?\s*#?\d`: the word "issue" (any case, maybe plural), then maybe white space
/// and a `#`, then a digit.
fn cites_issue(c: &[char]) -> bool {
    const WORD: [char; 5] = ['i', 's', 's', 'u', 'e'];
    (0..c.len()).any(|i| {
        if i > 0 && is_word(c[i - 1]) {
            return false;
        }
        let Some(head) = c.get(i..i + WORD.len()) else {
            return false;
        };
        if !head
            .iter()
            .zip(WORD)
            .all(|(a, b)| a.to_ascii_lowercase() == b)
        {
            return false;
        }
        let mut j = i + WORD.len();
        if c.get(j).is_some_and(|ch| ch.eq_ignore_ascii_case(&'s')) {
            j += 1;
        }
        while c.get(j).is_some_and(|ch| ch.is_whitespace()) {
            j += 1;
        }
        if c.get(j) == Some(&'#') {
            j += 1;
        }
        c.get(j).is_some_and(|ch| ch.is_ascii_digit())
    })
}

/// `\b20\d\d-\d\d-\d\d\b` standing alone: not glued to a name before it (a word character, `-`,
/// `.` or `/`) nor after it (a word character, or a `-` or `.` followed by one).
fn cites_date(c: &[char]) -> bool {
    const SHAPE: [char; 10] = ['2', '0', 'd', 'd', '-', 'd', 'd', '-', 'd', 'd'];
    (0..c.len()).any(|i| {
        let Some(window) = c.get(i..i + SHAPE.len()) else {
            return false;
        };
        let fits = window.iter().zip(SHAPE).all(|(&ch, s)| match s {
            'd' => ch.is_ascii_digit(),
            _ => ch == s,
        });
        let glued_before = i > 0 && (is_word(c[i - 1]) || matches!(c[i - 1], '-' | '.' | '/'));
        let end = i + SHAPE.len();
        let glued_after = c.get(end).is_some_and(|&ch| {
            is_word(ch) || (matches!(ch, '-' | '.') && c.get(end + 1).is_some_and(|&d| is_word(d)))
        });
        fits && !glued_before && !glued_after
    })
}

/// The comments of `text` that break the rule: (line, what they cite).
fn flagged(text: &str, kind: Kind) -> Vec<(usize, &'static str)> {
    comments(text, kind)
        .into_iter()
        .filter_map(|(line, comment)| violation(&comment).map(|what| (line, what)))
        .collect()
}

/// True when `path` lies in build output (a `target` folder below the repository).
fn in_build_output(path: &Path, root: &Path) -> bool {
    path.strip_prefix(root)
        .unwrap_or(path)
        .components()
        .any(|c| c.as_os_str() == "target")
}

/// The comment syntax of a script or manifest, `None` for any other file: `.sh`, `.sbatch` and
/// `.toml` files, `.py` files, and files without an extension whose first line is a shell
/// shebang (`.ci/run`).
fn script_kind(path: &Path) -> Option<Kind> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("sh" | "sbatch" | "toml") => Some(Kind::Hash),
        Some("py") => Some(Kind::Python),
        Some(_) => None,
        None => {
            let mut head = [0u8; 64];
            let n = std::fs::File::open(path)
                .and_then(|mut f| f.read(&mut head))
                .ok()?;
            let first = head[..n].split(|&b| b == b'\n').next().unwrap_or_default();
            let shell = first.starts_with(b"#!") && first.windows(2).any(|w| w == b"sh");
            shell.then_some(Kind::Hash)
        }
    }
}

/// The scripts and manifests below `dir`, recursively; build output (`target`), fuzzing
/// corpora and artifacts, hidden folders, Python caches and virtual environments left out.
fn script_files(dir: &Path, out: &mut Vec<(PathBuf, Kind)>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            let skipped = name.starts_with('.')
                || matches!(name, "target" | "corpus" | "artifacts" | "__pycache__")
                || path.join("pyvenv.cfg").exists();
            if !skipped {
                script_files(&path, out);
            }
        } else if let Some(kind) = script_kind(&path) {
            out.push((path, kind));
        }
    }
}

#[test]
fn comments_cite_no_issue_number_and_no_date() {
    let root = repo();
    let mut files: Vec<(PathBuf, Kind)> = Vec::new();
    for dir in [
        "src",
        "proofs",
        "cli",
        "tests",
        "benches",
        "examples",
        "fuzz/fuzz_targets",
        "python/src",
    ] {
        for path in rust_files(&root.join(dir)) {
            if !in_build_output(&path, &root) {
                files.push((path, Kind::Rust));
            }
        }
    }
    let rust = files.len();
    for dir in [
        "slurm", "fuzz", ".ci", "python", "tests", "cli", "proofs", "examples",
    ] {
        script_files(&root.join(dir), &mut files);
    }
    files.push((root.join("Cargo.toml"), Kind::Hash));
    let scripts = files.len() - rust;
    assert!(
        rust > 100 && scripts > 10,
        "the scan found only {rust} Rust files and {scripts} scripts: are its folders right?"
    );
    let mut found = Vec::new();
    for (path, kind) in &files {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let text = String::from_utf8_lossy(&bytes);
        for (line, what) in flagged(&text, *kind) {
            let shown = path.strip_prefix(&root).unwrap_or(path.as_path());
            found.push(format!(
                "{}:{line}: a comment cites {what}",
                shown.display()
            ));
        }
    }
    assert!(
        found.is_empty(),
        "comments keep the why, not the history: state the requirement itself, without issue \
         numbers or dates:\n{}",
        found.join("\n")
    );
}

#[test]
fn scanner_catches_issue_numbers_and_dates_in_comments() {
    let issue = Some("an issue number");
    let date = Some("a date");
    let first = |text: &str, kind: Kind| flagged(text, kind).first().map(|&(_, what)| what);
    // The fake lines the whole-tree scan must catch.
    assert_eq!(
        first("let x = 1; // issue 12: the fix\n", Kind::Rust),
        issue
    );
    assert_eq!(first("/// See Issue #37.\n", Kind::Rust), issue);
    assert_eq!(first("//! (issues 3 and 4)\n", Kind::Rust), issue);
    assert_eq!(first("fn f() {} //! Issue16 item 5\n", Kind::Rust), issue);
    assert_eq!(
        first("// the default before 2026-11-25, which\n", Kind::Rust),
        date
    );
    assert_eq!(first("# Measured 2026-11-23.\n", Kind::Hash), date);
    assert_eq!(
        flagged(
            "fn f() {}\n/* a block\n   that cites issue 3 */\n",
            Kind::Rust
        ),
        vec![(3, "an issue number")]
    );
    assert_eq!(
        flagged(
            "#!/bin/sh\nset -eu\n# Tests the scripts (issue 13).\n",
            Kind::Hash
        ),
        vec![(3, "an issue number")]
    );
    assert_eq!(
        flagged("x = 'it\\'s # issue 5'  # dated 2026-01-02\n", Kind::Python),
        vec![(1, "a date")]
    );
    // Clean lines pass.
    assert_eq!(
        first(
            "// The requirement itself (see the `opt` bench).\n",
            Kind::Rust
        ),
        None
    );
    assert_eq!(
        first("let tissue = 12; // tissue 12, reissue 3\n", Kind::Rust),
        None
    );
    assert_eq!(
        first("// zcat Mira-2018-03-16-10days.swf.gz | awk\n", Kind::Rust),
        None
    );
    assert_eq!(
        first(
            "// days-Mira.2018-03-01.svg and days-Mira_2018-03-11\n",
            Kind::Rust
        ),
        None
    );
    assert_eq!(
        first("# Section 4.7, Theorem 4, at most 10^11 s\n", Kind::Hash),
        None
    );
}

#[test]
fn scanner_reads_comments_only() {
    let rust = r##"let url = "http://example.org/issue 12"; // fine
let s = r#"// issue 12 "# and "//"#;
let c = '"'; let d = "// 2026-01-01 \" // issue 3";
let e = '\''; let f = b"// issue 4"; let g = br"// issue 5";
fn h<'a>(x: &'a str) -> &'a str { x } // the why
let long = "a string
// issue 6 on its second line";
"##;
    let found = flagged(rust, Kind::Rust);
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(comments(rust, Kind::Rust).len(), 2);
    let shell = r##"echo "# issue 14 is text" 'and # issue 15' # but this is fine
n=${#args[@]} m=$# url=https://example.org/#issue-16
"##;
    let found = flagged(shell, Kind::Hash);
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(comments(shell, Kind::Hash).len(), 1);
}
