//! What an order will do, computed by running the very same rules code on copies of the battle
//! with every possible sequence of dice: exact odds, not a second copy of the maths.

use super::components::{Status, UnitId};
use super::event::Event;
use super::event::Sum;
use super::order::{Order, OrderError};
use super::state::Ctx;
use crate::dice::{Pips, d6_from};
use crate::texts::Texts;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How hard a forecast works: exact enumeration up to a number of runs, else sampling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ForecastLimits {
    /// Runs allowed before exact enumeration gives way to sampling.
    pub max_exact_runs: usize,
    /// Samples drawn when the outcome tree is too large to enumerate.
    pub samples: usize,
    /// For a move into contact, also play the melee exchange expected at the end of the turn.
    pub project_melee: bool,
}

impl ForecastLimits {
    /// What the interface's preview uses.
    pub const PREVIEW: ForecastLimits = ForecastLimits { max_exact_runs: 3000, samples: 2000, project_melee: true };
}

/// One way an order can turn out: its probability and the battle after it.
#[derive(Clone, Debug)]
pub struct ForecastOutcome {
    pub prob: f64,
    pub ctx: Ctx,
}

/// Every way an order can turn out, as the side to move knows the field.
#[derive(Clone, Debug)]
pub struct Forecast {
    pub outcomes: Vec<ForecastOutcome>,
    /// True if every outcome was enumerated; false if sampled.
    pub exact: bool,
    pub runs: usize,
    /// The outcomes include the melee exchange at the end of the turn.
    pub projected_melee: bool,
}

/// Where a unit may end up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Fate {
    Health(i32),
    Dispersed,
    Destroyed,
    Captured,
    Retreated,
}

impl std::fmt::Display for Fate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fate::Health(h) => write!(f, "Health {h}"),
            Fate::Dispersed => f.write_str("dispersed"),
            Fate::Destroyed => f.write_str("destroyed"),
            Fate::Captured => f.write_str("captured"),
            Fate::Retreated => f.write_str("retreated"),
        }
    }
}

/// The odds for one unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitForecast {
    pub unit: UnitId,
    pub name: String,
    pub now: i32,
    /// Outcomes and their probabilities, summing to 1.
    pub fates: Vec<(Fate, f64)>,
}

/// The odds of a morale test.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoraleForecast {
    pub unit: UnitId,
    pub name: String,
    /// Chance the unit has to take a test at all.
    pub tested: f64,
    /// Chance it passes, given that it tests.
    pub pass: f64,
}

/// A shot the order fires (or draws), with its sum.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShotLine {
    pub firer: UnitId,
    pub target: UnitId,
    /// Pips needed to hit; `None` = always hits.
    pub needed: Option<crate::dice::PipRange>,
    pub damage: Sum,
}

/// A melee exchange the order leads to, with both sums.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeleeLine {
    pub red: Sum,
    pub blue: Sum,
    pub red_damage: i32,
    pub blue_damage: i32,
}

/// What an order will do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Preview {
    pub order: Order,
    /// True if every outcome was enumerated; false if sampled.
    pub exact: bool,
    /// Copies of the battle the preview ran.
    pub runs: usize,
    /// The shots and exchanges behind the numbers, with their sums (each different one once).
    pub shots: Vec<ShotLine>,
    pub melees: Vec<MeleeLine>,
    pub units: Vec<UnitForecast>,
    pub morale: Vec<MoraleForecast>,
    /// For a move into contact: the melee exchange expected at the end of the turn is included.
    pub projected_melee: bool,
    /// Names of the units it mentions.
    pub names: Vec<(UnitId, String)>,
}

impl Preview {
    /// The preview in plain English, one line each.
    pub fn lines(&self) -> Vec<String> {
        let names = self.names.clone();
        let name = move |id: UnitId| names.iter().find(|n| n.0 == id).map_or_else(|| id.to_string(), |n| n.1.clone());
        self.lines_with(&Texts::english(), &name)
    }

