//! `resched steal --jobs-csv`: the per-job rows reproduce, exactly, every flow statistic the
//! metrics CSV reports (max, mean, size-weighted mean, overall and per size class, with
//! `--prune-jobs`), and the useful utilization over the default window; an output path that
//! cannot be written is refused before anything is simulated, leaving no file behind.
use crate::support::{build_tag, resched};
use resched::Time;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// 40 jobs on 16 nodes, sizes 1..=16, some walltimes below the run time (cut), released over
/// 2000 s.
fn workload(dir: &Path) -> String {
    let mut s = String::from("; MaxNodes: 16\n");
    for i in 1..=40u32 {
        let submit = (i * 53) % 2000;
        let run = 200 + (i * 379) % 3000;
        let procs = 1 + (i * 7) % 16;
        let wall = if i % 9 == 0 { run / 2 } else { run + 600 };
        s.push_str(&format!(
            "{i} {submit} -1 {run} {procs} -1 -1 {procs} {wall} -1 1 -1 -1 -1 -1 -1 -1 -1\n"
        ));
    }
    let p = dir.join("w.swf");
    std::fs::write(&p, s).unwrap();
    p.display().to_string()
}

/// `variant → column → value` of the metrics CSV (exact column), for one scope.
fn metrics(text: &str) -> BTreeMap<(String, String, String), Time> {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            (
                (rec[0].to_string(), rec[1].to_string(), rec[2].to_string()),
                rec[4].parse().unwrap(),
            )
        })
        .collect()
}

/// One row of the jobs CSV.
struct Job {
    variant: String,
    class: u32,
    nodes: u64,
    node_count_from_ids: u64,
    release: Time,
    first_start: Time,
    start: Time,
    end: Time,
    flow: Time,
    work: Time,
    in_flows: bool,
}

fn jobs(text: &str) -> Vec<Job> {
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            let t = |name: &str| -> Time { rec[col(name)].parse().unwrap() };
            let ids: u64 = rec[col("node_ids")]
                .split(' ')
                .map(|x| match x.split_once('-') {
                    Some((a, b)) => b.parse::<u64>().unwrap() - a.parse::<u64>().unwrap() + 1,
                    None => 1,
                })
                .sum();
            Job {
                variant: rec[col("variant")].to_string(),
                class: rec[col("class")].parse().unwrap(),
                nodes: rec[col("nodes")].parse().unwrap(),
                node_count_from_ids: ids,
                release: t("release"),
                first_start: t("first_start"),
                start: t("start"),
                end: t("end"),
                flow: t("flow"),
                work: t("work"),
                in_flows: &rec[col("in_flows")] == "1",
            }
        })
        .collect()
}

/// (jobs, max, mean, size-weighted mean) of the rows.
fn stats(rows: &[&Job]) -> (Time, Time, Time, Time) {
    let n = rows.len() as u64;
    let max = rows.iter().map(|j| j.flow.clone()).max().unwrap();
    let sum: Time = rows.iter().fold(Time::zero(), |a, j| &a + &j.flow);
    let wsum: Time = rows
        .iter()
        .fold(Time::zero(), |a, j| &a + &j.flow.mul_int(j.nodes));
    let w: u64 = rows.iter().map(|j| j.nodes).sum();
    (
        Time::from_int(n as i64),
        max,
        sum.div_int(n).unwrap(),
        wsum.div_int(w).unwrap(),
    )
}

fn run_steal(dir: &Path, extra: &[&str]) -> (String, String) {
    let w = workload(dir);
    let csv = dir.join("m.csv");
    let jobs_csv = dir.join("jobs.csv");
    let mut args = vec![
        "steal",
        "--workload",
        &w,
        "--variant",
        "baseline,H111,H213,H323",
        "--mtbf",
        "15min",
        "--downtime",
        "10min",
        "--checkpoint",
        "60",
        "--seed",
        "5",
    ];
    let (c, j) = (csv.display().to_string(), jobs_csv.display().to_string());
    args.extend(["--csv", &c, "--jobs-csv", &j]);
    args.extend_from_slice(extra);
    let out = resched(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        std::fs::read_to_string(csv).unwrap(),
        std::fs::read_to_string(jobs_csv).unwrap(),
    )
}

