//! The theorem ledger (`proofs/`) as tests: every entry's check holds on its witness and on a
//! small budget of random and adversarial cases (fixed seed, printed), the witnesses give the
//! exact values their proofs state, and `resched prove` prints them.
use resched::bounds;
use resched::Time;
use resched_proofs::{Budget, Kind, Params, Source};
use std::process::Command;

fn small_budget() -> Budget {
    Budget {
        random: 6,
        adversarial: 12,
        exhaustive: false,
        seed: 7,
        opt_nodes: 200_000,
    }
}

#[test]
fn every_entry_holds_on_a_small_budget() {
    let budget = small_budget();
    eprintln!("budget {budget:?}");
    for e in resched_proofs::ledger() {
        let params = Params::for_entry(e, &[]).unwrap();
        let rep = (e.check)(&params, &budget).unwrap_or_else(|err| panic!("{}: {err}", e.id));
        assert!(rep.holds(), "{}: {:#?}", e.id, rep.violations());
        if e.witness.is_some() {
            assert!(
                !rep.witness.is_empty(),
                "{} has a witness but measured nothing on it",
                e.id
            );
        }
        if matches!(e.kind, Kind::Upper) {
            let measured: u64 = rep.tallies.values().map(|t| t.measured).sum();
            assert!(
                measured > 0,
                "{}: no random or adversarial case measured",
                e.id
            );
        }
    }
}

#[test]
fn ids_are_unique_and_cover_the_papers() {
    let ids: Vec<&str> = resched_proofs::ledger().iter().map(|e| e.id).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), ids.len(), "duplicate ids in {ids:?}");
    for id in ["rigid.prop1", "rigid.prop2", "rigid.prop3", "rigid.prop4"] {
        assert!(ids.contains(&id), "missing {id}");
    }
}

#[test]
fn rigid_witnesses_give_the_proofs_exact_values() {
    let budget = Budget {
        random: 0,
        adversarial: 0,
        ..small_budget()
    };
    // Proposition 3: R-SHELF = H_P exactly, OPT = 1.
    let e = resched_proofs::find("rigid.prop3").unwrap();
    let rep = (e.check)(&Params::for_entry(e, &["P=10".into()]).unwrap(), &budget).unwrap();
    for m in &rep.witness {
        assert_eq!(m.makespan, Time::new(7381, 2520).unwrap(), "{}", m.algo);
        assert_eq!(m.ratio, bounds::harmonic(10));
    }
    assert!(rep
        .get(Source::Witness)
        .is_some_and(|t| t.measured >= 2 * 8 * 9));
    // Proposition 4: R-SHELFFILL/LPT = P exactly, OPT < 2.
    let e = resched_proofs::find("rigid.prop4").unwrap();
    let rep = (e.check)(&Params::for_entry(e, &["P=3".into()]).unwrap(), &budget).unwrap();
    for m in &rep.witness {
        assert_eq!(m.makespan, Time::from_int(3), "{}", m.algo);
        assert!(m.ratio > Time::new(3, 2).unwrap());
    }
    // Proposition 2's classical witness: GREEDY = 2P − 1, OPT = P: the bound is attained.
    let e = resched_proofs::find("rigid.prop2").unwrap();
    let rep = (e.check)(&Params::for_entry(e, &["P=5".into()]).unwrap(), &budget).unwrap();
    for m in rep.witness.iter().filter(|m| !m.algo.ends_with("RANDOM")) {
        assert_eq!(m.makespan, Time::from_int(9), "{}", m.algo);
        assert_eq!(m.ratio, bounds::greedy_ratio(5), "{}", m.algo);
    }
}

#[test]
fn params_are_validated() {
    let e = resched_proofs::find("rigid.prop4").unwrap();
    for bad in ["P=9", "eps=2", "Q=1", "P", "eps=abc"] {
        let r = Params::for_entry(e, &[bad.into()]).and_then(|p| {
            (e.check)(
                &p,
                &Budget {
                    random: 0,
                    adversarial: 0,
                    ..small_budget()
                },
            )
        });
        assert!(r.is_err(), "{bad} accepted");
    }
    assert!(resched_proofs::find("rigid.prop9").is_err());
}

fn resched(args: &[&str]) -> (i32, String) {
    let out = Command::new(crate::support::bin())
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

#[test]
fn cli_prove() {
    let (code, out) = resched(&["prove", "rigid.prop3", "--param", "P=4"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("makespan 25/12") && out.contains("OPT = 1"),
        "{out}"
    );
    let (code, out) = resched(&["prove", "--list"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("rigid.prop1") && out.contains("--param P="),
        "{out}"
    );
    let (code, out) = resched(&["prove", "rigid.prop4", "--param", "P=40"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("P=40"), "{out}");
    let (code, out) = resched(&["prove", "nope.thm1"]);
    assert_eq!(code, 2, "{out}");
}
