//! The campaign AI: moves armies, intercepts, chooses battles and which units fight, and fights
//! its battles with the battle AI, at three levels that differ by play:
//! - **Recruit** marches each army alone on the nearest key hex it lacks (else the nearest enemy),
//!   attacks where it has at least as many units, never intercepts, fields the army-list order.
//! - **Veteran** weighs Health, not heads: it attacks where its strength in the hex reaches
//!   `VETERAN_ODDS` of the enemy's (or the auto-battle it would start is won, as the rules'
//!   preview shows), joins armies that share a hex, garrisons held key hexes with the intercept
//!   order and sets it wherever an enemy is within reach, and fields its strongest units.
//! - **Marshal** plays as the Veteran and also concentrates: an army too weak for the enemy
//!   nearest its target joins the side's main army; threatened key hexes draw the nearest army
//!   able to reach them; a beaten army falls back towards its own key hexes.
//!
//! It thinks in slices ([`Player`]): a grid battle is fought one battle-AI slice at a time across
//! calls, so no call runs much past its budget; the decisions never depend on the slicing, and
//! ties are broken by army and hex order, so a seeded campaign is the same every time. Every
//! order it gives is legal (it asks the rules first, on a copy).

use crate::game::MAX_ORDERS_PER_TURN;
use crate::{Ai, Level, Player, Think};
use rules::campaign::event::Event;
use rules::campaign::field::default_forces;
use rules::campaign::{ArmyId, Campaign, CampaignScenario, Ctx, Forces, HexAt, Order};
use rules::game::Game;
use rules::tactical::{Battle, Side, UnitId};
use rules::view::{Sight, Viewer};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use web_time::{Duration, Instant};

/// Veteran and Marshal attack where their Health in the hex is at least this share (in
/// percent) of the enemy's.
const VETERAN_ODDS: i64 = 110;

/// What the player thought about, for reports.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Grid battles fought by the battle AI.
    pub battles: u32,
    /// The longest single think slice of the battle AI.
    pub longest_slice: Duration,
    /// The longest single call of [`CampaignAi::think`] (campaign decisions and battle slices).
    pub longest_think: Duration,
    /// Calls of [`CampaignAi::think`].
    pub slices: u64,
}

/// A grid battle being fought, a slice at a time.
struct Fighting {
    /// The campaign battle's number, seed and the forces chosen: another battle (or the same
    /// one after an undo, with other choices) starts a new fight.
    key: (u32, u64, [Option<Forces>; 2]),
    battle: Battle,
    ais: [Option<Ai>; 2],
}

/// The campaign AI of one side.
pub struct CampaignAi {
    pub side: Side,
    pub level: Level,
    /// Who fights each side's grid battles (`None`: that side stands, as a player who passes).
    pub battle_players: [Option<Level>; 2],
    pub stats: Stats,
    fighting: Option<Fighting>,
    /// A seat's AI ([`CampaignAi::seat`]): the battle AI of its own side, by the battle it
    /// fights (number and forces chosen); `None` for an AI that fights battles out whole.
    seat: Option<Seat>,
}

/// The AI of a seat fighting its own side of battles on the campaign's log.
struct Seat {
    seed: u64,
    battle: Option<(BattleKey, Ai)>,
}

/// A campaign battle: its number and the forces chosen for it.
type BattleKey = (u32, [Option<Forces>; 2]);

impl CampaignAi {
    /// A campaign AI for `side`; its battles are fought by the battle AI at `level` for both sides.
    pub fn new(side: Side, level: Level) -> CampaignAi {
        CampaignAi {
            side,
            level,
            battle_players: [Some(level), Some(level)],
            stats: Stats::default(),
            fighting: None,
            seat: None,
        }
    }

    /// The AI of one side's seat in a campaign played apart (the umpire server): it fights only
    /// its own side of each battle, order by order on the campaign's log ([`Order::Fight`]), from
    /// the battle as its side knows it; the other side is someone else's.
    pub fn seat(side: Side, level: Level, seed: u64) -> CampaignAi {
        CampaignAi { seat: Some(Seat { seed, battle: None }), ..CampaignAi::new(side, level) }
    }

    /// The same, with the levels (or none) that fight each side's battles.
    pub fn with_battle_players(side: Side, level: Level, battle_players: [Option<Level>; 2]) -> CampaignAi {
        CampaignAi { battle_players, ..CampaignAi::new(side, level) }
    }

