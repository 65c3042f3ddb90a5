//! Hostile input: files that must be refused quickly with a typed error, never a panic, an
//! unbounded allocation or minutes of work. Hand-written regression cases, and a fuzz run: a
//! proptest-driven generator of malformed RON (mutations of the shipped files) fed to the loaders
//! `umpire` uses, for every file kind of both wars. `KRIEGSSPIEL_FUZZ_CASES=N` runs N inputs
//! instead of the default (sized to run in well under a minute in a debug build).

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use rules::Game;
use rules::data::{DataError, Pos, parse_orders, position_of, read_text};
use rules::limits::{self, Limit};
use rules::path;
use rules::source::{DiskFiles, FileSource};
use rules::strategic::{self, GreatWar, HexMap};
use rules::tactical::scenario::parse_map;
use rules::tactical::{Battle, Order, SaveGame, Scenario};
use rules::testing::repo_path;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Inputs the fuzz run feeds when the environment does not say.
/// The fuzz stream the test command runs (see `fuzz_every_file_kind_with_malformed_ron`).
const DEFAULT_FUZZ_SEED: u64 = 1914;
const DEFAULT_CASES: u32 = 15_000;
/// A refusal must come at once, even in a debug build.
const QUICK: Duration = Duration::from_secs(2);

fn shipped_text(relative: &str) -> String {
    read_text(&repo_path(relative)).unwrap_or_else(|e| panic!("{e}"))
}

/// A file source that serves one file from memory and every other from disk.
struct Overlay {
    path: String,
    text: String,
}

impl FileSource for Overlay {
    fn read(&self, path: &str) -> Result<String, DataError> {
        if path == self.path { Ok(self.text.clone()) } else { DiskFiles.read(path) }
    }
}

fn battle_scenario_from(relative: &str, text: &str) -> Result<Scenario, DataError> {
    let path = repo_path(relative).to_string_lossy().into_owned();
    Scenario::load_from(&Overlay { path: path.clone(), text: text.to_string() }, &path)
}

fn gw_scenario_from(relative: &str, text: &str) -> Result<strategic::Scenario, DataError> {
    strategic::Scenario::load_text(&repo_path(relative), text)
}

/// Runs `f` and checks it came back quickly.
fn quickly<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    assert!(start.elapsed() < QUICK, "{what} took {:?}", start.elapsed());
    out
}

fn expect_limit<T: std::fmt::Debug>(r: Result<T, DataError>, limit: Limit) -> DataError {
    let e = r.expect_err("a hostile file must be refused");
    assert_eq!(e.limit, Some(limit), "{e}");
    assert!(e.message.contains(&limit.max().to_string()), "{e}");
    e
}

// ---------------------------------------------------------------------------------------------
// Hand-written regression cases.

#[test]
fn coordinates_beyond_the_limit_are_refused_in_orders_of_both_wars() {
    let text = "[\n  Move(unit: 1, path: [(2147483647, 0)]),\n]";
    let e = expect_limit(quickly("orders", || parse_orders::<Order>("o.ron", text)), Limit::Coordinate);
    assert_eq!((e.line, e.path.as_str()), (2, "o.ron"), "{e}");
    let text = "[Move(piece: Unit(1), path: [(0, -2147483648)])]";
    expect_limit(parse_orders::<strategic::Order>("g.ron", text), Limit::Coordinate);
    // At the limit, a coordinate is read; a move there is refused by the rules, not a panic.
    let far = limits::MAX_COORDINATE;
    let orders: Vec<Order> =
        parse_orders("o.ron", &format!("[Move(unit: 1, path: [({far}, {far}), (-{far}, -{far})])]")).unwrap();
    let mut battle = Battle::new(&rules::testing::shipped("worked_example_a"), 1);
    for o in orders {
        let _ = battle.apply(o);
    }
}

