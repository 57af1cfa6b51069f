//! The Batsim `jobs.csv` export (`simulate --batsim-jobs`, `steal --batsim-dir`): the rows of the
//! reference example exactly as `docs/reference/batsim.md` shows them, and on a node-stealing
//! run every attempt on node ids no other attempt holds at the same time (exact times), every
//! job completing once. `python/tests/test_batsim_evalys.py` opens the same files in evalys.
use std::collections::BTreeMap;

use resched::Time;

fn run(args: &[&str]) -> String {
    let o = crate::support::resched(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_reference_example_as_the_format_page_shows_it() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("jobs.csv");
    let root = crate::support::repo();
    let data = |f: &str| {
        root.join("docs/reference/data")
            .join(f)
            .display()
            .to_string()
    };
    run(&[
        "simulate",
        "--instance",
        &data("instance.json"),
        "--scenario",
        &data("scenario.json"),
        "--algo",
        "greedy",
        "--batsim-jobs",
        out.to_str().unwrap(),
    ]);
    let cols = [
        "job_id",
        "success",
        "final_state",
        "starting_time",
        "finish_time",
        "allocated_resources",
    ];
    let got: Vec<String> = crate::support::csv_rows(&out)
        .iter()
        .map(|r| cols.map(|c| r[c].clone()).join(","))
        .collect();
    let page = std::fs::read_to_string(root.join("docs/reference/batsim.md")).unwrap();
    let shown: Vec<&str> = page
        .lines()
        .skip_while(|l| !l.starts_with("job_id,success,final_state"))
        .skip(1)
        .take_while(|l| l.starts_with("resched!"))
        .collect();
    assert_eq!(got, shown);
    assert_eq!(shown.len(), 5);
}

#[test]
fn a_steal_run_places_every_attempt_on_free_nodes() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("b");
    let stdout = run(&[
        "steal",
        "--workload",
        "synthetic",
        "--variant",
        "baseline,SFSJ",
        "--seed",
        "3",
        "--batsim-dir",
        dir.to_str().unwrap(),
    ]);
    for v in ["Baseline", "H111"] {
        let path = dir.join(format!("{v}_jobs.csv"));
        assert!(
            stdout.contains(&format!("batsim jobs: {}", path.display())),
            "{stdout}"
        );
        let rows = crate::support::csv_rows(&path);
        let done: Vec<&BTreeMap<String, String>> = rows
            .iter()
            .filter(|r| r["final_state"] == "COMPLETED_SUCCESSFULLY")
            .collect();
        assert_eq!(done.len(), 1000, "{v}");
        let mut by_node: BTreeMap<u32, Vec<(Time, Time)>> = BTreeMap::new();
        for r in &rows {
            let (s, e): (Time, Time) = (
                r["exact_start"].parse().unwrap(),
                r["exact_finish"].parse().unwrap(),
            );
            let mut count = 0;
            for part in r["allocated_resources"].split(' ') {
                let (a, b) = part.split_once('-').unwrap_or((part, part));
                for n in a.parse::<u32>().unwrap()..=b.parse::<u32>().unwrap() {
                    assert!(n < 128, "{v}: node {n}");
                    by_node.entry(n).or_default().push((s.clone(), e.clone()));
                    count += 1;
                }
            }
            assert_eq!(
                count.to_string(),
                r["requested_number_of_resources"],
                "{v}: {r:?}"
            );
        }
        for (n, spans) in &mut by_node {
            spans.sort();
            for w in spans.windows(2) {
                assert!(
                    w[0].1 <= w[1].0,
                    "{v}: node {n} runs {:?} and {:?}",
                    w[0],
                    w[1]
                );
            }
        }
    }
}
