//! Every campaign's `--quick` version runs, writes its outputs (CSV, JSON with seed and version,
//! Markdown, SVG + PNG) and gives sane ratios (≥ 1: a makespan is never below its lower bound);
//! a rerun resumes without recomputing; the thread count does not change the numbers.
use resched_cli::experiment::{self, Options};
use std::path::Path;

/// The Mira windows of `../shared/traces` the trace campaigns run on (`take` of them).
fn mira(take: usize) -> Vec<std::path::PathBuf> {
    resched_cli::experiment::rigid_trace::MIRA_WINDOWS
        .iter()
        .take(take)
        .map(|n| crate::support::shared("traces").join(n))
        .collect()
}

fn quick(dir: &Path) -> Options {
    Options {
        quick: true,
        out: Some(dir.to_path_buf()),
        seed: 5,
        threads: Some(2),
        progress: false,
        ..Options::default()
    }
}

/// Checks the common outputs; returns the ratio column values of summary.csv.
fn check_outputs(dir: &Path, campaign: &str, ratio_cols: &[&str]) -> Vec<f64> {
    for f in [
        "manifest.json",
        "cells.csv",
        "summary.csv",
        "results.json",
        "summary.md",
    ] {
        assert!(dir.join(f).is_file(), "{campaign}: {f} missing");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
    assert_eq!(json["manifest"]["campaign"], campaign);
    assert_eq!(json["manifest"]["seed"], 5);
    assert_eq!(json["manifest"]["version"], env!("CARGO_PKG_VERSION"));
    let cells = json["cells"].as_array().unwrap();
    assert!(!cells.is_empty());
    // Every cell validated schedules through the checker.
    for c in cells {
        for s in c["stats"].as_array().unwrap() {
            assert!(s["checked"].as_u64().unwrap() >= 1, "{campaign}: {s}");
        }
    }
    let mut rdr = csv::Reader::from_path(dir.join("summary.csv")).unwrap();
    let headers = rdr.headers().unwrap().clone();
    let idx: Vec<usize> = ratio_cols
        .iter()
        .map(|c| {
            headers
                .iter()
                .position(|h| h == *c)
                .unwrap_or_else(|| panic!("{campaign}: no column {c}"))
        })
        .collect();
    let mut values = Vec::new();
    for rec in rdr.records() {
        let rec = rec.unwrap();
        for &i in &idx {
            let v: f64 = rec[i].parse().unwrap();
            assert!(
                v >= 1.0 - 1e-12 && v.is_finite(),
                "{campaign}: ratio {v} in {rec:?}"
            );
            values.push(v);
        }
    }
    assert!(!values.is_empty());
    let mut pngs = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "png") {
            let b = std::fs::read(&p).unwrap();
            assert_eq!(&b[..4], b"\x89PNG", "{}", p.display());
            assert!(p.with_extension("svg").is_file());
            pngs += 1;
        }
        assert!(
            !p.file_name().unwrap().to_string_lossy().starts_with('.'),
            "temporary file left: {}",
            p.display()
        );
    }
    assert!(pngs >= 1, "{campaign}: no figure");
    values
}

/// A figure a reader can trust: the SVG is well-formed XML, its text names every label of
/// `must` (series, paper values, natural-unit ticks) and holds no "NaN", "inf" or a raw
/// logarithm as an axis ("log10"); its PNG sibling exists.
fn check_figure(svg: &Path, must: &[&str]) {
    let text = std::fs::read_to_string(svg).unwrap_or_else(|e| panic!("{}: {e}", svg.display()));
    let doc =
        roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", svg.display()));
    let words: Vec<&str> = doc
        .descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect();
    for m in must {
        assert!(
            words.iter().any(|w| w.contains(m)),
            "{}: no `{m}` in {words:?}",
            svg.display()
        );
    }
    for bad in ["NaN", "inf", "log10"] {
        assert!(
            !words.iter().any(|w| w.contains(bad)),
            "{}: `{bad}` in {words:?}",
            svg.display()
        );
    }
    assert!(svg.with_extension("png").is_file());
}

