//! The engine's shape: no import circle among the crate's top-level modules, nor among the files
//! of `strategic/` and `tactical/` (read from the sources by `support/imports.rs`, whose own
//! tests run on the small crates in `fixtures/imports/`); and `ARCHITECTURE.md` kept true: its
//! crates table matches the manifests, its "Find a rule" table covers every rule-ID prefix and
//! names only files that exist and cite the rule.

#[path = "support/imports.rs"]
mod imports;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use imports::{ModuleGraph, Nodes, assert_no_cycles, module_folders, paths_into};

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

// ---------------------------------------------------------------------------------------------
// Every crate of the workspace

/// The workspace's members as its manifest lists them, each with its `src/`.
fn workspace_sources() -> Vec<(String, PathBuf)> {
    let manifest = read(&repo().join("Cargo.toml"));
    let start = manifest.find("members = [").expect("the workspace lists its members");
    let end = start + manifest[start..].find(']').expect("the members list ends");
    manifest[start..end].split('"').skip(1).step_by(2).map(|m| (m.to_owned(), repo().join(m).join("src"))).collect()
}

#[test]
fn no_folder_of_any_crate_has_an_import_circle() {
    let crates = workspace_sources();
    // The app, the engine, the AI, the referee and the map generator: every member.
    for member in [".", "crates/rules", "crates/ai", "crates/umpire", "crates/mapgen"] {
        assert!(crates.iter().any(|(m, _)| m == member), "{member} is a member: {crates:?}");
    }
    let mut checked = 0;
    let mut circles = Vec::new();
    for (member, src) in &crates {
        let folders = module_folders(src).unwrap_or_else(|e| panic!("cannot read {}: {e}", src.display()));
        for (folder, module) in folders {
            // The folder's children, each a node (a folder below is one, and checked itself): the
            // folder's own root file (`mod.rs`) is the glue that declares them, not a node.
            // The engine's rules folders are layered file by file across their own folders
            // (`naval/model` below the state, `naval/rules` above it): each file a node there.
            let by_file = folder.ends_with("rules/src/strategic") || folder.ends_with("rules/src/tactical");
            let nodes = if by_file { Nodes::Files } else { Nodes::TopLevel };
            let graph = ModuleGraph::read(&folder, &module, nodes)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", folder.display()));
            checked += graph.modules.len();
            for c in graph.cycles() {
                circles.push(format!("{member} {}: {c}", folder.display()));
            }
        }
    }
    assert!(checked > 150, "the modules of every crate are read: {checked}");
    assert!(circles.is_empty(), "import circles:\n{}", circles.join("\n"));
}

#[test]
fn the_great_war_staff_is_a_folder_and_sea_work_sits_below_it() {
    // issue 26: the staff is one file per family of work items, and the sea's, the treasury's and
    // the judge's helpers name nothing of the staff.
    let great_war = graph("../ai/src/great_war", "crate::great_war", Nodes::TopLevel);
    for lower in ["sea", "treasury", "judge", "front", "baseline"] {
        assert!(!has_edge(&great_war, lower, "staff"), "{lower} names the staff:\n{}", great_war.describe());
    }
    assert!(has_edge(&great_war, "staff", "sea") && has_edge(&great_war, "sea", "judge"), "{}", great_war.describe());
    let staff = graph("../ai/src/great_war/staff", "crate::great_war::staff", Nodes::Files);
    for family in ["contact", "economy", "fire", "fleets", "moves", "pieces", "plan", "state"] {
        assert!(staff.modules.contains(family), "staff/{family}.rs: {:?}", staff.modules);
    }
}

/// What the app may name of the engine: its public face (the game and its saves, orders, events,
/// previews, the query layer, scenarios, maps and texts) — not its internals.
const APP_MAY_NAME: &[&str] = &[
    "rules::Game",
    "rules::Save",
    "rules::StateHash",
    "rules::DataError",
    "rules::data",
    "rules::hash",
    "rules::plain",
    "rules::reference",
    "rules::replay",
    "rules::rules_window",
    "rules::savefile",
    "rules::source",
    "rules::texts",
    "rules::limits",
    "rules::game",
    // Who is looking (issue 26): the views, seen events and sight every scene asks for.
    "rules::view",
    "rules::strategic::WarView",
    // What a game leaves to its moderator: the orders' own words for the moderator's table.
    "rules::moderation",
    "rules::strategic::Ctx",
    "rules::strategic::CombatResult",
    "rules::strategic::Event",
    "rules::strategic::EventKind",
    // What a preview's and the Combat phase's engagements are (issue 27: the odds again at Combat).
    "rules::strategic::Engagement",
    "rules::strategic::ForceId",
    "rules::strategic::FormationId",
    "rules::strategic::GreatWar",
    "rules::strategic::HexAt",
    "rules::strategic::HexMap",
    "rules::strategic::Order",
    "rules::strategic::OrderError",
    "rules::strategic::Phase",
    "rules::strategic::Piece",
    "rules::strategic::PowerId",
    "rules::strategic::Preview",
    "rules::strategic::ReplayError",
    "rules::strategic::SaveGame",
    "rules::strategic::Scenario",
    "rules::strategic::Terrain",
    "rules::strategic::query",
    "rules::strategic::preview",
    "rules::strategic::event",
    "rules::strategic::order",
    "rules::strategic::scenario",
    "rules::strategic::hexmap",
    "rules::tactical",
    "rules::campaign",
];

