//! The documentation cannot rot: every example it shows runs, and every link it makes leads
//! somewhere.
//!
//! **Console examples.** In `README.md` and every page under `docs/`, a fenced block
//! ` ```console ` holds commands, each on a line `$ resched …`, followed by the output it
//! prints (standard output and standard error as a terminal shows them, interleaved). Each
//! command runs here, with the repository's root as working directory, through `sh -c`, with
//! the `resched` built with this test binary first on `PATH` (so `resched` inside a
//! `diff --cmd` template is that one too); its exit status must be 0 (a page that shows a
//! failure writes `; echo "exit $?"` after the command), and its output must match the
//! expected lines:
//! - a line `...` alone matches any number of lines (none included);
//! - `[..]` inside a line matches any run of characters within that line;
//! - trailing white space and trailing blank lines are ignored.
//!
//! A line ending in `\` continues on the next. Commands of one block run in order (a later
//! one may read what an earlier one wrote); blocks run one after the other.
//!
//! A block that cannot run here (it needs the full external traces, Slurm, pip, or runs for
//! longer than about 20 s) is fenced ` ```console,ignore ` and immediately preceded by a
//! comment `<!-- not run: REASON -->`; it is still parsed, so that it keeps the convention.
//! Commands of other programs (cargo, pip, sbatch) go in ` ```sh ` blocks, which are not run.
//!
//! **Links.** Every relative link and image of `README.md`, `HACKING.md`, `CHANGELOG.md` and
//! `docs/**/*.md` names an existing file (the `#anchor` is not checked); `docs/SUMMARY.md`
//! lists pages that exist, and every page under `docs/`.
//!
//! **Size.** `README.md` and every page of the book stay under 10 KB: a newcomer reads a page,
//! not a manual.
//!
//! Why not the `trycmd` crate: it runs a Markdown case in a `<page>.in/` directory beside the
//! page or in the test process's own directory (`cli/` under cargo), never in the repository
//! root that every documented path is relative to, and changing the process's directory would
//! race with the other modules of this test binary.
use crate::support::{bin, repo};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Largest page, in bytes.
const MAX_PAGE_BYTES: u64 = 10 * 1024;

/// Wall-clock limit of one documented command (a block that needs more is `console,ignore`).
const COMMAND_LIMIT: Duration = Duration::from_secs(60);

/// A fenced code block of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Block {
    /// 1-based line of the opening fence.
    line: usize,
    /// The info string (`console`, `console,ignore`, `sh`, …).
    info: String,
    /// The lines between the fences.
    body: Vec<String>,
    /// The last non-blank line before the opening fence.
    before: Option<String>,
}

/// The fenced code blocks of a Markdown text (fences of three or more backticks or tildes,
/// indented by at most three spaces; an unclosed block runs to the end of the text).
fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(String, Block)> = None;
    let mut before: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let fence: String = trimmed
            .chars()
            .take_while(|&c| c == '`' || c == '~')
            .collect();
        let is_fence = indent <= 3
            && fence.len() >= 3
            && fence
                .chars()
                .all(|c| c == fence.chars().next().unwrap_or('`'));
        match &mut open {
            Some((opening, block)) => {
                if is_fence
                    && fence.starts_with(opening.as_str())
                    && trimmed[fence.len()..].trim().is_empty()
                {
                    out.push(block.clone());
                    open = None;
                    before = Some(fence);
                } else {
                    block.body.push(line.to_string());
                }
            }
            None if is_fence => {
                open = Some((
                    fence.clone(),
                    Block {
                        line: i + 1,
                        info: trimmed[fence.len()..].trim().to_string(),
                        body: Vec::new(),
                        before: before.clone(),
                    },
                ));
            }
            None => {
                if !line.trim().is_empty() {
                    before = Some(line.trim().to_string());
                }
            }
        }
    }
    if let Some((_, block)) = open {
        out.push(block);
    }
    out
}

/// One documented command and the output it must print.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Example {
    /// 1-based line of its `$ ` line in the page.
    line: usize,
    command: String,
    expected: Vec<String>,
}

