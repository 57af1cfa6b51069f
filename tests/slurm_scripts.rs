//! The logic of `slurm/` without a cluster: `sbatch` and `squeue` are stubs on `PATH` that
//! record their arguments. `submit.sh` submits the array and a merge that runs after any
//! outcome (`afterany`) and records the run's settings; `merge.sbatch` with a task that never
//! succeeded merges nothing, names the shard and prints the resume command; `submit.sh
//! --resume` resubmits only that task and the merge, then the merge alone once every task is
//! done. (`slurm/test-local-cluster.sh` runs the same on a real one-node cluster.)
use std::path::Path;
use std::process::{Command, Output};

/// Writes the stubs: `sbatch` appends its arguments to `sbatch.log` and prints the next job
/// id (from 100); `squeue` prints nothing (no job queued).
fn stubs(bin: &Path, log: &Path) {
    let sbatch = format!(
        "#!/bin/sh\necho \"$*\" >> {log}\nn=$(wc -l < {log})\necho $((99 + n))\n",
        log = log.display()
    );
    std::fs::write(bin.join("sbatch"), sbatch).unwrap();
    std::fs::write(bin.join("squeue"), "#!/bin/sh\nexit 0\n").unwrap();
    for f in ["sbatch", "squeue"] {
        Command::new("chmod")
            .arg("+x")
            .arg(bin.join(f))
            .status()
            .unwrap();
    }
}

fn script(name: &str, args: &[&str], path: &str, env: &[(&str, String)]) -> Output {
    let mut c = Command::new("bash");
    c.arg(crate::support::repo().join("slurm").join(name))
        .args(args)
        .env("PATH", path);
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn a_killed_task_is_reported_and_resumed() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let bin = t.join("bin");
    std::fs::create_dir(&bin).unwrap();
    let log = t.join("sbatch.log");
    stubs(&bin, &log);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let run = t.join("run");
    let run_s = run.display().to_string();
    let resched = crate::support::bin();
    let o = script(
        "submit.sh",
        &[
            "-n",
            "3",
            "-o",
            &run_s,
            "-b",
            resched,
            "--",
            "experiment",
            "rigid-procs",
            "--quick",
        ],
        &path,
        &[],
    );
    assert!(o.status.success(), "{}", text(&o));
    let submitted = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = submitted.lines().collect();
    assert!(
        lines[0].starts_with("--parsable --array=0-2 "),
        "{submitted}"
    );
    assert!(
        lines[1].starts_with("--parsable --dependency=afterany:100 "),
        "{submitted}"
    );
    assert_eq!(
        std::fs::read_to_string(run.join("jobs")).unwrap(),
        "100 101\n"
    );
    let env = std::fs::read_to_string(run.join("run.env")).unwrap();
    assert!(env.contains("RESCHED_SHARDS=3\n"), "{env}");
    // Tasks 0 and 2 succeeded, task 1 was killed: the merge names it and how to resume.
    std::fs::create_dir_all(run.join("done")).unwrap();
    for i in [0, 2] {
        std::fs::write(run.join(format!("done/shard-{i}")), "").unwrap();
    }
    let vars = [
        ("RESCHED", resched.to_string()),
        ("RESCHED_OUT", run_s.clone()),
        ("RESCHED_SHARDS", "3".to_string()),
        ("RESCHED_SCRIPTS", "slurm".to_string()),
    ];
    let o = script("merge.sbatch", &[], &path, &vars);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let said = text(&o);
    assert!(
        said.contains("1 of 3 shards did not finish: 1 (killed")
            && said.contains(&format!("slurm/submit.sh --resume {run_s}")),
        "{said}"
    );
    assert_eq!(std::fs::read_to_string(run.join("missing")).unwrap(), "1\n");
    assert!(!run.join("merged").exists());
    // --resume: task 1 alone, then the merge after it.
    let o = script("submit.sh", &["--resume", &run_s], &path, &[]);
    assert!(o.status.success(), "{}", text(&o));
    let submitted = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = submitted.lines().collect();
    assert!(lines[2].starts_with("--parsable --array=1 "), "{submitted}");
    assert!(
        lines[3].starts_with("--parsable --dependency=afterany:102 "),
        "{submitted}"
    );
    assert_eq!(
        std::fs::read_to_string(run.join("jobs")).unwrap(),
        "102 103\n"
    );
    // Every task done: the merge alone.
    std::fs::write(run.join("done/shard-1"), "").unwrap();
    let o = script("submit.sh", &["--resume", &run_s], &path, &[]);
    assert!(
        o.status.success() && text(&o).contains("submitting the merge only"),
        "{}",
        text(&o)
    );
    let submitted = std::fs::read_to_string(&log).unwrap();
    assert!(
        submitted
            .lines()
            .nth(4)
            .unwrap()
            .starts_with("--parsable --output="),
        "{submitted}"
    );
    // Not a run directory.
    let o = script(
        "submit.sh",
        &["--resume", &t.display().to_string()],
        &path,
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}