#[test]
fn per_job_flows_reproduce_the_aggregates() {
    for extra in [&[][..], &["--prune-jobs", "20"][..]] {
        let d = tempfile::tempdir().unwrap();
        let (m, j) = run_steal(d.path(), extra);
        let (m, j) = (metrics(&m), jobs(&j));
        let variants: Vec<String> = ["Baseline", "H111", "H213", "H323"]
            .map(String::from)
            .to_vec();
        assert_eq!(j.len(), 40 * variants.len());
        let mut restarts_seen = false;
        for v in &variants {
            let rows: Vec<&Job> = j.iter().filter(|r| &r.variant == v).collect();
            for r in &rows {
                assert_eq!(r.flow, &r.end - &r.release);
                assert!(r.release <= r.first_start && r.first_start <= r.start && r.start < r.end);
                assert_eq!(r.node_count_from_ids, r.nodes);
                restarts_seen |= r.first_start != r.start;
            }
            let kept: Vec<&Job> = rows.iter().copied().filter(|r| r.in_flows).collect();
            let get = |scope: &str, metric: &str| {
                m[&(v.clone(), scope.to_string(), metric.to_string())].clone()
            };
            let check = |scope: &str, rows: &[&Job]| {
                let (n, max, mean, wmean) = stats(rows);
                assert_eq!(n, get(scope, "jobs"), "{v} {scope}");
                assert_eq!(max, get(scope, "max_flow"), "{v} {scope}");
                assert_eq!(mean, get(scope, "mean_flow"), "{v} {scope}");
                assert_eq!(wmean, get(scope, "weighted_mean_flow"), "{v} {scope}");
            };
            check("all", &kept);
            let mut classes: Vec<u32> = kept.iter().map(|r| r.class).collect();
            classes.sort_unstable();
            classes.dedup();
            for k in classes {
                let in_k: Vec<&Job> = kept.iter().copied().filter(|r| r.class == k).collect();
                check(&format!("[2^{k},2^{})", k + 1), &in_k);
            }
            // Useful utilization over the default window [first submission, last completion):
            // every job's work is kept exactly once.
            let last = rows.iter().map(|r| r.end.clone()).max().unwrap();
            let first = rows.iter().map(|r| r.release.clone()).min().unwrap();
            assert_eq!(get("platform", "window_start"), first, "{v}");
            let useful = rows
                .iter()
                .fold(Time::zero(), |a, r| &a + &r.work.mul_int(r.nodes));
            assert_eq!(get("platform", "window_end"), last, "{v}");
            assert_eq!(
                useful.checked_div(&(&last - &first).mul_int(16)).unwrap(),
                get("platform", "utilization"),
                "{v}"
            );
        }
        assert!(restarts_seen, "the workload should see failures");
    }
}

#[test]
fn toy_example_rows() {
    // The toy example through the library's names: J3 fails at 1 (Baseline resubmits it; SFSJ
    // steals J2's node), so J2 is stolen once under SFSJ.
    let d = tempfile::tempdir().unwrap();
    let swf = d.path().join("toy.swf");
    std::fs::write(
        &swf,
        "; MaxNodes: 8
1 0 -1 8 1 -1 -1 1 8 -1 1 -1 -1 -1 -1 -1 -1 -1
2 0 -1 5 1 -1 -1 1 5 -1 1 -1 -1 -1 -1 -1 -1 -1
3 0 -1 10 6 -1 -1 6 10 -1 1 -1 -1 -1 -1 -1 -1 -1
4 0 -1 10 6 -1 -1 6 10 -1 1 -1 -1 -1 -1 -1 -1 -1
5 0 -1 2 1 -1 -1 1 2 -1 1 -1 -1 -1 -1 -1 -1 -1
",
    )
    .unwrap();
    let fl = d.path().join("toy.failures");
    std::fs::write(&fl, "1 2\n").unwrap();
    let out = d.path().join("jobs.csv");
    let o = resched(&[
        "steal",
        "--workload",
        swf.to_str().unwrap(),
        "--failures",
        fl.to_str().unwrap(),
        "--downtime",
        "5",
        "--checkpoint",
        "0",
        "--recovery",
        "0",
        "--mtbf",
        "1",
        "--variant",
        "baseline,SFSJ",
        "--jobs-csv",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "variant,job,name,class,nodes,node_ids,release,first_start,start,end,flow,flow_decimal,work,restarts,failed,stolen,in_flows,status,resched"
    );
    let tag = build_tag();
    let lines: Vec<&str> = lines[1..]
        .iter()
        .map(|l| {
            l.strip_suffix(tag.as_str())
                .and_then(|l| l.strip_suffix(','))
                .unwrap_or_else(|| panic!("a row without the build {tag}: {l}"))
        })
        .collect();
    // Table 1: SFSJ gives J2 (stolen at 1, restarted at 6 on P3) flow 11, J3 flow 11.
    assert!(
        lines.contains(&"H111,1,2,0,1,2,0,0,6,11,11,11.000000,5,1,0,1,1,complete"),
        "{text}"
    );
    assert!(
        lines.contains(&"H111,2,3,2,6,1 3-7,0,0,1,11,11,11.000000,10,1,1,0,1,complete"),
        "{text}"
    );
    assert!(
        lines.contains(&"Baseline,2,3,2,6,1 3-7,0,0,5,15,15,15.000000,10,1,1,0,1,complete"),
        "{text}"
    );
}

#[test]
fn unwritable_jobs_csv_is_refused_before_simulating() {
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    for p in [
        file.join("jobs.csv"),
        d.path().join("no/such/dir/jobs.csv"),
        d.path().to_path_buf(),
    ] {
        // All 19 variants on Table 6's workload: a long run if anything were simulated.
        let t0 = std::time::Instant::now();
        let o = Command::new(crate::support::bin())
            .args(["steal", "--workload", "synthetic", "--variant", "all"])
            .arg("--jobs-csv")
            .arg(&p)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{}: {err}", p.display());
        assert!(err.contains("--jobs-csv"), "{err}");
        assert!(!err.contains("simulated in"), "{err}");
        assert!(t0.elapsed().as_secs() < 10, "took {:?}", t0.elapsed());
    }
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
}
