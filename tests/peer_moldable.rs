//! Differential test against the moldable paper's own simulator (GitHub
//! lucasperotin/moldable-error, commit c2caa58): its printed outputs on the shared files
//! `../shared/peer-moldable/` (P = 7500, priority `length`, flags 0 0 0) are committed under
//! `tests/peer_moldable/` with the exact commands used (README.md there). resched must agree
//! with them to 1e−9 relative on every scenario:
//! - LPA-LIST (`moldable.cpp`), MINTIME and MINAREA (`moldable.cpp` with its allocation function
//!   swapped) — makespan, L′ and failures — under the paper's reading, against the build whose
//!   `minimizeTime` searches p ∈ 1..P (their published loop stops at P − 1, a stray `;` making
//!   the mix branch run for every model: quirk switched *off* in `mintime_fix/`; the pristine
//!   outputs in `published/` differ from it on Amdahl only, by ≤ 3·10^−6);
//! - BATCH-LIST (`moldableBatch.cpp`) — makespan and failures — under the "as published"
//!   reading of MT-ALLOTMENT, rule 6 (their doubles decide among equal exact areas) included:
//!   without it the roofline files are missed by up to 0.7%.
//!
//! Each instance has 500 moldable jobs × 7500 exact times, slow to build in debug (Amdahl's
//! decimal γ times 1/p most): the default run checks one file per model, each algorithm on one
//! scenario (selection printed; see `default_model`); every file and scenario is the ignored
//! test, meant for release: `cargo test --release --test peer_moldable -- --ignored`.
use resched::model::Instance;
use resched::oracle::{AlgoSpec, Prepared};
use resched::schedulers::Priority;
use resched::workload::{peer, peer_moldable};
use std::path::PathBuf;

const REL: f64 = 1e-9;

fn shared() -> PathBuf {
    let dir = crate::support::shared("peer-moldable");
    assert!(
        dir.is_dir(),
        "the moldable peer files beside the repository: {}",
        dir.display()
    );
    dir
}

fn golden(dir: &str, file: &str) -> Vec<Vec<f64>> {
    let p = crate::support::repo()
        .join("tests/peer_moldable")
        .join(dir)
        .join(file);
    std::fs::read_to_string(&p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .lines()
        .map(|l| l.split_whitespace().map(|t| t.parse().unwrap()).collect())
        .collect()
}

fn close(ours: f64, theirs: f64) -> bool {
    ((ours - theirs) / theirs).abs() <= REL
}

/// Runs `algo` on the scenarios `which` of `set` and compares with their printed lines.
fn compare(inst: &Instance, set: &str, algo: &str, which: &[usize], dir: &str, file: &str) {
    let sh = shared();
    let scen = peer::load_failures(&sh.join(format!("failures_{set}")), inst.len(), None).unwrap();
    let want = golden(dir, file);
    assert_eq!(want.len(), scen.len(), "{file}: one line per scenario");
    let spec = AlgoSpec::new(algo).with_priority(Priority::Lpt);
    let mut g = Prepared::new(&spec, inst).unwrap();
    for &i in which {
        let (sc, w) = (&scen[i], &want[i]);
        let c = g.certify(inst, sc).unwrap();
        let ms = c.makespan.to_f64();
        let fails = sc.total_failures() as f64;
        assert!(
            close(ms, w[0]),
            "{set} {algo} scenario {i}: makespan {ms} vs theirs {}",
            w[0]
        );
        assert_eq!(fails, *w.last().unwrap(), "{set} scenario {i}: failures");
        if w.len() == 3 {
            let lp = c.bound.lower.to_f64();
            assert!(
                close(lp, w[1]),
                "{set} scenario {i}: L' {lp} vs theirs {}",
                w[1]
            );
        }
    }
}

/// The four algorithms compared: catalogue name, golden file prefix, golden directory.
/// LPA-LIST, MINTIME and MINAREA against the build with their MINTIME quirk switched off;
/// BATCH-LIST under the "as published" reading against their pristine build.
const ALGOS: [(&str, &str, &str); 4] = [
    ("lpa-list", "lpa", "mintime_fix"),
    ("mintime", "mintime", "mintime_fix"),
    ("minarea", "minarea", "mintime_fix"),
    ("batch-list-published", "batch", "published"),
];

/// Scenarios per golden file.
const SCENARIOS: usize = 5;

/// Every algorithm on the scenarios `pick(algorithm index)` of `set`.
fn run_set(set: &str, pick: impl Fn(usize) -> Vec<usize>) {
    let t0 = std::time::Instant::now();
    let inst = peer_moldable::load_instance(&shared().join(set), 7500).unwrap();
    eprintln!("{set}: loaded in {:.1} s", t0.elapsed().as_secs_f64());
    for (a, (algo, tag, dir)) in ALGOS.iter().enumerate() {
        let which = pick(a);
        let t = std::time::Instant::now();
        compare(&inst, set, algo, &which, dir, &format!("{tag}_{set}"));
        eprintln!(
            "{set} {algo}: scenarios {which:?} agree ({:.1} s)",
            t.elapsed().as_secs_f64()
        );
    }
}

/// The default run: one file per model, the sets rotating (rft_1, com_2, amd_3, mix_1), each
/// algorithm a (0..=3) on one scenario, (set − 1 + a) mod 5, so each file checks four of its
/// five scenarios; the selection is printed. Reading a file builds 500 × 7500 exact times,
/// which dominates in debug (Amdahl's decimal γ most), so the other
/// eight files and scenarios are left to the ignored test below, run in release.
fn default_model(model: &str, set: usize) {
    run_set(&format!("{model}_{set}"), |a| {
        vec![(set - 1 + a) % SCENARIOS]
    });
}

#[test]
#[cfg_attr(not(feature = "slow-tests"), ignore = "slow tier: .ci/run runs it")]
fn agree_roofline() {
    default_model("rft", 1);
}

#[test]
#[cfg_attr(not(feature = "slow-tests"), ignore = "slow tier: .ci/run runs it")]
fn agree_communication() {
    default_model("com", 2);
}

#[test]
#[cfg_attr(not(feature = "slow-tests"), ignore = "slow tier: .ci/run runs it")]
fn agree_amdahl() {
    default_model("amd", 3);
}

#[test]
#[cfg_attr(not(feature = "slow-tests"), ignore = "slow tier: .ci/run runs it")]
fn agree_mix() {
    default_model("mix", 1);
}

/// Every scenario of every file (run it in release:
/// `cargo test --release --test peer_moldable -- --ignored`).
#[test]
#[ignore = "every scenario of the 12 files: minutes in debug"]
fn agree_every_scenario() {
    for m in ["rft", "com", "amd", "mix"] {
        for i in 1..=3 {
            run_set(&format!("{m}_{i}"), |_| (0..SCENARIOS).collect());
        }
    }
}
