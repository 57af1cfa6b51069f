//! Fuzz target: the peer simulator's instance and failure readers (workload::peer) never
//! panic; an accepted instance is valid and failure lines that parse fit it.
#![no_main]
use libfuzzer_sys::fuzz_target;
use resched::workload::peer::{parse_failures, PeerInstance};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (a, b) = text.split_once("\n===\n").unwrap_or((text, ""));
    if let Ok(p) = PeerInstance::parse(a, "fuzz_instance") {
        p.instance
            .validate()
            .expect("a parsed peer instance is valid");
        if let Ok(scs) = parse_failures(b, "fuzz_failures", p.instance.len(), Some(4)) {
            for sc in scs {
                sc.validate(&p.instance)
                    .expect("parsed failures fit the instance");
            }
        }
    }
    let _ = parse_failures(text, "fuzz_failures", 3, None);
});