#[test]
fn coordinates_beyond_the_limit_are_refused_in_maps_and_scenarios() {
    let text = shipped_text("scenarios/worked_example_a.ron").replace("at: (5, 3)", "at: (5, 3000000000)");
    let e = battle_scenario_from("scenarios/worked_example_a.ron", &text).unwrap_err();
    let line = text.lines().position(|l| l.contains("3000000000")).map(|i| i + 1);
    assert_eq!(Some(e.line), line, "{e}");
    let text = shipped_text("scenarios/worked_example_a.ron").replace("at: (5, 3)", "at: (5, -1000001)");
    expect_limit(battle_scenario_from("scenarios/worked_example_a.ron", &text), Limit::Coordinate);
    let text = shipped_text("maps/great_war/test_front.ron");
    let first_river = text.find("rivers: [").expect("the test front has rivers") + "rivers: [".len();
    let mut hostile = text.clone();
    hostile.insert_str(first_river, "((2000000, 1), \"E\"), ");
    expect_limit(HexMap::parse("m.ron", &hostile), Limit::Coordinate);
}

#[test]
fn a_46000_square_battle_map_is_refused_at_once() {
    let text = "Map(name: \"huge\", size: Some((46000, 46000)))";
    expect_limit(quickly("46,000 × 46,000 map", || parse_map("m.ron", text)), Limit::BattleMapSide);
    // Both sides of the limits.
    let side = limits::MAX_BATTLE_MAP_SIDE;
    assert!(parse_map("m.ron", &format!("Map(name: \"x\", size: Some(({side}, {side})))")).is_ok());
    let e = parse_map("m.ron", &format!("Map(name: \"x\", size: Some(({}, 1)))", side + 1));
    expect_limit(e, Limit::BattleMapSide);
    let row: String = ".".repeat(usize::try_from(side + 1).unwrap_or(0));
    let e = parse_map("m.ron", &format!("Map(name: \"x\", rows: [\"{row}\"])"));
    expect_limit(e, Limit::BattleMapSide);
}

#[test]
fn an_enormous_great_war_map_is_refused_before_allocating() {
    let text = "GreatWarMap(name: \"x\", width: 4000000000, height: 4000000000)";
    expect_limit(quickly("4e9 × 4e9 hex map", || HexMap::parse("m.ron", text)), Limit::FileNumber);
    let text = "GreatWarMap(name: \"x\", width: 100000, height: 1)";
    expect_limit(quickly("100,000 × 1 hex map", || HexMap::parse("m.ron", text)), Limit::HexMapSide);
    let text = "GreatWarMap(name: \"x\", width: 8000, height: 8000)";
    expect_limit(quickly("8000 × 8000 hex map", || HexMap::parse("m.ron", text)), Limit::HexMapHexes);
    let text = "GreatWarMap(name: \"x\", width: 2000, height: 2000)";
    assert!(HexMap::parse("m.ron", text).is_ok(), "4,000,000 hexes are within the limit");
}

#[test]
fn a_huge_ship_count_is_refused_before_allocating() {
    let text =
        shipped_text("scenarios/great_war/north_sea_1916.ron").replacen("(Battleship, 8)", "(Battleship, 500000)", 1);
    let e = expect_limit(
        quickly("4e9 battleships", || gw_scenario_from("scenarios/great_war/north_sea_1916.ron", &text)),
        Limit::ShipsPerFleet,
    );
    assert!(e.line > 1, "{e}");
    // Many entries that add up beyond the limit.
    let many = "(Destroyer, 4000), ".repeat(8);
    let text =
        shipped_text("scenarios/great_war/north_sea_1916.ron").replacen("ships: [", &format!("ships: [{many}"), 1);
    expect_limit(gw_scenario_from("scenarios/great_war/north_sea_1916.ron", &text), Limit::ShipsPerFleet);
}

