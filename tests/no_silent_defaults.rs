//! DESIGN rule: no silent `unwrap_or` default where a broken invariant would become a
//! plausible number.
//!
//! Every `unwrap_or`, `unwrap_or_default` and `unwrap_or_else` in the library's non-test code
//! (`src/` and `proofs/`, each file up to its first `#[cfg(test)]`) carries its justification:
//! a comment `// default: …` (a documented default of a user option, or the natural value of an
//! empty case) or `// unreachable: …` (why the fallback never runs; a `debug_assert!` beside it
//! where the condition is not a literal), on the same line or in the comment lines directly
//! above it. A new site without one fails this test, so the reader of every fallback knows
//! which kind it is; a site that would turn a broken invariant into a number must instead
//! become a typed error.

/// The code part of a line (before a `//` comment).
fn code_of(line: &str) -> &str {
    line.split("//").next().unwrap_or_default()
}

/// Whether `line` carries a justification tag.
fn is_tagged(line: &str) -> bool {
    ["// default:", "// unreachable:"]
        .iter()
        .any(|t| line.contains(t))
}

/// The number of `unwrap_or*` calls in the code part of `line`.
fn sites_in(line: &str) -> usize {
    code_of(line).matches(".unwrap_or").count()
}

/// The 1-based line numbers of the untagged sites of `text` (up to its first `#[cfg(test)]`),
/// and the number of sites in all.
fn untagged(text: &str) -> (Vec<usize>, usize) {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let lines: Vec<&str> = code.lines().collect();
    let (mut bad, mut total) = (Vec::new(), 0);
    for (i, line) in lines.iter().enumerate() {
        let n = sites_in(line);
        if n == 0 {
            continue;
        }
        total += n;
        // The line itself, then the comment block directly above it.
        let mut ok = is_tagged(line);
        let mut k = i;
        while !ok && k > 0 {
            k -= 1;
            let above = lines[k].trim_start();
            if !above.starts_with("//") {
                break;
            }
            ok = is_tagged(above);
        }
        if !ok {
            bad.push(i + 1);
        }
    }
    (bad, total)
}

#[test]
fn the_scan_finds_an_untagged_site() {
    let text = "fn f(x: Option<u32>) -> u32 {\n    x.unwrap_or(0)\n}\n";
    assert_eq!(untagged(text), (vec![2], 1));
    let tagged =
        "fn f(x: Option<u32>) -> u32 {\n    // default: none is 0\n    x.unwrap_or(0)\n}\n";
    assert_eq!(untagged(tagged), (vec![], 1));
    let block = "    // unreachable: x is set above,\n    // so this never runs\n    x.unwrap_or_default()\n";
    assert_eq!(untagged(block), (vec![], 1));
    // A tag separated from the site by code does not count.
    let far = "    // default: a\n    let y = 1;\n    x.unwrap_or_else(|| y)\n";
    assert_eq!(untagged(far), (vec![3], 1));
    // Test modules are not library code.
    let test_mod = "#[cfg(test)]\nmod tests { fn g() { x.unwrap_or(1); } }\n";
    assert_eq!(untagged(test_mod), (vec![], 0));
}

#[test]
fn every_unwrap_or_in_library_code_is_justified() {
    let root = crate::support::repo();
    let mut files = crate::support::rust_files(&root.join("src"));
    files.extend(crate::support::rust_files(&root.join("proofs")));
    files.extend(crate::support::rust_files(&root.join("cli/src")));
    let mut missing = Vec::new();
    let mut total = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let (bad, n) = untagged(&text);
        total += n;
        let rel = f.strip_prefix(&root).unwrap_or(f);
        missing.extend(bad.into_iter().map(|l| format!("{}:{l}", rel.display())));
    }
    assert!(total > 0, "no unwrap_or found at all: is the scan broken?");
    assert!(
        missing.is_empty(),
        "{} of {total} unwrap_or sites carry no `// default: …` or `// unreachable: …` \
         comment (same line or the comment lines directly above); justify each, or make it a \
         typed error:\n{}",
        missing.len(),
        missing.join("\n")
    );
}
