//! A simple campaign player. Each army marches on the nearest key hex its side does not hold
//! (else the nearest enemy army) and attacks only where it has at least as many units (in the
//! last two turns down to 3 against 4); armies on
//! a key hex their side holds stay as its garrison and watch with the intercept order. Forces are
//! the defaults (army-list order, every redoubt it may build), and battles are fought by the
//! battle AI at the chosen level. Every order it gives is legal (it asks the rules first).

use crate::Level;
use crate::game::{GameSetup, play as play_battle};
use rules::campaign::{ArmyId, Campaign, HexAt, Order};
use rules::game::Game;
use rules::tactical::Side;
use std::collections::BTreeMap;
use web_time::Duration;

/// What the player thought about, for reports.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Grid battles fought by the battle AI.
    pub battles: u32,
    /// The longest single think slice of the battle AI.
    pub longest_slice: Duration,
}

/// The next order for the side to move, or `None` when the campaign is over. `ai` says which
/// sides the AI plays in battles (the others stand).
pub fn next_order(c: &Campaign, ai: [Option<Level>; 2], slice: Duration, stats: &mut Stats) -> Option<Order> {
    let side = c.active_player()?;
    let state = c.state();
    if let Some(b) = &state.battle {
        if b.chooser().is_some() {
            return Some(c.pass());
        }
        let scenario = c.battle_scenario()?;
        let setup =
            GameSetup { seed: b.seed, players: ai, max_rounds: None, orders: Vec::new(), slice, weights: [None, None] };
        let report = play_battle(&scenario, &setup).ok()?;
        stats.battles += 1;
        stats.longest_slice = stats.longest_slice.max(report.longest_slice);
        return Some(Order::BattleResult { save: Box::new(report.battle.save()) });
    }
    for army in state.armies.iter().filter(|a| a.side == side) {
        if let Some(order) = army_order(c, army.id) {
            return Some(order);
        }
    }
    Some(Order::EndTurn)
}

fn army_order(c: &Campaign, id: ArmyId) -> Option<Order> {
    let state = c.state();
    let a = state.army(id)?;
    let scenario = c.scenario();
    let holds_key = scenario.victory.key_hexes.iter().zip(&state.holders).any(|(k, h)| k.at == a.at && *h == a.side);
    if holds_key {
        return (!a.intercept).then_some(Order::Intercept { army: id, on: true });
    }
    let costs = distances(c, a.at, a.side);
    let wanted: Vec<HexAt> = {
        let keys: Vec<HexAt> = scenario
            .victory
            .key_hexes
            .iter()
            .zip(&state.holders)
            .filter(|(k, h)| **h != a.side || state.enemy_at(k.at, a.side))
            .map(|(k, _)| k.at)
            .collect();
        if keys.is_empty() { state.armies.iter().filter(|e| e.side != a.side).map(|e| e.at).collect() } else { keys }
    };
    let target = wanted.into_iter().filter_map(|h| costs.get(&h).map(|c| (c.0, h))).min()?.1;
    let mut path = route(&costs, a.at, target);
    // Spend only the MP left; stop short of an enemy stronger than the army.
    let ctx = c.ctx();
    let mut spent = 0;
    let mut keep = 0;
    for (i, h) in path.iter().enumerate() {
        let from = if i == 0 { a.at } else { path[i - 1] };
        spent += ctx.step_cost(from, *h).ok()?;
        if spent > a.mp_left {
            break;
        }
        if state.enemy_at(*h, a.side) {
            let enemy = state.units_at(*h, a.side.other()).len();
            let own = state.units_at(a.at, a.side).len();
            // In the last two campaign turns it also attacks a stronger enemy, down to 3 : 4.
            let late = state.turn.saturating_add(1) >= scenario.victory.turns;
            if own >= enemy || (late && own * 4 >= enemy * 3) {
                keep = i + 1;
            }
            break;
        }
        keep = i + 1;
    }
    path.truncate(keep);
    let order = Order::Move { army: id, path };
    ctx.clone().apply(&order).ok().map(|()| order)
}

/// Cheapest MP to every reachable hex (enemy hexes end a path), with the previous hex.
fn distances(c: &Campaign, start: HexAt, side: Side) -> BTreeMap<HexAt, (u32, HexAt)> {
    let ctx = c.ctx();
    let mut best: BTreeMap<HexAt, (u32, HexAt)> = BTreeMap::from([(start, (0, start))]);
    let mut open: Vec<(u32, HexAt)> = vec![(0, start)];
    while let Some(i) = open.iter().enumerate().min_by_key(|(_, x)| **x).map(|(i, _)| i) {
        let (cost, h) = open.swap_remove(i);
        if best.get(&h).is_some_and(|b| b.0 < cost) || (h != start && c.state().enemy_at(h, side)) {
            continue;
        }
        for n in h.neighbours() {
            let Ok(step) = ctx.step_cost(h, n) else { continue };
            let total = cost + step;
            if best.get(&n).is_none_or(|b| total < b.0) {
                best.insert(n, (total, h));
                open.push((total, n));
            }
        }
    }
    best
}

fn route(best: &BTreeMap<HexAt, (u32, HexAt)>, start: HexAt, target: HexAt) -> Vec<HexAt> {
    let mut path = Vec::new();
    let mut at = target;
    while at != start && path.len() <= best.len() {
        path.push(at);
        at = best.get(&at).map_or(start, |b| b.1);
    }
    path.reverse();
    path
}

/// Plays a campaign to its end with the AI on the sides of `ai` (the others pass), at most
/// `max_orders` orders.
pub fn play(
    scenario: &rules::campaign::CampaignScenario,
    seed: u64,
    ai: [Option<Level>; 2],
    slice: Duration,
    max_orders: usize,
) -> (Campaign, Stats) {
    let mut c = Campaign::new(scenario, seed);
    let mut stats = Stats::default();
    while !c.is_over() && c.orders().len() < max_orders {
        let side = c.active_player().unwrap_or(Side::Red);
        let order = if ai[side.index()].is_some() || c.state().battle.as_ref().is_some_and(|b| b.chooser().is_none()) {
            next_order(&c, ai, slice, &mut stats)
        } else {
            Some(c.pass())
        };
        let Some(order) = order else { break };
        if c.apply(order).is_err() {
            let pass = c.pass();
            if c.apply(pass).is_err() {
                break;
            }
        }
    }
    (c, stats)
}
