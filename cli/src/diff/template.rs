//! The `--cmd` template: split into argv as a POSIX shell would (by the `shell-words` crate; no
//! shell is ever run), then placeholders substituted inside each argument.
//!
//! Splitting follows POSIX shell quoting, without expansion of any kind: words are separated by
//! unquoted blanks; `'…'` keeps everything literally; `"…"` keeps everything but `\"`, `\\`,
//! `` \` `` and `\$`, which lose their backslash; an unquoted `\x` is `x`; a word that begins
//! with `#` starts a comment to the end of the line. `$`, `*`, `|`, `;`, `>` … are ordinary
//! characters: a template that needs a pipe must say `sh -c '…'` itself.
//!
//! Placeholders are `{name}` anywhere inside a word (`--in={instance}` works); `{{` and `}}`
//! are literal braces. Because substitution happens after splitting, a value with spaces (a
//! path) stays one argument. The names are [`Placeholder`]'s; any other `{…}` is an error when
//! the template is read, not when it runs.
use resched::error::{Error, Result};

/// A value the template may ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placeholder {
    /// Path of the case's instance file (resched's JSON format).
    Instance,
    /// Path of the case's scenario file (`{"failures": [...]}`).
    Scenario,
    /// The algorithm's catalogue name (`greedy`, `r-list:2`, `batch-list`, …).
    Algo,
    /// The priority rule's name (`lpt`, `spt`, …, `index`).
    Priority,
    /// The seed of the RANDOM priority (`--algo-seed`).
    Seed,
    /// BATCH-LIST's ε as an exact `a/b` string, or `none` for algorithms that take no ε.
    Eps,
    /// The case number (informative).
    Case,
}

impl Placeholder {
    /// Every placeholder, as written in a template.
    pub const ALL: [(&'static str, Placeholder); 7] = [
        ("instance", Placeholder::Instance),
        ("scenario", Placeholder::Scenario),
        ("algo", Placeholder::Algo),
        ("priority", Placeholder::Priority),
        ("seed", Placeholder::Seed),
        ("eps", Placeholder::Eps),
        ("case", Placeholder::Case),
    ];

    /// The name as written between braces.
    pub fn name(self) -> &'static str {
        Placeholder::ALL
            .iter()
            .find(|(_, p)| *p == self)
            .map_or("?", |(n, _)| n)
    }

    fn parse(name: &str) -> Option<Placeholder> {
        Placeholder::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, p)| *p)
    }
}

/// A piece of one argument: literal text or a placeholder.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Text(String),
    Hole(Placeholder),
}

/// A parsed command template: argv, each argument a list of pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    args: Vec<Vec<Piece>>,
    /// The template as the user wrote it (for reproduction commands).
    pub text: String,
}

impl Template {
    /// Splits and parses `text`. Errors (on parameter `template`): an empty command, an unclosed quote,
    /// a trailing backslash, an unknown or unclosed placeholder, a placeholder in the program
    /// name.
    pub fn parse(text: &str) -> Result<Template> {
        let words = split(text)?;
        if words.is_empty() {
            return Err(Error::param("template", "the command is empty"));
        }
        let args = words
            .iter()
            .map(|w| pieces(w))
            .collect::<Result<Vec<_>>>()?;
        if args[0].iter().any(|p| matches!(p, Piece::Hole(_))) {
            return Err(Error::param(
                "template",
                "the program name (first word) cannot contain a placeholder",
            ));
        }
        Ok(Template {
            args,
            text: text.to_string(),
        })
    }

    /// The placeholders the template uses.
    pub fn holes(&self) -> Vec<Placeholder> {
        self.args
            .iter()
            .flatten()
            .filter_map(|p| match p {
                Piece::Hole(h) => Some(*h),
                Piece::Text(_) => None,
            })
            .collect()
    }

    /// argv with every placeholder replaced by `value(placeholder)`.
    pub fn render(&self, value: &dyn Fn(Placeholder) -> String) -> Vec<String> {
        self.args
            .iter()
            .map(|arg| {
                arg.iter()
                    .map(|p| match p {
                        Piece::Text(t) => t.clone(),
                        Piece::Hole(h) => value(*h),
                    })
                    .collect()
            })
            .collect()
    }
}

