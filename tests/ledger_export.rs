//! The ledger's evidence re-checked from outside: every witness measurement of every entry
//! carries its case (instance, scenario, the algorithm run, U's schedule), which the engine and
//! the checker reproduce exactly; `resched prove <id> --json` states T, OPT (proven, or its
//! bracket [L, U]) and the ratio; `--export DIR` writes the cases in the documented formats,
//! and `resched verify`, `resched simulate` and `resched opt` re-check an exported family
//! (the Amdahl area+chain members, OPT = U) to the last digit.
use resched::Time;
use resched_proofs::{Budget, OptRef, Params};
use serde_json::Value;
use std::path::Path;

/// Every witness of every entry (witness only, no random or adversarial budget) carries its
/// case, and re-running it gives the same T, and its schedule of U passes the checker with the
/// upper end of OPT (or, where a solver proved OPT, at least OPT).
#[test]
fn every_witness_carries_a_case_that_reproduces_it() {
    let budget = Budget {
        random: 0,
        adversarial: 0,
        exhaustive: false,
        seed: 7,
        opt_nodes: 200_000,
    };
    for e in resched_proofs::ledger() {
        let params = Params::for_entry(e, &[]).unwrap();
        let rep = (e.check)(&params, &budget).unwrap_or_else(|err| panic!("{}: {err}", e.id));
        for m in &rep.witness {
            let ev = m
                .evidence
                .as_ref()
                .unwrap_or_else(|| panic!("{}: witness {} has no case", e.id, m.algo));
            let t = resched::oracle::certify(&ev.algo, &ev.instance, &ev.scenario)
                .unwrap_or_else(|err| panic!("{} {}: {err}", e.id, m.algo))
                .makespan;
            assert_eq!(t, m.makespan, "{} {}", e.id, m.algo);
            let s = ev
                .upper
                .as_ref()
                .unwrap_or_else(|| panic!("{}: no U", e.id));
            let u = resched::check::check(&ev.instance, &ev.scenario, s)
                .unwrap_or_else(|err| panic!("{} {}: {err}", e.id, m.algo));
            match &m.opt {
                OptRef::Between { upper, .. } => assert_eq!(&u, upper, "{} {}", e.id, m.algo),
                OptRef::Exact(o) => assert!(u >= *o, "{} {}: U {u} < OPT {o}", e.id, m.algo),
                OptRef::Lower(_) => panic!("{} {}: no upper end", e.id, m.algo),
            }
        }
    }
}

