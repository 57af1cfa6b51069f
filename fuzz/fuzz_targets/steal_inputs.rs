//! Fuzz target: the inputs of `resched steal` (node-stealing paper, Section 5.2) never make it
//! panic. The text is cut at lines `%%` into an SWF log, a failure list (`time node` per line)
//! and option lines (`mtbf 1h`, `downtime 10min`, `checkpoint 5min`, `recovery 0`,
//! `window 0:2d`, `variant H213`, `synthetic nodes=128,jobs=1000`); each goes through the reader
//! the command uses (the steal workload reader, the failure-list reader, the duration, window,
//! variant and synthetic parsers), which may refuse it but not panic. When everything is
//! accepted and the workload is small, it is simulated under a small event budget and the run
//! must pass the independent checker.
#![no_main]
use libfuzzer_sys::fuzz_target;
use resched::stealing::parse::{parse_duration, parse_variants, parse_window};
use resched::stealing::check::check;
use resched::stealing::synthetic::Synthetic;
use resched::stealing::{simulate_within, trace, Budget, FailureSource, Resilience, Variant};
use resched::workload::swf::SwfLog;
use resched::Time;

/// Largest workload that is simulated (jobs, nodes): keeps one input well under a second.
const SIM_JOBS: usize = 24;
const SIM_NODES: u32 = 64;

/// The option lines: resilience overrides and variants (None where a line was refused).
fn options(text: &str) -> Option<(Resilience, Vec<Variant>)> {
    let mut res = Resilience {
        downtime: Time::from_int(60),
        checkpoint: Time::zero(),
        recovery: Time::zero(),
        mtbf_ind: None,
    };
    let mut variants = vec![Variant::Baseline, Variant::SFSJ];
    let mut ok = true;
    for line in text.lines() {
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let value = value.trim();
        match key {
            "mtbf" => match parse_duration(value, "--mtbf") {
                Ok(t) if t.is_positive() => res.mtbf_ind = Some(t),
                _ => ok = false,
            },
            "downtime" => match parse_duration(value, "--downtime") {
                Ok(t) => res.downtime = t,
                Err(_) => ok = false,
            },
            "checkpoint" => match parse_duration(value, "--checkpoint") {
                Ok(t) => res.checkpoint = t,
                Err(_) => ok = false,
            },
            "recovery" => match parse_duration(value, "--recovery") {
                Ok(t) => res.recovery = t,
                Err(_) => ok = false,
            },
            "window" => ok &= parse_window(value).is_ok(),
            "variant" => match parse_variants(value) {
                Ok(v) => variants = v,
                Err(_) => ok = false,
            },
            // The spec parser checks every limit before anything is generated.
            "synthetic" => ok &= Synthetic::parse(&format!("synthetic:{value}"), 1).is_ok(),
            _ => {}
        }
    }
    (ok && res.validate().is_ok()).then_some((res, variants))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut parts = text.split("\n%%\n");
    let swf = parts.next().unwrap_or("");
    let failures = parts.next().unwrap_or("");
    let opts = options(parts.next().unwrap_or(""));
    let Ok(log) = SwfLog::parse(swf, "fuzz.swf") else {
        return;
    };
    let Ok((w, _)) = trace::from_swf(&log, trace::Sizing::default()) else {
        return;
    };
    let Some((mut res, variants)) = opts else {
        return;
    };
    // `poisson SEED` draws failures at the platform MTBF μ_ind/N (the option range applies).
    let fs = match failures.strip_prefix("poisson ") {
        Some(seed) => {
            let (Ok(seed), Some(mu)) = (seed.trim().parse::<u64>(), res.mtbf_ind.as_ref()) else {
                return;
            };
            let Some(platform) = mu.div_int(u64::from(w.nodes)) else {
                return;
            };
            match FailureSource::poisson(seed, &platform, w.nodes) {
                Ok(fs) => fs,
                Err(_) => return,
            }
        }
        None => match FailureSource::parse(failures, "fuzz.failures", w.nodes) {
            Ok(fs) => fs,
            Err(_) => return,
        },
    };
    if w.jobs.len() > SIM_JOBS || w.nodes > SIM_NODES {
        return;
    }
    // A checkpoint needs an MTBF for its Young/Daly period (Resilience::validate).
    if res.mtbf_ind.is_none() && res.checkpoint.is_positive() {
        res.mtbf_ind = Some(Time::from_int(3600).mul_int(u64::from(w.nodes)));
    }
    let budget = Budget {
        max_events: 2_000,
        max_attempts: 1_000,
        report_interval: None,
    };
    for v in variants.into_iter().take(3) {
        // Refusals (budgets, limits) are fine; a run that is produced must be right.
        if let Ok(run) = simulate_within(&w, &res, fs.clone(), v, budget) {
            if let Err(e) = check(&w, &res, &run, None) {
                panic!("{v}: checker: {e}\nswf:\n{swf}\nfailures:\n{failures}\n{res:?}");
            }
        }
    }
});