#[test]
fn huge_numbers_in_data_tables_and_scenarios_are_refused() {
    let text = shipped_text("assets/data/napoleonic_units.ron").replacen("health: ", "health: 2000000", 1);
    let e = rules::tactical::units::UnitTable::parse("u.ron", &text);
    expect_limit(e, Limit::FileNumber);
    let text = shipped_text("scenarios/great_war/north_sea_1916.ron").replacen(
        "(Battleship, 8)",
        "(Battleship, 4000000000)",
        1,
    );
    expect_limit(gw_scenario_from("scenarios/great_war/north_sea_1916.ron", &text), Limit::FileNumber);
    // Both sides of the limit.
    let max = limits::MAX_FILE_NUMBER;
    let text = shipped_text("assets/data/great_war_rules.ron");
    let with = |n: u64| text.replacen("clear: 1,", &format!("clear: {n},"), 1);
    assert!(strategic::tables::RulesTables::parse("r.ron", &with(max)).is_ok(), "at the limit");
    expect_limit(strategic::tables::RulesTables::parse("r.ron", &with(max + 1)), Limit::FileNumber);
}

/// A save embeds its resolved scenario, rule numbers and unit types included: they meet the
/// same number limit as the files they came from (a campaign save with `deployment_rows` at
/// 2147483647 once overflowed the battlefield size check).
#[test]
fn huge_rule_numbers_inside_saves_are_refused() {
    let max = limits::MAX_FILE_NUMBER;
    let battle = battle_save_text();
    let campaign = campaign_save_text();
    for (field, was) in [("deployment_rows", "3"), ("melee_base_damage", "1")] {
        let with = |text: &str, n: u64| {
            let at = text.find(&format!("{field}:")).unwrap_or_else(|| panic!("{field} in the save"));
            let value = at + field.len() + 1;
            let value = value + text[value..].len() - text[value..].trim_start().len();
            assert!(text[value..].starts_with(was), "{field}: {}", &text[value..value + 8]);
            format!("{}{n}{}", &text[..value], &text[value + was.len()..])
        };
        // At the limit the number passes this check (the battlefield may refuse it for its own reasons).
        for n in [max + 1, 2_147_483_647] {
            let e = expect_limit(SaveGame::from_text("save.ron", &with(&battle, n)), Limit::FileNumber);
            assert!(e.message.contains(&n.to_string()), "{e}");
            expect_limit(rules::campaign::CampaignSave::from_text("c.ron", &with(&campaign, n)), Limit::FileNumber);
        }
        let at = SaveGame::from_text("save.ron", &with(&battle, max));
        assert!(at.as_ref().map_or_else(|e| e.limit.is_none(), |_| true), "{:?}", at.err());
        let at = rules::campaign::CampaignSave::from_text("c.ron", &with(&campaign, max));
        assert!(at.as_ref().map_or_else(|e| e.limit.is_none(), |_| true), "{:?}", at.err());
    }
}

#[test]
fn a_device_file_as_a_map_path_is_refused() {
    if !Path::new("/dev/zero").exists() {
        return;
    }
    let text = shipped_text("scenarios/worked_example_a.ron").replace("../maps/worked_example.ron", "/dev/zero");
    let e = quickly("/dev/zero map", || battle_scenario_from("scenarios/worked_example_a.ron", &text)).unwrap_err();
    assert!(e.message.contains("not a regular file"), "{e}");
    let text =
        shipped_text("scenarios/great_war/test_front.ron").replace("../../maps/great_war/test_front.ron", "/dev/zero");
    let e = quickly("/dev/zero hex map", || gw_scenario_from("scenarios/great_war/test_front.ron", &text)).unwrap_err();
    assert!(e.message.contains("not a regular file"), "{e}");
    let e = read_text(Path::new("/dev/zero")).unwrap_err();
    assert_eq!(e.path, "/dev/zero");
}

