//! Fuzz target: the JSON loaders (instance, scenario, schedule) never panic on any text; an
//! accepted instance round-trips through its JSON; the checker never panics on whatever
//! schedule and scenario parse, it only accepts or names a violation.
#![no_main]
use libfuzzer_sys::fuzz_target;
use resched::model::{Instance, Scenario, Schedule};

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    // Three documents separated by a NUL-free marker, so one input can feed all three loaders.
    let mut parts = s.splitn(3, "\n---\n");
    let (a, b, c) = (
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
        parts.next().unwrap_or(""),
    );
    let _ = Schedule::from_json_str(a, "fuzz.json");
    if let Ok(inst) = Instance::from_json_str(a, "fuzz.json") {
        let back = Instance::from_json_str(&inst.to_json(), "again.json")
            .expect("an accepted instance re-reads");
        assert_eq!(back, inst);
        if let Ok(sc) = Scenario::from_json_str(b, "s.json", &inst) {
            if let Ok(sch) = Schedule::from_json_str(c, "sch.json") {
                let _ = resched::check::check(&inst, &sc, &sch);
            }
        }
    }
});