    /// Thinks until it has the next order (no time limit); `None` when it is not its turn.
    pub fn decide(&mut self, ctx: &Ctx, slice: Duration) -> Option<Order> {
        loop {
            match Player::<Campaign>::think(self, ctx, slice) {
                Think::Order(o) => return Some(o),
                Think::Idle => return None,
                Think::Thinking => {}
            }
        }
    }

    fn think_inner(&mut self, ctx: &Ctx, start: Instant, budget: Duration) -> Think<Order> {
        if ctx.active_player() != Some(self.side) {
            return Think::Idle;
        }
        if let Some(b) = &ctx.state.battle {
            if b.chooser() == Some(self.side) {
                let forces = choose_forces(ctx, self.side, self.level);
                return Think::Order(Order::ChooseForces(forces));
            }
            if self.seat.is_some() {
                return self.fight_own_side(ctx, budget);
            }
            return self.fight(ctx, start, budget);
        }
        self.fighting = None;
        Think::Order(campaign_order(ctx, self.side, self.level))
    }

    /// A seat's part of the waiting battle: the battle AI's next order for its side (its turn
    /// ended once it has given the most a turn allows), from the battle as the side knows it.
    fn fight_own_side(&mut self, ctx: &Ctx, budget: Duration) -> Think<Order> {
        let (Some(b), Some(fight), Some(seat)) = (&ctx.state.battle, &ctx.fighting, self.seat.as_mut()) else {
            return Think::Idle;
        };
        if fight.clock.active != self.side {
            return Think::Idle;
        }
        let key = (b.number, b.forces.clone());
        if seat.battle.as_ref().is_none_or(|(k, _)| *k != key) {
            let ai = Ai::new(self.side, self.level, seat.seed ^ u64::from(b.number));
            seat.battle = Some((key, ai));
            self.stats.battles += 1;
        }
        let pass = rules::tactical::Order::pass_in(fight.clock.phase);
        let Some((_, ai)) = seat.battle.as_mut() else { return Think::Idle };
        if fight.clock.orders_this_turn >= MAX_ORDERS_PER_TURN {
            return Think::Order(Order::Fight(pass));
        }
        let t = ai.think(fight, budget);
        self.stats.longest_slice = self.stats.longest_slice.max(ai.stats.longest_slice);
        match t {
            Think::Order(o) => Think::Order(Order::Fight(o)),
            Think::Idle => Think::Order(Order::Fight(pass)),
            Think::Thinking => Think::Thinking,
        }
    }

    /// Fights the waiting battle (both sides chosen; this side reports it) for one slice.
    fn fight(&mut self, ctx: &Ctx, start: Instant, budget: Duration) -> Think<Order> {
        let Some(b) = &ctx.state.battle else { return Think::Idle };
        let key = (b.number, b.seed, b.forces.clone());
        if self.fighting.as_ref().is_none_or(|f| f.key != key) {
            let Some(scenario) = ctx.battle_scenario() else { return Think::Idle };
            let ais = [Side::Red, Side::Blue].map(|s| self.battle_players[s.index()].map(|l| Ai::new(s, l, b.seed)));
            self.fighting = Some(Fighting { key, battle: Battle::new(&scenario, b.seed), ais });
            // Setting up the field is a slice of its own.
            return Think::Thinking;
        }
        let Some(f) = self.fighting.as_mut() else { return Think::Idle };
        // Each call makes progress (an order applied, or the save written), then stops at the budget.
        let mut worked = false;
        while !Game::is_over(&f.battle) {
            if worked && start.elapsed() >= budget {
                return Think::Thinking;
            }
            let clock = f.battle.clock();
            let side = clock.active;
            let pass = Game::pass(&f.battle);
            let order = match f.ais[side.index()].as_mut() {
                _ if clock.orders_this_turn >= MAX_ORDERS_PER_TURN => pass.clone(),
                Some(ai) => {
                    let left = budget.saturating_sub(start.elapsed());
                    let t = ai.think(&f.battle.ctx_as(Viewer::Player(side)), left);
                    self.stats.longest_slice = self.stats.longest_slice.max(ai.stats.longest_slice);
                    match t {
                        Think::Order(o) => o,
                        Think::Idle => pass.clone(),
                        Think::Thinking => return Think::Thinking,
                    }
                }
                None => pass.clone(),
            };
            if f.battle.apply(order).is_err() && f.battle.apply(pass).is_err() {
                break;
            }
            worked = true;
        }
        if worked && start.elapsed() >= budget {
            // The save (the battle's whole order log) is written in the next slice.
            return Think::Thinking;
        }
        let save = f.battle.save();
        self.fighting = None;
        self.stats.battles += 1;
        Think::Order(Order::BattleResult { save: Box::new(save) })
    }
}

