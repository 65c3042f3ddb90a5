//! Saves written by earlier versions of the game load for ever (fixtures committed when each
//! format was current); a tampered or truncated save is refused with a message that says why.
//!
//! The fixtures were written by `umpire play … --save` (see `tests/fixtures/saves/README.md`).
//! If a rules change makes the battle fixture replay differently, that change breaks every
//! player's saved battle: either keep old saves replaying (a new save format and a migration)
//! or, if breaking them is intended, regenerate the fixture with the command in the README.

use rules::Game;
use rules::strategic::SaveGame as GreatWarSave;
use rules::tactical::{Battle, SaveGame};

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/saves/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn battle_save_of_format_1_loads_and_replays_to_its_hashes() {
    let save = SaveGame::from_text("battle_format1.ron", &fixture("battle_format1.ron")).expect("loads");
    assert_eq!(save.format, 1);
    assert!(!save.orders.is_empty() && !save.checkpoints.is_empty());
    let battle = Battle::replay(&save).expect("replays with every recorded hash");
    assert_eq!(battle.hash(), save.final_hash);
}

#[test]
fn campaign_save_of_format_1_loads_and_replays_to_its_hashes_with_its_battle() {
    let name = "campaign_format1.ron";
    let text = fixture(name);
    let save = rules::campaign::CampaignSave::from_text(name, &text).expect("loads");
    assert_eq!(save.format, 1);
    assert!(save.orders.iter().any(|o| matches!(o, rules::campaign::Order::BattleResult { .. })), "a battle inside");
    let game = rules::campaign::Campaign::replay(&save).expect("replays with every recorded hash");
    assert_eq!(game.hash(), save.final_hash);
    assert!(save.to_text() == text, "written back byte for byte");
}

#[test]
fn great_war_save_of_format_1_loads() {
    let save = GreatWarSave::from_text("great_war_format1.ron", &fixture("great_war_format1.ron")).expect("loads");
    assert_eq!(save.format, 1);
    assert!(!save.orders.is_empty() && !save.checkpoints.is_empty());
    assert_eq!(save.scenario_hash, save.scenario.hash(), "the embedded scenario is the one the save recorded");
}

#[test]
fn great_war_save_of_the_rules_of_issue_11_loads_and_replays_to_its_hashes() {
    let name = "great_war_format1_rules_of_issue_11.ron";
    let save = GreatWarSave::from_text(name, &fixture(name)).expect("loads");
    assert_eq!(save.format, 1);
    assert!(!save.orders.is_empty() && !save.checkpoints.is_empty());
    let game = rules::strategic::GreatWar::replay(&save).expect("replays with every recorded hash");
    assert_eq!(game.hash(), save.final_hash);
}

#[test]
fn truncated_saves_are_refused_as_truncated() {
    for name in ["battle_format1.ron", "great_war_format1.ron"] {
        let text = fixture(name);
        let cut = &text[..text.len() / 2];
        let e = if name.starts_with("battle") {
            SaveGame::from_text(name, cut).map(|_| ()).expect_err("refused").to_string()
        } else {
            GreatWarSave::from_text(name, cut).map(|_| ()).expect_err("refused").to_string()
        };
        assert!(e.contains(name) && e.contains("truncated"), "{e}");
    }
}

#[test]
fn tampered_saves_are_refused_with_the_reason() {
    let text = fixture("battle_format1.ron");
    let save = SaveGame::from_text("battle_format1.ron", &text).expect("loads");
    // The embedded scenario changed.
    let mut tampered = save.clone();
    tampered.scenario.blue.name.push('!');
    let e = Battle::replay(&tampered).expect_err("refused").to_string();
    assert!(e.contains("the file was altered"), "{e}");
    // A recorded hash changed.
    let mut tampered = save.clone();
    tampered.final_hash = rules::hash::StateHash(tampered.final_hash.0 ^ 1);
    let e = Battle::replay(&tampered).expect_err("refused").to_string();
    assert!(e.contains("diverged"), "{e}");
    // A format this game does not know.
    let mut tampered = save;
    tampered.format = 99;
    let e = Battle::replay(&tampered).expect_err("refused").to_string();
    assert!(e.contains("save format 99 is not supported"), "{e}");
}

#[test]
fn saves_of_every_format_are_written_back_byte_for_byte() {
    let battle = fixture("battle_format1.ron");
    let save = SaveGame::from_text("battle_format1.ron", &battle).expect("loads");
    assert!(save.to_text() == battle, "the battle save is written back as it was read");
    for name in ["great_war_format1.ron", "great_war_format1_rules_of_issue_11.ron"] {
        let text = fixture(name);
        let save = GreatWarSave::from_text(name, &text).expect("loads");
        assert!(save.to_text() == text, "{name} is written back as it was read");
    }
}

#[test]
fn a_save_of_one_war_is_not_read_as_the_other() {
    let e = GreatWarSave::from_text("battle_format1.ron", &fixture("battle_format1.ron")).expect_err("refused");
    assert!(e.to_string().contains("SaveGame") && e.to_string().contains("GreatWarSave"), "{e}");
    let e = SaveGame::from_text("great_war_format1.ron", &fixture("great_war_format1.ron")).expect_err("refused");
    assert!(e.to_string().contains("GreatWarSave"), "{e}");
}

#[test]
fn a_save_with_an_unknown_field_is_refused_at_its_place() {
    let text = fixture("battle_format1.ron").replacen("  seed: 1,", "  seed: 1,\n  cheat: true,", 1);
    let e = SaveGame::from_text("battle_format1.ron", &text).expect_err("refused").to_string();
    assert!(e.starts_with("battle_format1.ron:5:") && e.contains("cheat"), "{e}");
}
