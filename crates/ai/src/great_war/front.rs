//! The front: which land hexes belong to an alliance (the hexes its troops reach first), the line
//! where its side meets the enemy's, and the posts that cover every hex of that line so no enemy
//! can walk through (S-COMBAT-4: a unit entering a hex next to an enemy land unit stops there).

use rules::strategic::state::Place;
use rules::strategic::{Ctx, HexAt, PowerId};
use std::collections::{BTreeSet, VecDeque};

/// Steps over land from the nearest source hex (water closed), in a dense grid over the map
/// (the grand campaign has 701,250 hexes: a tree map of them costs ten times more).
#[derive(Clone, Debug)]
pub struct Steps {
    width: u32,
    height: u32,
    dist: Vec<u32>,
}

impl Steps {
    const UNREACHED: u32 = u32::MAX;

    fn index(&self, h: HexAt) -> Option<usize> {
        let (col, row) = (u32::try_from(h.col).ok()?, u32::try_from(h.row).ok()?);
        (col < self.width && row < self.height).then(|| row as usize * self.width as usize + col as usize)
    }

    /// Steps to the nearest source; `None` where no source reaches over land.
    pub fn get(&self, h: HexAt) -> Option<u32> {
        self.index(h).map(|i| self.dist[i]).filter(|d| *d != Self::UNREACHED)
    }

    /// The hexes reached, in row-major order.
    pub fn reached(&self) -> impl Iterator<Item = HexAt> + '_ {
        let w = self.width as usize;
        self.dist
            .iter()
            .enumerate()
            .filter(|(_, d)| **d != Self::UNREACHED)
            .map(move |(i, _)| HexAt { col: (i % w) as i32, row: (i / w) as i32 })
    }
}

/// Breadth first from `sources` over land hexes.
pub fn land_distance(ctx: &Ctx, sources: &[HexAt]) -> Steps {
    let mut walk = Walk::new(ctx, sources);
    while !walk.step(ctx, usize::MAX) {}
    walk.steps
}

/// A breadth-first walk that can stop after any number of hexes and go on later.
#[derive(Clone, Debug)]
struct Walk {
    steps: Steps,
    queue: VecDeque<(HexAt, u32)>,
}

impl Walk {
    fn new(ctx: &Ctx, sources: &[HexAt]) -> Walk {
        let map = ctx.map();
        let mut steps = Steps {
            width: map.width,
            height: map.height,
            dist: vec![Steps::UNREACHED; map.width as usize * map.height as usize],
        };
        let mut queue = VecDeque::new();
        for s in sources {
            if let Some(i) = steps.index(*s)
                && steps.dist[i] == Steps::UNREACHED
            {
                steps.dist[i] = 0;
                queue.push_back((*s, 0u32));
            }
        }
        Walk { steps, queue }
    }

    /// Visits up to `work` hexes; true when the walk is over.
    fn step(&mut self, ctx: &Ctx, work: usize) -> bool {
        let map = ctx.map();
        for _ in 0..work {
            let Some((h, d)) = self.queue.pop_front() else { return true };
            for n in h.neighbours() {
                let Some(i) = self.steps.index(n) else { continue };
                if self.steps.dist[i] == Steps::UNREACHED && map.is_land(n) {
                    self.steps.dist[i] = d + 1;
                    self.queue.push_back((n, d + 1));
                }
            }
        }
        self.queue.is_empty()
    }
}

/// Draws a [`Front`] a bounded amount of work at a time, so that the grand campaign's front
/// (two walks over 701,250 hexes and a scan of the line) fits in think slices; the front drawn
/// does not depend on how the work was divided.
#[derive(Clone, Debug)]
pub struct FrontDraft {
    own: Walk,
    enemy: Walk,
    /// The next hex index the line scan looks at.
    scan: usize,
    line: Vec<HexAt>,
}

impl FrontDraft {
    pub fn new(ctx: &Ctx, power: PowerId) -> FrontDraft {
        let (mut own_src, mut enemy_src) = (Vec::new(), Vec::new());
        for f in &ctx.forces {
            let Place::Map(h) = f.place else { continue };
            if !f.kind.is_combatant() {
                continue;
            }
            if ctx.hostile(power, f.power) { enemy_src.push(h) } else { own_src.push(h) }
        }
        FrontDraft { own: Walk::new(ctx, &own_src), enemy: Walk::new(ctx, &enemy_src), scan: 0, line: Vec::new() }
    }

    /// Does up to about `work` hexes of work; the front once it is drawn.
    pub fn step(&mut self, ctx: &Ctx, work: usize) -> Option<Front> {
        if !self.own.queue.is_empty() {
            self.own.step(ctx, work);
            return None;
        }
        if !self.enemy.queue.is_empty() {
            self.enemy.step(ctx, work);
            return None;
        }
        let mut front = Front {
            own: std::mem::replace(&mut self.own.steps, Steps { width: 0, height: 0, dist: Vec::new() }),
            enemy: std::mem::replace(&mut self.enemy.steps, Steps { width: 0, height: 0, dist: Vec::new() }),
            line: Vec::new(),
            line_set: BTreeSet::new(),
        };
        let w = front.own.width as usize;
        let end = front.own.dist.len().min(self.scan.saturating_add(work));
        for i in self.scan..end {
            let h = HexAt { col: (i % w) as i32, row: (i / w) as i32 };
            if front.own.dist[i] != Steps::UNREACHED && front.is_line(ctx, h) {
                self.line.push(h);
            }
        }
        self.scan = end;
        if end < front.own.dist.len() {
            // Not done: hand the walks back for the next step.
            self.own.steps = std::mem::replace(&mut front.own, Steps { width: 0, height: 0, dist: Vec::new() });
            self.enemy.steps = std::mem::replace(&mut front.enemy, Steps { width: 0, height: 0, dist: Vec::new() });
            return None;
        }
        let mut line = std::mem::take(&mut self.line);
        line.sort();
        front.line_set = line.iter().copied().collect();
        front.line = line;
        Some(front)
    }
}

/// The two sides of the land war as seen by one alliance.
#[derive(Clone, Debug)]
pub struct Front {
    /// Steps to the nearest land combat unit of the alliance.
    pub own: Steps,
    /// Steps to the nearest enemy land combat unit.
    pub enemy: Steps,
    /// Hexes of our side next to a hex of the enemy's side, sorted.
    pub line: Vec<HexAt>,
    line_set: BTreeSet<HexAt>,
}

impl Front {
    /// The front of `power`'s alliance now.
    pub fn of(ctx: &Ctx, power: PowerId) -> Front {
        let mut draft = FrontDraft::new(ctx, power);
        loop {
            if let Some(front) = draft.step(ctx, usize::MAX) {
                return front;
            }
        }
    }

    /// Whether a hex lies on the line.
    pub fn on_line(&self, h: HexAt) -> bool {
        self.line_set.contains(&h)
    }

    /// Our side: hexes our troops reach no later than the enemy's.
    pub fn ours(&self, h: HexAt) -> bool {
        match (self.own.get(h), self.enemy.get(h)) {
            (Some(o), Some(e)) => o <= e,
            (Some(_), None) => true,
            _ => false,
        }
    }

    pub fn enemy_steps(&self, h: HexAt) -> u32 {
        self.enemy.get(h).unwrap_or(u32::MAX)
    }

    fn is_line(&self, ctx: &Ctx, h: HexAt) -> bool {
        self.ours(h)
            && h.neighbours().into_iter().any(|n| ctx.map().is_land(n) && self.enemy.get(n).is_some() && !self.ours(n))
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