#[test]
fn rigid_qbar_quick() {
    let dir = tempfile::tempdir().unwrap();
    let o = experiment::run("rigid-qbar", &quick(dir.path())).unwrap();
    assert_eq!(o.stats.resumed, 0);
    check_outputs(dir.path(), "rigid-qbar", &["mean_ratio", "max_ratio"]);
    assert!(o.markdown.contains("R-ShelfFill-B") && o.markdown.contains("findings"));
    let shelf = [
        "R-Shelf-B",
        "R-Shelf-NB",
        "R-ShelfFill-B",
        "R-ShelfFill-NB",
        "q̄",
        "0.3",
    ];
    check_figure(&dir.path().join("shelf.svg"), &shelf);
    check_figure(
        &dir.path().join("shelf.svg"),
        &["R-ShelfFill-B max (paper, §5.2 text: 1.2)"],
    );
    let prios = [
        "LPT",
        "SPT",
        "HPA",
        "LPA",
        "LA",
        "SA",
        "RANDOM",
        "best priorities",
    ];
    check_figure(&dir.path().join("heuristics.svg"), &prios);
    check_figure(
        &dir.path().join("heuristics.svg"),
        &["R-List-0", "R-ShelfFill-NB", "R-List-Q-kept"],
    );
    // A rerun resumes every cell and writes the same summary.
    let before = std::fs::read_to_string(dir.path().join("summary.csv")).unwrap();
    let again = experiment::run("rigid-qbar", &quick(dir.path())).unwrap();
    assert_eq!(
        (again.stats.computed, again.stats.resumed),
        (0, o.stats.computed)
    );
    assert_eq!(
        before,
        std::fs::read_to_string(dir.path().join("summary.csv")).unwrap()
    );
    // Another seed in the same directory is refused.
    let other = Options {
        seed: 6,
        ..quick(dir.path())
    };
    assert!(experiment::run("rigid-qbar", &other)
        .unwrap_err()
        .to_string()
        .contains("seed"));
}

#[test]
fn rigid_procs_quick() {
    let dir = tempfile::tempdir().unwrap();
    let o = experiment::run("rigid-procs", &quick(dir.path())).unwrap();
    check_outputs(dir.path(), "rigid-procs", &["mean_ratio", "max_ratio"]);
    // The findings are judged by the one verdict rule, the paper's own exception included.
    assert!(o
        .markdown
        .contains("| claim | paper | ours | tolerance | verdict |"));
    assert!(o
        .markdown
        .contains("LPT and SPT best, LPT first (Fig. 6, the paper's exception)"));
    assert!(o.markdown.contains("| 4.8% (Section 5.2) |"));
    assert!(!o.markdown.contains("| yes |") && !o.markdown.contains("| no |"));
    check_figure(
        &dir.path().join("shelf.svg"),
        &["R-ShelfFill-B", "P", "Figure 4(b)"],
    );
    check_figure(
        &dir.path().join("heuristics.svg"),
        &["LPT", "best priorities", "Figure 6"],
    );
}

#[test]
fn rigid_trace_quick() {
    let dir = tempfile::tempdir().unwrap();
    let opts = Options {
        traces: mira(2),
        ..quick(dir.path())
    };
    let o = experiment::run("rigid-trace", &opts).unwrap();
    check_outputs(dir.path(), "rigid-trace", &["mean_ratio", "max_ratio"]);
    assert!(
        o.markdown.contains("paper (Mira 06/2019)")
            && o.markdown.contains("Mira-2018-03-16-10days")
    );
    let t = "Mira-2018-03-16-10days";
    let mut must = vec!["R-List-0", "R-List-Q-kept", "q̄", "0.02"];
    must.extend(["R-List-0 (paper)", "R-ShelfFill-NB (paper)", "Table 1"]);
    check_figure(&dir.path().join(format!("table1-{t}.svg")), &must);
    check_figure(
        &dir.path().join(format!("days-{t}.svg")),
        &["day ", "R-ShelfFill-B", "q̄ = 0.1"],
    );
}

