//! The plotting API writes real SVG and PNG files (labels rendered with the shipped font).
use resched_cli::render::plot::{self, BarChart, BarSeries, Chart, Figure, LineChart, Series};

fn line() -> LineChart {
    LineChart {
        title: "R-List-0 (P = 10000)".into(),
        x_label: "average failure probability q̄".into(),
        y_label: "normalized makespan".into(),
        series: ["LPT", "SPT", "LA"]
            .iter()
            .enumerate()
            .map(|(i, p)| Series {
                label: p.to_string(),
                points: (0..10)
                    .map(|k| {
                        (
                            k as f64 / 10.0,
                            1.0 + 0.02 * i as f64 + 0.01 * (k as f64).sin(),
                        )
                    })
                    .collect(),
                err: Some(vec![0.005; 10]),
            })
            .collect(),
        y_range: None,
        reference: Some(1.0),
        styles: Vec::new(),
    }
}

fn bars() -> BarChart {
    BarChart {
        title: "flow ratio vs Baseline".into(),
        y_label: "ratio".into(),
        groups: vec!["[1,2)".into(), "[2,4)".into(), "[4,8)".into()],
        series: vec![
            BarSeries {
                label: "H111".into(),
                values: vec![0.9, 1.1, 1.0],
                err: None,
            },
            BarSeries {
                label: "H222".into(),
                values: vec![0.8, f64::NAN, 1.2],
                err: Some(vec![0.05, 0.0, 0.1]),
            },
        ],
        y_range: None,
        reference: Some(1.0),
        styles: Vec::new(),
    }
}

#[test]
fn writes_svg_and_png() {
    let dir = tempfile::tempdir().unwrap();
    let fig = Figure::grid(
        "Figure 5 (test)",
        2,
        vec![Chart::Line(line()), Chart::Bar(bars())],
    );
    let files = plot::write_both(&fig, &dir.path().join("fig")).unwrap();
    assert_eq!(files.len(), 2);
    let svg = std::fs::read_to_string(&files[0]).unwrap();
    if let Ok(keep) = std::env::var("RESCHED_KEEP_SVG") {
        std::fs::write(keep, &svg).unwrap();
    }
    assert!(
        svg.starts_with("<svg")
            && svg.contains("normalized makespan")
            && svg.contains("H222")
            && svg.contains("[2,4)")
    );
    let png = std::fs::read(&files[1]).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "PNG magic");
    // IHDR: width and height, big-endian, at bytes 16..24.
    let w = u32::from_be_bytes([png[16], png[17], png[18], png[19]]);
    let h = u32::from_be_bytes([png[20], png[21], png[22], png[23]]);
    // Two 560 × 420 panels side by side, plus the head's band, whose height the plot layer
    // measures on the font: one line of the title and the stamp line naming the build.
    assert_eq!(w, 2 * 560);
    assert!(
        (420 + 40..=420 + 90).contains(&h),
        "height {h}: one panel row, a title line and the stamp line"
    );
    assert!(
        png.len() > 10_000,
        "a chart with text is more than a blank image: {} bytes",
        png.len()
    );
    // Nothing temporary left behind.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    if let Ok(keep) = std::env::var("RESCHED_KEEP_PLOT") {
        std::fs::copy(&files[1], keep).unwrap();
    }
}

#[test]
fn single_chart_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("one.png");
    plot::write_png(&Figure::single(Chart::Bar(bars())), &p).unwrap();
    assert!(std::fs::metadata(&p).unwrap().len() > 1000);
    let mut bad = line();
    bad.series[0].err = Some(vec![1.0]);
    assert!(plot::write_png(
        &Figure::single(Chart::Line(bad)),
        &dir.path().join("bad.png")
    )
    .is_err());
    assert!(!dir.path().join("bad.png").exists());
    assert!(plot::write_svg(
        &Figure::single(Chart::Line(line())),
        &dir.path().join("no/such/dir/x.svg")
    )
    .is_err());
}
