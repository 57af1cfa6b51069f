//! Batsim workload files as `steal` workloads (`--workload W.json`, `resched::workload::batsim`
//! and `resched::stealing::batsim`): the example of `docs/reference/batsim.md` read and run,
//! and its round trip through the Batsim `jobs.csv` export: every job comes back with its
//! Batsim id, submission time, resources, walltime and delay, at the times conservative
//! backfilling gives on the example's four nodes.

#[test]
fn the_format_pages_workload_round_trips_through_jobs_csv() {
    let d = tempfile::tempdir().unwrap();
    let none = d.path().join("no-failures.txt");
    std::fs::write(&none, "# no failure\n").unwrap();
    let w = crate::support::repo().join("docs/reference/data/batsim-workload.json");
    let out = d.path().join("batsim");
    let o = crate::support::resched(&[
        "steal",
        "--workload",
        w.to_str().unwrap(),
        "--variant",
        "baseline",
        "--checkpoint",
        "0",
        "--failures",
        none.to_str().unwrap(),
        "--batsim-dir",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        stdout.contains("Batsim workload, 3 jobs on 4 nodes (from nb_res); delay profiles as run times, 0 runs cut to their walltime, 1 without walltime"),
        "{stdout}"
    );
    let got: Vec<[String; 8]> = crate::support::csv_rows(&out.join("Baseline_jobs.csv"))
        .into_iter()
        .map(|r| {
            [
                "job",
                "submission_time",
                "requested_number_of_resources",
                "requested_time",
                "execution_time",
                "exact_start",
                "exact_finish",
                "final_state",
            ]
            .map(|c| r[c].clone())
        })
        .collect();
    let want = [
        [
            "a",
            "0.000000000",
            "2",
            "100.000000000",
            "20.200000000",
            "0",
            "101/5",
            "COMPLETED_SUCCESSFULLY",
        ],
        [
            "c",
            "2.000000000",
            "1",
            "10.000000000",
            "10.000000000",
            "2",
            "12",
            "COMPLETED_SUCCESSFULLY",
        ],
        [
            "b",
            "1.500000000",
            "4",
            "50.000000000",
            "10.000000000",
            "101/5",
            "151/5",
            "COMPLETED_SUCCESSFULLY",
        ],
    ]
    .map(|r| r.map(String::from));
    assert_eq!(got, want);
}

#[test]
fn a_platform_dependent_profile_is_refused_naming_job_and_profile() {
    let d = tempfile::tempdir().unwrap();
    let w = d.path().join("w.json");
    std::fs::write(
        &w,
        r#"{"nb_res": 2, "jobs": [{"id": "j1", "subtime": 0, "res": 2, "profile": "p"}],
            "profiles": {"p": {"type": "parallel_homogeneous", "cpu": 1e9, "com": 0}}}"#,
    )
    .unwrap();
    let o = crate::support::resched(&["steal", "--workload", w.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("w.json: field `profiles.p.type`: job `j1`: profile `p` is of type `parallel_homogeneous`: resched reads `delay` profiles only"),
        "{err}"
    );
}