/// The manifest says why job lines of a trace were dropped, not only how many: a trace with
/// one line of each kind the cleaning rule drops, beside 21 schedulable jobs on one day.
#[test]
fn rigid_trace_manifest_counts_dropped_lines_by_reason() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("dirty.swf");
    let mut swf = String::from("; MaxProcs: 8\n");
    for j in 1..=21 {
        swf.push_str(&format!(
            "{j} {} 0 {} 2 -1 -1 2 100 -1 1 -1 -1 -1 -1 -1 -1 -1\n",
            10 * j,
            50 + j
        ));
    }
    swf.push_str("22 5 0 0 2 -1 -1 2 100 -1 1 -1 -1 -1 -1 -1 -1 -1\n"); // run time 0
    swf.push_str("23 5 0 30 -1 -1 -1 -1 100 -1 1 -1 -1 -1 -1 -1 -1 -1\n"); // no processor count
    swf.push_str("24 -1 0 30 2 -1 -1 2 100 -1 1 -1 -1 -1 -1 -1 -1 -1\n"); // submit time unknown
    swf.push_str("25 7 0 -1 2 -1 -1 2 100 -1 1 -1 -1 -1 -1 -1 -1 -1\n"); // run time unknown
    std::fs::write(&trace, swf).unwrap();
    let out = dir.path().join("out");
    let opts = Options {
        traces: vec![trace],
        min_jobs: Some(1),
        ..quick(&out)
    };
    experiment::run("rigid-trace", &opts).unwrap();
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    let t = &manifest["traces"][0];
    assert_eq!(t["jobs"], 21, "{t}");
    assert_eq!(t["dropped_by_cleaning"], 4, "{t}");
    assert_eq!(
        t["dropped_by_reason"],
        serde_json::json!({"run_time": 2, "procs": 1, "submit": 1}),
        "{t}"
    );
}

#[test]
fn thread_count_does_not_change_results() {
    let run = |threads: usize| {
        let dir = tempfile::tempdir().unwrap();
        let opts = Options {
            threads: Some(threads),
            sets: Some(2),
            scenarios: Some(2),
            ..quick(dir.path())
        };
        experiment::run("rigid-procs", &opts).unwrap();
        std::fs::read_to_string(dir.path().join("cells.csv")).unwrap()
    };
    assert_eq!(run(1), run(2));
}

#[test]
fn unknown_campaign_and_bad_options() {
    let dir = tempfile::tempdir().unwrap();
    let e = experiment::run("nope", &quick(dir.path()))
        .unwrap_err()
        .to_string();
    assert!(e.contains("rigid-qbar"), "{e}");
    let zero = Options {
        scenarios: Some(0),
        ..quick(dir.path())
    };
    assert!(experiment::run("rigid-qbar", &zero).is_err());
    let missing = Options {
        traces: vec![dir.path().join("none.swf")],
        ..quick(dir.path())
    };
    assert!(experiment::run("rigid-trace", &missing)
        .unwrap_err()
        .to_string()
        .contains("none.swf"));
}

#[test]
fn moldable_table1_quick() {
    let dir = tempfile::tempdir().unwrap();
    let o = experiment::run("moldable-table1", &quick(dir.path())).unwrap();
    check_outputs(dir.path(), "moldable-table1", &["expected", "maximum"]);
    assert!(
        o.markdown.contains("Mix-low-com") && o.markdown.contains("(1.057, "),
        "paper numbers beside ours"
    );
    assert!(
        o.markdown
            .contains("LPA and BATCH outperform MINTIME and MINAREA in all settings"),
        "the Section 6 statement is judged"
    );
    // Expected ≤ maximum for every (algorithm, model).
    let mut rdr = csv::Reader::from_path(dir.path().join("summary.csv")).unwrap();
    for rec in rdr.records() {
        let rec = rec.unwrap();
        let (e, m): (f64, f64) = (rec[2].parse().unwrap(), rec[4].parse().unwrap());
        assert!(e <= m + 1e-12, "{rec:?}");
    }
}

#[test]
fn moldable_sweeps_quick() {
    let dir = tempfile::tempdir().unwrap();
    let o = experiment::run("moldable-sweeps", &quick(dir.path())).unwrap();
    check_outputs(dir.path(), "moldable-sweeps", &["expected", "maximum"]);
    assert!(o.markdown.contains("(c) error rate"));
    assert!(o.markdown.contains("| direction only: "));
    // λ on a log axis labelled 10⁻⁷, 10⁻⁶ (quick sweeps 10⁻⁷ to 10⁻⁶), not log10 λ.
    let must = [
        "LPA",
        "BATCH",
        "BATCH-U",
        "MINTIME",
        "10⁻⁷",
        "10⁻⁶",
        "error rate λ",
    ];
    check_figure(&dir.path().join("figure5.svg"), &must);
}

