//! Issue 27: the referee reads the game's own saves (`SavedGame(..)`, the app's envelope, format 1
//! and 2, autosaves included) of all three scenes, a scenario referenced by path included, and
//! replays them to the hash the save records; a save whose referenced scenario has changed is
//! refused with exit 2 and a sentence.

use rules::Game;
use rules::savefile::{CampaignBody, Envelope, GreatWarBody, SceneKind};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn umpire(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_umpire")).args(args).current_dir(repo()).output().expect("umpire runs")
}

fn scratch(name: &str) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("umpire-game-saves");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir.join(name).to_string_lossy().to_string()
}

/// The app's seats as its envelope writes them.
#[derive(Clone, Serialize)]
enum Seat {
    Human,
}

fn envelope<B: Serialize>(mode: SceneKind, seats: usize, body: B) -> String {
    let file =
        Envelope { format: 2, mode, game: "20261201-120000-test".into(), seats: vec![Seat::Human; seats], save: body };
    rules::data::to_ron(&file)
}

fn replay_hash(path: &str) -> String {
    let out = umpire(&["replay", path, "--json"]);
    assert!(out.status.success(), "{path}: {}", String::from_utf8_lossy(&out.stderr));
    let state: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    state["hash"].as_str().expect("a hash").to_string()
}

#[test]
fn the_games_battle_saves_of_format_1_and_2_replay_to_their_final_hash() {
    for fixture in ["tests/fixtures/saves/app_format2.ron", "tests/fixtures/saves/app_format1.ron"] {
        assert_eq!(replay_hash(fixture), "9c0ded39b90fb375", "{fixture}");
        let out = umpire(&["validate", fixture]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("the game's save of a battle"));
    }
}

#[test]
fn a_great_war_save_with_its_scenario_referenced_by_path_replays_and_a_changed_one_is_refused() {
    let engine = scratch("test_front_engine.ron");
    let out = umpire(&[
        "play",
        "scenarios/great_war/test_front.ron",
        "--orders",
        "scenarios/great_war/test_front_orders.ron",
        "--seed",
        "5",
        "--save",
        &engine,
        "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let played: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let text = std::fs::read_to_string(&engine).expect("the save");
    let save = rules::strategic::SaveGame::from_text(&engine, &text).expect("an engine save");
    // Referenced, as the game writes a save of a large map.
    let body = GreatWarBody::new(&save, Some("scenarios/great_war/test_front.ron".into()));
    let referenced = scratch("test_front_referenced.ron");
    std::fs::write(&referenced, envelope(SceneKind::GreatWar, 3, body)).expect("write");
    assert_eq!(Some(replay_hash(&referenced).as_str()), played["hash"].as_str());
    let out = umpire(&["validate", &referenced]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("the game's save of a Great War"), "{out:?}");
    // Embedded.
    let embedded = scratch("test_front_embedded.ron");
    std::fs::write(&embedded, envelope(SceneKind::GreatWar, 3, GreatWarBody::new(&save, None))).expect("write");
    assert_eq!(Some(replay_hash(&embedded).as_str()), played["hash"].as_str());
    // A save that names another scenario than the one it was played on.
    let other = GreatWarBody::new(&save, Some("scenarios/great_war/north_sea_1916.ron".into()));
    let wrong = scratch("test_front_wrong_path.ron");
    std::fs::write(&wrong, envelope(SceneKind::GreatWar, 3, other)).expect("write");
    let out = umpire(&["replay", &wrong]);
    assert_eq!(out.status.code(), Some(2));
    let why = String::from_utf8_lossy(&out.stderr);
    assert!(why.contains("but that scenario here has hash") && why.contains("cannot be opened"), "{why}");
    // A newer envelope than the referee knows.
    let newer = scratch("newer.ron");
    std::fs::write(&newer, std::fs::read_to_string(&embedded).expect("read").replacen("format: 2", "format: 3", 1))
        .expect("write");
    let out = umpire(&["replay", &newer]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("format 3"));
}

#[test]
fn a_campaign_save_of_the_game_replays_to_the_engines_hash() {
    let engine = scratch("linden_engine.ron");
    let out = umpire(&[
        "play",
        "scenarios/campaign/linden.ron",
        "--ai",
        "all",
        "--level",
        "recruit",
        "--seed",
        "1",
        "--save",
        &engine,
        "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&engine).expect("the save");
    let save = rules::campaign::CampaignSave::from_text(&engine, &text).expect("an engine save");
    let game = rules::campaign::Campaign::replay(&save).expect("replays");
    let path = scratch("linden_game.ron");
    std::fs::write(&path, envelope(SceneKind::Campaign, 2, CampaignBody::new(&save, None))).expect("write");
    assert_eq!(replay_hash(&path), game.state_hash().to_string());
}

/// Issue 27: the saves the game's own writer wrote (`tests/saves.rs` keeps these fixtures equal to
/// what the game writes now) replay with the referee to the hash `umpire play` reaches with the
/// same scenario, seed and orders: a Great War with its scenario embedded and referenced by path,
/// and a campaign, each with AI levels on some seats.
#[test]
fn the_saves_the_game_wrote_replay_to_the_hash_of_the_same_game_played_by_the_referee() {
    let played = |scenario: &str, orders: &str, seed: &str| {
        let out = umpire(&["play", scenario, "--orders", orders, "--seed", seed, "--json"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let state: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        state["hash"].as_str().expect("a hash").to_string()
    };
    let war = played("scenarios/great_war/test_front.ron", "scenarios/great_war/test_front_orders.ron", "5");
    let campaign = played("scenarios/campaign/linden.ron", "scenarios/campaign/linden_orders.ron", "1");
    for (fixture, hash, scene) in [
        ("tests/fixtures/saves/app_great_war.ron", &war, "Great War"),
        ("tests/fixtures/saves/app_great_war_referenced.ron", &war, "Great War"),
        ("tests/fixtures/saves/app_campaign.ron", &campaign, "campaign"),
    ] {
        assert_eq!(&replay_hash(fixture), hash, "{fixture}");
        let out = umpire(&["validate", fixture]);
        assert!(out.status.success(), "{fixture}: {}", String::from_utf8_lossy(&out.stderr));
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(said.contains(&format!("the game's save of a {scene}")), "{fixture}: {said}");
    }
}