/// The commands of a console block, or why the block breaks the convention.
fn examples(block: &Block) -> Result<Vec<Example>, String> {
    let mut out: Vec<Example> = Vec::new();
    let mut continued = false;
    for (k, raw) in block.body.iter().enumerate() {
        let line = block.line + 1 + k;
        if continued {
            let last = out.last_mut().expect("a continuation follows a command");
            continued = raw.ends_with('\\');
            last.command.push(' ');
            last.command
                .push_str(raw.trim_end_matches('\\').trim_start());
        } else if let Some(cmd) = raw.strip_prefix("$ ") {
            if cmd != "resched" && !cmd.starts_with("resched ") {
                return Err(format!(
                    "line {line}: `$ {cmd}`: a console block runs `resched` only (other \
                     programs belong in a ```sh block)"
                ));
            }
            continued = cmd.ends_with('\\');
            out.push(Example {
                line,
                command: cmd.trim_end_matches('\\').trim_end().to_string(),
                expected: Vec::new(),
            });
        } else if let Some(last) = out.last_mut() {
            last.expected.push(raw.clone());
        } else if !raw.trim().is_empty() {
            return Err(format!(
                "line {line}: output before any `$ resched …` line: {raw:?}"
            ));
        }
    }
    if out.is_empty() {
        return Err(format!(
            "line {}: a console block without a `$ resched …` line",
            block.line
        ));
    }
    Ok(out)
}

/// Does one line match a pattern line (`[..]` matching any run of characters)?
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("[..]").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !line.starts_with(first) || line.len() < first.len() + last.len() || !line.ends_with(last) {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Lines without trailing white space, without trailing blank lines.
fn normalized<S: AsRef<str>>(lines: &[S]) -> Vec<&str> {
    let mut out: Vec<&str> = lines.iter().map(|l| l.as_ref().trim_end()).collect();
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out
}

/// Does the output match the expected lines (`...` lines matching any number of lines)?
fn output_matches(expected: &[String], actual: &str) -> bool {
    let want = normalized(expected);
    let got_lines: Vec<&str> = actual.lines().collect();
    let got = normalized(&got_lines);
    // fits[i][j]: want[i..] matches got[j..].
    let mut fits = vec![vec![false; got.len() + 1]; want.len() + 1];
    fits[want.len()][got.len()] = true;
    for i in (0..want.len()).rev() {
        for j in (0..=got.len()).rev() {
            fits[i][j] = if want[i] == "..." {
                fits[i + 1][j] || (j < got.len() && fits[i][j + 1])
            } else {
                j < got.len() && line_matches(want[i], got[j]) && fits[i + 1][j + 1]
            };
        }
    }
    fits[0][0]
}

/// The directory the documented commands run in: the repository's root as a reader sees it
/// (every top-level file and folder, linked), but with `out/` and `target/` of its own, so that
/// what the examples write never meets a developer's earlier results or a stale shard, and a
/// run of the tests never writes into the checkout. Made once per test process, under cargo's
/// temporary directory for integration tests.
fn sandbox() -> Result<&'static Path, String> {
    static SANDBOX: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    let made = SANDBOX.get_or_init(|| {
        let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("docs-sandbox");
        // Earlier runs' sandboxes go; a missing one is no error.
        let _ = std::fs::remove_dir_all(&base);
        let dir = base.join(std::process::id().to_string());
        std::fs::create_dir_all(dir.join("target"))
            .map_err(|e| format!("{}: {e}", dir.display()))?;
        let root = repo();
        let entries = std::fs::read_dir(&root).map_err(|e| format!("{}: {e}", root.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| e.to_string())?;
            let name = entry.file_name();
            if ["out", "target", ".git"].iter().any(|n| name == *n) {
                continue;
            }
            link(&entry.path(), &dir.join(&name))
                .map_err(|e| format!("linking {}: {e}", entry.path().display()))?;
        }
        Ok(dir)
    });
    made.as_deref().map_err(Clone::clone)
}

#[cfg(unix)]
fn link(from: &Path, to: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(from, to)
}