/// `--eps` reaches BATCH-LIST and the manifest, `--time-grid` rounds the times, both guard
/// resumption, and ε ≤ 0 or a grid outside 1..=40 bits is refused by name.
#[test]
fn moldable_eps_and_time_grid_options() {
    use resched::time::Time;
    let dir = tempfile::tempdir().unwrap();
    let opts = Options {
        eps: Some(Time::new(1, 10).unwrap()),
        scenarios: Some(1),
        ..quick(dir.path())
    };
    let o = experiment::run("moldable-table1", &opts).unwrap();
    assert!(o.markdown.contains("ε = 0.1,") && o.markdown.contains("times exact"));
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["eps"], "1/10");
    assert!(manifest["time_grid_bits"].is_null());
    let grid = Options {
        time_grid: Some(20),
        ..opts.clone()
    };
    let e = experiment::run("moldable-table1", &grid)
        .unwrap_err()
        .to_string();
    assert!(e.contains("time_grid_bits"), "{e}");
    let d2 = tempfile::tempdir().unwrap();
    let o = experiment::run(
        "moldable-table1",
        &Options {
            out: Some(d2.path().to_path_buf()),
            ..grid
        },
    )
    .unwrap();
    assert!(
        o.markdown.contains("rounded up to 2^-20 s"),
        "{}",
        o.markdown
    );
    for bad in [0, 41] {
        let e = experiment::run(
            "moldable-table1",
            &Options {
                time_grid: Some(bad),
                ..quick(tempfile::tempdir().unwrap().path())
            },
        )
        .unwrap_err();
        // The library names its parameter; the CLI, the flag.
        assert!(
            e.to_string().starts_with("parameter `time_grid`: "),
            "{bad}: {e}"
        );
        let e = resched_cli::cli::to_flags("experiment", e).to_string();
        assert!(e.contains("--time-grid"), "{bad}: {e}");
    }
    for bad in ["0", "-1/2"] {
        let e = experiment::run(
            "moldable-sweeps",
            &Options {
                eps: Some(bad.parse().unwrap()),
                ..quick(tempfile::tempdir().unwrap().path())
            },
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("parameter `eps`: "), "{bad}: {e}");
        let e = resched_cli::cli::to_flags("experiment", e).to_string();
        assert!(e.contains("--eps"), "{bad}: {e}");
    }
}

#[test]
fn steal_sweep_quick() {
    let dir = tempfile::tempdir().unwrap();
    let sweep = Options {
        traces: mira(1),
        ..quick(dir.path())
    };
    let o = experiment::run("steal-sweep", &sweep).unwrap();
    for f in [
        "manifest.json",
        "cells.csv",
        "summary.csv",
        "results.json",
        "summary.md",
        "figure9-foreseen.svg",
        "figure9-foreseen.png",
        "figure9-unforeseen.svg",
        "figure9-unforeseen.png",
        "classes.png",
        "decomposition.png",
    ] {
        assert!(dir.path().join(f).is_file(), "steal-sweep: {f} missing");
    }
    // Both readings of node returns, the per-class (Figure 6) and decomposition (Figure 3)
    // tables at the point nearest μ = D = 1 h (quick grid: μ = 1 h, D = 10 min).
    for want in [
        "node returns `foreseen`",
        "node returns `unforeseen`",
        "Flows per size class at μ = 60 min, D = 10 min",
        "decomposition of platform time at μ = 60 min, D = 10 min",
        "Baseline: paper, Mira 03/2018",
        "| μ = 300 min | verdict |",
        "Verdict: Section 6.2's numbers",
    ] {
        assert!(o.markdown.contains(want), "no `{want}` in\n{}", o.markdown);
    }
    assert!(o.markdown.contains("μ = 60 min") && o.markdown.contains("utilization"));
    // The figure: valid SVG; MTBF in hours on the x axis (ticks "1 h", "5 h", not log10
    // values), one series per downtime in the paper's units, the three panels, no NaN.
    let svg = std::fs::read_to_string(dir.path().join("figure9-foreseen.svg")).unwrap();
    let doc =
        roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("figure9-foreseen.svg: {e}"));
    let texts: Vec<String> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or_default().trim().to_string())
        .collect();
    for want in [
        "1 h",
        "5 h",
        "D = 10 min",
        "D = 1 day",
        "platform MTBF μ",
        "Mira-2018-03-02-10days: utilization SFSJ / Baseline",
        "Mira-2018-03-02-10days: max flow of the largest jobs, SFSJ / Baseline",
        "Mira-2018-03-02-10days: weighted mean flow, SFSJ / Baseline",
    ] {
        assert!(
            texts.iter().any(|t| t == want),
            "figure9-foreseen.svg: no `{want}` in {texts:?}"
        );
    }
    assert!(!texts.iter().any(|t| t.contains("log10")), "{texts:?}");
    assert!(
        !svg.contains("NaN") && !svg.contains("inf"),
        "figure9-foreseen.svg has NaN/inf"
    );
    // Both variants on every cell, with sane exact utilizations in (0, 1].
    let mut rdr = csv::Reader::from_path(dir.path().join("cells.csv")).unwrap();
    let mut n = 0;
    for rec in rdr.records() {
        let rec = rec.unwrap();
        let u: f64 = rec[6].parse().unwrap();
        assert!(u > 0.0 && u <= 1.0, "{rec:?}");
        n += 1;
    }
    assert_eq!(
        n,
        2 * 2 * 2 * 2,
        "2 MTBF × 2 downtimes × 2 variants × 2 readings"
    );
    // Section 5.3.3's rule, scaled to a trace shorter than a month, is named in the manifest.
    let manifest = std::fs::read_to_string(dir.path().join("manifest.json")).unwrap();
    assert!(
        manifest.contains("\"measure\": \"scaled\"") || manifest.contains("\"measure\":\"scaled\""),
        "{manifest}"
    );
    // Resumes without recomputing.
    let again = experiment::run("steal-sweep", &sweep).unwrap();
    assert_eq!(again.stats.computed, 0);
    // A missing trace is named.
    let missing = Options {
        traces: vec![dir.path().join("none.swf")],
        ..quick(tempfile::tempdir().unwrap().path())
    };
    let e = experiment::run("steal-sweep", &missing)
        .unwrap_err()
        .to_string();
    assert!(e.contains("none.swf"), "{e}");
}