impl Player<Campaign> for CampaignAi {
    fn think(&mut self, ctx: &Ctx, budget: Duration) -> Think<Order> {
        let start = Instant::now();
        let out = self.think_inner(ctx, start, budget);
        let took = start.elapsed();
        self.stats.slices += 1;
        self.stats.longest_think = self.stats.longest_think.max(took);
        out
    }
}

/// The Health of a side's units in a hex.
fn strength_at(ctx: &Ctx, at: HexAt, side: Side) -> i64 {
    ctx.state.units_at(at, side).iter().filter_map(|u| ctx.state.unit(*u)).map(|u| i64::from(u.health.max(0))).sum()
}

/// How much a unit is worth in a fight: its Health times its best attack.
fn worth(ctx: &Ctx, id: UnitId) -> i64 {
    let Some(u) = ctx.state.unit(id) else { return 0 };
    let Some(t) = ctx.scenario.unit_type(&u.unit) else { return 0 };
    let attack = t.melee.max(t.fires().map_or(0, |(v, _)| v)).max(1);
    i64::from(u.health.max(0)) * i64::from(attack)
}

/// T-STRAT-5/8/11: which units fight, the redoubts, the line of retreat.
fn choose_forces(ctx: &Ctx, side: Side, level: Level) -> Forces {
    let Some(b) = &ctx.state.battle else { return Forces { units: Vec::new(), redoubts: 0, retreat: None } };
    let mut forces = default_forces(&ctx.state, &ctx.scenario, b, side);
    if level == Level::Recruit {
        return forces;
    }
    // The strongest units fight (ties: army-list order, which the stable sort keeps).
    let mut mine = ctx.state.units_at(b.at, side);
    mine.sort_by_key(|u| Reverse(worth(ctx, *u)));
    mine.truncate(b.fielded[side.index()]);
    forces.units = mine;
    if level == Level::Marshal {
        forces.retreat = retreat_hex(ctx, b.at, side);
    }
    forces
}

/// The neighbouring enemy-free hex nearest to one of the side's held key hexes (else none: the
/// rules' default, where it came from).
fn retreat_hex(ctx: &Ctx, at: HexAt, side: Side) -> Option<HexAt> {
    let keys = held_keys(ctx, side);
    at.neighbours()
        .into_iter()
        .filter(|n| ctx.step_cost(at, *n).is_ok() && !ctx.state.enemy_at(*n, side))
        .filter_map(|n| keys.iter().map(|k| k.distance(n)).min().map(|d| (d, n)))
        .min()
        .map(|(_, n)| n)
}

fn held_keys(ctx: &Ctx, side: Side) -> Vec<HexAt> {
    ctx.scenario
        .victory
        .key_hexes
        .iter()
        .zip(&ctx.state.holders)
        .filter(|(_, h)| **h == side)
        .map(|(k, _)| k.at)
        .collect()
}

/// The next order on the map: the first army (by id) with something to do, else the end of the turn.
fn campaign_order(ctx: &Ctx, side: Side, level: Level) -> Order {
    let ids: Vec<ArmyId> = ctx.state.armies.iter().filter(|a| a.side == side).map(|a| a.id).collect();
    if level != Level::Recruit
        && let Some(order) = ids.iter().find_map(|id| merge_order(ctx, *id))
    {
        return order;
    }
    if level == Level::Marshal
        && let Some(order) = defend_order(ctx, side)
    {
        return order;
    }
    for id in &ids {
        if let Some(order) = army_order(ctx, *id, level) {
            return order;
        }
    }
    Order::EndTurn
}

fn legal(ctx: &Ctx, order: Order) -> Option<Order> {
    ctx.clone().apply(&order).ok().map(|()| order)
}

/// Veteran, Marshal: armies of the side in one hex join the lowest id.
fn merge_order(ctx: &Ctx, id: ArmyId) -> Option<Order> {
    let a = ctx.state.army(id)?;
    let into = ctx.state.armies_at(a.at, a.side).into_iter().find(|other| *other < id)?;
    legal(ctx, Order::Merge { army: id, into })
}

