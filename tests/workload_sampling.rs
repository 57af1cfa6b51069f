//! Failure sampling: empirical means of the drawn failure counts against q/(1 − q), the
//! thread-count independence of scenarios, and the paper's q̄ calibration on synthetic sets.
use rayon::prelude::*;
use resched::workload::sampling::FailureLaw;
use resched::workload::synthetic::RigidSetSpec;

#[test]
fn empirical_mean_failures_match_q_over_one_minus_q() {
    // Exposures chosen so that q spans 0.01 .. 0.9.
    let qs = [0.01, 0.1, 0.3, 0.5, 0.7, 0.9];
    let x: Vec<f64> = qs.iter().map(|q: &f64| -(1.0 - q).ln()).collect();
    let law = FailureLaw::from_exposure(1.0, &x).unwrap();
    let n = 20_000u64;
    let seed = 2024;
    let mut sum = vec![0u64; qs.len()];
    let mut zeros = vec![0u64; qs.len()];
    for k in 0..n {
        let sc = law.scenario(seed, 0, k).unwrap();
        for (j, &f) in sc.failures.iter().enumerate() {
            sum[j] += u64::from(f);
            zeros[j] += u64::from(f == 0);
        }
    }
    for (j, &q) in qs.iter().enumerate() {
        let mean = sum[j] as f64 / n as f64;
        let want = q / (1.0 - q);
        // Standard error of the mean of a geometric law: sqrt(q)/(1 − q)/sqrt(n); allow 5 of them.
        let se = q.sqrt() / (1.0 - q) / (n as f64).sqrt();
        assert!(
            (mean - want).abs() < 5.0 * se + 1e-9,
            "seed {seed}, q = {q}: mean {mean} vs {want} (se {se})"
        );
        // P(f = 0) = 1 − q.
        let p0 = zeros[j] as f64 / n as f64;
        let se0 = (q * (1.0 - q) / n as f64).sqrt();
        assert!(
            (p0 - (1.0 - q)).abs() < 5.0 * se0 + 1e-9,
            "seed {seed}, q = {q}: P(f=0) {p0}"
        );
    }
}

#[test]
fn scenarios_do_not_depend_on_the_thread_count() {
    let inst = RigidSetSpec::paper().generate(7, 0).unwrap();
    let law = FailureLaw::rigid_qbar(&inst, 0.3).unwrap();
    let serial: Vec<_> = (0..64).map(|k| law.scenario(7, 0, k).unwrap()).collect();
    for threads in [1, 2, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let par: Vec<_> = pool.install(|| {
            (0..64u64)
                .rev()
                .collect::<Vec<_>>()
                .into_par_iter()
                .map(|k| law.scenario(7, 0, k).unwrap())
                .collect()
        });
        let par: Vec<_> = par.into_iter().rev().collect();
        assert_eq!(serial, par, "threads = {threads}");
    }
}

#[test]
fn qbar_calibration_on_the_papers_sets() {
    // With q̄ = 0.3, a job of mean area fails with probability 0.3 and the mean number of
    // failures per job is Σ q_j/(1 − q_j)/n, which the draws reproduce.
    let inst = RigidSetSpec::paper().generate(11, 2).unwrap();
    let law = FailureLaw::rigid_qbar(&inst, 0.3).unwrap();
    let areas: Vec<f64> = inst
        .jobs
        .iter()
        .map(|j| {
            j.as_rigid()
                .map(|(p, t)| f64::from(p) * t.to_f64())
                .unwrap()
        })
        .collect();
    let abar = areas.iter().sum::<f64>() / areas.len() as f64;
    assert!((1.0 - (-law.lambda * abar).exp() - 0.3).abs() < 1e-12);
    let n = 2000;
    let total: u64 = (0..n)
        .map(|k| law.scenario(11, 2, k).unwrap().total_failures())
        .sum();
    let mean = total as f64 / n as f64;
    let want = law.expected_total();
    assert!(
        (mean - want).abs() / want < 0.05,
        "seed 11 set 2: mean total failures {mean} vs expected {want}"
    );
}
