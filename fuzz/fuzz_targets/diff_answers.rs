//! Fuzz target: what `resched diff` reads from another program never panics it: the answer
//! parser of the template protocol (`diff::answer::from_stdout`), the JSONL response parser
//! (`diff::external::response`), the peer simulator's output (`diff::peer::parse_output`);
//! and the escaping of what it prints leaves no control character but newline and tab.
#![no_main]
use libfuzzer_sys::fuzz_target;
use resched_cli::cli::diff::escape_controls;
use resched_cli::diff::{answer, external, peer};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(a) = answer::from_stdout(&text) {
        assert!(a.makespan.is_some() || a.schedule.is_some());
    }
    for line in text.lines().take(4) {
        let (a, keep) = external::response(line, 0);
        if a.is_ok() {
            assert!(keep, "an answer keeps the session");
        }
    }
    let _ = peer::parse_output(&text, "output");
    let shown = escape_controls(&text);
    assert!(!shown.chars().any(|c| c.is_control() && c != '\n' && c != '\t'));
    let _ = answer::quote(&text);
});
