//! What an order will do, computed by the same rules code on copies: every fall of the dice the
//! order throws (enumerated, two branches for a die decided by a table row, six otherwise) with
//! its exact chance, and the engagements a move creates with every term of their sums.

use super::combat::Engagement;
use super::event::{Event, EventKind};
use super::order::{Order, OrderError};
use super::state::{Ctx, ForceId};
use crate::dice::Pips;
use crate::texts::Msg;
use serde::{Deserialize, Serialize};

/// Branches less likely than this are not followed; their mass is reported as `unexplored`.
pub const PRUNE_BELOW: f64 = 1e-5;
/// At most this many complete runs per preview.
pub const MAX_RUNS: usize = 20_000;

/// One possible outcome and its chance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub chance: f64,
    /// The die's faces that lead to it, when the order throws one die (empty otherwise).
    pub pips: Vec<Pips>,
    /// Everything that happens in the likeliest way to reach it, dice included.
    pub lines: Vec<Msg>,
    /// What happens, without the dice: outcomes with the same effects are merged.
    pub effects: Vec<Msg>,
}

/// The preview of an order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Preview {
    /// Engagements the order's units will fight in this turn's Combat phase, as things stand after it.
    pub engagements: Vec<Engagement>,
    pub engagement_lines: Vec<Msg>,
    /// Outcomes of the order itself, likeliest first.
    pub outcomes: Vec<Outcome>,
    /// Chance left in branches too unlikely to follow.
    pub unexplored: f64,
    /// Neutral powers the order brings into the war (its troops enter their land), by ID.
    #[serde(default)]
    pub enters_war: Vec<super::state::PowerId>,
}

impl Ctx {
    /// Previews an order: illegal orders give their error, as `apply` would.
    pub fn preview(&self, order: &Order) -> Result<Preview, OrderError> {
        let mut probe = self.clone();
        probe.defer_battles = true;
        probe.dice.script(vec![]);
        probe.apply(order)?;
        let base = probe;
        let (mut outcomes, unexplored) = self.enumerate(order)?;
        for o in &mut outcomes {
            o.pips.sort();
        }
        if outcomes.iter().any(|o| o.pips.is_empty()) {
            outcomes.sort_by(|a, b| b.chance.total_cmp(&a.chance));
        }
        let touched: Vec<ForceId> = order_units(&base, order);
        let engagements: Vec<Engagement> = base
            .engagements()
            .into_iter()
            .filter(|g| g.iter().flatten().any(|u| touched.contains(u)))
            .map(|g| base.assess(&g))
            .collect();
        let engagement_lines = engagements
            .iter()
            .flat_map(|e| {
                let mut v = vec![e.summary(&base.engagement_names(e))];
                v.extend(e.terms.iter().map(|t| {
                    Msg::new("gwe.land.preview.unit_value").msg("unit", base.name_msg(t.unit)).msg("terms", t.text())
                }));
                v
            })
            .collect();
        let enters_war = (0..self.powers.len())
            .filter(|i| self.powers[*i].neutral && base.powers.get(*i).is_some_and(|p| !p.neutral))
            .filter_map(|i| u8::try_from(i).ok().map(super::state::PowerId))
            .collect();
        Ok(Preview { engagements, engagement_lines, outcomes, unexplored, enters_war })
    }

    /// The powers that fight on each side of an engagement, by name: only those with units in
    /// it, not the whole alliances (a corps against a division names two powers).
    pub fn engagement_names(&self, e: &Engagement) -> [Msg; 2] {
        let side = |units: &[ForceId]| {
            let mut powers: Vec<super::state::PowerId> =
                units.iter().filter_map(|u| self.force(*u)).map(|f| f.power).collect();
            powers.sort();
            powers.dedup();
            let names = powers
                .into_iter()
                .map(|p| Msg::new("gwe.land.power").name("power", self.power_key(p), self.power_name(p)))
                .collect();
            Msg::new("gwe.land.alliance").list("powers", names, ", ")
        };
        [side(&e.sides[0]), side(&e.sides[1])]
    }