#[cfg(windows)]
fn link(from: &Path, to: &Path) -> std::io::Result<()> {
    if from.is_dir() {
        std::os::windows::fs::symlink_dir(from, to)
    } else {
        std::os::windows::fs::symlink_file(from, to)
    }
}

/// Runs one documented command from the repository's root (its [`sandbox`]); returns its
/// merged output, or why it failed.
fn run(example: &Example) -> Result<String, String> {
    let exe = PathBuf::from(bin());
    let dir = exe.parent().expect("the binary lives in a directory");
    let path = std::env::join_paths(std::iter::once(dir.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .map_err(|e| e.to_string())?;
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(format!("exec 2>&1\n{}", example.command))
        .current_dir(sandbox()?)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    // What the developer's shell sets must not change what the page shows.
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("RESCHED_") {
            cmd.env_remove(&key);
        }
    }
    let mut child = cmd.spawn().map_err(|e| format!("cannot start sh: {e}"))?;
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut buf);
        buf
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if started.elapsed() > COMMAND_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "still running after {} s: fence the block ```console,ignore with a \
                 `<!-- not run: … -->` comment, or make the example smaller",
                COMMAND_LIMIT.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let output = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
    if status.success() {
        Ok(output)
    } else {
        Err(format!(
            "exit status {status} (a page that shows a failure writes `; echo \"exit $?\"` \
             after the command); it printed:\n{output}"
        ))
    }
}

/// Runs every command of a console block; the failures, each with its page and line.
fn check_block(page: &str, block: &Block) -> Vec<String> {
    let examples = match examples(block) {
        Ok(e) => e,
        Err(e) => return vec![format!("{page}: {e}")],
    };
    let mut failures = Vec::new();
    for ex in &examples {
        match run(ex) {
            Ok(out) if output_matches(&ex.expected, &out) => {}
            Ok(out) => failures.push(format!(
                "{page}:{}: `{}` printed\n{}\n-- where the page shows --\n{}\n",
                ex.line,
                ex.command,
                out.trim_end(),
                ex.expected.join("\n").trim_end()
            )),
            Err(why) => failures.push(format!("{page}:{}: `{}`: {why}", ex.line, ex.command)),
        }
    }
    failures
}

/// What a block is to this test.
#[derive(Debug, PartialEq, Eq)]
enum Kind {
    Run,
    NotRun,
    Other,
}

/// Classifies a block; an error when a console block breaks the convention of its fence.
fn kind(block: &Block) -> Result<Kind, String> {
    let words: Vec<&str> = block
        .info
        .split([',', ' '])
        .filter(|w| !w.is_empty())
        .collect();
    let says_not_run = block
        .before
        .as_deref()
        .and_then(|b| b.strip_prefix("<!-- not run:"))
        .and_then(|b| b.strip_suffix("-->"))
        .map(str::trim);
    match words.as_slice() {
        ["console"] if says_not_run.is_some() => Err(format!(
            "line {}: a `not run` comment before a ```console block that runs (fence it \
             ```console,ignore, or drop the comment)",
            block.line
        )),
        ["console"] => Ok(Kind::Run),
        ["console", "ignore"] => match says_not_run {
            Some(reason) if !reason.is_empty() => Ok(Kind::NotRun),
            _ => Err(format!(
                "line {}: a ```console,ignore block must be immediately preceded by \
                 `<!-- not run: <reason> -->`",
                block.line
            )),
        },
        ["console", ..] => Err(format!(
            "line {}: unknown console fence `{}` (```console or ```console,ignore)",
            block.line, block.info
        )),
        _ => Ok(Kind::Other),
    }
}

/// Every `.md` file below `dir`, recursively, in a stable order.
fn markdown_files(dir: &Path) -> Vec<PathBuf> {
    files_with(dir, &["md"])
}

/// The pages whose console blocks run: the README and the book.
fn pages() -> Vec<PathBuf> {
    let root = repo();
    let mut out = vec![root.join("README.md")];
    out.extend(markdown_files(&root.join("docs")));
    out
}

