//! The referee from the outside: exit codes, the one error line, and the worked example's numbers.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn umpire(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_umpire")).args(args).current_dir(repo()).output().expect("umpire runs")
}

fn write_scratch(name: &str, body: &str) -> String {
    let path = scratch(name);
    std::fs::write(&path, body).expect("write");
    path.to_string_lossy().to_string()
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("umpire-cli");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir.join(name)
}

#[test]
fn play_of_the_worked_example_shows_the_source_numbers_as_json() {
    let out = umpire(&[
        "play",
        "scenarios/worked_example_b.ron",
        "--orders",
        "scenarios/orders/worked_example_b.ron",
        "--seed",
        "1",
        "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let health =
        |id: u64| json["units"].as_array().and_then(|u| u.iter().find(|x| x["id"] == id)).map(|x| x["health"].as_i64());
    assert_eq!(health(1), Some(Some(2)), "T-EX-2: L 2");
    assert_eq!(health(2), Some(Some(4)), "T-EX-2: P 4");
    assert_eq!(health(3), Some(Some(5)), "T-EX-2: C unhurt at 5");
    assert_eq!(json["hash"].as_str().map(str::len), Some(16));
}

#[test]
fn save_and_replay_agree() {
    let save = scratch("a.save.ron");
    let save_arg = save.to_string_lossy().to_string();
    let out = umpire(&[
        "play",
        "scenarios/worked_example_a.ron",
        "--orders",
        "scenarios/orders/worked_example_a.ron",
        "--seed",
        "9",
        "--save",
        &save_arg,
        "--json",
    ]);
    assert!(out.status.success());
    let played: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let out = umpire(&["replay", &save_arg, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let replayed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(played["hash"], replayed["hash"]);
    assert!(umpire(&["validate", &save_arg]).status.success());
}

#[test]
fn validate_a_truncated_or_mistyped_scenario_exits_2_with_path_line_col() {
    // A copy outside the repository, naming the shipped map and tables by absolute path.
    let root = repo().canonicalize().expect("repo");
    let text = std::fs::read_to_string(root.join("scenarios/borodino.ron")).expect("scenario").replace(
        "map: \"../maps/borodino.ron\",",
        &format!(
            "map: \"{}\", units_table: \"{}\", rules: \"{}\",",
            root.join("maps/borodino.ron").display(),
            root.join("assets/data/napoleonic_units.ron").display(),
            root.join("assets/data/napoleonic_rules.ron").display()
        ),
    );
    assert!(umpire(&["validate", &write_scratch("intact.ron", &text)]).status.success(), "the copy itself is valid");
    let cases = [
        (
            "truncated.ron",
            text[..(0..=text.len() / 2).rev().find(|i| text.is_char_boundary(*i)).unwrap_or(0)].to_string(),
        ),
        ("mistyped.ron", text.replace("\"lg_hussars\"", "\"lg_husars\"")),
        ("badside.ron", text.replace("attacker: Red", "attacker: Green")),
        ("badfield.ron", text.replace("kind: Field", "knd: Field")),
    ];
    for (name, body) in cases {
        let out = umpire(&["validate", &write_scratch(&format!("zz_test_{name}"), &body)]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "one clear line: {err}");
        let loc = format!("zz_test_{name}:");
        let rest = err.split(&loc).nth(1).unwrap_or_default();
        let nums: Vec<&str> = rest.splitn(3, ':').take(2).collect();
        assert!(nums.len() == 2 && nums.iter().all(|n| n.parse::<usize>().is_ok()), "path:line:col in {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn an_illegal_order_exits_2_naming_the_order() {
    let orders = scratch("bad_orders.ron");
    std::fs::write(&orders, "[Move(unit: 1, path: [(6, 4)])]").expect("write");
    let out = umpire(&["play", "scenarios/worked_example_a.ron", "--orders", &orders.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("order 1") && err.contains("T-MOVE-1"), "{err}");
}

#[test]
fn preview_prints_the_sum() {
    let out =
        umpire(&["preview", "scenarios/worked_example_b.ron", "--orders", "scenarios/orders/worked_example_b.ron"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Preview of EndTurn"), "{text}");
    assert!(text.contains("+ 1 charge + 1 flank = 6"), "{text}");
}

#[test]
fn great_war_validate_play_save_replay_and_preview() {
    let out = umpire(&[
        "validate",
        "maps/great_war/test_front.ron",
        "scenarios/great_war/test_front.ron",
        "assets/data/great_war_units.ron",
        "assets/data/great_war_rules.ron",
        "assets/data/great_war_aviation.ron",
        "scenarios/great_war/test_front_orders.ron",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let save = scratch("great_war.ron");
    let save = save.to_string_lossy();
    let out = umpire(&[
        "play",
        "scenarios/great_war/test_front.ron",
        "--orders",
        "scenarios/great_war/test_front_orders.ron",
        "--seed",
        "5",
        "--save",
        &save,
        "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let played: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(played["turn"], 6);
    // The Dicke Bertha's 4 damage dispersed the French reserve division, restored in turn 5 at full Health.
    let unit = |id: u64| played["units"].as_array().and_then(|u| u.iter().find(|x| x["id"] == id)).cloned();
    assert_eq!(unit(31).map(|u| u["health"].clone()), Some(serde_json::json!(3)));
    let out = umpire(&["replay", &save, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let replayed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(replayed["hash"], played["hash"]);
    // A tampered save fails loudly.
    let text = std::fs::read_to_string(save.as_ref()).expect("save").replacen("seed: 5", "seed: 6", 1);
    let bad = write_scratch("great_war_bad.ron", &text);
    let out = umpire(&["replay", &bad]);
    assert_eq!(out.status.code(), Some(2));
    // Preview of the gas cylinder: the S-CHEM-1 table, 1/6 blown back, 1/6 nothing, 4/6 on the target.
    let orders = write_scratch("gw_preview.ron", "[ReleaseGas(from: (14, 6), target: (12, 6))]");
    let out = umpire(&["preview", "scenarios/great_war/test_front.ron", "--orders", &orders, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let preview: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let chances: Vec<(f64, usize)> = preview["outcomes"]
        .as_array()
        .map(|o| {
            o.iter().map(|x| (x["chance"].as_f64().unwrap_or(0.0), x["pips"].as_array().map_or(0, Vec::len))).collect()
        })
        .unwrap_or_default();
    assert_eq!(chances.len(), 3, "{preview}");
    assert!((chances[0].0 - 1.0 / 6.0).abs() < 1e-9 && chances[0].1 == 1);
    assert!((chances[2].0 - 4.0 / 6.0).abs() < 1e-9 && chances[2].1 == 4);
}

#[test]
fn the_north_sea_plays_replays_and_previews_a_battle_with_exact_odds() {
    let save = scratch("north_sea.ron");
    let save = save.to_string_lossy();
    let out = umpire(&[
        "play",
        "scenarios/great_war/north_sea_1916.ron",
        "--orders",
        "scenarios/great_war/north_sea_1916_orders.ron",
        "--seed",
        "3",
        "--save",
        &save,
        "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let played: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let events = played["events"].as_array().map(Vec::len).unwrap_or(0);
    assert!(events > 20, "every die is in the log");
    assert!(played["fleets"].as_array().is_some_and(|f| !f.is_empty()));
    let out = umpire(&["replay", &save, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let replayed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(replayed["hash"], played["hash"]);
    // The minelayer group sails at the Battlecruiser Fleet on intercept: the preview sums to
    // certainty (the orders are generated with the scenario, `mapgen scenarios`).
    let orders = "scenarios/great_war/north_sea_1916_preview_orders.ron";
    let out = umpire(&["preview", "scenarios/great_war/north_sea_1916.ron", "--orders", orders, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let preview: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let total: f64 =
        preview["outcomes"].as_array().map_or(0.0, |o| o.iter().filter_map(|x| x["chance"].as_f64()).sum());
    let unexplored = preview["unexplored"].as_f64().unwrap_or(1.0);
    assert!((total + unexplored - 1.0).abs() < 1e-9 && unexplored < 1e-9, "{total} + {unexplored}");
}

#[test]
fn play_and_replay_print_the_battle_event_log_as_text_and_json() {
    let save = scratch("events.save.ron");
    let save_arg = save.to_string_lossy().to_string();
    let args = ["play", "scenarios/worked_example_b.ron", "--orders", "scenarios/orders/worked_example_b.ron"];
    let out = umpire(&[&args[..], &["--seed", "1", "--save", &save_arg, "--json"][..]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let played: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let events: Vec<String> = played["events"]
        .as_array()
        .map(|e| e.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    assert!(events.len() >= 3, "{played}");
    // T-EX-2: the worked example's charge sums to 6, and the log shows it.
    assert!(events.iter().any(|e| e.contains("= 6")), "{events:?}");
    let out = umpire(&["replay", &save_arg, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let replayed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(replayed["events"], played["events"]);
    let out = umpire(&[&args[..], &["--seed", "1"][..]].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(events.iter().all(|e| text.contains(e.as_str())), "{text}");
}

#[test]
fn errors_name_orders_from_1_in_words() {
    let orders = write_scratch("bad_second.ron", "[Turn(unit: 1, facing: East), Move(unit: 1, path: [(7, 3)])]");
    let out = umpire(&["play", "scenarios/worked_example_a.ron", "--orders", &orders]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("order 2 (move unit #1 to (7, 3)): ") && err.contains("T-MOVE-1"), "{err}");
    // A save whose first order is illegal: the replay names it as order 1, not 0.
    let save = scratch("illegal_first.save.ron");
    let save_arg = save.to_string_lossy().to_string();
    let out = umpire(&[
        "play",
        "scenarios/worked_example_a.ron",
        "--orders",
        "scenarios/orders/worked_example_a.ron",
        "--save",
        &save_arg,
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&save).expect("save").replacen(
        "orders: [",
        "orders: [\n    Fire(unit: 99, target: 1),",
        1,
    );
    let bad = write_scratch("illegal_first_bad.ron", &text);
    let out = umpire(&["replay", &bad]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("order 1 (Fire"), "{err}");
    // The Great War too.
    let orders = write_scratch("gw_bad_first.ron", "[MoveFleet(fleet: 777, path: [(1, 1)])]");
    let out = umpire(&["play", "scenarios/great_war/north_sea_1916.ron", "--orders", &orders]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("order 1 (move fleet 777 to (1, 1))"), "{err}");
}

#[test]
fn help_describes_every_option_and_lists_the_orders_of_both_wars() {
    let out = umpire(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for word in ["Deploy(unit:", "Move(unit:", "EndTurn", "MoveFleet(fleet:", "ReleaseGas(", "EndPhase", "Bomb("] {
        assert!(text.contains(word), "{word} missing from --help");
    }
    for cmd in ["play", "replay", "preview", "validate", "tournament"] {
        let out = umpire(&[cmd, "--help"]);
        let text = String::from_utf8_lossy(&out.stdout);
        // Every option and argument line carries a description after its name.
        // (the description follows on the same line, or on the next, indented further).
        let lines: Vec<&str> = text.lines().collect();
        let undocumented: Vec<&str> = lines
            .iter()
            .enumerate()
            .filter(|(i, l)| {
                let t = l.trim_start();
                let indent = l.len() - t.len();
                let next_describes = lines.get(i + 1).is_some_and(|n| {
                    let nt = n.trim_start();
                    !nt.is_empty() && n.len() - nt.len() > indent && !nt.starts_with('-') && !nt.starts_with('<')
                });
                (t.starts_with("--") || t.starts_with('<')) && !t.contains("  ") && !next_describes
            })
            .map(|(_, l)| *l)
            .collect();
        assert!(undocumented.is_empty(), "`umpire {cmd} --help` leaves undocumented: {undocumented:?}\n{text}");
    }
}

#[test]
fn hostile_files_are_refused_quickly_with_exit_2() {
    let start = std::time::Instant::now();
    if Path::new("/dev/zero").exists() {
        for args in [&["validate", "/dev/zero"][..], &["play", "/dev/zero"], &["replay", "/dev/zero"]] {
            let out = umpire(args);
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains("not a regular file"), "{err}");
        }
    }
    let map = write_scratch("huge_map.ron", "Map(name: \"huge\", size: Some((46000, 46000)))");
    let out = umpire(&["validate", &map]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("referee's limit of 256"), "{err}");
    let orders = write_scratch("far_orders.ron", "[Move(unit: 1, path: [(2147483647, 2147483647)])]");
    let out = umpire(&["play", "scenarios/worked_example_a.ron", "--orders", &orders]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("coordinate") && !err.contains("panicked"), "{err}");
    let typo = write_scratch("typo_map.ron", "// rows: here\nMap(\n  name: \"x\",\n  rwos: [],\n)");
    let out = umpire(&["validate", &typo]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("typo_map.ron:4:") && err.contains("rwos"), "{err}");
    assert!(start.elapsed() < std::time::Duration::from_secs(20), "took {:?}", start.elapsed());
}

#[test]
fn great_war_play_passes_every_phase_for_turns_and_prints_date_and_outcome() {
    // The test front with a calendar and a victory block (paths made absolute for the scratch copy).
    let root = repo().to_string_lossy().to_string();
    let text = std::fs::read_to_string(repo().join("scenarios/great_war/test_front.ron"))
        .expect("scenario")
        .replace("\"../../", &format!("\"{root}/"))
        .replacen(
            "  powers: [",
            "  calendar: (year: 1916, month: 2, months_per_turn: 1),\n  victory: (surrender_share_percent: 50, province_vp: 1),\n  powers: [",
            1,
        );
    let scenario = write_scratch("gw_campaign.ron", &text);
    // Two turns of passing: turn 4 (Feb 1916) and 5 are played; turn 6 (Apr 1916) begins.
    let out = umpire(&["play", &scenario, "--turns", "2", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let played: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!((played["turn"].clone(), played["date"].clone()), (serde_json::json!(6), serde_json::json!("Apr 1916")));
    assert_eq!(played["phase"], "Preparation");
    assert!(played.get("outcome").is_none(), "{played}");
    // Without orders and without --turns: every power passes until the last turn (7) is over.
    let out = umpire(&["play", &scenario, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let played: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!((played["turn"].clone(), played["phase"].clone()), (serde_json::json!(7), serde_json::json!("Over")));
    assert!(played["outcome"]["Points"]["points"].is_array(), "{}", played["outcome"]);
    let out = umpire(&["play", &scenario]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("turn 7 (May 1916), Over phase") && text.contains("game over: "), "{text}");
    // The economy's orders as `--help` writes them are order-file RON.
    let orders = write_scratch(
        "gw_economy_orders.ron",
        r#"[Recruit(unit: Infantry(class: 1, mountain: false, elite: false), at: (3, 3)),
            Recruit(unit: Cavalry(class: 2), at: (3, 3)), Recruit(unit: Tank("A7V"), at: (3, 3)),
            Recruit(unit: Artillery("15 cm sFH 13"), at: (3, 3)), Recruit(unit: Ship(Destroyer), at: (1, 1)),
            Recruit(unit: Squadron("Light bomber squadron"), at: (3, 3)), BuyGas(shells: 2, cylinders: 1),
            BuyAmmunition(amount: 10), OfferPeace(to: "france", cede: ["alsace"]), AcceptPeace(from: "germany")]"#,
    );
    let out = umpire(&["validate", &orders]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn the_grand_campaigns_save_of_20_passed_turns_fits_the_file_limit_and_replays() {
    // Issue 12: written hex by hex, this save took ~85 MB and `replay` refused it (the 32 MB file
    // limit); the map is now packed in saves of maps above hexmap::PACKED_ABOVE_HEXES.
    let save = scratch("august_1914_20_turns.ron");
    let save = save.to_string_lossy().to_string();
    let out =
        umpire(&["play", "scenarios/great_war/august_1914.ron", "--turns", "20", "--seed", "1914", "--save", &save]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::metadata(&save).expect("the save is written").len();
    println!("august_1914, 20 passed turns: save of {bytes} bytes");
    assert!(bytes <= rules::limits::MAX_FILE_BYTES / 8, "{bytes} bytes");
    let out = umpire(&["replay", &save, "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let replayed: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    // The war runs to November 1918, turn 52 (issue 27): 20 passed turns leave it at the start
    // of turn 21.
    assert_eq!(
        (replayed["turn"].clone(), replayed["phase"].clone()),
        (serde_json::json!(21), serde_json::json!("Preparation"))
    );
}

#[test]
fn great_war_play_with_the_ai_and_a_tournament_report_times_and_slices() {
    let s = "scenarios/great_war/test_front.ron";
    let out = umpire(&["play", s, "--ai", "germany,gb", "--level", "recruit", "--rounds", "1", "--slice-ms", "8"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("AI germany (recruit): 1 turns, think time per turn mean"), "{text}");
    assert!(text.contains("AI gb (recruit)") && !text.contains("AI france"), "{text}");
    assert!(text.contains("longest single think slice"), "{text}");
    // `--turns N` stops an AI game after N turns too (the grand campaign is measured this way).
    let out = umpire(&["play", s, "--ai", "all", "--level", "recruit", "--turns", "2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("AI germany (recruit): 2 turns, think time per turn mean"), "{text}");
    let out = umpire(&["play", s, "--ai", "prussia"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such power"));
    // `POWER:LEVEL` plays one game between levels; the staffs' steps are listed by kind.
    let out = umpire(&["play", s, "--ai", "germany:marshal,gb:random", "--turns", "1"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("AI germany (marshal)") && text.contains("AI gb (random)"), "{text}");
    assert!(text.contains("the staffs' steps by kind, longest first: ") && text.contains(" front "), "{text}");
    let out = umpire(&["play", s, "--ai", "germany:general"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown level `general`"));
    let out = umpire(&["tournament", s, "--a", "veteran", "--b", "random", "--games", "2"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("2 games of veteran v random"), "{text}");
    assert!(text.contains("veteran as alliance 0") && text.contains("veteran as alliance 1"), "{text}");
    assert!(text.contains("AI time per power per turn: mean"), "{text}");
    // Pairs with the alliances swapped, judged in the same seat; the method is in the help.
    assert!(text.contains("(1 pairs, seeds 1..2, alliances swapped in each pair)"), "{text}");
    assert!(text.contains("pairs (the better result in the same seat): veteran "), "{text}");
    assert!(text.contains("  veteran: mean") && text.contains("  random: mean"), "{text}");
    let out = umpire(&["tournament", "--help"]);
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("pairs of games on one seed") && help.contains("victory-point margin"), "{help}");
}
