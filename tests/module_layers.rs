//! DESIGN rule: the modules form layers, never circles.
//!
//! Builds the dependency graph of the top-level modules of `src/` (an edge A → B when code in
//! A names `crate::B`) and of the ledger's modules in `proofs/` (an edge when one names
//! `crate::proofs::B` or, from a top-level ledger file, `super::B`), from the code alone: doc
//! comments, comments and `#[cfg(test)]` modules are left out, since a doc link is not a
//! dependency. Both graphs must be acyclic, and the checker must not depend on the oracle it
//! judges.
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

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

/// The identifiers that follow `prefix` in `text` (`crate::model::Instance` → `model`).
fn names_after(text: &str, prefix: &str) -> BTreeSet<String> {
    text.match_indices(prefix)
        .filter(|(i, _)| {
            // `xcrate::` is not `crate::`.
            text[..*i]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
        })
        .map(|(i, _)| {
            text[i + prefix.len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|s| s.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
        .collect()
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

fn src_graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut g = Graph::new();
    for f in &files {
        let rel = f.strip_prefix(&src).expect("under src");
        let top = rel
            .components()
            .next()
            .map(|c| {
                c.as_os_str()
                    .to_string_lossy()
                    .trim_end_matches(".rs")
                    .to_string()
            })
            .unwrap_or_default();
        if top == "lib" || top == "main" {
            continue;
        }
        let deps = names_after(&code(f), "crate::");
        let e = g.entry(top.clone()).or_default();
        e.extend(deps.into_iter().filter(|d| *d != top));
    }
    g
}

#[test]
fn the_modules_of_src_form_layers() {
    let g = src_graph();
    assert!(g.len() > 8, "found only {} modules", g.len());
    assert!(g.contains_key("oracle") && g.contains_key("check"));
    if let Some(c) = find_cycle(&g) {
        panic!(
            "import circle among the modules of src/: {}",
            c.join(" -> ")
        );
    }
    let check = g.get("check").cloned().unwrap_or_default();
    assert!(
        !check.contains("oracle") && !check.contains("schedulers"),
        "the checker must judge the oracle, not depend on it: check -> {check:?}"
    );
}

#[test]
fn the_ledger_modules_form_layers() {
    let proofs = Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs");
    let mut files = Vec::new();
    rust_files(&proofs, &mut files);
    let mut g = Graph::new();
    for f in &files {
        let rel = f.strip_prefix(&proofs).expect("under proofs");
        if rel == Path::new("mod.rs") {
            continue;
        }
        let mut comps = rel.components();
        let top = comps
            .next()
            .map(|c| {
                c.as_os_str()
                    .to_string_lossy()
                    .trim_end_matches(".rs")
                    .to_string()
            })
            .unwrap_or_default();
        let text = code(f);
        let mut deps = names_after(&text, "crate::proofs::");
        if comps.next().is_none() {
            deps.extend(names_after(&text, "super::"));
        }
        let e = g.entry(top.clone()).or_default();
        e.extend(deps.into_iter().filter(|d| *d != top));
    }
    assert!(g.contains_key("moldable") && g.contains_key("adversary"));
    // Names of items of proofs/mod.rs (Budget, ratio, …) are not modules: keep module edges.
    let modules: BTreeSet<String> = g.keys().cloned().collect();
    for deps in g.values_mut() {
        deps.retain(|d| modules.contains(d));
    }
    if let Some(c) = find_cycle(&g) {
        panic!(
            "import circle among the ledger's modules: {}",
            c.join(" -> ")
        );
    }
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
        names_after("use crate::model::X; xcrate::y; crate::Time", "crate::"),
        ["model".to_string()].into_iter().collect()
    );
}
