//! The engine's shape: no import circle among the crate's top-level modules, nor among the files
//! of `strategic/` and `tactical/` (read from the sources by `support/imports.rs`, whose own
//! tests run on the small crates in `fixtures/imports/`).

#[path = "support/imports.rs"]
mod imports;

use std::path::{Path, PathBuf};

use imports::{ModuleGraph, Nodes, assert_no_cycles};

fn here(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn graph(path: &str, module: &str, nodes: Nodes) -> ModuleGraph {
    match ModuleGraph::read(&here(path), module, nodes) {
        Ok(graph) => graph,
        Err(error) => panic!("cannot read {path}: {error}"),
    }
}

fn has_edge(graph: &ModuleGraph, from: &str, to: &str) -> bool {
    graph.edges.get(from).is_some_and(|tos| tos.contains_key(to))
}

// ---------------------------------------------------------------------------------------------
// The checker on its fixtures

#[test]
fn checker_finds_the_circle_and_the_edges_that_form_it() {
    let graph = graph("tests/fixtures/imports/cycle", "crate", Nodes::TopLevel);
    assert_eq!(graph.modules.iter().map(String::as_str).collect::<Vec<_>>(), ["a", "b", "c", "shop"]);
    let cycles = graph.cycles();
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    assert_eq!(cycles[0].modules, ["a", "b", "shop"]);
    let edges: Vec<(&str, &str, &str, usize)> = cycles[0]
        .edges
        .iter()
        .map(|(from, to, site)| (from.as_str(), to.as_str(), site.file.as_str(), site.line))
        .collect();
    // a -> b through a grouped `use`, b -> shop through the root's `pub use`, shop -> a through a
    // `super::super::` path in code.
    assert_eq!(edges, [("a", "b", "a.rs", 1), ("b", "shop", "b.rs", 5), ("shop", "a", "shop/till.rs", 5)]);
    assert_eq!(cycles[0].edges[1].2.path, "crate::shop::till::Till::open");
    // a names c, but c's comments, strings and test module name a without making an edge.
    assert!(has_edge(&graph, "a", "c"));
    assert!(!has_edge(&graph, "c", "a"), "{}", graph.describe());
    let report = cycles[0].to_string();
    assert!(report.starts_with("circle among {a, b, shop}:"), "{report}");
}

#[test]
fn checker_sees_files_inside_a_folder_module_as_their_own_nodes() {
    let graph = graph("tests/fixtures/imports/cycle", "crate", Nodes::Files);
    assert!(graph.modules.contains("shop::till"), "{:?}", graph.modules);
    let cycles = graph.cycles();
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    assert_eq!(cycles[0].modules, ["a", "b", "shop::till"]);
}

#[test]
fn checker_reports_no_circle_for_a_dag() {
    let graph = graph("tests/fixtures/imports/dag", "crate", Nodes::TopLevel);
    assert!(graph.cycles().is_empty(), "{:?}", graph.cycles());
    // The edges are seen (`use a::{self, B}`, paths in code); the test-only ones are not.
    assert_eq!(graph.describe(), "x -> y\nz -> x, y\n");
    assert_no_cycles(&here("tests/fixtures/imports/dag"), "crate", Nodes::Files);
}

#[test]
#[should_panic(expected = "circle among {a, b, shop}")]
fn assert_no_cycles_names_the_circle() {
    assert_no_cycles(&here("tests/fixtures/imports/cycle"), "crate", Nodes::TopLevel);
}

// ---------------------------------------------------------------------------------------------
// The engine

#[test]
fn strategic_files_name_each_other_in_no_circle() {
    assert_no_cycles(&here("src/strategic"), "crate::strategic", Nodes::Files);
    // The vocabulary sits below the state, the naval data below the state and the naval rules above.
    let graph = graph("src/strategic", "crate::strategic", Nodes::Files);
    for (from, to) in [("state", "ids"), ("event", "ids"), ("state", "naval::model"), ("naval::rules", "state")] {
        assert!(has_edge(&graph, from, to), "{from} -> {to} missing:\n{}", graph.describe());
    }
}

#[test]
fn tactical_files_name_each_other_in_no_circle() {
    assert_no_cycles(&here("src/tactical"), "crate::tactical", Nodes::Files);
    let graph = graph("src/tactical", "crate::tactical", Nodes::Files);
    assert!(has_edge(&graph, "state", "event") && has_edge(&graph, "event", "components"), "{}", graph.describe());
}

#[test]
fn the_crates_top_level_modules_name_each_other_in_no_circle() {
    assert_no_cycles(&here("src"), "crate", Nodes::TopLevel);
    let graph = graph("src", "crate", Nodes::TopLevel);
    assert!(has_edge(&graph, "strategic", "dice") && has_edge(&graph, "tactical", "dice"), "{}", graph.describe());
}