/// Marshal: a held key hex an enemy army can reach this turn, with less of the side's strength
/// there than the enemy's, draws the nearest army (not itself a key hex's garrison) able to reach it.
fn defend_order(ctx: &Ctx, side: Side) -> Option<Order> {
    let keys = held_keys(ctx, side);
    // What each enemy army can reach next turn (a full turn's MP), computed once.
    let mp = ctx.scenario.campaign_rules.movement_points;
    let enemies: Vec<(i64, Costs)> = ctx
        .state
        .armies
        .iter()
        .filter(|e| e.side != side && keys.iter().any(|k| k.distance(e.at) <= mp))
        .map(|e| {
            let health = e.units.iter().filter_map(|u| ctx.state.unit(*u)).map(|u| i64::from(u.health)).sum::<i64>();
            (health, distances(ctx, e.at, e.side))
        })
        .collect();
    for &key in &keys {
        let threat: i64 =
            enemies.iter().filter(|(_, d)| d.get(&key).is_some_and(|(c, _)| *c <= mp)).map(|(h, _)| *h).sum();
        if threat == 0 || strength_at(ctx, key, side) >= threat {
            continue;
        }
        let helper = ctx
            .state
            .armies
            .iter()
            .filter(|a| a.side == side && a.at != key && !keys.contains(&a.at) && a.mp_left > 0)
            .filter_map(|a| {
                let costs = distances(ctx, a.at, side);
                costs.get(&key).filter(|(c, _)| *c <= a.mp_left).map(|(c, _)| (*c, a.id, route(&costs, a.at, key)))
            })
            .min_by_key(|(c, id, _)| (*c, *id));
        if let Some((_, army, path)) = helper
            && !path.is_empty()
            && let Some(order) = legal(ctx, Order::Move { army, path })
        {
            return Some(order);
        }
    }
    None
}

fn army_order(ctx: &Ctx, id: ArmyId, level: Level) -> Option<Order> {
    let state = &ctx.state;
    let a = state.army(id)?;
    let holds_key = held_keys(ctx, a.side).contains(&a.at);
    let careful = level != Level::Recruit;
    if holds_key {
        // A garrison watches with the intercept order (Recruit: never).
        return (careful && !a.intercept).then_some(Order::Intercept { army: id, on: true });
    }
    if a.mp_left == 0 {
        return None;
    }
    let costs = distances(ctx, a.at, a.side);
    if let Some(order) = raid(ctx, id, &costs, level) {
        return Some(order);
    }
    let scenario = &ctx.scenario;
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
    let mut target = wanted.into_iter().filter_map(|h| costs.get(&h).map(|c| (c.0, h))).min()?.1;
    if level == Level::Marshal
        && let Some(main) = main_army(ctx, a.side)
        && main != id
        && too_weak(ctx, id, target)
        && let Some(m) = state.army(main)
    {
        // Concentrate: march on the main army rather than alone into a stronger enemy.
        target = m.at;
    }
    let path = route(&costs, a.at, target);
    let order = march(ctx, id, &path, level)?;
    if careful && order.is_none() {
        // Halted: watch the roads.
        let near = state.armies.iter().any(|e| e.side != a.side && e.at.distance(a.at) <= 2);
        return (near && !a.intercept).then_some(Order::Intercept { army: id, on: true });
    }
    order
}

/// A small fight it can win: an enemy army within this turn's reach whose hex makes an
/// auto-battle (T-STRAT-9: few units, not a key hex or fortress) that the army wins — foreseen by
/// the rules on a copy (Veteran, Marshal; the auto-battle has no dice), or with at least as many
/// units (Recruit). The nearest such enemy, ties by hex.
fn raid(ctx: &Ctx, id: ArmyId, costs: &Costs, level: Level) -> Option<Order> {
    let a = ctx.state.army(id)?;
    let limit = ctx.scenario.campaign_rules.auto_battle_units;
    let mut targets: Vec<(u32, HexAt)> = ctx
        .state
        .armies
        .iter()
        .filter(|e| e.side != a.side)
        .filter_map(|e| costs.get(&e.at).filter(|(c, _)| *c <= a.mp_left).map(|(c, _)| (*c, e.at)))
        .filter(|(_, at)| !ctx.always_played(*at))
        .filter(|(_, at)| {
            let theirs = ctx.state.units_at(*at, a.side.other()).len();
            let ours = ctx.state.units_at(*at, a.side).len() + a.units.len();
            theirs + ours <= limit && (level != Level::Recruit || ours >= theirs)
        })
        .collect();
    targets.sort();
    targets.dedup();
    targets.into_iter().find_map(|(_, at)| {
        let path = route(costs, a.at, at);
        if level != Level::Recruit && !wins_auto_battle(ctx, id, &path) {
            return None;
        }
        legal(ctx, Order::Move { army: id, path })
    })
}