/// A path relative to the repository, for messages.
fn shown(path: &Path) -> String {
    path.strip_prefix(repo())
        .unwrap_or(path)
        .display()
        .to_string()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_console_example_prints_what_the_page_shows() {
    let (mut ran, mut commands, mut not_run) = (0, 0, 0);
    let mut failures = Vec::new();
    for page in pages() {
        let name = shown(&page);
        for block in blocks(&read(&page)) {
            match kind(&block) {
                Err(e) => failures.push(format!("{name}: {e}")),
                Ok(Kind::Run) => {
                    ran += 1;
                    commands += examples(&block).map_or(0, |e| e.len());
                    failures.extend(check_block(&name, &block));
                }
                Ok(Kind::NotRun) => {
                    not_run += 1;
                    if let Err(e) = examples(&block) {
                        failures.push(format!("{name}: {e}"));
                    }
                }
                Ok(Kind::Other) => {}
            }
        }
    }
    println!(
        "docs: {ran} console blocks run ({commands} commands), {not_run} not run \
         (```console,ignore)"
    );
    assert!(ran > 0, "no console block found: the pages moved?");
    assert!(
        failures.is_empty(),
        "{} documented example(s) do not hold:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The targets of the inline links and images of a Markdown text (`[text](target)`,
/// `![alt](target "title")`) and of its reference definitions (`[label]: target`), outside
/// code blocks and code spans, with their 1-based lines.
fn link_targets(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fence: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let ticks: String = trimmed
            .chars()
            .take_while(|&c| c == '`' || c == '~')
            .collect();
        if ticks.len() >= 3 {
            match &fence {
                Some(open) if ticks.starts_with(open.as_str()) => fence = None,
                Some(_) => {}
                None => fence = Some(ticks),
            }
            continue;
        }
        if fence.is_some() {
            continue;
        }
        // Code spans hold examples, not links.
        let mut plain = String::new();
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
            } else if !in_code {
                plain.push(c);
            }
        }
        if let Some(rest) = plain.trim_start().strip_prefix('[') {
            if let Some((_, target)) = rest.split_once("]:") {
                if let Some(t) = target.split_whitespace().next() {
                    out.push((i + 1, t.trim_matches(['<', '>']).to_string()));
                }
                continue;
            }
        }
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("");
            out.push((i + 1, target.trim_matches(['<', '>']).to_string()));
            rest = &after[end..];
        }
    }
    out
}

/// The relative links of `page` whose file does not exist, as messages.
fn broken_links(page: &Path, text: &str) -> Vec<String> {
    let dir = page.parent().expect("a page lives in a directory");
    let mut out = Vec::new();
    for (line, target) in link_targets(text) {
        let external = target.contains("://") || target.starts_with("mailto:");
        let file = target.split('#').next().unwrap_or("");
        if external || file.is_empty() {
            continue;
        }
        if !dir.join(file).exists() {
            out.push(format!("{}:{line}: `{target}` does not exist", shown(page)));
        }
    }
    out
}

#[test]
fn every_relative_link_leads_to_a_file() {
    let root = repo();
    let mut pages = vec![
        root.join("README.md"),
        root.join("HACKING.md"),
        root.join("CHANGELOG.md"),
    ];
    pages.extend(markdown_files(&root.join("docs")));
    let mut broken = Vec::new();
    for page in &pages {
        if !page.exists() {
            broken.push(format!("{} is missing", shown(page)));
            continue;
        }
        broken.extend(broken_links(page, &read(page)));
    }
    assert!(
        broken.is_empty(),
        "{} broken link(s):\n{}",
        broken.len(),
        broken.join("\n")
    );
}

/// The top folders of the repository that a path in backticks may start with.
const REPO_FOLDERS: [&str; 11] = [
    "src", "tests", "cli", "benches", "docs", "python", "examples", "slurm", "fuzz", "proofs",
    ".ci",
];

