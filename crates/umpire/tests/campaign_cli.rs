//! Campaigns through the referee: validate, play with the AI to the end, replay bit-identically,
//! preview, and the waiting battle written alone, fought and reported back.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn umpire(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_umpire")).args(args).current_dir(repo()).output().expect("umpire runs")
}

fn scratch(name: &str) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("umpire-campaign");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir.join(name).to_string_lossy().into_owned()
}

fn run(args: &[&str]) -> String {
    let out = umpire(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn campaign_files_validate() {
    let out = run(&[
        "validate",
        "scenarios/campaign/linden.ron",
        "scenarios/campaign/linden_map.ron",
        "assets/data/campaign_rules.ron",
        "scenarios/campaign/linden_orders.ron",
    ]);
    assert!(out.contains("campaign scenario: 5 armies of 32 units on a 8 × 6 hex map"), "{out}");
    assert!(out.contains("3 campaign orders"), "{out}");
    let bad = umpire(&["validate", "scenarios/campaign/linden_map.ron", &{
        let p = scratch("bad_map.ron");
        std::fs::write(&p, "CampaignMap(\n  name: \"x\",\n  rows: [\"..q\"],\n)").expect("write");
        p
    }]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("bad_map.ron:3:") && err.contains("unknown ground `q`"), "{err}");
}

#[test]
fn an_ai_campaign_plays_to_its_end_and_replays_bit_identically() {
    let save = scratch("ai.save.ron");
    let out = run(&[
        "play",
        "scenarios/campaign/linden.ron",
        "--ai",
        "all",
        "--level",
        "recruit",
        "--seed",
        "1",
        "--save",
        &save,
    ]);
    assert!(out.contains("campaign over:"), "{out}");
    assert!(out.contains("grid battles fought by the battle AI"), "{out}");
    assert!(out.contains("(T-STRAT-5)") && out.contains("(T-AUTO-2)"), "a grid battle and an auto-battle: {out}");
    let hash = out.lines().last().and_then(|l| l.rsplit(' ').next()).expect("hash").to_string();
    let replayed = run(&["replay", &save]);
    assert!(replayed.ends_with(&format!("{hash}\n")), "{replayed}");
    let valid = run(&["validate", &save]);
    assert!(valid.contains(&format!("hash {hash}")), "{valid}");
}

#[test]
fn the_waiting_battle_is_written_alone_fought_and_reported_back() {
    let save = scratch("waiting.save.ron");
    let out = run(&[
        "play",
        "scenarios/campaign/linden.ron",
        "--orders",
        "scenarios/campaign/linden_orders.ron",
        "--seed",
        "4",
        "--save",
        &save,
    ]);
    assert!(out.contains("battle waiting at (3, 1): Red attacks, 9 v 10 fight"), "{out}");
    let battle = scratch("battle.ron");
    let written = run(&["campaign", "battle", &save, "--out", &battle]);
    let seed = written.split("seed ").nth(1).and_then(|s| s.split(')').next()).expect("seed").to_string();
    let valid = run(&["validate", &battle]);
    assert!(valid.contains("scenario: 19 units"), "9 + 10 after the cut: {valid}");
    let fought = scratch("fought.ron");
    run(&["play", &battle, "--ai", "all", "--level", "recruit", "--seed", &seed, "--save", &fought]);
    let after = scratch("after.save.ron");
    let resolved = run(&["campaign", "resolve", &save, "--battle", &fought, "--out", &after]);
    assert!(resolved.contains("wins the battle at (3, 1)"), "{resolved}");
    run(&["replay", &after]);
    // Fought with other dice: refused.
    let other = scratch("other.ron");
    run(&["play", &battle, "--ai", "all", "--level", "recruit", "--seed", "1", "--save", &other]);
    let refused = umpire(&["campaign", "resolve", &save, "--battle", &other, "--out", &scratch("x.ron")]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("seed"));
}

#[test]
fn preview_of_a_march_shows_reach_risk_and_the_battle() {
    let out = run(&["preview", "scenarios/campaign/linden.ron", "--orders", "scenarios/campaign/linden_preview.ron"]);
    assert!(out.contains("reach (hex:MP):") && out.contains("(3, 1):3"), "{out}");
    assert!(out.contains("interception risk (T-STRAT-2): army 11"), "{out}");
    assert!(out.contains("battle at (3, 1): Red attacks, 12 v 13 units, 9 v 10 fight, fought on the grid"), "{out}");
}

#[test]
fn the_historical_campaigns_validate() {
    let out = run(&[
        "validate",
        "scenarios/campaign/russia_1812.ron",
        "scenarios/campaign/russia_1812_map.ron",
        "scenarios/campaign/russia_1812_preview.ron",
        "scenarios/campaign/austerlitz_1805.ron",
        "scenarios/campaign/austerlitz_1805_map.ron",
    ]);
    assert!(out.contains("21 armies of 110 units on a 30 × 17 hex map, 3 key hexes, 12 turns"), "{out}");
    assert!(out.contains("14 armies of 56 units on a 12 × 15 hex map, 3 key hexes, 5 turns"), "{out}");
    assert!(out.contains("russia_1812_preview.ron: ok (orders: 1 campaign orders)"), "{out}");
}

/// `umpire play CAMPAIGN --ai all --seed N` to the end, with grid and auto-battles; the save
/// replays and validates to the same hash.
fn ai_campaign(scenario: &str, level: &str, seed: &str) {
    let save = scratch(&format!("{level}-{seed}-{}", scenario.replace('/', "_")));
    let out = run(&["play", scenario, "--ai", "all", "--level", level, "--seed", seed, "--save", &save]);
    assert!(out.contains("campaign over:"), "{out}");
    let count = |what: &str| -> u32 {
        let head = out.lines().next().unwrap_or_default();
        let before = head.split(what).next().unwrap_or_default();
        before.rsplit(' ').next().and_then(|n| n.parse().ok()).unwrap_or(0)
    };
    assert!(count(" grid battles") >= 1, "a grid battle fought by the battle AI: {out}");
    assert!(count(" auto-battles") >= 1, "an auto-battle: {out}");
    assert!(out.contains("longest campaign-AI slice"), "{out}");
    let hash = out.lines().last().and_then(|l| l.rsplit(' ').next()).expect("hash").to_string();
    let replayed = run(&["replay", &save]);
    assert!(replayed.ends_with(&format!("{hash}\n")), "{replayed}");
    assert!(run(&["validate", &save]).contains(&format!("hash {hash}")));
}

#[test]
fn the_1812_campaign_plays_to_its_end_ai_against_ai() {
    ai_campaign("scenarios/campaign/russia_1812.ron", "recruit", "1");
}

#[test]
fn austerlitz_plays_to_its_end_ai_against_ai() {
    ai_campaign("scenarios/campaign/austerlitz_1805.ron", "veteran", "1");
}

#[test]
fn preview_of_a_raid_in_1812_foresees_the_auto_battle() {
    let out = run(&[
        "preview",
        "scenarios/campaign/russia_1812.ron",
        "--orders",
        "scenarios/campaign/russia_1812_preview.ron",
    ]);
    assert!(
        out.contains(
            "battle at (6, 8): Red attacks, 3 v 2 units, 3 v 2 fight, auto-battle: the attacker wins with probability 1"
        ),
        "{out}"
    );
    assert!(out.contains("Red wins the auto-battle at (6, 8) after 2 round(s) (T-AUTO-2)"), "{out}");
}