    /// Every fall of the dice the order throws, depth first in face order, merged into outcomes by
    /// their effects; returns them with the chance left in pruned branches.
    pub fn enumerate(&self, order: &Order) -> Result<(Vec<Outcome>, f64), OrderError> {
        let mut outcomes: Vec<Outcome> = Vec::new();
        let mut unexplored = 0.0;
        let mut stack: Vec<(Vec<Pips>, f64)> = vec![(Vec::new(), 1.0)];
        let mut runs = 0;
        while let Some((prefix, chance)) = stack.pop() {
            if runs >= MAX_RUNS || chance < PRUNE_BELOW {
                unexplored += chance;
                continue;
            }
            runs += 1;
            let mut c = self.clone();
            c.defer_battles = true;
            c.dice.script(prefix.clone());
            c.apply(order)?;
            let used = c.dice.scripted_used();
            if used <= prefix.len() {
                // A battle the order led into: its exact odds by dynamic programming (S-NAVAL-6…10).
                let ends: Vec<(Vec<Msg>, f64)> = match c.deferred.clone() {
                    Some(run) => c
                        .battle_odds(&run)
                        .into_iter()
                        .map(|(sunk, p)| {
                            let lines = sunk
                                .iter()
                                .filter(|s| c.navy.ship(**s).is_some_and(|s| !s.sunk))
                                .map(|s| Msg::new("gwe.naval.sunk_in_battle").msg("ship", c.ship_label(*s)))
                                .collect();
                            (lines, p)
                        })
                        .collect(),
                    None => vec![(Vec::new(), 1.0)],
                };
                for (extra, p) in ends {
                    let mut key = effects(&c.events);
                    key.extend(extra.iter().cloned());
                    key.sort();
                    // Faces are listed when the order throws one die (the first) at most.
                    let face = if prefix.len() == 1 { prefix.clone() } else { Vec::new() };
                    match outcomes.iter_mut().find(|o| o.effects == key) {
                        Some(o) => {
                            o.chance += chance * p;
                            o.pips.extend(face);
                        }
                        None => {
                            let mut lines: Vec<Msg> = c.events.iter().map(|e| e.line.clone()).collect();
                            lines.extend(extra);
                            outcomes.push(Outcome { chance: chance * p, pips: face, lines, effects: key });
                        }
                    }
                }
                continue;
            }
            let at = prefix.len();
            let branches: Vec<(Pips, f64)> = match c.dice.hint(at) {
                Some(r) => {
                    let hit = r.chance();
                    let miss = (1..=6).find(|p| !r.contains(*p));
                    let mut v = vec![(r.0, hit)];
                    if let Some(m) = miss {
                        v.push((m, 1.0 - hit));
                    }
                    v
                }
                None => (1..=6).map(|p| (p, 1.0 / 6.0)).collect(),
            };
            for (pips, p) in branches.into_iter().rev() {
                let mut next = prefix.clone();
                next.push(pips);
                stack.push((next, chance * p));
            }
        }
        Ok((outcomes, unexplored))
    }
}

/// What an outcome does: the events other than dice and volley lines.
fn effects(events: &[Event]) -> Vec<Msg> {
    events
        .iter()
        .filter(|e| !matches!(e.kind, EventKind::Die { .. } | EventKind::Volley))
        .map(|e| e.line.clone())
        .collect()
}

fn order_units(ctx: &Ctx, order: &Order) -> Vec<ForceId> {
    use super::order::Piece;
    let piece = |p: &Piece| ctx.piece_units(*p).map(|(_, u)| u).unwrap_or_default();
    match order {
        Order::Move { piece: p, .. }
        | Order::Attack { piece: p, .. }
        | Order::Fortify { piece: p }
        | Order::Detach { piece: p, .. } => piece(p),
        Order::MoveArmy { army, .. } => ctx.formation_units(*army),
        Order::CommitReserve { unit, .. } | Order::JoinCorps { unit, .. } | Order::Disembark { unit, .. } => {
            vec![*unit]
        }
        Order::FormCorps { units, .. } => units.clone(),
        Order::Retreat { moves } => moves.iter().flat_map(|(p, _)| piece(p)).collect(),
        _ => Vec::new(),
    }
}