/// Whether the move ends in an auto-battle the army's side wins, as the rules play it on a copy.
fn wins_auto_battle(ctx: &Ctx, id: ArmyId, path: &[HexAt]) -> bool {
    let Some(side) = ctx.state.army(id).map(|a| a.side) else { return false };
    let mut copy = ctx.clone();
    copy.events.clear();
    copy.apply(&Order::Move { army: id, path: path.to_vec() }).is_ok()
        && copy.events.iter().any(|e| matches!(e, Event::AutoBattleWon { winner, .. } if *winner == side))
}

/// The side's strongest army (by Health; ties: lowest id).
fn main_army(ctx: &Ctx, side: Side) -> Option<ArmyId> {
    ctx.state
        .armies
        .iter()
        .filter(|a| a.side == side)
        .map(|a| (a.units.iter().filter_map(|u| ctx.state.unit(*u)).map(|u| i64::from(u.health)).sum::<i64>(), a.id))
        .max_by_key(|(s, id)| (*s, Reverse(*id)))
        .map(|(_, id)| id)
}

/// Whether the enemy at or next to `target` is stronger than the army.
fn too_weak(ctx: &Ctx, id: ArmyId, target: HexAt) -> bool {
    let Some(a) = ctx.state.army(id) else { return false };
    let own = strength_at(ctx, a.at, a.side);
    let enemy: i64 = std::iter::once(target)
        .chain(target.neighbours())
        .map(|h| strength_at(ctx, h, a.side.other()))
        .max()
        .unwrap_or(0);
    own * 100 < enemy * VETERAN_ODDS
}

/// The part of `path` the army walks this turn: within its MP, stopping short of an enemy it
/// should not attack. `Some(None)`: it stays.
fn march(ctx: &Ctx, id: ArmyId, path: &[HexAt], level: Level) -> Option<Option<Order>> {
    let state = &ctx.state;
    let a = state.army(id)?;
    let mut spent = 0u32;
    let mut keep = 0;
    for (i, h) in path.iter().enumerate() {
        let from = if i == 0 { a.at } else { path[i - 1] };
        spent = spent.saturating_add(ctx.step_cost(from, *h).ok()?);
        if spent > a.mp_left {
            break;
        }
        if state.enemy_at(*h, a.side) {
            if attacks(ctx, id, &path[..=i], level) {
                keep = i + 1;
            }
            break;
        }
        keep = i + 1;
    }
    if keep == 0 {
        return Some(None);
    }
    Some(legal(ctx, Order::Move { army: id, path: path[..keep].to_vec() }))
}

/// Whether the army attacks the enemy at the end of `path`.
fn attacks(ctx: &Ctx, id: ArmyId, path: &[HexAt], level: Level) -> bool {
    let state = &ctx.state;
    let Some(a) = state.army(id) else { return false };
    let Some(&at) = path.last() else { return false };
    let late = state.turn.saturating_add(1) >= ctx.scenario.victory.turns;
    if level == Level::Recruit {
        let enemy = state.units_at(at, a.side.other()).len();
        let own = a.units.len();
        // In the last two campaign turns it also attacks a stronger enemy, down to 3 : 4.
        return own >= enemy || (late && own * 4 >= enemy * 3);
    }
    // An auto-battle is foreseen by the rules themselves (it has no dice, T-AUTO).
    let mut copy = ctx.clone();
    copy.events.clear();
    if copy.apply(&Order::Move { army: id, path: path.to_vec() }).is_ok()
        && let Some(winner) = copy.events.iter().find_map(|e| match e {
            Event::AutoBattleWon { winner, .. } => Some(*winner),
            _ => None,
        })
    {
        return winner == a.side;
    }
    let own: i64 = a.units.iter().filter_map(|u| state.unit(*u)).map(|u| i64::from(u.health)).sum();
    let enemy = strength_at(ctx, at, a.side.other());
    let odds = if late { 80 } else { VETERAN_ODDS };
    own * 100 >= enemy * odds
}

