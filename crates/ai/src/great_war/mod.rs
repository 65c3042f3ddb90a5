//! The Great War's scripted opponents: the `random` and `greedy` baselines and the general staff
//! at three levels (Recruit, Veteran, Marshal).
//!
//! Every AI works on the engine's public API only: the working copy [`Ctx`] of the game, the
//! orders it may give and the engine's own rules run on a *blind* copy whose dice are scripted
//! (as [`Ctx::preview`] does), so no decision ever reads the game's real dice stream. Enemy
//! submarine flotillas are treated as unseen: no AI reads where they are. Iteration is in ID or
//! hex order, ties are broken by ID, and a decision never depends on how thinking was sliced.

pub mod baseline;
pub mod front;
pub mod game;
pub mod guns;
pub mod judge;
pub mod ring;
pub mod sea;
pub mod staff;
pub mod treasury;

use crate::{Level, Player, Think, ThinkStats};
use rules::strategic::state::{ForceId, ForceKind};
use rules::strategic::{Ctx, GreatWar, HexAt, Order, Phase, PowerId};
use web_time::{Duration, Instant};

/// A copy of the game for thinking: its dice are scripted (every throw shows 1), so applying an
/// order to it tells whether the order is legal and what it does without reading the real dice.
pub fn blind(ctx: &Ctx) -> Ctx {
    let mut c = ctx.clone();
    c.dice.script(Vec::new());
    c.events.clear();
    c
}

/// Whether the engine accepts `order` now (checked on a blind copy).
pub fn legal(ctx: &Ctx, order: &Order) -> bool {
    blind(ctx).apply(order).is_ok()
}

/// Hexes held by land units hostile to `power`, sorted.
pub fn enemy_hexes(ctx: &Ctx, power: PowerId) -> Vec<HexAt> {
    ctx.occupancy.keys().copied().filter(|h| ctx.enemy_on(power, *h)).collect()
}

/// Hexes where combat units (infantry, cavalry, tanks) of `power`'s enemies stand.
pub fn enemy_combat_hexes(ctx: &Ctx, power: PowerId) -> Vec<HexAt> {
    ctx.occupancy
        .iter()
        .filter(|(_, ids)| {
            ids.iter().any(|u| ctx.force(*u).is_some_and(|f| f.kind.is_combatant() && ctx.hostile(power, f.power)))
        })
        .map(|(h, _)| *h)
        .collect()
}

/// Whether `power`'s land units may end a move on `h` at no cost the enemy does not pay: not on
/// the land of a neutral (entering it brings the neutral into the war on the enemy's side, with
/// its provinces' victory points), and not in a harsh climate that costs these units 1 Health a
/// turn (S-SUP-5) unless all of them are exempt.
pub fn fit_to_stand(ctx: &Ctx, power: PowerId, units: &[ForceId], h: HexAt) -> bool {
    neutral_free(ctx, power, h) && climate_free(ctx, power, units, h)
}

/// Not on the land of a neutral (other than `power`).
pub fn neutral_free(ctx: &Ctx, power: PowerId, h: HexAt) -> bool {
    let owner = ctx.province_at(h).and_then(|p| ctx.province_owner(p));
    !owner.is_some_and(|o| o != power && ctx.powers.get(usize::from(o.0)).is_some_and(|s| s.neutral))
}

/// Not in a harsh climate that costs any of `units` Health (S-SUP-5).
pub fn climate_free(ctx: &Ctx, power: PowerId, units: &[ForceId], h: HexAt) -> bool {
    use rules::strategic::hexmap::Climate;
    let Some(cell) = ctx.map().cell(h) else { return false };
    let climate = cell.climate;
    if !climate.is_harsh() {
        return true;
    }
    let local = ctx.scenario().powers[usize::from(power.0)].local_climates.contains(&climate);
    units.iter().filter_map(|u| ctx.force(*u)).all(|f| match climate {
        Climate::Desert => local || matches!(f.kind, ForceKind::Infantry { colonial: true, .. }),
        Climate::North => local,
        Climate::Mountain => matches!(f.kind, ForceKind::Infantry { mountain: true, .. }),
        Climate::Temperate => true,
    })
}

/// Whether a unit kind fights in land combat.
pub fn is_combat(kind: ForceKind) -> bool {
    kind.is_combatant()
}

/// The enemy's surface fleets afloat, by ID. What the AI may see is decided by the engine: it
/// thinks on its power's view (`Sight::ctx_as`), where the undetected boats are not; boats are
/// left out here because surface fleets, bombers and coastal guns cannot take them on (S-SUB-6,
/// S-AIR-2, S-NAVAL-14).
pub fn visible_enemy_fleets(ctx: &Ctx, power: PowerId) -> Vec<u32> {
    ctx.navy
        .fleets
        .iter()
        .filter(|f| ctx.hostile(power, f.power) && !ctx.navy.afloat(f.id).is_empty() && !ctx.navy.is_flotilla(f.id))
        .map(|f| f.id)
        .collect()
}

/// A Great War AI for one power.
pub struct GwAi {
    pub power: PowerId,
    pub level: Level,
    brain: Brain,
    pub stats: ThinkStats,
}

enum Brain {
    Random(Box<baseline::RandomGw>),
    Greedy(Box<baseline::GreedyGw>),
    Staff(Box<staff::Staff>),
}

impl GwAi {
    /// An AI for `power`, seeded (its tie-breaks and a random player's choices come from this seed).
    pub fn new(power: PowerId, level: Level, seed: u64) -> GwAi {
        let seed = seed ^ (0x6E6E_0000 + u64::from(power.0));
        let brain = match level {
            Level::Random => Brain::Random(Box::new(baseline::RandomGw::new(power, seed))),
            Level::Greedy => Brain::Greedy(Box::new(baseline::GreedyGw::new(power))),
            _ => Brain::Staff(Box::new(staff::Staff::new(power, level))),
        };
        GwAi { power, level, brain, stats: ThinkStats::default() }
    }

    /// Thinks for at most about `budget` (plus one candidate's evaluation).
    pub fn think(&mut self, ctx: &Ctx, budget: Duration) -> Think<Order> {
        if ctx.clock.phase == Phase::Over || ctx.active_power() != self.power {
            return Think::Idle;
        }
        let start = Instant::now();
        let out = match &mut self.brain {
            Brain::Random(p) => Think::Order(p.next(ctx)),
            Brain::Greedy(p) => p.think(ctx, start, budget),
            Brain::Staff(p) => p.think(ctx, start, budget),
        };
        let took = start.elapsed();
        self.stats.slices += 1;
        self.stats.total += took;
        self.stats.longest_slice = self.stats.longest_slice.max(took);
        out
    }

    /// How long the general staff's steps took, by kind (empty for the baselines).
    pub fn steps(&self) -> Option<&staff::StepTimes> {
        match &self.brain {
            Brain::Staff(p) => Some(&p.steps),
            _ => None,
        }
    }

    /// Thinks until it has the next order (no time limit); `None` when it is not its turn.
    pub fn decide(&mut self, ctx: &Ctx) -> Option<Order> {
        loop {
            match self.think(ctx, Duration::from_secs(3600)) {
                Think::Order(o) => return Some(o),
                Think::Idle => return None,
                Think::Thinking => {}
            }
        }
    }
}

impl Player<GreatWar> for GwAi {
    fn think(&mut self, ctx: &Ctx, budget: Duration) -> Think<Order> {
        GwAi::think(self, ctx, budget)
    }
}

/// Whether the budget of this slice is spent.
pub(crate) fn out_of_time(start: Instant, budget: Duration) -> bool {
    start.elapsed() >= budget
}
