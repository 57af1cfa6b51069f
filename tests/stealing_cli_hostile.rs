//! `resched steal` on damaged or hostile workload files, as a stranger would feed it (archive
//! traces included): every refusal exits with status 2, names the file (and the line where the
//! damage is), writes nothing, and nothing panics.
use std::io::Write;
use std::path::Path;
use std::process::Command;

const JOB: &str = "1 0 -1 10 2 -1 -1 2 20 -1 1 -1 -1 -1 -1 -1 -1 -1\n";

/// Runs `steal` on `file` with `extra` options; returns stderr after checking the refusal.
fn refused(dir: &Path, file: &str, extra: &[&str]) -> String {
    let csv = dir.join("out.csv");
    let path = dir.join(file);
    let mut args = vec![
        "steal",
        "--workload",
        path.to_str().unwrap(),
        "--mtbf",
        "1h",
        "--csv",
        csv.to_str().unwrap(),
    ];
    args.extend(extra);
    let out = Command::new(crate::support::bin())
        .args(&args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{file}: {err}");
    assert!(!err.contains("panicked"), "{file}: {err}");
    assert!(!csv.exists(), "{file}: an output was written");
    err
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

#[test]
fn damaged_files_are_refused_naming_file_and_line() {
    let d = tempfile::tempdir().unwrap();
    let p = |name: &str| d.path().join(name);
    let header = "; MaxNodes: 8\n; MaxProcs: 8\n";
    std::fs::write(p("empty.swf"), "").unwrap();
    std::fs::write(p("header.swf"), header).unwrap();
    let neg = format!("{header}1 0 -1 10 -4 -1 -1 -4 20 -1 1 -1 -1 -1 -1 -1 -1 -1\n");
    std::fs::write(p("neg.swf"), &neg).unwrap();
    std::fs::write(p("neg.swf.gz"), gz(neg.as_bytes())).unwrap();
    std::fs::write(p("empty.swf.gz"), gz(b"")).unwrap();
    let mut bin = format!("{header}{JOB}").into_bytes();
    bin.extend(b"2 0 -1 \xff\xfe 2\n");
    std::fs::write(p("bin.swf"), &bin).unwrap();
    // A long log cut in the middle of its gzip stream, as a broken download leaves it.
    let long: String = std::iter::once(header.to_string())
        .chain(
            (1..=20_000).map(|i| format!("{i} {i} -1 10 2 -1 -1 2 20 -1 1 -1 -1 -1 -1 -1 -1 -1\n")),
        )
        .collect();
    let whole = gz(long.as_bytes());
    std::fs::write(p("cut.swf.gz"), &whole[..whole.len() / 2]).unwrap();
    std::fs::write(p("fake.swf.gz"), "not gzip\n").unwrap();
    std::fs::create_dir(p("dir.swf")).unwrap();

    for (file, wants) in [
        ("empty.swf", &["empty.swf", "no job to schedule"][..]),
        ("empty.swf.gz", &["empty.swf.gz", "no job to schedule"]),
        ("header.swf", &["header.swf", "no job to schedule"]),
        (
            "neg.swf",
            &[
                "neg.swf",
                "no job",
                "1 job lines dropped",
                "1 without processor count",
            ],
        ),
        ("neg.swf.gz", &["neg.swf.gz", "1 job lines dropped"]),
        (
            "bin.swf",
            &["bin.swf:4: column 8: not UTF-8 text (byte 0xff)"],
        ),
        (
            "cut.swf.gz",
            &["cut.swf.gz:", "the gzip stream breaks off here"],
        ),
        ("fake.swf.gz", &["fake.swf.gz", "gzip"]),
        ("dir.swf", &["dir.swf"]),
        ("missing.swf", &["missing.swf", "No such file"]),
    ] {
        let err = refused(d.path(), file, &[]);
        for want in wants {
            assert!(err.contains(want), "{file}: no `{want}` in {err}");
        }
    }
    // The cut gzip names a line inside the log, past its first jobs.
    let err = refused(d.path(), "cut.swf.gz", &[]);
    let line: usize = err
        .split("cut.swf.gz:")
        .nth(1)
        .and_then(|r| r.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no line in {err}"));
    assert!(line > 100 && line < 20_002, "{err}");
}

#[test]
fn hostile_max_wall_is_refused() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("ok.swf"), format!("; MaxNodes: 8\n{JOB}")).unwrap();
    for (v, want) in [
        ("-1", "negative duration"),
        ("soon", "not a duration"),
        ("1e12", "outside the valid range"),
    ] {
        let err = refused(d.path(), "ok.swf", &["--max-wall", v]);
        assert!(
            err.contains("--max-wall") && err.contains(want),
            "{v}: {err}"
        );
    }
}
