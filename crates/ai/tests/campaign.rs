//! The campaign AI: both shipped historical campaigns play to their end AI against AI with grid
//! battles (fought by the battle AI) and auto-battles, replay bit-identically, do not depend on
//! how the thinking is sliced, and the three levels play differently.

use ai::campaign::{CampaignAi, play};
use ai::{Level, Player, Think};
use rules::Game;
use rules::campaign::{Campaign, CampaignSave, CampaignScenario, Event, Order};
use rules::tactical::Side;
use std::path::PathBuf;
use web_time::Duration;

fn load(name: &str) -> CampaignScenario {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/campaign").join(name);
    CampaignScenario::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

const SLICE: Duration = Duration::from_millis(50);

fn grid_battles(c: &Campaign) -> usize {
    c.events().iter().filter(|e| matches!(e, Event::BattleWon { .. })).count()
}

fn auto_battles(c: &Campaign) -> usize {
    c.events().iter().filter(|e| matches!(e, Event::AutoBattleWon { .. })).count()
}

/// Plays to the end, checks a grid battle and an auto-battle came up, and that the save (through
/// its text) replays to the same hash at every checkpoint.
fn plays_to_its_end(name: &str, level: Level, seed: u64) -> Campaign {
    let s = load(name);
    let (c, stats) = play(&s, seed, [Some(level), Some(level)], SLICE, 20_000);
    assert!(c.is_over(), "{name} at {level}, seed {seed}: not over after {} orders", c.orders().len());
    assert!(grid_battles(&c) >= 1 && stats.battles >= 1, "{name}: no grid battle");
    assert!(auto_battles(&c) >= 1, "{name}: no auto-battle");
    let text = c.save().to_text();
    let save = CampaignSave::from_text(name, &text).expect("the save reads back");
    let replayed = Campaign::replay(&save).expect("the save replays, every hash checked");
    assert_eq!(replayed.state_hash(), c.state_hash());
    assert_eq!(replayed.save().to_text(), text, "written back byte for byte");
    c
}

#[test]
fn the_1812_campaign_plays_to_its_end_ai_against_ai_and_replays() {
    let c = plays_to_its_end("russia_1812.ron", Level::Recruit, 1);
    assert_eq!(c.turn(), 12, "the turn limit");
}

#[test]
fn austerlitz_plays_to_its_end_ai_against_ai_and_replays() {
    plays_to_its_end("austerlitz_1805.ron", Level::Veteran, 1);
    plays_to_its_end("austerlitz_1805.ron", Level::Marshal, 1);
}

#[test]
fn the_same_seed_gives_the_same_campaign_whatever_the_slicing() {
    let s = load("austerlitz_1805.ron");
    let (a, _) = play(&s, 3, [Some(Level::Veteran); 2], SLICE, 20_000);
    let (b, _) = play(&s, 3, [Some(Level::Veteran); 2], Duration::from_micros(200), 20_000);
    assert_eq!(a.orders(), b.orders());
    assert_eq!(a.state_hash(), b.state_hash());
}

#[test]
fn a_grid_battle_is_fought_across_slices_and_gives_the_same_result() {
    let s = load("austerlitz_1805.ron");
    let mut c = Campaign::new(&s, 2);
    let mut players = [CampaignAi::new(Side::Red, Level::Veteran), CampaignAi::new(Side::Blue, Level::Veteran)];
    // Play until a battle waits to be reported.
    while c.state().battle.as_ref().is_none_or(|b| b.chooser().is_some()) {
        assert!(!c.is_over(), "no grid battle came up");
        let side = c.active_player().expect("a side to move");
        let order = players[side.index()].decide(&c.ctx(), SLICE).expect("an order");
        c.apply(order).expect("legal");
    }
    let side = c.active_player().expect("the attacker reports");
    let mut sliced = CampaignAi::new(side, Level::Veteran);
    let mut slices = 0;
    let result = loop {
        match sliced.think(&c.ctx(), Duration::from_micros(100)) {
            Think::Order(o) => break o,
            Think::Thinking => slices += 1,
            Think::Idle => panic!("it is this side's turn"),
        }
    };
    assert!(slices > 1, "the battle took {slices} slices");
    let whole = CampaignAi::new(side, Level::Veteran).decide(&c.ctx(), Duration::from_secs(3600)).expect("an order");
    assert_eq!(result, whole, "the battle's save does not depend on the slicing");
    assert!(matches!(result, Order::BattleResult { .. }));
    let other = CampaignAi::new(side.other(), Level::Veteran).think(&c.ctx(), SLICE);
    assert!(matches!(other, Think::Idle), "the other side waits");
}

fn count(c: &Campaign, f: impl Fn(&Order) -> bool) -> usize {
    c.orders().iter().filter(|o| f(o)).count()
}

#[test]
fn the_three_levels_play_differently() {
    let s = load("austerlitz_1805.ron");
    let games: Vec<Campaign> =
        [Level::Recruit, Level::Veteran, Level::Marshal].map(|l| play(&s, 1, [Some(l); 2], SLICE, 20_000).0).into();
    let [recruit, veteran, marshal] = &games[..] else { unreachable!() };
    // The Recruit never intercepts, never joins armies, fields the army-list order (the defaults).
    assert_eq!(count(recruit, |o| matches!(o, Order::Intercept { .. } | Order::Merge { .. })), 0);
    // The Veteran and the Marshal watch with the intercept order and join armies that meet.
    for c in [veteran, marshal] {
        assert!(count(c, |o| matches!(o, Order::Intercept { on: true, .. })) > 0);
        assert!(count(c, |o| matches!(o, Order::Merge { .. })) > 0);
    }
    // Only the Marshal names a line of retreat towards its own key hexes (T-STRAT-11).
    assert!(count(marshal, |o| matches!(o, Order::ChooseForces(f) if f.retreat.is_some())) > 0);
    for c in [recruit, veteran] {
        assert_eq!(count(c, |o| matches!(o, Order::ChooseForces(f) if f.retreat.is_some())), 0);
    }
    assert_ne!(recruit.orders(), veteran.orders());
    assert_ne!(veteran.orders(), marshal.orders());
}

#[test]
fn the_veteran_fields_its_strongest_units_the_recruit_its_first() {
    // Linden: the French I Corps (12 units) meets the 1st Western Army (13) at Lindenau; the cut
    // fields 9 v 10 (T-STRAT-5), and the attacker picks its 9 first.
    let s = load("linden.ron");
    let orders_path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/campaign/linden_orders.ron");
    let text = std::fs::read_to_string(&orders_path).expect("linden_orders.ron");
    let orders: Vec<Order> = rules::data::parse_orders("linden_orders.ron", &text).expect("orders");
    let mut c = Campaign::new(&s, 1);
    for o in orders {
        if c.state().battle.as_ref().is_some_and(|b| b.chooser().is_some()) {
            break;
        }
        c.apply(o).expect("legal");
    }
    let Some(b) = c.state().battle.clone() else { panic!("the order list leads to a battle") };
    let side = b.chooser().expect("a side chooses");
    let choose = |level| match CampaignAi::new(side, level).decide(&c.ctx(), SLICE) {
        Some(Order::ChooseForces(f)) => f,
        other => panic!("{other:?}"),
    };
    let (recruit, veteran) = (choose(Level::Recruit), choose(Level::Veteran));
    let mine = c.state().units_at(b.at, side);
    let wanted = b.fielded[side.index()];
    assert_eq!(recruit.units, mine[..wanted].to_vec(), "T-STRAT-5 default: army-list order");
    assert_eq!(veteran.units.len(), wanted);
    if wanted < mine.len() {
        assert_ne!(recruit.units, veteran.units, "the Veteran leaves out its weakest, not its last");
    }
}
