//! Every figure resched draws names its run and says what it shows: each SVG is parsed and its
//! texts checked for the title, the subtitle naming the run (parameters, sets × scenarios or
//! seeds, what the error bars are) and the build's commit, the axis labels, the legend entries
//! and the paper's series where the paper gives numbers. Quick campaign runs, as in
//! `experiment_quick`; `steal --plots` on the node-stealing paper's toy example; Gantt charts of
//! `simulate` as SVG and PNG.
use crate::support::resched;
use resched_cli::experiment::{self, Options};
use std::path::Path;

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

/// The texts of an SVG document (parsed: a malformed file fails here), and its PNG sibling is
/// a PNG.
fn texts(svg: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(svg).unwrap_or_else(|e| panic!("{}: {e}", svg.display()));
    let doc =
        roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", svg.display()));
    let png = std::fs::read(svg.with_extension("png")).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{}", svg.display());
    doc.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

/// `svg`'s texts hold every one of `must` (in their text joined by spaces: a title wrapped to
/// its width is one phrase again), none of `never`, and the stamp of this build (its commit);
/// no "NaN" or "inf".
fn check(svg: &Path, must: &[&str], never: &[&str]) -> Vec<String> {
    let words = texts(svg);
    let joined = words.join(" ");
    let commit = format!("commit {}", resched_cli::provenance::COMMIT);
    for m in must.iter().copied().chain([commit.as_str()]) {
        assert!(
            joined.contains(m),
            "{}: no `{m}` in {words:?}",
            svg.display()
        );
    }
    for bad in never.iter().chain(&["NaN", "inf"]) {
        assert!(
            !words.iter().any(|w| w.contains(bad)),
            "{}: `{bad}` in {words:?}",
            svg.display()
        );
    }
    words
}

/// Table 1 of the moldable paper: a log axis (its ticks are the natural values 1, 2, 5, 10, …),
/// every algorithm and every published row in the legend, the run in the subtitle, never
/// called "Figure 4".
#[test]
fn moldable_table1_figures() {
    let dir = tempfile::tempdir().unwrap();
    experiment::run("moldable-table1", &quick(dir.path())).unwrap();
    let words = check(
        &dir.path().join("table1.svg"),
        &[
            "makespan / L' per speedup model",
            "expected makespan / L' per speedup model (log scale)",
            "maximum makespan / L'",
            "speedup model",
            "sets × ",
            "seed 5",
            "± 1 standard error over the sets",
            "LPA (paper, Table 1)",
            "BATCH (paper, Table 1)",
            "MINTIME (paper, Table 1)",
            "MINAREA (paper, Table 1)",
            "BATCH-PUB",
            "Mix-low-com",
            "ε = 0.3,",
        ],
        &["Figure 4", "3/10"],
    );
    // Log-axis ticks: the decades, written as values.
    for t in ["1", "10", "100"] {
        assert!(words.iter().any(|w| w == t), "no tick {t}: {words:?}");
    }
    check(
        &dir.path().join("table1_vs_paper.svg"),
        &[
            "one panel per row",
            "LPA (paper)",
            "BATCH-PUB (resched)",
            "seed 5",
        ],
        &["Figure 4"],
    );
}

/// Figure 5 of the moldable paper: the BATCH-PUB curve beside the paper's BATCH marker, the
/// run and the error bars named.
#[test]
fn moldable_sweeps_figure() {
    let dir = tempfile::tempdir().unwrap();
    experiment::run("moldable-sweeps", &quick(dir.path())).unwrap();
    check(
        &dir.path().join("figure5.svg"),
        &[
            "like Figure 5",
            "BATCH-PUB",
            "BATCH-U",
            "ε = 0.3,",
            "sets × ",
            "seed 5",
            "error bars: ± 1 standard deviation over the",
            "error rate λ",
            "normalized makespan",
        ],
        &["3/10"],
    );
}

/// The node-stealing paper's synthetic platform: Table 7's bars and Figure 13's ratios, the
/// seeds and what the error bars are in the subtitle, the paper's values in the legend, both
/// readings of node returns.
#[test]
fn steal_synthetic_figures() {
    let dir = tempfile::tempdir().unwrap();
    experiment::run("steal-synthetic", &quick(dir.path())).unwrap();
    for m in ["all", "scaled"] {
        check(
            &dir.path().join(format!("figure13-{m}.svg")),
            &[
                "steal-synthetic (Section 6.3",
                &format!("measure `{m}`"),
                "error bars ± 1 standard deviation over the",
                "Useful utilization (cf. Table 7)",
                "% of platform time",
                "paper, Table 7",
                "Flow SFSJ / Baseline by job size (cf. Figure 13)",
                "job size (nodes)",
                "paper, max flow (Section 6.3 text: 10–15% better)",
                "returns unforeseen",
                "returns foreseen",
            ],
            &[],
        );
    }
}

/// The rigid sweeps: the fixed parameter, sets × scenarios, the error bars, q̄ as the axis and
/// the paper's one printed number (R-ShelfFill-B's maximum 1.2).
#[test]
fn rigid_qbar_figures() {
    let dir = tempfile::tempdir().unwrap();
    experiment::run("rigid-qbar", &quick(dir.path())).unwrap();
    check(
        &dir.path().join("shelf.svg"),
        &[
            "rigid-qbar: shelf heuristics",
            "P = ",
            "scenarios per point, seed 5",
            "error bars: ± 1 standard deviation over the",
            "q̄",
            "normalized makespan",
            "R-ShelfFill-B max (paper, §5.2 text: 1.2)",
            "R-Shelf-B",
        ],
        // One panel: no panel title or note repeating the figure's head.
        &["Shelf heuristics", "standard deviation over 2 sets"],
    );
    check(
        &dir.path().join("heuristics.svg"),
        &[
            "every heuristic and priority",
            "best priorities",
            "LPT",
            "seed 5",
        ],
        &[],
    );
}

const TOY_SWF: &str = "; MaxNodes: 8
1 0 -1 8 1 -1 -1 1 8 -1 1 -1 -1 -1 -1 -1 -1 -1
2 0 -1 5 1 -1 -1 1 5 -1 1 -1 -1 -1 -1 -1 -1 -1
3 0 -1 10 6 -1 -1 6 10 -1 1 -1 -1 -1 -1 -1 -1 -1
4 0 -1 10 6 -1 -1 6 10 -1 1 -1 -1 -1 -1 -1 -1 -1
5 0 -1 2 1 -1 -1 1 2 -1 1 -1 -1 -1 -1 -1 -1 -1
";

/// `steal --plots`: both readings in every file name (two runs of different compression share
/// a directory), the run in every subtitle, and the variants three at a time: a panel per
/// timing and victim, its three criteria in three colours.
#[test]
fn steal_plots_name_the_run_and_split_the_variants() {
    let dir = tempfile::tempdir().unwrap();
    let swf = dir.path().join("toy.swf");
    let fl = dir.path().join("toy.failures");
    std::fs::write(&swf, TOY_SWF).unwrap();
    std::fs::write(&fl, "1 2\n").unwrap();
    let plots = dir.path().join("plots");
    let (swf, fl, p) = (
        swf.display().to_string(),
        fl.display().to_string(),
        plots.display().to_string(),
    );
    for compression in ["completions", "completions-and-arrivals"] {
        let out = resched(&[
            "steal",
            "--workload",
            &swf,
            "--failures",
            &fl,
            "--downtime",
            "5",
            "--checkpoint",
            "0",
            "--recovery",
            "0",
            "--mtbf",
            "1h",
            "--variant",
            "baseline,H111,H112,H113,H121,H122",
            "--compression",
            compression,
            "--plots",
            &p,
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for compression in ["completions", "completions-and-arrivals"] {
        let f = |name: &str| plots.join(format!("{name}-unforeseen-{compression}.svg"));
        let run = [
            "toy.swf, 8 nodes",
            "μ = 1 h",
            "D = 5 s",
            "C = 0 s",
            "failures from",
            "node returns unforeseen",
        ];
        let with = |extra: &[&'static str]| -> Vec<&str> {
            run.iter().copied().chain(extra.iter().copied()).collect()
        };
        let comp = format!("compression at {compression}");
        let words = check(
            &f("flow_ratios"),
            &[
                with(&[
                    "Maximum flow, H11· (T: interrupt now, V: fewest nodes)",
                    "Mean flow, H12· (T: interrupt now, V: latest release)",
                    "change against Baseline (%; below 0 is better)",
                    "all jobs",
                ]),
                vec![comp.as_str()],
            ]
            .concat(),
            &[],
        );
        for v in ["H111", "H112", "H113", "H121", "H122"] {
            assert!(words.iter().any(|w| w == v), "{v}: {words:?}");
        }
        check(
            &f("utilization_ratio"),
            &with(&[
                "one point of Figure 9",
                "H11·",
                "H12·",
                "z = 1: victim on fewer nodes (K1)",
                "z = 3: smaller max flow (K3)",
            ]),
            &["cf. Figure 9;"],
        );
        check(
            &f("decomposition"),
            &with(&[
                "Platform time other than useful work, H12·",
                "Baseline",
                "idle",
            ]),
            &[],
        );
    }
}

/// In one flow-ratio panel of `steal --plots`, the three variants have three different bar
/// colours (#rrggbb fills of the SVG's rectangles).
#[test]
fn steal_plots_variants_of_a_panel_differ() {
    let dir = tempfile::tempdir().unwrap();
    let swf = dir.path().join("toy.swf");
    std::fs::write(&swf, TOY_SWF).unwrap();
    let fl = dir.path().join("toy.failures");
    std::fs::write(&fl, "1 2\n").unwrap();
    let plots = dir.path().join("p");
    let out = resched(&[
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
        "1h",
        "--variant",
        "baseline,H211,H212,H213",
        "--plots",
        plots.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_dir(&plots)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            let n = p.file_name().unwrap().to_string_lossy().into_owned();
            n.starts_with("utilization_ratio") && n.ends_with(".svg")
        })
        .unwrap();
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let mut fills: Vec<&str> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect"))
        .filter_map(|n| n.attribute("fill"))
        .filter(|f| f.starts_with('#') && !["#FFFFFF", "#ffffff"].contains(f))
        .collect();
    fills.sort_unstable();
    fills.dedup();
    assert!(fills.len() >= 3, "fills {fills:?}");
}

/// A Gantt chart as SVG and as PNG (`--gantt x.png`): `#rrggbb` colours only, round time ticks
/// (1–2–5 steps) and the time unit named.
#[test]
fn gantt_as_svg_and_png() {
    let dir = tempfile::tempdir().unwrap();
    let inst = dir.path().join("i.json");
    let sc = dir.path().join("s.json");
    std::fs::write(
        &inst,
        r#"{"processors": 4, "jobs": [{"procs": 2, "time": 3.25}, {"procs": 1, "time": 2}, {"procs": 3, "time": 1.5}]}"#,
    )
    .unwrap();
    std::fs::write(&sc, r#"{"failures": [1, 0, 0]}"#).unwrap();
    let (svg, png) = (dir.path().join("g.svg"), dir.path().join("g.png"));
    for g in [&svg, &png] {
        let out = resched(&[
            "simulate",
            "--instance",
            inst.to_str().unwrap(),
            "--scenario",
            sc.to_str().unwrap(),
            "--algo",
            "greedy",
            "--gantt",
            g.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(!text.contains("hsl("), "{text}");
    let doc = roxmltree::Document::parse(&text).unwrap();
    for n in doc.descendants().filter(|n| n.has_tag_name("rect")) {
        if let Some(f) = n.attribute("fill") {
            let hex =
                f.len() == 7 && f.starts_with('#') && f[1..].chars().all(|c| c.is_ascii_hexdigit());
            assert!(hex || f.starts_with("url(#"), "fill {f}");
        }
    }
    let words: Vec<&str> = doc
        .descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect();
    assert!(words
        .iter()
        .any(|w| w.contains("time (in the instance's time unit)")));
    // The makespan here is 6.75 (J1 fails once): ticks 0, 1, …, 6, never 0.675 or 1.35.
    for t in ["0", "1", "2", "5", "6"] {
        assert!(words.contains(&t), "tick {t}: {words:?}");
    }
    assert!(
        !words.iter().any(|w| *w == "0.675" || *w == "1.35"),
        "{words:?}"
    );
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    assert!(bytes.windows(8).any(|w| w == b"Software"), "no build stamp");
}
