//! Both wars' scenarios load from any file source: the disk natively, the bundle compiled into the
//! browser build; a catalog reads their headers without loading them.

use rules::source::{BundledFiles, FileSource, War, read_header};
use rules::testing::repo_path;

/// The Great War's North Sea scenario and every file it names, as the browser build bundles them.
fn bundle() -> BundledFiles {
    BundledFiles(vec![
        ("scenarios/great_war/north_sea_1916.ron", include_str!("../../../scenarios/great_war/north_sea_1916.ron")),
        ("maps/europe_1914_north_sea.ron", include_str!("../../../maps/europe_1914_north_sea.ron")),
        ("assets/data/great_war_units.ron", include_str!("../../../assets/data/great_war_units.ron")),
        ("assets/data/great_war_rules.ron", include_str!("../../../assets/data/great_war_rules.ron")),
        ("assets/data/great_war_aviation.ron", include_str!("../../../assets/data/great_war_aviation.ron")),
        ("scenarios/worked_example_a.ron", include_str!("../../../scenarios/worked_example_a.ron")),
    ])
}

#[test]
fn a_great_war_scenario_loads_from_bundled_files_as_from_disk() {
    let bundled = rules::strategic::Scenario::load_from(&bundle(), "scenarios/great_war/north_sea_1916.ron")
        .unwrap_or_else(|e| panic!("{e}"));
    let disk = rules::strategic::Scenario::load(&repo_path("scenarios/great_war/north_sea_1916.ron"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(bundled.hash(), disk.hash());
    assert!(!bundled.aviation.squadrons.is_empty(), "the aviation table came from the bundle too");
}

#[test]
fn a_file_missing_from_the_bundle_is_named() {
    let files = BundledFiles(vec![(
        "scenarios/great_war/north_sea_1916.ron",
        include_str!("../../../scenarios/great_war/north_sea_1916.ron"),
    )]);
    let e = rules::strategic::Scenario::load_from(&files, "scenarios/great_war/north_sea_1916.ron")
        .expect_err("the map is missing");
    assert!(e.to_string().contains("north_sea.ron") && e.to_string().contains("no such file"), "{e}");
}

#[test]
fn headers_give_each_scenarios_war_and_name_as_the_full_load_does() {
    let files = bundle();
    let gw = "scenarios/great_war/north_sea_1916.ron";
    let header = read_header(gw, &files.read(gw).unwrap_or_default()).unwrap_or_else(|e| panic!("{e}"));
    let full = rules::strategic::Scenario::load_from(&files, gw).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((header.war, header.name.as_str()), (War::GreatWar, full.name.as_str()));
    let battle = "scenarios/worked_example_a.ron";
    let header = read_header(battle, &files.read(battle).unwrap_or_default()).unwrap_or_else(|e| panic!("{e}"));
    let full = rules::testing::shipped("worked_example_a");
    assert_eq!(header.war, War::Battle);
    assert_eq!((header.name, header.description, header.battle), (full.name, full.description, Some(full.kind)));
}

#[test]
fn every_shipped_scenario_has_a_header() {
    for name in rules::testing::shipped_names() {
        let path = repo_path(&format!("scenarios/{name}.ron"));
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let header = read_header(&name, &text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(header.name, rules::testing::shipped(&name).name, "{name}");
    }
}
