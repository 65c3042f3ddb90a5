//! What the campaign tests share: the Linden campaign with armies of the test's own, and the
//! orders they give. Included by `#[path]` from each test file that needs it.
#![allow(dead_code)]

use rules::campaign::scenario::{ArmySpec, CampaignUnit};
use rules::campaign::{ArmyId, Campaign, CampaignRules, CampaignScenario, Event, HexAt, Order};
use rules::game::Game;
use rules::tactical::{Battle, Order as BattleOrder, Phase, SaveGame, Side, UnitId};
use std::path::Path;

pub fn linden() -> CampaignScenario {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/campaign/linden.ron");
    CampaignScenario::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

pub fn hex(col: i32, row: i32) -> HexAt {
    HexAt::new(col, row)
}

/// An army whose units get ids `id × 100 + i`.
pub fn army(id: u32, side: Side, at: (i32, i32), units: &[&str]) -> ArmySpec {
    ArmySpec {
        id,
        side,
        name: format!("army {id}"),
        at: hex(at.0, at.1),
        units: units
            .iter()
            .enumerate()
            .map(|(i, u)| CampaignUnit {
                id: UnitId(id * 100 + u32::try_from(i).unwrap_or(0)),
                unit: (*u).to_string(),
                name: None,
                health: None,
            })
            .collect(),
    }
}

pub fn campaign(armies: Vec<ArmySpec>) -> Campaign {
    let mut s = linden();
    s.armies = armies;
    Campaign::new(&s, 7)
}

pub fn line(n: usize) -> Vec<&'static str> {
    vec!["line_infantry"; n]
}

pub fn ok(c: &mut Campaign, order: Order) -> Vec<Event> {
    c.apply(order.clone()).unwrap_or_else(|e| panic!("{order:?}: {e}"))
}

pub fn refused(c: &mut Campaign, order: Order) -> String {
    let before = c.hash();
    let e = c.apply(order).expect_err("refused").to_string();
    assert_eq!(c.hash(), before, "a refused order changes nothing");
    e
}

/// The default: end the turn, choose the default forces, or fight standing still.
pub fn pass(c: &mut Campaign) -> Vec<Event> {
    let order = c.pass();
    ok(c, order)
}

pub fn mv(army: u32, path: &[(i32, i32)]) -> Order {
    Order::Move { army: ArmyId(army), path: path.iter().map(|(c, r)| hex(*c, *r)).collect() }
}

pub fn rules() -> CampaignRules {
    CampaignRules::builtin()
}

/// Row 5 of the Linden map is open from (0, 5) to (7, 5).
pub fn east_along_row_5(from: i32, steps: i32) -> Vec<(i32, i32)> {
    (1..=steps).map(|i| (from + i, 5)).collect()
}

/// Every unit of the side to move fires at what it can; then the turn ends. Set-up by default.
pub fn shoot_it_out(battle: &mut Battle) {
    let mut guard = 0;
    while !Game::is_over(battle) && guard < 10_000 {
        guard += 1;
        if battle.clock().phase == Phase::Battle {
            let fire = battle.ctx().legal_orders().into_iter().find(|o| matches!(o, BattleOrder::Fire { .. }));
            if let Some(order) = fire {
                battle.apply(order).unwrap_or_else(|e| panic!("{e}"));
                continue;
            }
        }
        let order = Game::pass(battle);
        battle.apply(order).unwrap_or_else(|e| panic!("{e}"));
    }
}

pub fn fight(c: &mut Campaign, seed_note: &str) -> SaveGame {
    let b = c.state().battle.clone().expect("a battle");
    let s = c.battle_scenario().expect("scenario");
    let mut battle = Battle::new(&s, b.seed);
    shoot_it_out(&mut battle);
    assert!(Game::is_over(&battle), "{seed_note}: the battle ends");
    battle.save()
}