/// `--trace` with a machine smaller than Mira: Section 5.2's reduction of jobs above 49,000
/// nodes has nothing to reduce there, and the sweep runs (not refused with an error about
/// `--max-job-nodes`, an option the user never gave); a point the machine cannot carry is
/// kept as saturated instead of ending the campaign.
#[test]
fn steal_sweep_runs_a_machine_smaller_than_mira() {
    let dir = tempfile::tempdir().unwrap();
    let swf = dir.path().join("small.swf");
    let mut s = "; MaxNodes: 8\n; MaxProcs: 8\n".to_string();
    for i in 0..60u32 {
        let size = 1 + (i * 5) % 8;
        s.push_str(&format!(
            "{} {} -1 {} {size} -1 -1 {size} {} -1 1 -1 -1 -1 -1 -1 -1 -1\n",
            i + 1,
            i * 600,
            1800 + (i % 7) * 300,
            4000
        ));
    }
    std::fs::write(&swf, s).unwrap();
    let out = dir.path().join("out");
    let o = experiment::run(
        "steal-sweep",
        &Options {
            traces: vec![swf],
            ..quick(&out)
        },
    )
    .unwrap();
    assert_eq!(o.stats.computed, 4, "{}", o.markdown);
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"nodes\": 8"), "{manifest}");
    let rows = csv::Reader::from_path(out.join("cells.csv"))
        .unwrap()
        .records()
        .count();
    // μ = 1 h with D = 1 day keeps 24 nodes down on average, three times this machine: its
    // 8-node jobs never start, the simulator's budget stops the run, and the cell is kept as
    // saturated (listed, no ratio) instead of ending the campaign. The other three cells are
    // measured: 2 variants × 2 readings each.
    assert_eq!(rows, 3 * 4, "{}", o.markdown);
    for want in [
        "saturated (1 of 1 seeds)",
        "saturated cells (1 of them",
        "- μ = 60 min, D = 1440 min, failure seed 5: Baseline (unforeseen): more than",
        // The focus point (μ = 1 h, D = 10 min) is measured: its tables are there.
        "Flows per size class at μ = 60 min, D = 10 min",
    ] {
        assert!(o.markdown.contains(want), "no `{want}` in\n{}", o.markdown);
    }
    let cell: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("cells").join("t0-D1440-M60-s0.json")).unwrap(),
    )
    .unwrap();
    assert!(
        cell["saturated"]
            .as_str()
            .is_some_and(|m| m.contains("events")),
        "{cell}"
    );
    let svg = std::fs::read_to_string(out.join("figure9-foreseen.svg")).unwrap();
    assert!(
        svg.contains("saturated, not drawn: μ = 1 h, D = 1 day"),
        "{svg}"
    );
    // A rerun resumes the saturated cell too.
    let again = experiment::run(
        "steal-sweep",
        &Options {
            traces: vec![dir.path().join("small.swf")],
            ..quick(&out)
        },
    )
    .unwrap();
    assert_eq!(again.stats.computed, 0);
    assert_eq!(again.markdown, o.markdown);
}
