//! The shipped historical campaigns: 1812 (from the Niemen to Moscow) and Austerlitz 1805. Their
//! key hexes are the named places, every army can march to every key hex over the fords, the
//! Russian special units (T-RUS, T-STRAT-10) stand in Russian armies, and a battle at Borodino is
//! fought on the hand-made Semyonovskoye field.

use rules::campaign::{Campaign, CampaignScenario, HexAt, Order};
use rules::game::Game;
use rules::tactical::Side;
use rules::tactical::scenario::parse_map_with;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn load(name: &str) -> CampaignScenario {
    CampaignScenario::load(&root().join("scenarios/campaign").join(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn key_places(s: &CampaignScenario) -> Vec<&str> {
    s.victory.key_hexes.iter().map(|k| s.map.place_name(k.at).unwrap_or("?")).collect()
}

/// Every hex an army can walk to from `from`, turn after turn (T-STRAT-1: fords only).
fn walkable(c: &Campaign, from: HexAt) -> BTreeSet<HexAt> {
    let ctx = c.ctx();
    let mut seen = BTreeSet::from([from]);
    let mut open = vec![from];
    while let Some(h) = open.pop() {
        for n in h.neighbours() {
            if ctx.step_cost(h, n).is_ok() && seen.insert(n) {
                open.push(n);
            }
        }
    }
    seen
}

fn every_army_reaches_every_key_hex(s: &CampaignScenario) {
    let c = Campaign::new(s, 1);
    for a in &s.armies {
        let reach = walkable(&c, a.at);
        for k in &s.victory.key_hexes {
            assert!(reach.contains(&k.at), "{} at {} cannot reach {}", a.name, a.at, k.at);
        }
    }
}

#[test]
fn the_1812_campaign_holds_smolensk_borodino_and_moscow() {
    let s = load("russia_1812.ron");
    assert_eq!(key_places(&s), ["Smolensk", "Borodino", "Moscow"]);
    assert!(s.victory.key_hexes.iter().all(|k| k.holder == Side::Blue), "Russia holds them at the start");
    assert_eq!(s.victory.turns, 12);
    assert!(s.map.has_fortress(s.victory.key_hexes[0].at), "Smolensk has its walls");
    let names: Vec<&str> = s.armies.iter().map(|a| a.name.as_str()).collect();
    for wanted in ["1st Western Army", "2nd Western Army", "Cossacks (Platov)", "I Corps (Davout)", "Imperial Guard"] {
        assert!(names.iter().any(|n| n.starts_with(wanted)), "{wanted} is missing: {names:?}");
    }
    every_army_reaches_every_key_hex(&s);
}

#[test]
fn the_russian_special_units_serve_in_russian_armies_where_history_puts_them() {
    let s = load("russia_1812.ron");
    let special: Vec<(&str, &str)> = s
        .armies
        .iter()
        .flat_map(|a| a.units.iter().map(move |u| (a, u)))
        .filter(|(_, u)| s.unit_type(&u.unit).is_some_and(|t| t.faction.is_some()))
        .map(|(a, u)| (a.name.as_str(), u.unit.as_str()))
        .collect();
    // T-RUS-1..6, each once, all in the 1st Western Army (its Guard and its cavalry).
    let kinds: BTreeSet<&str> = special.iter().map(|(_, u)| *u).collect();
    assert_eq!(kinds.len(), 6, "{special:?}");
    assert!(special.iter().all(|(a, _)| a.starts_with("1st Western Army")), "{special:?}");
}

#[test]
fn austerlitz_is_fought_for_bruenn_the_pratzen_and_olmuetz() {
    let s = load("austerlitz_1805.ron");
    assert_eq!(key_places(&s), ["Brünn", "Pratzen", "Olmütz"]);
    assert_eq!(s.victory.turns, 5);
    let units: usize = s.armies.iter().map(|a| a.units.len()).sum();
    assert!(units < 60, "a short evening: {units} units");
    every_army_reaches_every_key_hex(&s);
}

#[test]
fn a_battle_at_borodino_is_fought_on_the_semyonovskoye_field() {
    let mut s = load("russia_1812.ron");
    let borodino = s.victory.key_hexes[1].at;
    // The hex west of Borodino, on the road from Gzhatsk.
    let west = borodino.neighbour(3);
    assert!(s.map.passable(west));
    // The Guard has marched there; the Moscow Opolchenie stands at Borodino.
    for a in &mut s.armies {
        match a.name.as_str() {
            n if n.starts_with("Imperial Guard") => a.at = west,
            n if n.starts_with("Moscow Opolchenie") => a.at = borodino,
            _ => {}
        }
    }
    let mut c = Campaign::new(&s, 7);
    let guard = s.armies.iter().find(|a| a.name.starts_with("Imperial Guard")).map(|a| a.id).expect("the Guard");
    c.apply(Order::Move { army: rules::campaign::ArmyId(guard), path: vec![borodino] }).expect("the Guard attacks");
    let b = c.state().battle.clone().expect("10 v 4 in a key hex: fought on the grid (T-STRAT-9)");
    assert_eq!(b.at, borodino);
    let battle = c.battle_scenario().expect("the battle's scenario");
    let text = std::fs::read_to_string(root().join("maps/borodino.ron")).expect("maps/borodino.ron");
    let field = parse_map_with("maps/borodino.ron", &text, &s.rules).expect("the field parses");
    assert_eq!(battle.map, field, "the hand-made field, not a generated one");
    assert_eq!(battle.map.name, "Semyonovskoye");
}