/// Repository paths a text names in backticks (`` `src/opt/search.rs` ``, `` `tests/cases/` ``)
/// that do not exist, as `line: path`. A path of another repository is written with that
/// repository's name first (`` `batsched/src/algo/…` ``), so it is not taken for one of ours;
/// paths with wildcards or placeholders (`*`, `<`, `{`) are patterns, not files.
fn missing_repo_paths(text: &str) -> Vec<(usize, String)> {
    let root = repo();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let parts: Vec<&str> = line.split('`').collect();
        for (k, quoted) in parts.iter().enumerate() {
            // Even parts are outside backticks; the last odd one is unclosed on this line.
            let inside = k % 2 == 1 && k + 1 < parts.len();
            if !inside || quoted.contains(|c: char| c.is_whitespace() || "*<{[$:\",".contains(c)) {
                continue;
            }
            let Some((top, _)) = quoted.split_once('/') else {
                continue;
            };
            if REPO_FOLDERS.contains(&top) && !root.join(quoted.trim_end_matches('/')).exists() {
                out.push((i + 1, quoted.to_string()));
            }
        }
    }
    out
}

/// Every file under `dir` whose extension is one of `exts`, recursively, in a stable order.
fn files_with(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
            } else if path
                .extension()
                .is_some_and(|e| exts.iter().any(|x| e == *x))
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// A file the docs or a comment name (`` `src/opt/bounds.rs` ``, `` `tests/shelf_idle.rs` ``)
/// exists: a module renamed or removed leaves no reader looking for it.
#[test]
fn every_repository_path_named_in_backticks_exists() {
    let root = repo();
    let mut texts = vec![
        root.join("README.md"),
        root.join("HACKING.md"),
        root.join("benches/README.md"),
    ];
    texts.extend(markdown_files(&root.join("docs")));
    for dir in [
        "src",
        "cli/src",
        "cli/benches",
        "proofs",
        "benches",
        "tests",
        "python",
    ] {
        texts.extend(files_with(
            &root.join(dir),
            &["rs", "py", "pyi", "sh", "md"],
        ));
    }
    let mut missing = Vec::new();
    for file in &texts {
        if file.components().any(|c| c.as_os_str() == ".venv") {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for (line, path) in missing_repo_paths(&text) {
            // The link check's own test names a missing path on purpose.
            if file.ends_with("tests/docs.rs") && path == "docs/missing.png" {
                continue;
            }
            missing.push(format!("{}:{line}: `{path}` does not exist", shown(file)));
        }
    }
    assert!(
        missing.is_empty(),
        "{} path(s) named but missing:\n{}",
        missing.len(),
        missing.join("\n")
    );
    // The check can fail: a missing file is reported, another repository's path is not.
    // (Split so that this line does not name the missing file itself.)
    let planted = concat!(
        "`src/opt/search.rs` `src/opt/",
        "gone.rs` `batsched/src/x.cpp` `tests/*.rs`"
    );
    assert_eq!(
        missing_repo_paths(planted),
        vec![(1, "src/opt/gone.rs".to_string())]
    );
}

#[test]
fn the_summary_lists_every_page_of_the_book() {
    let docs = repo().join("docs");
    let summary = docs.join("SUMMARY.md");
    let listed: Vec<PathBuf> = link_targets(&read(&summary))
        .into_iter()
        .filter(|(_, t)| !t.contains("://"))
        .map(|(_, t)| docs.join(t.split('#').next().unwrap_or("")))
        .collect();
    let mut problems: Vec<String> = listed
        .iter()
        .filter(|p| !p.is_file())
        .map(|p| format!("SUMMARY.md lists {}, which does not exist", shown(p)))
        .collect();
    for page in markdown_files(&docs) {
        if page != summary && !listed.contains(&page) {
            problems.push(format!("{} is not listed in docs/SUMMARY.md", shown(&page)));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_readme_and_every_page_stay_small() {
    let big: Vec<String> = pages()
        .into_iter()
        .filter_map(|p| {
            let len = std::fs::metadata(&p).ok()?.len();
            (len > MAX_PAGE_BYTES).then(|| format!("{}: {len} bytes", shown(&p)))
        })
        .collect();
    assert!(
        big.is_empty(),
        "pages over {MAX_PAGE_BYTES} bytes (split them):\n{}",
        big.join("\n")
    );
}

/// The checks above can fail: a wrong output, a missing file, a bad fence are each caught.
#[test]
fn the_checks_catch_a_wrong_output_a_missing_target_and_a_bad_fence() {
    // The matcher: literal lines, `[..]` within a line, `...` over lines.
    let lines = |s: &str| -> Vec<String> { s.lines().map(String::from).collect() };
    assert!(output_matches(&lines("a\nb"), "a\nb  \n\n"));
    assert!(!output_matches(&lines("a\nb"), "a\nc\n"));
    assert!(!output_matches(&lines("a"), "a\nb\n"));
    assert!(output_matches(&lines("a\n...\nd"), "a\nb\nc\nd\n"));
    assert!(output_matches(&lines("a\n...\nd"), "a\nd\n"));
    assert!(output_matches(&lines("...\nd"), "a\nd\n"));
    assert!(!output_matches(&lines("a\n...\nd"), "a\nb\n"));
    assert!(line_matches("x = [..] s", "x = 0.25 s"));
    assert!(line_matches("time [..] s, [..] nodes", "time 3 s, 4 nodes"));
    assert!(!line_matches("time [..] s", "time 3 ms!"));
    assert!(!line_matches("ab[..]ba", "aba"));

    // A real command against a wrong and a right expected output.
    let page = "docs:\n```console\n$ resched demo --priority lpt\nprop3-P4: P = 5[..]\n...\n```\n";
    let block = &blocks(page)[0];
    assert_eq!(kind(block), Ok(Kind::Run));
    let failures = check_block("wrong.md", block);
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(failures[0].starts_with("wrong.md:3: `resched demo --priority lpt` printed"));
    let right = page.replace("P = 5", "P = 4");
    assert!(check_block("right.md", &blocks(&right)[0]).is_empty());
    // A failing exit status is a failure, unless the page shows it.
    let failing = "```console\n$ resched simulate --algo nope\n...\n```\n";
    assert_eq!(check_block("f.md", &blocks(failing)[0]).len(), 1);
    let shown_exit =
        "```console\n$ resched simulate --algo nope; echo \"exit $?\"\n...\nexit 2\n```\n";
    assert!(check_block("f.md", &blocks(shown_exit)[0]).is_empty());

    // Fences: an ignored block needs its reason; console blocks run resched only.
    let ignored = blocks(
        "<!-- not run: needs Slurm -->\n```console,ignore\n$ resched merge a --out b\n```\n",
    );
    assert_eq!(kind(&ignored[0]), Ok(Kind::NotRun));
    let unexplained = blocks("Text.\n\n```console,ignore\n$ resched merge a --out b\n```\n");
    assert!(kind(&unexplained[0]).is_err());
    let stray = blocks("<!-- not run: why -->\n```console\n$ resched demo\n```\n");
    assert!(kind(&stray[0]).is_err());
    assert!(examples(&blocks("```console\n$ cargo build\n```\n")[0]).is_err());
    assert!(examples(&blocks("```console\noutput first\n$ resched demo\n```\n")[0]).is_err());
    let continued = blocks("```console\n$ resched simulate \\\n    --json\n{\n```\n");
    assert_eq!(
        examples(&continued[0]),
        Ok(vec![Example {
            line: 2,
            command: "resched simulate --json".into(),
            expected: vec!["{".into()],
        }])
    );

    // Links: a missing target is reported; existing files, anchors and URLs pass.
    let here = repo().join("README.md");
    let text = "[ok](docs/SUMMARY.md#top) [web](https://example.org) [anchor](#x) \
                ![img](docs/missing.png) `[code](nowhere.md)`\n[ref]: HACKING.md\n[bad]: gone.md\n";
    let broken = broken_links(&here, text);
    assert_eq!(
        broken,
        vec![
            "README.md:1: `docs/missing.png` does not exist".to_string(),
            "README.md:3: `gone.md` does not exist".to_string(),
        ],
        "{broken:?}"
    );
}