/// Cheapest MP to every reachable hex, with the previous hex on the way.
type Costs = BTreeMap<HexAt, (u32, HexAt)>;

/// Cheapest MP to every reachable hex (enemy hexes end a path), with the previous hex.
fn distances(ctx: &Ctx, start: HexAt, side: Side) -> Costs {
    let mut best: BTreeMap<HexAt, (u32, HexAt)> = BTreeMap::from([(start, (0, start))]);
    let mut open = BinaryHeap::from([Reverse((0u32, start))]);
    while let Some(Reverse((cost, h))) = open.pop() {
        if best.get(&h).is_some_and(|b| b.0 < cost) || (h != start && ctx.state.enemy_at(h, side)) {
            continue;
        }
        for n in h.neighbours() {
            let Ok(step) = ctx.step_cost(h, n) else { continue };
            let total = cost.saturating_add(step);
            if best.get(&n).is_none_or(|b| total < b.0) {
                best.insert(n, (total, h));
                open.push(Reverse((total, n)));
            }
        }
    }
    best
}

fn route(best: &Costs, start: HexAt, target: HexAt) -> Vec<HexAt> {
    let mut path = Vec::new();
    let mut at = target;
    while at != start && path.len() <= best.len() {
        path.push(at);
        at = best.get(&at).map_or(start, |b| b.1);
    }
    path.reverse();
    path
}

/// What the AI of `side` thinks on: the side's view of the campaign, but the whole of a battle
/// it fights out for both sides and reports (as the umpire, who knows its dice).
fn known(c: &Campaign, side: Side) -> Ctx {
    if c.state().battle.as_ref().is_some_and(|b| b.chooser().is_none()) {
        c.ctx()
    } else {
        c.ctx_as(Viewer::Player(side))
    }
}

/// The next order for the side to move, or `None` when the campaign is over. `ai` says which
/// sides the AI plays (its campaign and its battles); a side without one stands in battle.
/// Unsliced: for tools; the app slices through [`CampaignAi`].
pub fn next_order(c: &Campaign, ai: [Option<Level>; 2], slice: Duration, stats: &mut Stats) -> Option<Order> {
    let side = c.active_player()?;
    let level = ai[side.index()].or(ai[side.other().index()]).unwrap_or(Level::Recruit);
    let mut player = CampaignAi::with_battle_players(side, level, ai);
    let order = player.decide(&known(c, side), slice);
    stats.battles += player.stats.battles;
    stats.longest_slice = stats.longest_slice.max(player.stats.longest_slice);
    stats.longest_think = stats.longest_think.max(player.stats.longest_think);
    stats.slices += player.stats.slices;
    order
}

/// Plays a campaign to its end with the AI on the sides of `ai` (the others pass; their battles
/// are fought by the other side's AI, their units standing), at most `max_orders` orders. Each
/// side's AI thinks in slices of `slice`.
pub fn play(
    scenario: &CampaignScenario,
    seed: u64,
    ai: [Option<Level>; 2],
    slice: Duration,
    max_orders: usize,
) -> (Campaign, Stats) {
    let mut c = Campaign::new(scenario, seed);
    let mut players = [Side::Red, Side::Blue].map(|s| {
        let level = ai[s.index()].or(ai[s.other().index()]).unwrap_or(Level::Recruit);
        CampaignAi::with_battle_players(s, level, ai)
    });
    while !c.is_over() && c.orders().len() < max_orders {
        let Some(side) = c.active_player() else { break };
        // A battle waiting to be reported is fought by the AI even for a side that passes.
        let fights = c.state().battle.as_ref().is_some_and(|b| b.chooser().is_none());
        let order = if ai[side.index()].is_some() || fights {
            match players[side.index()].decide(&known(&c, side), slice) {
                Some(o) => o,
                None => break,
            }
        } else {
            c.pass()
        };
        if c.apply(order).is_err() {
            let pass = c.pass();
            if c.apply(pass).is_err() {
                break;
            }
        }
    }
    let mut stats = Stats::default();
    for p in &players {
        stats.battles += p.stats.battles;
        stats.longest_slice = stats.longest_slice.max(p.stats.longest_slice);
        stats.longest_think = stats.longest_think.max(p.stats.longest_think);
        stats.slices += p.stats.slices;
    }
    (c, stats)
}