    /// The preview in the words of a string table.
    pub fn lines_with(&self, t: &Texts, name: &dyn Fn(UnitId) -> String) -> Vec<String> {
        let mut out = Vec::new();
        for s in &self.shots {
            let hit = match s.needed {
                None => t.get("preview.always_hits").to_string(),
                Some(p) => t.fill("preview.hits_on", &[("pips", p.to_string())]),
            };
            out.push(t.fill(
                "preview.shot",
                &[
                    ("unit", name(s.firer)),
                    ("target", name(s.target)),
                    ("hit", hit),
                    ("sum", s.damage.text_with(t, name)),
                ],
            ));
        }
        for m in &self.melees {
            out.push(t.fill(
                "preview.melee",
                &[
                    ("red", m.red.text_with(t, name)),
                    ("blue", m.blue.text_with(t, name)),
                    ("red_damage", m.red_damage.to_string()),
                    ("blue_damage", m.blue_damage.to_string()),
                ],
            ));
        }
        for u in &self.units {
            let fates: Vec<String> =
                u.fates.iter().map(|(f, p)| format!("{} {}", fate_text(t, *f), percent(*p))).collect();
            out.push(t.fill(
                "preview.unit",
                &[("unit", name(u.unit)), ("health", u.now.to_string()), ("fates", fates.join(", "))],
            ));
        }
        for m in &self.morale {
            out.push(t.fill(
                "preview.morale",
                &[("unit", name(m.unit)), ("tested", percent(m.tested)), ("pass", percent(m.pass))],
            ));
        }
        if self.projected_melee {
            out.push(t.get("preview.projected").to_string());
        }
        if !self.exact {
            out.push(t.fill("preview.sampled", &[("runs", self.runs.to_string())]));
        }
        out
    }
}

fn fate_text(t: &Texts, fate: Fate) -> String {
    match fate {
        Fate::Health(h) => t.fill("preview.fate.health", &[("health", h.to_string())]),
        Fate::Dispersed => t.get("status.dispersed").to_string(),
        Fate::Destroyed => t.get("status.destroyed").to_string(),
        Fate::Captured => t.get("status.captured").to_string(),
        Fate::Retreated => t.get("status.retreated").to_string(),
    }
}

/// Sums of sixths carry float noise (0.49999999999999994); odds are shown to 9 places.
fn tidy(p: f64) -> f64 {
    (p * 1e9).round() / 1e9
}

fn percent(p: f64) -> String {
    format!("{:.0}%", p * 100.0)
}

/// Runs the order on a copy with scripted dice; `None` if the order is illegal.
fn run(base: &Ctx, order: &Order, pips: Vec<Pips>, project: bool) -> Result<Ctx, OrderError> {
    let mut ctx = base.clone();
    ctx.events.clear();
    ctx.dice.script(pips);
    ctx.apply(order)?;
    if project && projects_melee(&ctx, order) {
        let mover = order.unit();
        let groups: Vec<Vec<UnitId>> =
            ctx.melee_groups().into_iter().filter(|g| mover.is_some_and(|m| g.contains(&m))).collect();
        for g in groups {
            ctx.exchange(&g);
        }
    }
    Ok(ctx)
}

fn projects_melee(ctx: &Ctx, order: &Order) -> bool {
    matches!(order, Order::Move { .. }) && order.unit().and_then(|u| ctx.unit(u)).is_some_and(|u| ctx.in_contact(u))
}

impl Ctx {
    /// A copy as `viewer` knows it: enemies hidden in forest are left out (T-TERR-2, see
    /// [`Ctx::hidden_from`]); the dice are the battle's (see [`Ctx::as_known_by`] for a copy
    /// with none of them).
    pub fn as_seen_by(&self, viewer: super::components::Side) -> Ctx {
        let mut copy = self.clone();
        copy.units.retain(|u| !self.hidden_from(u, viewer));
        copy
    }

    /// Every way `order` can turn out, as the side to move knows the field: the same `apply`
    /// run on copies with every fall of the dice (or a fixed sample of them).
    pub fn forecast(&self, order: &Order, limits: ForecastLimits) -> Result<Forecast, OrderError> {
        let base = self.as_seen_by(self.clock.active);
        let first = run(&base, order, Vec::new(), limits.project_melee)?;
        let projected_melee = limits.project_melee
            && matches!(order, Order::Move { .. })
            && first.events.iter().any(|e| matches!(e, Event::MeleeExchange { .. }));
        if first.dice.scripted_used() == 0 {
            return Ok(Forecast {
                outcomes: vec![ForecastOutcome { prob: 1.0, ctx: first }],
                exact: true,
                runs: 1,
                projected_melee,
            });
        }
        Ok(match enumerate(&base, order, limits) {
            Some((outcomes, runs)) => Forecast { outcomes, exact: true, runs, projected_melee },
            None => {
                Forecast { outcomes: sample(&base, order, limits), exact: false, runs: limits.samples, projected_melee }
            }
        })
    }

    /// What `order` will do, with exact odds where the tree of dice is small enough.
    pub fn preview(&self, order: &Order) -> Result<Preview, OrderError> {
        let base = self.as_seen_by(self.clock.active);
        let forecast = self.forecast(order, ForecastLimits::PREVIEW)?;
        Ok(summarise(&base, order, forecast))
    }
}

