//! The app's shape (issue 17): no import circle among the modules of `src/`, and the storage
//! (`storage`, `store`) a leaf that names no scene and no play machinery.
//!
//! How it reads the code: every `.rs` file under `src/` is stripped of comments, strings,
//! character literals and `#[cfg(test)]` items; every path that starts with `crate::` or
//! `super::` (with `use` groups `{a, b::c}`) is made absolute from the file's own module, and
//! when it lands in another top-level module of `src/` that is an edge. Circles are the strongly
//! connected components of more than one module. Not seen: glob imports and macros that build
//! paths (none are used between modules here).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rs_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file under `src/` (`src/battle/board/camera.rs` → battle, board, camera).
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix("src").expect("under src");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string()).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib" || p == "main") {
        parts.pop();
    }
    parts
}

/// The code without comments, strings, character literals and `#[cfg(test)]` items.
fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == '*' && b[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                i += if b[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && (next == Some('\\') || b.get(i + 2) == Some(&'\'')) {
            i += 1;
            while i < b.len() && b[i] != '\'' {
                i += if b[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    // `#[cfg(test)]` items: from the attribute to the end of the item's braces.
    while let Some(at) = out.find("#[cfg(test)]") {
        let open = out[at..].find('{').map(|o| at + o);
        let Some(open) = open else { break };
        let mut depth = 0;
        let mut end = out.len();
        for (k, ch) in out[open..].char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.replace_range(at..end, "");
    }
    out
}

/// Every absolute path (as module names) the code names with `crate::` or `super::`.
fn paths(code: &str, here: &[String]) -> Vec<Vec<String>> {
    let words: Vec<(usize, &str)> = code
        .match_indices(|c: char| !(c.is_alphanumeric() || c == '_'))
        .scan(0, |start, (at, sep)| {
            let word = (*start, &code[*start..at]);
            *start = at + sep.len();
            Some([word, (at, sep)])
        })
        .flatten()
        .filter(|(_, w)| !w.trim().is_empty())
        .collect();
    let mut found = Vec::new();
    for (k, (_, w)) in words.iter().enumerate() {
        let (mut base, mut j) = match *w {
            "crate" => (Vec::new(), k + 1),
            "super" if k == 0 || words[k - 1].1 != ":" => {
                let mut base = here.to_vec();
                let mut j = k;
                while words.get(j).is_some_and(|w| w.1 == "super") && words.get(j + 1).is_some_and(|w| w.1 == ":") {
                    base.pop();
                    j += 3;
                }
                (base, j - 2)
            }
            _ => continue,
        };
        if words.get(j).map(|w| w.1) != Some(":") || words.get(j + 1).map(|w| w.1) != Some(":") {
            continue;
        }
        j += 2;
        match words.get(j).map(|w| w.1) {
            Some("{") => {
                // A group: the first name after `{` and after each `,` at depth 1.
                let mut depth = 0;
                let mut expect = true;
                for (_, t) in &words[j..] {
                    match *t {
                        "{" => {
                            depth += 1;
                            expect = depth == 1;
                        }
                        "}" => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        "," if depth == 1 => expect = true,
                        name if expect && depth == 1 && name.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                            let mut p = base.clone();
                            p.push(name.to_string());
                            found.push(p);
                            expect = false;
                        }
                        _ => {}
                    }
                }
            }
            Some(name) => {
                base.push(name.to_string());
                found.push(base);
            }
            None => {}
        }
    }
    found
}

/// Who names whom among the top-level modules of `src/`.
fn graph() -> Graph {
    let mut files = Vec::new();
    rs_files(Path::new("src"), &mut files);
    let modules: BTreeSet<String> = files.iter().filter_map(|f| module_of(f).first().cloned()).collect();
    let mut graph: Graph = modules.iter().map(|m| (m.clone(), BTreeSet::new())).collect();
    for file in &files {
        let here = module_of(file);
        let Some(from) = here.first().cloned() else { continue };
        let code = code_only(&std::fs::read_to_string(file).expect("read"));
        for path in paths(&code, &here) {
            if let Some(to) = path.first().filter(|m| modules.contains(*m) && **m != from) {
                graph.entry(from.clone()).or_default().insert(to.clone());
            }
        }
    }
    graph
}

/// The modules that reach each other (strongly connected components of more than one).
fn circles(graph: &Graph) -> Vec<BTreeSet<String>> {
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(m) = todo.pop() {
            for n in graph.get(&m).into_iter().flatten() {
                if seen.insert(n.clone()) {
                    todo.push(n.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> = graph.keys().map(|m| (m, reach(m))).collect();
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    for m in graph.keys() {
        let circle: BTreeSet<String> =
            graph.keys().filter(|n| reached[m].contains(*n) && reached[*n].contains(m)).cloned().collect();
        if circle.len() > 1 && !out.contains(&circle) {
            out.push(circle);
        }
    }
    out
}

#[test]
fn no_import_circle_among_the_modules_of_src() {
    let graph = graph();
    assert!(graph["battle"].contains("session"), "the checker sees the imports: {graph:?}");
    let found = circles(&graph);
    assert!(found.is_empty(), "import circles in src/: {found:?}\n{graph:#?}");
}

#[test]
fn the_checker_finds_a_circle() {
    let mut graph = graph();
    graph.entry("store".to_string()).or_default().insert("saves".to_string());
    assert!(circles(&graph).iter().any(|c| c.contains("store") && c.contains("saves")));
}

#[test]
fn storage_is_a_leaf_that_names_no_scene_nor_the_session() {
    let graph = graph();
    assert!(graph["saves"].contains("storage"), "{graph:?}");
    assert_eq!(graph["store"], BTreeSet::new(), "store names nothing of the game");
    assert_eq!(graph["storage"], BTreeSet::from(["store".to_string()]), "storage names only the store");
    for (module, named) in &graph {
        assert!(module == "battle" || !named.contains("battle"), "{module} names the battle scene");
    }
}
