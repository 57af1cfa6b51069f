//! `resched steal` end to end: the toy example through SWF and failure-list files (exact values
//! in the CSV), outputs written, and bad input rejected with an error naming the line or option
//! while leaving no output file behind.
use crate::support::{build_tag, resched};
use std::path::Path;

const TOY_SWF: &str = "; MaxNodes: 8
; the five jobs of Table 1 (node-stealing paper, Section 3)
1 0 -1 8 1 -1 -1 1 8 -1 1 -1 -1 -1 -1 -1 -1 -1
2 0 -1 5 1 -1 -1 1 5 -1 1 -1 -1 -1 -1 -1 -1 -1
3 0 -1 10 6 -1 -1 6 10 -1 1 -1 -1 -1 -1 -1 -1 -1
4 0 -1 10 6 -1 -1 6 10 -1 1 -1 -1 -1 -1 -1 -1 -1
5 0 -1 2 1 -1 -1 1 2 -1 1 -1 -1 -1 -1 -1 -1 -1
";

/// The standard output of a run that must succeed (its standard error in the message if not).
fn stdout_of(args: &[&str]) -> String {
    let out = resched(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn files(dir: &Path) -> (String, String) {
    let swf = dir.join("toy.swf");
    let fl = dir.join("toy.failures");
    std::fs::write(&swf, TOY_SWF).unwrap();
    std::fs::write(&fl, "# P3 fails at t = 1\n1 2\n").unwrap();
    (swf.display().to_string(), fl.display().to_string())
}

fn toy_args<'a>(swf: &'a str, fl: &'a str) -> Vec<&'a str> {
    vec![
        "steal",
        "--workload",
        swf,
        "--failures",
        fl,
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
    ]
}

#[test]
fn toy_example_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let (swf, fl) = files(dir.path());
    let csv = dir.path().join("toy.csv");
    let plots = dir.path().join("plots");
    let mut args = toy_args(&swf, &fl);
    let (c, p) = (csv.display().to_string(), plots.display().to_string());
    args.extend(["--csv", &c, "--plots", &p]);
    let out = resched(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    for line in [
        "Baseline,all,max_flow,25.000000,25,complete",
        "Baseline,all,mean_flow,11.200000,56/5,complete",
        "Baseline,all,weighted_mean_flow,17.066667,256/15,complete",
        "H111,all,max_flow,21.000000,21,complete",
        "H111,all,mean_flow,12.200000,61/5,complete",
        "H111,all,weighted_mean_flow,14.733333,221/15,complete",
        "H111,stats,node_stealing,1.000000,1,complete",
    ] {
        let line = format!("{line},{}", build_tag());
        assert!(
            text.lines().any(|l| l == line),
            "missing `{line}` in\n{text}"
        );
    }
    for f in [
        "flow_ratios-unforeseen-completions.svg",
        "flow_ratios-unforeseen-completions.png",
        "decomposition-unforeseen-completions.svg",
        "utilization_ratio-unforeseen-completions.png",
    ] {
        assert!(
            plots
                .join(f)
                .metadata()
                .map(|m| m.len() > 0)
                .unwrap_or(false),
            "{f} not written"
        );
    }
    assert!(stdout.contains("flow ratios variant/Baseline"), "{stdout}");
    // Every SVG parses, names every variant it compares and shows no NaN.
    for (f, wants) in [
        (
            "flow_ratios-unforeseen-completions.svg",
            &[
                "H111",
                "Maximum flow, H11· (T: interrupt now, V: fewest nodes)",
                "all jobs",
            ][..],
        ),
        (
            "utilization_ratio-unforeseen-completions.svg",
            &["H11·", "z = 1: victim on fewer nodes (K1)"][..],
        ),
        (
            "decomposition-unforeseen-completions.svg",
            &["Baseline", "H111", "stealing", "idle"][..],
        ),
    ] {
        let svg = std::fs::read_to_string(plots.join(f)).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{f}: {e}"));
        let texts: Vec<String> = doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| n.text().unwrap_or_default().trim().to_string())
            .collect();
        for want in wants {
            assert!(
                texts.iter().any(|t| t == want),
                "{f}: no `{want}` in {texts:?}"
            );
        }
        assert!(!svg.contains("NaN"), "{f} has NaN");
    }
}

fn fails_with(args: &[&str], needle: &str, csv: &Path) {
    let out = resched(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: `{needle}` not in: {err}");
    assert!(!csv.exists(), "{args:?}: an output was written");
}

#[test]
fn bad_input_names_the_line_or_option() {
    let dir = tempfile::tempdir().unwrap();
    let (swf, fl) = files(dir.path());
    let csv = dir.path().join("out.csv");
    let c = csv.display().to_string();
    let with = |extra: &[&'static str]| -> Vec<String> {
        let mut a: Vec<String> = toy_args(&swf, &fl).iter().map(|s| s.to_string()).collect();
        a.extend(["--csv".to_string(), c.clone()]);
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let run = |extra: &[&'static str], needle: &str| {
        let a = with(extra);
        let refs: Vec<&str> = a.iter().map(|s| s.as_str()).collect();
        fails_with(&refs, needle, &csv);
    };
    run(&["--mtbf", "0"], "--mtbf");
    run(&["--downtime", "-5"], "--downtime");
    run(&["--checkpoint", "soon"], "--checkpoint");
    run(&["--variant", "H411"], "--variant");
    run(&["--window", "5:1"], "--window");

    // A job larger than the machine: the SWF line is named.
    let big = dir.path().join("big.swf");
    std::fs::write(
        &big,
        TOY_SWF.replace("3 0 -1 10 6 -1 -1 6 10", "3 0 -1 10 9 -1 -1 9 10"),
    )
    .unwrap();
    let b = big.display().to_string();
    fails_with(&["steal", "--workload", &b, "--csv", &c], "big.swf:5", &csv);
    // An SWF line with too few fields.
    let short = dir.path().join("short.swf");
    std::fs::write(
        &short,
        TOY_SWF.replace(
            "5 0 -1 2 1 -1 -1 1 2 -1 1 -1 -1 -1 -1 -1 -1 -1",
            "5 0 -1 2 1",
        ),
    )
    .unwrap();
    let s = short.display().to_string();
    fails_with(
        &["steal", "--workload", &s, "--csv", &c],
        "short.swf:7",
        &csv,
    );
    // A negative failure time: the failure file line is named.
    let neg = dir.path().join("neg.failures");
    std::fs::write(&neg, "1 2\n-4 1\n").unwrap();
    let n = neg.display().to_string();
    fails_with(
        &["steal", "--workload", &swf, "--failures", &n, "--csv", &c],
        "neg.failures:2",
        &csv,
    );
    // A bad synthetic spec.
    fails_with(
        &["steal", "--workload", "synthetic:lambda=-1", "--csv", &c],
        "--workload",
        &csv,
    );
}

/// A slice of a log whose first job arrives on day 504 is measured from its first
/// submission, not from t = 0: the toy example shifted by 504 days (failure included) reports
/// the very same table as the original.
#[test]
fn measurement_starts_at_the_first_submission() {
    let dir = tempfile::tempdir().unwrap();
    let (swf, fl) = files(dir.path());
    const SHIFT: i64 = 504 * 86_400;
    let shifted: String = TOY_SWF
        .lines()
        .map(|l| {
            if l.starts_with(';') {
                return format!("{l}\n");
            }
            let mut f: Vec<String> = l.split_whitespace().map(String::from).collect();
            f[1] = (f[1].parse::<i64>().unwrap() + SHIFT).to_string();
            format!("{}\n", f.join(" "))
        })
        .collect();
    let (sswf, sfl) = (
        dir.path().join("late.swf"),
        dir.path().join("late.failures"),
    );
    std::fs::write(&sswf, shifted).unwrap();
    std::fs::write(&sfl, format!("{} 2\n", SHIFT + 1)).unwrap();
    let (s1, s2) = (sswf.display().to_string(), sfl.display().to_string());
    let table = |args: Vec<&str>| -> Vec<String> {
        stdout_of(&args)
            .lines()
            .filter(|l| l.starts_with("Baseline") || l.starts_with("SFSJ"))
            .map(String::from)
            .collect()
    };
    let a = table(toy_args(&swf, &fl));
    let b = table(toy_args(&s1, &s2));
    assert!(!a.is_empty());
    assert_eq!(a, b);
    // --window counts from the first submission too.
    let mut wa = toy_args(&swf, &fl);
    wa.extend(["--window", "2:9"]);
    let mut wb = toy_args(&s1, &s2);
    wb.extend(["--window", "2:9"]);
    assert_eq!(table(wa), table(wb));
}

/// `--measure`: a named rule; `paper` refuses a trace without 30 days of submissions.
#[test]
fn measure_rules_are_named_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let (swf, fl) = files(dir.path());
    let csv = dir.path().join("m.csv");
    let c = csv.display().to_string();
    let mut a = toy_args(&swf, &fl);
    a.extend(["--csv", &c, "--measure", "month"]);
    fails_with(&a, "--measure", &csv);
    let mut p = toy_args(&swf, &fl);
    p.extend(["--csv", &c, "--measure", "paper"]);
    fails_with(&p, "30 of Section 5.3.3", &csv);
}

/// The workload line gives the offered load, Σ p·t over N·(r_last − r_first), and says when
/// the platform is past its capacity before any failure (a headerless log sized by its
/// largest job, as METACENTRUM-2009-2 is): six jobs of 100 s over 50 s ask for 700
/// node-seconds, 7 times what its 2 nodes give, and 0.7 of 20 nodes.
#[test]
fn the_workload_line_gives_the_offered_load() {
    let dir = tempfile::tempdir().unwrap();
    let swf = dir.path().join("busy.swf");
    let lines: String = (0..6)
        .map(|k| {
            let p = if k == 5 { 2 } else { 1 };
            format!(
                "{} {} -1 100 {p} -1 -1 {p} 200 -1 1 -1 -1 -1 -1 -1 -1 -1\n",
                k + 1,
                10 * k
            )
        })
        .collect();
    std::fs::write(&swf, lines).unwrap();
    let s = swf.display().to_string();
    let line = |extra: &[&str]| -> String {
        let mut args = vec!["steal", "--workload", &s, "--variant", "baseline"];
        args.extend(extra);
        stdout_of(&args)
            .lines()
            .find(|l| l.starts_with("workload:"))
            .unwrap_or_default()
            .to_string()
    };
    let small = line(&[]);
    assert!(
        small.contains("on 2 nodes (from the largest job"),
        "{small}"
    );
    assert!(small.contains("offered load 7.00"), "{small}");
    assert!(
        small.contains("past its capacity before any failure")
            && small.contains("give the machine's size with --nodes"),
        "{small}"
    );
    let large = line(&["--nodes", "20"]);
    assert!(large.contains("offered load 0.70"), "{large}");
    assert!(!large.contains("past its capacity"), "{large}");
}

/// The readings in effect are printed: the defaults are the paper's (`unforeseen`, Batsched's
/// `completions`), resched's first ones are reached by naming them, and a wrong name is refused
/// naming its option.
#[test]
fn the_readings_in_effect_are_printed() {
    let dir = tempfile::tempdir().unwrap();
    let (swf, fl) = files(dir.path());
    let lines = |extra: &[&str]| -> Vec<String> {
        let mut a = toy_args(&swf, &fl);
        a.extend(extra);
        stdout_of(&a)
            .lines()
            .filter(|l| l.starts_with("node returns:") || l.starts_with("compression:"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        lines(&[]),
        [
            "node returns: unforeseen by the plan",
            "compression: at completions (docs/reference/readings.md)"
        ]
    );
    assert_eq!(
        lines(&[
            "--returns",
            "foreseen",
            "--compression",
            "completions-and-arrivals"
        ]),
        [
            "node returns: foreseen by the plan",
            "compression: at completions-and-arrivals (docs/reference/readings.md)"
        ]
    );
    let csv = dir.path().join("r.csv");
    let c = csv.display().to_string();
    let mut a = toy_args(&swf, &fl);
    a.extend(["--csv", &c, "--compression", "arrivals"]);
    fails_with(&a, "--compression", &csv);
}
