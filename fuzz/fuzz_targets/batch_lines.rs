//! Fuzz target: the batch JSON Lines reader (`resched batch`, `resched_cli::batch`) never
//! panics on any input: every request line is answered by `respond` without a panic, and a
//! whole run answers each non-blank line with exactly one JSON line, in order, none of them
//! the error of a request that panicked. Inputs naming files (`instance_file`,
//! `scenario_file`) are skipped: the fuzzer must not read the machine's files.
#![no_main]
use libfuzzer_sys::fuzz_target;
use resched_cli::batch::{respond, run, Options};

fuzz_target!(|data: &[u8]| {
    if data.windows(5).any(|w| w == b"_file") {
        return;
    }
    let opts = Options { schedules: true };
    if let Ok(text) = std::str::from_utf8(data) {
        for (i, line) in text.lines().enumerate() {
            if !line.trim().is_empty() {
                let r = respond(i + 1, line, &opts);
                let out: serde_json::Value =
                    serde_json::from_str(&r.to_json()).expect("a response is JSON");
                assert!(out.is_object());
            }
        }
    }
    // One pool for every input: building one per input would dominate the run.
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    let pool = POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a one-thread pool")
    });
    let mut out = Vec::new();
    let summary = run(data, &mut out, &opts, pool).expect("in-memory input and output");
    let text = String::from_utf8(out).expect("responses are UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), summary.requests);
    let mut last = 0u64;
    for l in lines {
        let v: serde_json::Value = serde_json::from_str(l).expect("each response is JSON");
        assert!(!l.contains("made resched panic"), "{l}");
        let n = v["line"].as_u64().expect("each response names its line");
        assert!(n > last, "responses in input order");
        last = n;
    }
});