/// Splits shell words (module doc); no expansion. Placeholder braces pass through untouched.
pub fn split(text: &str) -> Result<Vec<String>> {
    // A backslash that escapes nothing (an odd run at the very end, outside quotes: inside them
    // the quote is unclosed) is refused, not dropped as `shell-words` would.
    if text.chars().rev().take_while(|&c| c == '\\').count() % 2 == 1 {
        return Err(Error::param(
            "template",
            format!("trailing backslash in `{text}`"),
        ));
    }
    shell_words::split(text)
        .map_err(|e| Error::param("template", format!("cannot split `{text}` into words: {e}")))
}

/// One word's pieces: `{name}` placeholders, `{{`/`}}` escapes, text.
fn pieces(word: &str) -> Result<Vec<Piece>> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut chars = word.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                text.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                text.push('}');
            }
            '{' => {
                let mut name = String::new();
                let mut closed = false;
                for x in chars.by_ref() {
                    if x == '}' {
                        closed = true;
                        break;
                    }
                    name.push(x);
                }
                if !closed {
                    return Err(Error::param(
                        "template",
                        format!("unclosed placeholder `{{{name}` in `{word}`"),
                    ));
                }
                let hole = Placeholder::parse(&name).ok_or_else(|| {
                    let known: Vec<String> = Placeholder::ALL
                        .iter()
                        .map(|(n, _)| format!("{{{n}}}"))
                        .collect();
                    Error::param(
                        "template",
                        format!(
                            "unknown placeholder `{{{name}}}` in `{word}`; known: {} (write {{{{ and }}}} for literal braces)",
                            known.join(" ")
                        ),
                    )
                })?;
                if !text.is_empty() {
                    out.push(Piece::Text(std::mem::take(&mut text)));
                }
                out.push(Piece::Hole(hole));
            }
            '}' => {
                return Err(Error::param(
                    "template",
                    format!("lone `}}` in `{word}` (write `}}}}` for a literal brace)"),
                ))
            }
            c => text.push(c),
        }
    }
    if !text.is_empty() || out.is_empty() {
        out.push(Piece::Text(text));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        split(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn splits_like_a_shell_without_expanding() {
        assert_eq!(words("  a  b\tc "), ["a", "b", "c"]);
        assert_eq!(
            words("python3 'my sim.py' x"),
            ["python3", "my sim.py", "x"]
        );
        assert_eq!(
            words(r#"a "b \"c\" \$d \n" e"#),
            ["a", r#"b "c" $d \n"#, "e"]
        );
        assert_eq!(words(r"a\ b c\\d"), ["a b", r"c\d"]);
        assert_eq!(words("a '' \"\" b"), ["a", "", "", "b"]);
        assert_eq!(words("x$HOME*|;"), ["x$HOME*|;"]);
        assert_eq!(words("pre'fix'\"ed\""), ["prefixed"]);
        assert!(words("").is_empty());
        // As in a shell: `#` opens a comment only at the start of a word.
        assert_eq!(words("sim a#b # a note"), ["sim", "a#b"]);
        for bad in ["a 'b", "a \"b", "a \\"] {
            let e = split(bad).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(e.contains("template") && e.contains(bad), "{bad}: {e}");
        }
    }

    #[test]
    fn substitutes_inside_arguments() {
        let t = Template::parse("sim --in={instance} '{scenario} x' {algo}/{priority} {{lit}}")
            .unwrap_or_else(|e| panic!("{e}"));
        let argv = t.render(&|h| match h {
            Placeholder::Instance => "/tmp/a b.json".into(),
            Placeholder::Scenario => "s.json".into(),
            Placeholder::Algo => "greedy".into(),
            Placeholder::Priority => "lpt".into(),
            _ => "?".into(),
        });
        assert_eq!(
            argv,
            [
                "sim",
                "--in=/tmp/a b.json",
                "s.json x",
                "greedy/lpt",
                "{lit}"
            ]
        );
        assert_eq!(
            t.holes(),
            [
                Placeholder::Instance,
                Placeholder::Scenario,
                Placeholder::Algo,
                Placeholder::Priority
            ]
        );
    }

    #[test]
    fn template_errors_name_the_problem() {
        for (t, want) in [
            ("", "empty"),
            ("sim {instanse}", "unknown placeholder `{instanse}`"),
            ("sim {instance", "unclosed placeholder"),
            ("sim a}b", "lone `}`"),
            ("{algo} x", "program name"),
        ] {
            let e = Template::parse(t)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(e.contains(want), "{t}: {e}");
        }
    }
}