/// Engine modules the app still names beyond its face (issue 26): the list only shrinks. Each
/// entry is a path prefix; the test fails on one no longer named, so a move onto the query layer
/// takes its line out.
const APP_STILL_NAMES: &[&str] = &[
    "rules::strategic::campaign",
    "rules::strategic::naval",
    "rules::strategic::purchase",
    "rules::strategic::state",
    "rules::strategic::tech",
    "rules::strategic::upkeep",
];

/// Never named by the app: the engine's own machinery.
const APP_NEVER_NAMES: &[&str] =
    &["rules::strategic::apply", "rules::strategic::game::new_ctx", "rules::strategic::game::world_of"];

/// The Great War's resources of record, which the app reads through the query layer
/// (`rules::strategic::query`), never by name.
const APP_NEVER_READS: &[&str] = &["Powers", "Provinces", "HexStates", "NextFormation", "ForceIndex"];

fn named_by(prefix: &str, path: &str) -> bool {
    path == prefix || path.strip_prefix(prefix).is_some_and(|rest| rest.starts_with("::"))
}

#[test]
fn the_app_names_the_engine_by_its_face() {
    let app = repo().join("src");
    let sites = paths_into(&app, "rules").unwrap_or_else(|e| panic!("cannot read {}: {e}", app.display()));
    assert!(sites.len() > 100, "the app's paths into the engine are read: {}", sites.len());
    let mut outside = Vec::new();
    let mut never = Vec::new();
    let mut still: BTreeSet<&str> = BTreeSet::new();
    for s in &sites {
        // `rules::testing` and `rules::strategic::testkit` serve the app's own tests and tools.
        if named_by("rules::testing", &s.path) || named_by("rules::strategic::testkit", &s.path) {
            continue;
        }
        let resource = s.path.starts_with("rules::strategic")
            && s.path.rsplit("::").next().is_some_and(|last| APP_NEVER_READS.contains(&last));
        if APP_NEVER_NAMES.iter().any(|p| named_by(p, &s.path)) || resource {
            never.push(format!("src/{}:{} {}", s.file, s.line, s.path));
        } else if let Some(p) = APP_STILL_NAMES.iter().find(|p| named_by(p, &s.path)) {
            still.insert(p);
        } else if !APP_MAY_NAME.iter().any(|p| named_by(p, &s.path)) {
            outside.push(format!("src/{}:{} {}", s.file, s.line, s.path));
        }
    }
    assert!(never.is_empty(), "the app names the engine's internals:\n{}", never.join("\n"));
    assert!(outside.is_empty(), "the app names engine paths outside its face:\n{}", outside.join("\n"));
    let stale: Vec<&&str> = APP_STILL_NAMES.iter().filter(|p| !still.contains(**p)).collect();
    assert!(stale.is_empty(), "no longer named by the app, take them off APP_STILL_NAMES: {stale:?}");
}

// ---------------------------------------------------------------------------------------------
// ARCHITECTURE.md's "Find a rule" table

fn repo() -> PathBuf {
    here("../..")
}

fn read(path: &Path) -> String {
    match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) => panic!("cannot read {}: {error}", path.display()),
    }
}

/// `T-MELEE` of `T-MELEE-3`.
fn prefix_of(id: &str) -> Option<&str> {
    rules::reference::is_rule_id(id).then(|| id.rsplit_once('-').map_or(id, |(prefix, _)| prefix))
}

/// The prefixes of the rule IDs a digest defines (its list items `- **T-CMD-4** …`).
fn digest_prefixes(markdown: &str) -> BTreeSet<String> {
    markdown
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("- **"))
        .filter_map(|l| l.split_once("**").map(|(id, _)| id))
        .filter_map(prefix_of)
        .map(str::to_owned)
        .collect()
}

/// The prefixes of the rule IDs the shipped rules reference has entries for (`id: "T-CMD-4"`).
fn reference_prefixes(ron: &str) -> BTreeSet<String> {
    ron.split('"').filter_map(prefix_of).map(str::to_owned).collect()
}