#[test]
fn a_file_over_the_byte_limit_is_refused_without_reading_it() {
    let dir = std::env::temp_dir().join(format!("kriegsspiel-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: PathBuf = dir.join("big.ron");
    let file = std::fs::File::create(&path).unwrap();
    // Sparse: costs no disk.
    file.set_len(limits::MAX_FILE_BYTES + 1).unwrap();
    let r = quickly("an oversized file", || read_text(&path));
    expect_limit(r, Limit::FileBytes);
    file.set_len(limits::MAX_FILE_BYTES).unwrap();
    let r = read_text(&path);
    assert!(r.as_ref().is_ok_and(|t| t.len() as u64 == limits::MAX_FILE_BYTES), "at the limit a file is read");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn deep_nesting_is_refused_by_the_parser() {
    let text = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let e = quickly("deep nesting", || parse_orders::<Order>("o.ron", &text)).unwrap_err();
    assert!(e.message.to_lowercase().contains("recursion") || e.message.contains("xpected"), "{e}");
    let e = parse_orders::<strategic::Order>("o.ron", &text).unwrap_err();
    assert!(e.line >= 1);
}

#[test]
fn unknown_and_misspelled_fields_are_refused_in_every_file_kind() {
    let check = |what: &str, e: DataError, field: &str| {
        assert!(e.message.contains("nknown field") || e.message.contains("nexpected field"), "{what}: {e}");
        assert!(e.message.contains(field), "{what}: {e}");
    };
    let t = shipped_text("scenarios/worked_example_a.ron").replace("kind: Field,", "kind: Field,\n  redoubt: 1,");
    check("battle scenario", battle_scenario_from("scenarios/worked_example_a.ron", &t).unwrap_err(), "redoubt");
    let t = shipped_text("scenarios/worked_example_a.ron").replace("facing: South)", "facing: South, helth: 3)");
    check("battle unit", battle_scenario_from("scenarios/worked_example_a.ron", &t).unwrap_err(), "helth");
    let t = shipped_text("maps/open_field.ron").replacen("name:", "nmae: \"x\", name:", 1);
    check("battle map", parse_map("m.ron", &t).unwrap_err(), "nmae");
    check(
        "battle order",
        parse_orders::<Order>("o.ron", "[Move(unit: 1, path: [(1, 2)], speed: 3)]").unwrap_err(),
        "speed",
    );
    check(
        "battle rules",
        rules::tactical::config::RulesConfig::parse(
            "r.ron",
            &shipped_text("assets/data/napoleonic_rules.ron").replacen(
                "RulesConfig(",
                "RulesConfig(morale_pas: 4, ",
                1,
            ),
        )
        .unwrap_err(),
        "morale_pas",
    );
    let t = shipped_text("scenarios/great_war/test_front.ron").replacen("max_turns:", "max_turn: 3, max_turns:", 1);
    check("gw scenario", gw_scenario_from("scenarios/great_war/test_front.ron", &t).unwrap_err(), "max_turn");
    let t = shipped_text("maps/great_war/test_front.ron").replacen("width:", "widht: 3, width:", 1);
    check("gw map", HexMap::parse("m.ron", &t).unwrap_err(), "widht");
    check(
        "gw order",
        parse_orders::<strategic::Order>("o.ron", "[MoveFleet(fleet: 1, path: [], fast: true)]").unwrap_err(),
        "fast",
    );
    let save = battle_save_text().replacen("seed:", "sede: 1, seed:", 1);
    check("battle save", SaveGame::from_text("s.ron", &save).unwrap_err(), "sede");
    let save = gw_save_text().replacen("seed:", "sede: 1, seed:", 1);
    check("gw save", strategic::SaveGame::from_text("s.ron", &save).unwrap_err(), "sede");
}

/// The 1-based column, in characters, of `needle` on a 1-based line.
fn column_of(text: &str, line: usize, needle: &str) -> usize {
    let l = text.lines().nth(line.saturating_sub(1)).unwrap_or_default();
    l.find(needle).map_or(0, |b| l[..b].chars().count() + 1)
}

#[test]
fn error_positions_come_from_the_parser_not_a_comment() {
    // The comment names the same unit type and the same id first; the errors point at the unit.
    let original = shipped_text("scenarios/worked_example_a.ron");
    let text = format!(
        "// Unit 2 was \"light_infantri\" once; id: 2, id: 2 and at: (5, 5) appear in this comment.\n{}",
        original.replace("unit: \"light_infantry\"", "unit: \"light_infantri\"")
    );
    let e = battle_scenario_from("scenarios/worked_example_a.ron", &text).unwrap_err();
    assert!(e.message.contains("light_infantri"), "{e}");
    let line = text.lines().position(|l| l.contains("(id: 2,")).map(|i| i + 1).unwrap_or(0);
    let col = column_of(&text, line, "\"light_infantri\"");
    assert_eq!((e.line, e.col), (line, col), "{e}");
    // A unit standing on another's cell: the error points at the second unit's cell, not the comment.
    let text = format!("// at: (5, 5) is in the comment too\n{}", original.replace("at: (3, 5)", "at: (5, 5)"));
    let e = battle_scenario_from("scenarios/worked_example_a.ron", &text).unwrap_err();
    let line = text.lines().position(|l| l.contains("(id: 3,")).map(|i| i + 1).unwrap_or(0);
    let col = column_of(&text, line, "(5, 5)");
    assert_eq!((e.line, e.col), (line, col), "{e}");
    // The Great War: a fleet listed twice, its name in a comment above.
    let gw = shipped_text("scenarios/great_war/north_sea_1916.ron");
    let text =
        format!("// \"Harwich Force\" (id: 3)\n{}", gw.replace("(id: 3, power: \"gb\"", "(id: 2, power: \"gb\""));
    let e = gw_scenario_from("scenarios/great_war/north_sea_1916.ron", &text).unwrap_err();
    assert!(e.message.contains("used twice"), "{e}");
    let line = text.lines().position(|l| l.contains("name: \"Harwich Force\"")).map(|i| i + 1).unwrap_or(0);
    assert_eq!(e.line, line, "{e}");
    assert_eq!(position_of(&text, &path!["fleets", 2]).map(|p| p.line), Some(line));
    assert_eq!(position_of("// x: 1\n(x: 2)", &path!["x"]), Some(Pos { line: 2, col: 5 }));
}

// ---------------------------------------------------------------------------------------------
// The fuzz run.

/// What a file is, and so which loader reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    BattleScenario,
    BattleMap,
    BattleOrders,
    BattleSave,
    BattleTable,
    GwScenario,
    GwMap,
    GwOrders,
    GwSave,
    GwTable,
    CampaignMap,
    CampaignOrders,
    CampaignSave,
    CampaignTable,
}

const KINDS: [Kind; 14] = [
    Kind::BattleScenario,
    Kind::BattleMap,
    Kind::BattleOrders,
    Kind::BattleSave,
    Kind::BattleTable,
    Kind::GwScenario,
    Kind::GwMap,
    Kind::GwOrders,
    Kind::GwSave,
    Kind::GwTable,
    Kind::CampaignMap,
    Kind::CampaignOrders,
    Kind::CampaignSave,
    Kind::CampaignTable,
];

fn linden() -> rules::campaign::CampaignScenario {
    rules::campaign::CampaignScenario::load(&repo_path("scenarios/campaign/linden.ron"))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A short campaign save: a directive, a march and an auto-battle (T-STRAT-9).
fn campaign_save_text() -> String {
    let mut c = rules::campaign::Campaign::new(&linden(), 1);
    let path = [(5, 1), (5, 2), (4, 3), (5, 3)].map(|(x, y)| rules::campaign::HexAt::new(x, y)).to_vec();
    for o in [
        rules::campaign::Order::Directive { to: None, text: "Forward.".into() },
        rules::campaign::Order::Move { army: rules::campaign::ArmyId(2), path },
        rules::campaign::Order::EndTurn,
    ] {
        let _ = c.apply(o);
    }
    c.save().to_text()
}

fn battle_save_text() -> String {
    let mut battle = Battle::new(&rules::testing::shipped("worked_example_a"), 1);
    for o in rules::testing::orders_file("scenarios/orders/worked_example_a.ron") {
        let _ = battle.apply(o);
    }
    battle.save().to_text()
}

fn gw_save_text() -> String {
    let s =
        strategic::Scenario::load(&repo_path("scenarios/great_war/test_front.ron")).unwrap_or_else(|e| panic!("{e}"));
    let mut game = GreatWar::new(&s, 5);
    let orders: Vec<strategic::Order> =
        parse_orders("o.ron", &shipped_text("scenarios/great_war/test_front_orders.ron"))
            .unwrap_or_else(|e| panic!("{e}"));
    for o in orders.into_iter().take(8) {
        let _ = game.apply(o);
    }
    game.save().to_text()
}

/// The shipped files a kind's inputs are made from: (file it stands for, text).
fn seeds(kind: Kind) -> Vec<(String, String)> {
    let files: &[&str] = match kind {
        Kind::BattleScenario => {
            &["scenarios/worked_example_a.ron", "scenarios/badajoz.ron", "scenarios/open_field.ron"]
        }
        Kind::BattleMap => &["maps/badajoz.ron", "maps/worked_example.ron"],
        Kind::BattleOrders => &["scenarios/orders/worked_example_a.ron", "scenarios/orders/worked_example_b.ron"],
        Kind::BattleTable => &["assets/data/napoleonic_units.ron", "assets/data/napoleonic_rules.ron"],
        Kind::GwScenario => &["scenarios/great_war/test_front.ron", "scenarios/great_war/north_sea_1916.ron"],
        Kind::GwMap => &["maps/great_war/test_front.ron", "maps/great_war/north_sea.ron"],
        Kind::GwOrders => {
            &["scenarios/great_war/test_front_orders.ron", "scenarios/great_war/north_sea_1916_orders.ron"]
        }
        Kind::GwTable => &[
            "assets/data/great_war_units.ron",
            "assets/data/great_war_rules.ron",
            "assets/data/great_war_aviation.ron",
        ],
        Kind::BattleSave => return vec![("save.ron".to_string(), battle_save_text())],
        Kind::CampaignMap => &["scenarios/campaign/linden_map.ron"],
        Kind::CampaignOrders => &["scenarios/campaign/linden_orders.ron"],
        Kind::CampaignTable => &["assets/data/campaign_rules.ron"],
        Kind::CampaignSave => return vec![("campaign_save.ron".to_string(), campaign_save_text())],
        Kind::GwSave => return vec![("gw_save.ron".to_string(), gw_save_text())],
    };
    files.iter().map(|f| (f.to_string(), shipped_text(f))).collect()
}

/// One change to a file's text; positions are taken modulo what the text offers.
#[derive(Clone, Debug)]
enum Mutation {
    Truncate(usize),
    FlipByte(usize, u8),
    HugeNumber(usize, usize),
    DeepNesting(usize, usize),
    UnknownField(usize),
    DuplicateField(usize),
    DeleteSpan(usize, usize),
    CopySpan(usize, usize, usize),
}

const HUGE: [&str; 10] = [
    "2147483647",
    "-2147483648",
    "4294967295",
    "18446744073709551615",
    "99999999999999999999999999",
    "-1",
    "0",
    "46000",
    "1e308",
    "65535",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = any::<usize>();
    prop_oneof![
        at.prop_map(Mutation::Truncate),
        (at, any::<u8>()).prop_map(|(i, b)| Mutation::FlipByte(i, b)),
        (at, 0..HUGE.len()).prop_map(|(i, n)| Mutation::HugeNumber(i, n)),
        (at, 1usize..400).prop_map(|(i, d)| Mutation::DeepNesting(i, d)),
        at.prop_map(Mutation::UnknownField),
        at.prop_map(Mutation::DuplicateField),
        (at, 1usize..64).prop_map(|(i, n)| Mutation::DeleteSpan(i, n)),
        (at, at, 1usize..200).prop_map(|(i, j, n)| Mutation::CopySpan(i, j, n)),
    ]
}

/// Byte offsets in `text` where `pred` holds at a char boundary.
fn spots(text: &str, pred: impl Fn(&str) -> bool) -> Vec<usize> {
    (0..text.len()).filter(|&i| text.is_char_boundary(i) && pred(&text[i..])).collect()
}

fn apply(text: &str, m: &Mutation) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let len = bytes.len().max(1);
    match m {
        Mutation::Truncate(i) => bytes.truncate(i % len),
        Mutation::FlipByte(i, b) => {
            if let Some(x) = bytes.get_mut(i % len) {
                *x ^= b | 1;
            }
        }
        Mutation::HugeNumber(i, n) => {
            let numbers = spots(text, |s| s.starts_with(|c: char| c.is_ascii_digit()));
            if let Some(&at) = numbers.get(i % numbers.len().max(1)) {
                let end = at + text[at..].find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len() - at);
                bytes.splice(at..end, HUGE[*n].bytes());
            }
        }
        Mutation::DeepNesting(i, depth) => {
            let colons = spots(text, |s| s.starts_with(':'));
            if let Some(&at) = colons.get(i % colons.len().max(1)) {
                let nest = format!(" {}{}", "[".repeat(*depth), "]".repeat(*depth));
                bytes.splice(at + 1..at + 1, nest.bytes());
            }
        }
        Mutation::UnknownField(i) => {
            let opens = spots(text, |s| s.starts_with('(') || s.starts_with(", "));
            if let Some(&at) = opens.get(i % opens.len().max(1)) {
                bytes.splice(at + 1..at + 1, " bogus_field: 1,".bytes());
            }
        }
        Mutation::DuplicateField(i) => {
            let fields = spots(text, |s| {
                let ident = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(0);
                ident > 0 && s[ident..].starts_with(": ")
            });
            if let Some(&at) = fields.get(i % fields.len().max(1)) {
                let end = at + text[at..].find([',', '\n']).unwrap_or(text.len() - at);
                let field = format!("{}, ", &text[at..end]);
                bytes.splice(at..at, field.bytes());
            }
        }
        Mutation::DeleteSpan(i, n) => {
            let at = i % len;
            bytes.drain(at.min(bytes.len())..(at + n).min(bytes.len()));
        }
        Mutation::CopySpan(from, to, n) => {
            let from = from % len;
            let piece: Vec<u8> = bytes[from.min(bytes.len())..(from + n).min(bytes.len())].to_vec();
            let to = (to % len).min(bytes.len());
            bytes.splice(to..to, piece);
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Feeds one input to the loader of its kind (and, where `umpire play` would, starts the game or
/// applies the orders); a refusal must be a located error.
fn feed(kind: Kind, file: &str, text: &str) -> Result<bool, DataError> {
    match kind {
        Kind::BattleScenario => battle_scenario_from(file, text).map(|s| {
            let _ = Battle::new(&s, 1);
            true
        }),
        Kind::BattleMap => parse_map(file, text).map(|_| true),
        Kind::BattleOrders => parse_orders::<Order>(file, text).map(|orders| {
            let mut battle = Battle::new(&rules::testing::shipped("worked_example_a"), 1);
            for o in orders {
                let _ = battle.apply(o);
            }
            true
        }),
        Kind::BattleSave => SaveGame::from_text(file, text).map(|save| Battle::replay(&save).is_ok()),
        Kind::BattleTable if file.ends_with("units.ron") => {
            rules::tactical::units::UnitTable::parse(file, text).map(|_| true)
        }
        Kind::BattleTable => rules::tactical::config::RulesConfig::parse(file, text).map(|_| true),
        Kind::GwScenario => gw_scenario_from(file, text).map(|s| {
            let _ = GreatWar::new(&s, 1);
            true
        }),
        Kind::GwMap => HexMap::parse(file, text).map(|_| true),
        Kind::GwOrders => parse_orders::<strategic::Order>(file, text).map(|orders| {
            let s = strategic::Scenario::load(&repo_path("scenarios/great_war/test_front.ron"));
            if let Ok(s) = s {
                let mut game = GreatWar::new(&s, 5);
                for o in orders.into_iter().take(64) {
                    let _ = game.apply(o);
                }
            }
            true
        }),
        Kind::GwSave => strategic::SaveGame::from_text(file, text).map(|save| GreatWar::replay(&save).is_ok()),
        Kind::GwTable if file.ends_with("units.ron") => strategic::tables::UnitTables::parse(file, text).map(|_| true),
        Kind::GwTable if file.ends_with("rules.ron") => strategic::tables::RulesTables::parse(file, text).map(|_| true),
        Kind::GwTable => strategic::tables::AviationTables::parse(file, text).map(|_| true),
        Kind::CampaignMap => rules::campaign::CampaignMap::parse(file, text).map(|_| true),
        Kind::CampaignTable => rules::campaign::CampaignRules::parse(file, text).map(|_| true),
        Kind::CampaignOrders => parse_orders::<rules::campaign::Order>(file, text).map(|orders| {
            let mut c = rules::campaign::Campaign::new(&linden(), 1);
            for o in orders.into_iter().take(64) {
                let _ = c.apply(o);
            }
            true
        }),
        Kind::CampaignSave => rules::campaign::CampaignSave::from_text(file, text)
            .map(|save| rules::campaign::Campaign::replay(&save).is_ok()),
    }
}

#[test]
fn fuzz_every_file_kind_with_malformed_ron() {
    let cases = std::env::var("KRIEGSSPIEL_FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(DEFAULT_CASES);
    let all: Vec<(Kind, String, String)> =
        KINDS.iter().flat_map(|k| seeds(*k).into_iter().map(move |(f, t)| (*k, f, t))).collect();
    // Every shipped file loads before it is mutated.
    for (kind, file, text) in &all {
        assert!(feed(*kind, file, text).is_ok(), "{kind:?} {file} must load unchanged");
    }
    // A fixed seed by default, so the test command gives the same verdict on every run and every
    // machine; `KRIEGSSPIEL_FUZZ_SEED=N` explores another stream (and `random` a fresh one).
    let seed = std::env::var("KRIEGSSPIEL_FUZZ_SEED").unwrap_or_default();
    let fixed = (seed != "random").then(|| seed.parse().unwrap_or(DEFAULT_FUZZ_SEED));
    let config = Config { cases, failure_persistence: None, ..Config::default() };
    let mut runner = match fixed {
        Some(n) => {
            let mut bytes = [0u8; 32];
            bytes[..8].copy_from_slice(&u64::to_le_bytes(n));
            TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
        }
        None => TestRunner::new(config),
    };
    eprintln!("fuzz seed: {}", fixed.map_or("random".to_string(), |n| n.to_string()));
    let count = std::cell::Cell::new(0u32);
    let accepted = std::cell::Cell::new(0u32);
    let slowest = std::cell::RefCell::new((Duration::ZERO, String::new()));
    let start = Instant::now();
    let strategy = (0..all.len(), proptest::collection::vec(mutation(), 1..4));
    let result = runner.run(&strategy, |(seed, mutations)| {
        let (kind, file, base) = &all[seed];
        let text = mutations.iter().fold(base.clone(), |t, m| apply(&t, m));
        let t0 = Instant::now();
        let outcome = feed(*kind, file, &text);
        let took = t0.elapsed();
        count.set(count.get() + 1);
        if took > slowest.borrow().0 {
            *slowest.borrow_mut() = (took, format!("{kind:?} {file} {mutations:?}"));
        }
        match outcome {
            Ok(_) => accepted.set(accepted.get() + 1),
            Err(e) => {
                if e.line == 0 || e.col == 0 || e.message.is_empty() {
                    return Err(TestCaseError::fail(format!("{kind:?}: an error without a place: {e:?}")));
                }
            }
        }
        if took > QUICK {
            return Err(TestCaseError::fail(format!("{kind:?} {file} took {took:?} with {mutations:?}")));
        }
        Ok(())
    });
    let (slow, what) = slowest.take();
    println!(
        "fuzz: {} malformed inputs of {} file kinds in {:.1} s, {} accepted, the rest refused with a located error, \
         no panic; slowest {:.0} ms ({what})",
        count.get(),
        KINDS.len(),
        start.elapsed().as_secs_f64(),
        accepted.get(),
        slow.as_secs_f64() * 1e3
    );
    if let Err(e) = result {
        panic!("{e}");
    }
}