fn run(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = std::process::Command::new(crate::support::bin())
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run resched");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

fn json_of(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// An exact value of the ledger's JSON (`{"exact": …}`) as a time.
fn exact(v: &Value) -> Time {
    let x = &v["exact"];
    serde_json::from_value(x.clone()).unwrap_or_else(|e| panic!("{e}: {x}"))
}

fn time(v: &Value) -> Time {
    serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{e}: {v}"))
}

#[test]
fn the_amdahl_family_is_exported_and_rechecked_by_verify_simulate_and_opt() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("thm5");
    let out_s = out.to_str().unwrap();
    let (code, text) = run(
        dir.path(),
        &[
            "prove",
            "moldable.thm5",
            "--param",
            "s=3",
            "--json",
            "--export",
            out_s,
        ],
    );
    assert_eq!(code, 0, "{text}");
    let doc = json_of(&text);
    assert_eq!(doc["format_version"], 1);
    assert!(doc["resched"]["version"].is_string(), "{doc}");
    assert_eq!(doc["id"], "moldable.thm5");
    // ledger.json is the same document.
    let file = std::fs::read_to_string(out.join("ledger.json")).unwrap();
    assert_eq!(json_of(&file)["witnesses"], doc["witnesses"]);
    let ws = doc["witnesses"].as_array().unwrap();
    // s = 5 and s = 3 (LPT, HPA, LA), the SPT chain (SPT), the s = 3 member under LPA, and the
    // saved hill-climb case.
    assert_eq!(ws.len(), 5, "{doc}");
    let mut opt_confirmed = 0;
    for w in ws {
        let files = &w["files"];
        let (inst, sc) = (
            files["instance"].as_str().unwrap(),
            files["scenario"].as_str().unwrap(),
        );
        let schedule = files["schedule"].as_str().unwrap();
        // verify: U's schedule is feasible, of makespan U.
        let (code, v) = run(
            &out,
            &[
                "verify",
                "--instance",
                inst,
                "--scenario",
                sc,
                "--schedule",
                schedule,
            ],
        );
        assert_eq!(code, 0, "{v}");
        let u = exact(&w["u"]);
        assert!(v.contains(&format!("feasible: makespan {u} ")), "{v}");
        // simulate: the algorithm's makespan is the ledger's T, exactly.
        let run_ = &w["run"];
        let (code, s) = run(
            &out,
            &[
                "simulate",
                "--instance",
                inst,
                "--scenario",
                sc,
                "--algo",
                run_["algo"].as_str().unwrap(),
                "--priority",
                run_["priority"].as_str().unwrap(),
                "--json",
            ],
        );
        assert_eq!(code, 0, "{s}");
        assert_eq!(time(&json_of(&s)["makespan"]), exact(&w["t"]), "{w}");
        // The ratio is T/OPT exactly where OPT is proven.
        assert_eq!(w["opt"]["status"], "proven", "{w}");
        let opt = time(&w["opt"]["value"]);
        assert_eq!(w["ratio_of"], "T/OPT");
        assert_eq!(
            exact(&w["ratio"]),
            exact(&w["t"]).checked_div(&opt).unwrap()
        );
        // opt, where it runs, confirms OPT: equal where it proves, never below; a refusal for
        // the times' denominators (the horizon limit) is the only other answer accepted.
        let (code, o) = run(
            &out,
            &[
                "opt",
                "--instance",
                inst,
                "--scenario",
                sc,
                "--time-limit",
                "30",
                "--json",
            ],
        );
        if code != 0 {
            assert!(o.contains("horizon limit"), "{o}");
            continue;
        }
        let o = json_of(&o);
        if o["status"] == "optimal" {
            assert_eq!(time(&o["makespan"]), opt, "{w}");
            opt_confirmed += 1;
        } else {
            assert!(time(&o["makespan"]) >= opt, "{o}");
        }
        if w["processors"] == 9 {
            assert_eq!(o["status"], "optimal", "{o}");
            assert_eq!(opt, u);
        }
    }
    // At least the s = 3 member under LPT|HPA|LA, its SPT chain and its LPA run.
    assert!(opt_confirmed >= 3, "{opt_confirmed}");
    // 4 − 6/(s+1) at s = 3 and 5; under LPA 2s/(s+1) = 3/2.
    let ratios: Vec<Time> = ws.iter().map(|w| exact(&w["ratio"])).collect();
    assert_eq!(ratios[0], Time::from_int(3));
    assert_eq!(ratios[1], Time::new(5, 2).unwrap());
    assert_eq!(ratios[2], Time::new(5, 2).unwrap());
    assert_eq!(ratios[3], Time::new(3, 2).unwrap());
}

#[test]
fn json_states_brackets_where_opt_is_not_proven_and_the_flags_are_checked() {
    // The mix member at s = 7 (P = 49, beyond the exact search): OPT between L' and U (the
    // area argument does not close it).
    let (code, text) = run(
        Path::new("."),
        &["prove", "moldable.thm7", "--param", "s=7", "--json"],
    );
    assert_eq!(code, 0, "{text}");
    let doc = json_of(&text);
    let w = &doc["witnesses"][1];
    assert_eq!(w["processors"], 49, "{w}");
    assert_eq!(w["opt"]["status"], "bracketed", "{w}");
    assert_eq!(w["ratio_of"], "T/U");
    let (lo, up) = (time(&w["opt"]["lower"]), time(&w["opt"]["upper"]));
    assert!(lo < up, "{w}");
    assert_eq!(exact(&w["u"]), up);
    // s = 7: 1529446/470617 ≈ 3.2499 certified.
    assert_eq!(exact(&w["ratio"]), Time::new(1_529_446, 470_617).unwrap());
    assert!(
        w["ratio"]["decimal"]
            .as_str()
            .unwrap()
            .starts_with("3.24987"),
        "{w}"
    );
    // --json and --export need an id; they do not combine with --all.
    let (code, text) = run(Path::new("."), &["prove", "--all", "--json"]);
    assert_eq!(code, 2, "{text}");
    let (code, text) = run(Path::new("."), &["prove", "--json"]);
    assert_eq!(code, 2, "{text}");
}