/// Depth-first over the dice: each run that asks for one die more than scripted branches six ways.
fn enumerate(base: &Ctx, order: &Order, limits: ForecastLimits) -> Option<(Vec<ForecastOutcome>, usize)> {
    let mut leaves = Vec::new();
    let mut stack: Vec<Vec<Pips>> = vec![Vec::new()];
    let mut runs = 0;
    while let Some(pips) = stack.pop() {
        runs += 1;
        if runs > limits.max_exact_runs {
            return None;
        }
        let ctx = run(base, order, pips.clone(), limits.project_melee).ok()?;
        if ctx.dice.scripted_used() > pips.len() {
            for p in (1..=6).rev() {
                let mut next = pips.clone();
                next.push(p);
                stack.push(next);
            }
        } else {
            let prob = (1.0 / 6.0f64).powi(pips.len() as i32);
            leaves.push(ForecastOutcome { prob, ctx });
        }
    }
    Some((leaves, runs))
}

/// Monte-Carlo over a fixed seed when the tree is too big (deterministic).
fn sample(base: &Ctx, order: &Order, limits: ForecastLimits) -> Vec<ForecastOutcome> {
    let mut rng = ChaCha8Rng::seed_from_u64(0x005E_ED0F_0DD5);
    let n = limits.samples.max(1);
    (0..n)
        .filter_map(|_| {
            let pips: Vec<Pips> = (0..64).map(|_| d6_from(&mut rng)).collect();
            run(base, order, pips, limits.project_melee).ok().map(|ctx| ForecastOutcome { prob: 1.0 / n as f64, ctx })
        })
        .collect()
}

fn fate_of(ctx: &Ctx, id: UnitId) -> Option<Fate> {
    let u = ctx.unit(id)?;
    Some(match u.status {
        Status::Active | Status::Undeployed => Fate::Health(u.health.current),
        Status::Dispersed => Fate::Dispersed,
        Status::Destroyed => Fate::Destroyed,
        Status::Captured => Fate::Captured,
        Status::Retreated => Fate::Retreated,
    })
}

fn summarise(base: &Ctx, order: &Order, forecast: Forecast) -> Preview {
    let Forecast { outcomes: leaves, exact, runs, projected_melee } = forecast;
    let mut fates: BTreeMap<UnitId, BTreeMap<Fate, f64>> = BTreeMap::new();
    let mut tests: BTreeMap<UnitId, (f64, f64)> = BTreeMap::new();
    let mut shots: Vec<ShotLine> = Vec::new();
    let mut melees: Vec<MeleeLine> = Vec::new();
    let name = |id: UnitId| base.name(id);
    for leaf in &leaves {
        for u in &base.units {
            if fate_of(base, u.id) != fate_of(&leaf.ctx, u.id) {
                fates.entry(u.id).or_default();
            }
        }
        let mut tested_here: Vec<UnitId> = Vec::new();
        for e in &leaf.ctx.events {
            match e {
                Event::MoraleTest { unit, passed, .. } if !tested_here.contains(unit) => {
                    tested_here.push(*unit);
                    let t = tests.entry(*unit).or_insert((0.0, 0.0));
                    t.0 += leaf.prob;
                    if *passed {
                        t.1 += leaf.prob;
                    }
                }
                Event::Fired { firer, target, damage, roll, .. } => {
                    let line = ShotLine {
                        firer: *firer,
                        target: *target,
                        needed: roll.map(|r| r.needed),
                        damage: damage.clone(),
                    };
                    if !shots.contains(&line) {
                        shots.push(line);
                    }
                }
                Event::MeleeExchange { red, blue, red_damage, blue_damage, .. } => {
                    let line = MeleeLine {
                        red: red.clone(),
                        blue: blue.clone(),
                        red_damage: *red_damage,
                        blue_damage: *blue_damage,
                    };
                    if !melees.contains(&line) {
                        melees.push(line);
                    }
                }
                _ => {}
            }
        }
    }
    // Every unit touched in any leaf gets its full distribution over all leaves.
    for (id, dist) in fates.iter_mut() {
        for leaf in &leaves {
            if let Some(f) = fate_of(&leaf.ctx, *id) {
                *dist.entry(f).or_insert(0.0) += leaf.prob;
            }
        }
    }
    Preview {
        order: order.clone(),
        exact,
        runs,
        shots,
        melees,
        names: base.units.iter().map(|u| (u.id, base.name(u.id))).collect(),
        units: fates
            .into_iter()
            .map(|(id, dist)| {
                let mut fates: Vec<(Fate, f64)> = dist.into_iter().map(|(f, p)| (f, tidy(p))).collect();
                // Most likely first; ties in the order of `Fate`.
                fates.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                UnitForecast { unit: id, name: name(id), now: base.unit(id).map_or(0, |u| u.health.current), fates }
            })
            .collect(),
        morale: tests
            .into_iter()
            .map(|(id, (tested, passed))| MoraleForecast {
                unit: id,
                name: name(id),
                tested: tidy(tested),
                pass: if tested > 0.0 { tidy(passed / tested) } else { 0.0 },
            })
            .collect(),
        projected_melee,
    }
}
