//! DESIGN rule: the modules of each crate form layers, never circles.
//!
//! Between crates the compiler keeps the layers (the core `resched` depends on neither the
//! ledger nor the CLI; the ledger not on the CLI): the crate graph is the layer picture. Inside
//! a crate the modules must form layers too, in every room: for each folder of the core
//! (`src/`), the ledger (`proofs/`) and the CLI (`cli/src/`), the graph of its child modules
//! (an edge A → B when code inside A names `crate::…::B…` or `super::…` resolving into B) must
//! be acyclic. The graphs come from the code alone: doc comments, comments and `#[cfg(test)]`
//! modules are left out, since a doc link is not a dependency; a grouped `use x::{a, b}` counts
//! as naming `x`. The checker must not depend on the oracle it judges.
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The file's code: everything before its first `#[cfg(test)]`, without comment lines or
/// trailing `//` comments.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines()
        .map(|l| l.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// A cycle of `g`, if it has one (depth-first search with colours).
fn find_cycle(g: &Graph) -> Option<Vec<String>> {
    fn visit(
        v: &str,
        g: &Graph,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(v.to_string(), 1);
        stack.push(v.to_string());
        for w in g.get(v).into_iter().flatten() {
            match state.get(w.as_str()).copied().unwrap_or(0) {
                1 => {
                    let start = stack.iter().position(|x| x == w).unwrap_or(0);
                    let mut cycle = stack[start..].to_vec();
                    cycle.push(w.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(w, g, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(v.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for v in g.keys() {
        if state.get(v.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(v, g, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

/// The module path of a file relative to its crate's root folder: `a/b.rs` and `a/b/mod.rs` →
/// `[a, b]`; `lib.rs`, `main.rs` → `[]`.
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The module paths `text` names: `crate::a::b` → `[a, b]` and `super::c` resolved against
/// the file's module `own` (lowercase path segments only; a grouped `use x::{a, b}` names `x`).
fn named_paths(text: &str, own: &[String]) -> Vec<Vec<String>> {
    let segments = |rest: &str| -> Vec<String> {
        let mut out = Vec::new();
        let mut r = rest;
        loop {
            let name: String = r
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_lowercase()) {
                break;
            }
            r = &r[name.len()..];
            out.push(name);
            match r.strip_prefix("::") {
                Some(next) => r = next,
                None => break,
            }
        }
        out
    };
    let starts = |prefix: &'static str| {
        text.match_indices(prefix).filter(|(i, _)| {
            text[..*i]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'))
        })
    };
    let mut out = Vec::new();
    for (i, _) in starts("crate::") {
        out.push(segments(&text[i + "crate::".len()..]));
    }
    for (i, _) in starts("super::") {
        let mut base = own.to_vec();
        let mut rest = &text[i..];
        while let Some(r) = rest.strip_prefix("super::") {
            base.pop();
            rest = r;
        }
        base.extend(segments(rest));
        out.push(base);
    }
    out
}

/// The rooms of the crate whose root is `dir`: for each folder (module) the graph of its child
/// modules, an edge A → B when code inside A names something inside B.
fn rooms(dir: &Path) -> BTreeMap<Vec<String>, Graph> {
    let files: Vec<(Vec<String>, PathBuf)> = crate::support::rust_files(dir)
        .into_iter()
        .map(|f| {
            (
                module_path(f.strip_prefix(dir).expect("under the crate")),
                f,
            )
        })
        .collect();
    let modules: BTreeSet<Vec<String>> = files
        .iter()
        .flat_map(|(m, _)| (1..=m.len()).map(|k| m[..k].to_vec()))
        .collect();
    let mut rooms: BTreeMap<Vec<String>, Graph> = BTreeMap::new();
    for (own, f) in &files {
        for mut q in named_paths(&code(f), own) {
            while !q.is_empty() && !modules.contains(&q) {
                q.pop();
            }
            let k = own.iter().zip(&q).take_while(|(a, b)| a == b).count();
            if k < own.len() && k < q.len() {
                rooms
                    .entry(own[..k].to_vec())
                    .or_default()
                    .entry(own[k].clone())
                    .or_default()
                    .insert(q[k].clone());
            }
        }
    }
    rooms
}

/// Every room of the crate in `sub` is acyclic; returns the crate root's own graph.
fn assert_layers(sub: &str, must_have: &[&str]) -> Graph {
    let rooms = rooms(&crate::support::repo().join(sub));
    for (room, g) in &rooms {
        if let Some(c) = find_cycle(g) {
            let at = if room.is_empty() {
                String::new()
            } else {
                format!("{}/", room.join("/"))
            };
            panic!(
                "import circle among the modules of {sub}/{at}: {}",
                c.join(" -> ")
            );
        }
    }
    let top = rooms.get(&Vec::new()).cloned().unwrap_or_default();
    let named: BTreeSet<&String> = top.keys().chain(top.values().flatten()).collect();
    for m in must_have {
        assert!(
            named.contains(&m.to_string()),
            "{sub}: module `{m}` not found: is the scan broken?"
        );
    }
    top
}

#[test]
fn the_modules_of_the_core_form_layers() {
    let g = assert_layers("src", &["oracle", "check", "engine", "model", "schedulers"]);
    assert!(g.len() > 8, "found only {} modules", g.len());
    let check = g.get("check").cloned().unwrap_or_default();
    assert!(
        !check.contains("oracle") && !check.contains("schedulers"),
        "the checker must judge the oracle, not depend on it: check -> {check:?}"
    );
}

#[test]
fn the_ledger_modules_form_layers() {
    assert_layers("proofs", &["moldable", "adversary", "run"]);
}

#[test]
fn the_cli_modules_form_layers() {
    assert_layers("cli/src", &["cli", "experiment", "render", "diff", "batch"]);
}

#[test]
fn a_planted_circle_is_found() {
    let mut g = Graph::new();
    g.entry("a".into()).or_default().insert("b".into());
    g.entry("b".into()).or_default().insert("c".into());
    assert_eq!(find_cycle(&g), None);
    g.entry("c".into()).or_default().insert("a".into());
    assert_eq!(
        find_cycle(&g),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    assert_eq!(
        named_paths("use crate::model::X; xcrate::y; crate::Time", &[]),
        vec![vec!["model".to_string()], vec![]]
    );
    let own = ["a".to_string(), "b".to_string()];
    assert_eq!(
        named_paths("use super::c::d; super::super::e", &own),
        vec![
            vec!["a".to_string(), "c".into(), "d".into()],
            vec!["e".to_string()]
        ]
    );
}
