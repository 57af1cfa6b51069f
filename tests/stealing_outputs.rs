//! `resched steal` probes its output paths before simulating (a path that cannot be
//! written must not be found only after the whole simulation), and leaves nothing behind.
use std::process::Command;

#[test]
fn unwritable_outputs_are_refused_before_simulating() {
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let missing = d.path().join("no/such/dir/m.csv");
    for (opt, p) in [
        ("--csv", file.join("m.csv")),
        ("--csv", missing),
        ("--csv", d.path().to_path_buf()),
        ("--plots", file.join("plots")),
    ] {
        // All 19 variants on Table 6's workload: a long run if anything were simulated.
        let t0 = std::time::Instant::now();
        let o = Command::new(crate::support::bin())
            .args(["steal", "--workload", "synthetic", "--variant", "all", opt])
            .arg(&p)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{opt} {}: {err}", p.display());
        assert!(err.contains(opt), "{opt}: {err}");
        assert!(!err.contains("simulated in"), "{opt}: {err}");
        assert!(
            t0.elapsed().as_secs() < 10,
            "{opt}: took {:?}",
            t0.elapsed()
        );
    }
    // Nothing was left behind by the probes.
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
}
