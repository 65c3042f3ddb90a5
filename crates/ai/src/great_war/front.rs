//! The front: which land hexes belong to an alliance (the hexes its troops reach first), the line
//! where its side meets the enemy's, and the posts that cover every hex of that line so no enemy
//! can walk through (S-COMBAT-4: a unit entering a hex next to an enemy land unit stops there).

use rules::strategic::state::Place;
use rules::strategic::{Ctx, HexAt, PowerId};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Steps over land from the nearest source hex (water closed); hexes not reached are absent.
pub fn land_distance(ctx: &Ctx, sources: &[HexAt]) -> BTreeMap<HexAt, u32> {
    let mut dist = BTreeMap::new();
    let mut queue = VecDeque::new();
    for s in sources {
        if dist.insert(*s, 0).is_none() {
            queue.push_back(*s);
        }
    }
    while let Some(h) = queue.pop_front() {
        let d = dist[&h];
        for n in h.neighbours() {
            if ctx.map().is_land(n) && !dist.contains_key(&n) {
                dist.insert(n, d + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}

/// The two sides of the land war as seen by one alliance.
#[derive(Clone, Debug)]
pub struct Front {
    /// Steps to the nearest land combat unit of the alliance.
    pub own: BTreeMap<HexAt, u32>,
    /// Steps to the nearest enemy land combat unit.
    pub enemy: BTreeMap<HexAt, u32>,
    /// Hexes of our side next to a hex of the enemy's side, sorted.
    pub line: Vec<HexAt>,
}

impl Front {
    /// The front of `power`'s alliance now.
    pub fn of(ctx: &Ctx, power: PowerId) -> Front {
        let (mut own_src, mut enemy_src) = (Vec::new(), Vec::new());
        for f in &ctx.forces {
            let Place::Map(h) = f.place else { continue };
            if !f.kind.is_combatant() {
                continue;
            }
            if ctx.hostile(power, f.power) { enemy_src.push(h) } else { own_src.push(h) }
        }
        let own = land_distance(ctx, &own_src);
        let enemy = land_distance(ctx, &enemy_src);
        let mut front = Front { own, enemy, line: Vec::new() };
        front.line = front.own.keys().copied().filter(|h| front.is_line(ctx, *h)).collect();
        front
    }

    /// Our side: hexes our troops reach no later than the enemy's.
    pub fn ours(&self, h: HexAt) -> bool {
        match (self.own.get(&h), self.enemy.get(&h)) {
            (Some(o), Some(e)) => o <= e,
            (Some(_), None) => true,
            _ => false,
        }
    }

    pub fn enemy_steps(&self, h: HexAt) -> u32 {
        self.enemy.get(&h).copied().unwrap_or(u32::MAX)
    }

    fn is_line(&self, ctx: &Ctx, h: HexAt) -> bool {
        self.ours(h)
            && h.neighbours().into_iter().any(|n| ctx.map().is_land(n) && self.enemy.contains_key(&n) && !self.ours(n))
    }

    /// Line hexes that no land combat unit of the alliance holds or stands next to: where an enemy
    /// could walk through without being stopped.
    pub fn gaps(&self, ctx: &Ctx, power: PowerId) -> Vec<HexAt> {
        let held = held_by_alliance(ctx, power);
        self.line.iter().copied().filter(|h| !covered(&held, *h)).collect()
    }
}

/// Hexes held by land combat units of `power`'s alliance.
pub fn held_by_alliance(ctx: &Ctx, power: PowerId) -> BTreeSet<HexAt> {
    ctx.forces
        .iter()
        .filter(|f| f.kind.is_combatant() && !ctx.hostile(power, f.power))
        .filter_map(|f| f.hex())
        .collect()
}

/// Held, or next to a held hex.
pub fn covered(held: &BTreeSet<HexAt>, h: HexAt) -> bool {
    held.contains(&h) || h.neighbours().iter().any(|n| held.contains(n))
}

/// Posts that cover every line hex not yet covered by `held`: for each uncovered line hex in
/// order, the hex of it or its neighbours on our side that covers the most still-uncovered line
/// hexes (then the best defensive ground, then the lowest hex).
pub fn posts(ctx: &Ctx, power: PowerId, front: &Front, held: &BTreeSet<HexAt>) -> Vec<HexAt> {
    let line: BTreeSet<HexAt> = front.line.iter().copied().collect();
    let mut cover: BTreeSet<HexAt> = line.iter().copied().filter(|h| covered(held, *h)).collect();
    let mut out = Vec::new();
    for h in &front.line {
        if cover.contains(h) {
            continue;
        }
        let mut cands: Vec<HexAt> = std::iter::once(*h).chain(h.neighbours()).collect();
        cands.retain(|c| ctx.map().is_land(*c) && front.ours(*c) && !ctx.enemy_on(power, *c) && !held.contains(c));
        let best = cands.into_iter().max_by_key(|c| {
            let gain =
                std::iter::once(*c).chain(c.neighbours()).filter(|n| line.contains(n) && !cover.contains(n)).count();
            (gain, defence(ctx, power, *c), std::cmp::Reverse(*c))
        });
        if let Some(p) = best {
            cover.insert(p);
            cover.extend(p.neighbours());
            out.push(p);
        }
    }
    out
}

/// How good a hex is to defend: fortress, own fortification, city or mountains.
pub fn defence(ctx: &Ctx, power: PowerId, h: HexAt) -> u32 {
    use rules::strategic::Terrain;
    use rules::strategic::hexmap::flag;
    let Some(cell) = ctx.map().cell(h) else { return 0 };
    let hs = ctx.hex_state(h);
    let mut v = 0;
    if cell.has(flag::FORTRESS) && !hs.fortress_destroyed {
        v += 3;
    }
    if hs.fort > 0 && hs.fort_alliance == ctx.alliance(power) {
        v += u32::from(hs.fort);
    }
    if cell.has(flag::CITY) {
        v += 1;
    }
    if cell.terrain == Terrain::Mountains {
        v += 2;
    }
    v
}
