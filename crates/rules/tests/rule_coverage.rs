//! Rule-ID coverage: the share of a digest's rule IDs (its list items `- **T-…**`) that at least
//! one test names, in a test's name (`t_strat_5_…`) or its text (`T-STRAT-5`), anywhere under
//! `crates/*/tests/` or `tests/`. A rule is done when a test names it with the rule's numbers
//! (the project's standard); this check keeps every tactical rule named. Prints the figure:
//! `cargo test -p rules --test rule_coverage -- --nocapture`.

use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every test source of the workspace, as one text.
fn test_sources() -> String {
    let mut dirs: Vec<PathBuf> = vec![repo().join("tests")];
    if let Ok(crates) = std::fs::read_dir(repo().join("crates")) {
        let mut found: Vec<PathBuf> = crates.flatten().map(|e| e.path().join("tests")).collect();
        found.sort();
        dirs.extend(found);
    }
    let mut text = String::new();
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                text.push_str(&std::fs::read_to_string(&p).unwrap_or_default());
                text.push('\n');
            }
        }
    }
    text
}

/// Whether a test source names a rule: `T-STRAT-5` (not `T-STRAT-50`), or `t_strat_5_` in a name.
fn named(sources: &str, id: &str) -> bool {
    let snake = format!("{}_", id.to_lowercase().replace('-', "_"));
    let mut rest = sources;
    while let Some(i) = rest.find(id) {
        let after = rest[i + id.len()..].chars().next();
        if !after.is_some_and(|c| c.is_ascii_digit()) {
            return true;
        }
        rest = &rest[i + id.len()..];
    }
    sources.contains(&snake)
}

/// (covered, all, the IDs not covered).
fn coverage(file: &str, sources: &str) -> Option<(usize, usize, Vec<String>)> {
    let text = std::fs::read_to_string(rules::testing::digests()?.join(file)).ok()?;
    let ids = rules::testing::digest_ids(&text);
    let missing: Vec<String> = ids.iter().filter(|id| !named(sources, id)).cloned().collect();
    Some((ids.len() - missing.len(), ids.len(), missing))
}

#[test]
fn every_tactical_rule_is_named_by_a_test() {
    let sources = test_sources();
    let Some((covered, all, missing)) = coverage("tactical.md", &sources) else {
        println!("note: no rules digests found (set KRIEGSSPIEL_DIGESTS); skipped");
        return;
    };
    println!("tactical.md: {covered}/{all} rule IDs named by a test ({:.1} %)", 100.0 * covered as f64 / all as f64);
    if let Some((c, a, m)) = coverage("strategic.md", &sources) {
        println!(
            "strategic.md: {c}/{a} rule IDs named by a test ({:.1} %); not yet: {m:?}",
            100.0 * c as f64 / a as f64
        );
    }
    assert!(all > 50, "only {all} tactical rule IDs found");
    assert!(missing.is_empty(), "tactical rules no test names: {missing:?}");
}

#[test]
fn a_rule_is_named_by_its_exact_id() {
    assert!(named("// T-STRAT-5: the cut", "T-STRAT-5"));
    assert!(!named("// T-STRAT-50", "T-STRAT-5"));
    assert!(named("fn t_strat_5_the_cut()", "T-STRAT-5"));
    assert!(!named("fn t_strat_50_x()", "T-STRAT-5"));
}
