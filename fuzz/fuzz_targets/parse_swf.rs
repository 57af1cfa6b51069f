//! Fuzz target: the SWF reader (workload::swf) never panics on any text; a log it accepts can
//! be split into days under every oversize rule without a panic, and every day is a valid
//! instance.
#![no_main]
use libfuzzer_sys::fuzz_target;
use resched::workload::swf::{Oversize, SwfLog};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(log) = SwfLog::parse(text, "fuzz.swf") else {
        return;
    };
    let _ = log.header_procs();
    let _ = log.platform_procs();
    let procs = log
        .platform_procs()
        .unwrap_or_else(|| log.largest_job().max(1))
        .clamp(1, 1 << 20);
    for rule in [Oversize::Drop, Oversize::Clamp, Oversize::Error] {
        if let Ok(days) = log.split_days(procs, rule) {
            for day in &days.days {
                day.instance.validate().expect("a day is a valid instance");
            }
        }
    }
});
