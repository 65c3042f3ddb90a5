//! The app's shape (issue 17): no import circle among the modules of `src/`, and the storage
//! (`storage`, `store`) a leaf that names no scene and no play machinery.
//!
//! The checker is the engine's test support, shared with `crates/rules/tests/architecture.rs`.

#[path = "../crates/rules/tests/support/imports.rs"]
mod imports;

use imports::{ModuleGraph, Nodes, assert_no_cycles};
use std::path::Path;

fn src() -> ModuleGraph {
    ModuleGraph::read(Path::new("src"), "crate", Nodes::TopLevel).expect("src/ reads")
}

#[test]
fn no_import_circle_among_the_modules_of_src() {
    assert_no_cycles(Path::new("src"), "crate", Nodes::TopLevel);
    // A scene is one node above; inside it, no circle either.
    assert_no_cycles(Path::new("src/battle"), "crate::battle", Nodes::TopLevel);
    assert_no_cycles(Path::new("src/great_war"), "crate::great_war", Nodes::TopLevel);
    assert_no_cycles(Path::new("src/campaign"), "crate::campaign", Nodes::TopLevel);
}

#[test]
fn storage_is_a_leaf_that_names_no_scene_nor_the_session() {
    let graph = src();
    assert!(graph.modules.contains("storage") && graph.modules.contains("battle"), "{:?}", graph.modules);
    let named = |module: &str| -> Vec<String> {
        graph.edges.get(module).map(|to| to.keys().cloned().collect()).unwrap_or_default()
    };
    // The graph sees the imports (so the checks below can fail).
    assert!(named("battle").contains(&"session".to_string()), "{:?}", graph.edges);
    assert!(named("saves").contains(&"storage".to_string()), "{:?}", graph.edges);
    assert_eq!(named("store"), Vec::<String>::new(), "store names nothing of the game");
    assert_eq!(named("storage"), vec!["store".to_string()], "storage names only the store");
    // Nothing of the shell names a scene: the scenes plug into it. (A scene may name another
    // whose game it nests: the campaign fights its battles in the battle scene.)
    let scenes = ["battle", "great_war", "campaign"];
    for module in &graph.modules {
        if scenes.contains(&module.as_str()) {
            continue;
        }
        for scene in scenes {
            assert!(
                !named(module).iter().any(|m| m == scene),
                "{module} names the {scene} scene: {:?}",
                graph.edges[module][scene]
            );
        }
    }
}