/// The table's rows: prefix and every path named in the row.
fn find_a_rule_table() -> Vec<(String, Vec<String>)> {
    let text = read(&repo().join("ARCHITECTURE.md"));
    let Some((_, section)) = text.split_once("\n## Find a rule\n") else {
        panic!("ARCHITECTURE.md has no '## Find a rule'")
    };
    let section = section.split("\n## ").next().unwrap_or(section);
    section
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|row| {
            let quoted: Vec<&str> = row.split('`').skip(1).step_by(2).collect();
            let prefix = quoted.first().map_or(String::new(), |p| (*p).to_owned());
            let paths = quoted.iter().skip(1).filter(|q| q.contains('/')).map(|q| (*q).to_owned()).collect();
            (prefix, paths)
        })
        .collect()
}

#[test]
fn every_rule_prefix_has_a_row_in_the_find_a_rule_table() {
    let rows: BTreeSet<String> = find_a_rule_table().into_iter().map(|(prefix, _)| prefix).collect();
    let mut wanted = BTreeSet::new();
    for file in ["assets/rules/tactical.en.ron", "assets/rules/strategic.en.ron"] {
        wanted.extend(reference_prefixes(&read(&repo().join(file))));
    }
    match rules::testing::digests() {
        Some(dir) => {
            for file in ["tactical.md", "strategic.md"] {
                let found = digest_prefixes(&read(&dir.join(file)));
                assert!(!found.is_empty(), "no rule IDs in {}", dir.join(file).display());
                wanted.extend(found);
            }
        }
        None => {
            println!("note: no rules digests found (set KRIEGSSPIEL_DIGESTS); checked the rules reference's IDs only")
        }
    }
    assert!(wanted.contains("T-MOVE") && wanted.contains("S-AIR"), "{wanted:?}");
    let missing: Vec<&String> = wanted.difference(&rows).collect();
    assert!(missing.is_empty(), "ARCHITECTURE.md's 'Find a rule' table lacks {missing:?}");
    let unknown: Vec<&String> = rows.difference(&wanted).collect();
    assert!(unknown.is_empty(), "ARCHITECTURE.md's 'Find a rule' table names prefixes no rule has: {unknown:?}");
}

#[test]
fn every_file_the_find_a_rule_table_names_exists_and_names_the_rule() {
    let table = find_a_rule_table();
    assert!(table.len() > 20, "{table:?}");
    for (prefix, paths) in table {
        assert!(!paths.is_empty(), "{prefix}: the row names no file");
        let id = format!("{prefix}-");
        for path in paths {
            let file = repo().join(&path);
            assert!(file.is_file(), "{prefix}: {path} does not exist");
            let text = read(&file);
            let names_it =
                text.match_indices(&id).any(|(at, _)| text[at + id.len()..].starts_with(|c: char| c.is_ascii_digit()));
            assert!(names_it, "{prefix}: {path} never names a {prefix} rule");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// ARCHITECTURE.md's crates table

const OUR_CRATES: [&str; 7] = ["rules", "ai", "umpire", "mapgen", "server", "wire", "kriegsspiel"];

/// Our crates a manifest depends on, in any `[*dependencies]` table (`rules.workspace = true`,
/// `ai = { .. }`).
fn our_dependencies(manifest: &str) -> BTreeSet<String> {
    let mut table = "";
    let mut found = BTreeSet::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            table = line;
        } else if table.ends_with("dependencies]") && !table.starts_with("[workspace") {
            let key = line.split(['=', '.', ' ']).next().unwrap_or("");
            if OUR_CRATES.contains(&key) {
                found.insert(key.to_owned());
            }
        }
    }
    found
}

#[test]
fn the_crates_depend_only_on_what_architecture_md_allows() {
    let text = read(&repo().join("ARCHITECTURE.md"));
    let Some((_, section)) = text.split_once("\n## The crates\n") else {
        panic!("ARCHITECTURE.md has no '## The crates'")
    };
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut seen = BTreeSet::new();
    for row in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let name = cells[1].split('`').nth(1).unwrap_or("");
        let manifest =
            if name == "kriegsspiel" { "Cargo.toml".to_owned() } else { format!("crates/{name}/Cargo.toml") };
        let allowed: BTreeSet<String> = cells[cells.len() - 2]
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|c| OUR_CRATES.contains(c))
            .map(str::to_owned)
            .collect();
        let actual = our_dependencies(&read(&repo().join(&manifest)));
        assert_eq!(actual, allowed, "{name} ({manifest}) depends on {actual:?}; ARCHITECTURE.md says {allowed:?}");
        seen.insert(name.to_owned());
    }
    assert_eq!(seen, OUR_CRATES.iter().map(|c| (*c).to_owned()).collect(), "ARCHITECTURE.md's crates table");
}
