//! What an order will do, computed by the same rules code on a copy: the engagements a move
//! creates with every term of their sums, and for dice every fall of the die with its odds.

use super::combat::Engagement;
use super::event::{Event, EventKind};
use super::order::{Order, OrderError};
use super::state::{Ctx, ForceId};
use crate::dice::Pips;
use serde::{Deserialize, Serialize};

/// One possible outcome and its chance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub chance: f64,
    /// The die faces that give it (empty when no die is thrown).
    pub pips: Vec<Pips>,
    pub lines: Vec<String>,
}

/// The preview of an order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Preview {
    /// Engagements the order's piece will fight in this turn's Combat phase, as things stand after it.
    pub engagements: Vec<Engagement>,
    pub engagement_lines: Vec<String>,
    /// Outcomes of the order itself.
    pub outcomes: Vec<Outcome>,
}

impl Ctx {
    /// Previews an order: illegal orders give their error, as `apply` would.
    pub fn preview(&self, order: &Order) -> Result<Preview, OrderError> {
        // (faces, what happens apart from the die, every line of the first face)
        let mut by_pips: Vec<(Pips, Vec<String>, Vec<String>)> = Vec::new();
        let mut probe = self.clone();
        probe.dice.script(vec![]);
        probe.apply(order)?;
        let dice_used = probe.dice.scripted_used();
        let base = probe.clone();
        if dice_used == 0 {
            by_pips.push((0, effects(&probe.events), lines(&probe.events)));
        } else {
            // One die decides every order of this engine (S-ART-7, S-CHEM-1).
            for pips in 1..=6 {
                let mut c = self.clone();
                c.dice.script(vec![pips]);
                c.apply(order)?;
                by_pips.push((pips, effects(&c.events), lines(&c.events)));
            }
        }
        let mut outcomes: Vec<Outcome> = Vec::new();
        let mut keys: Vec<Vec<String>> = Vec::new();
        for (pips, key, l) in by_pips {
            match keys.iter().position(|k| *k == key) {
                Some(i) => {
                    outcomes[i].chance += 1.0 / 6.0;
                    outcomes[i].pips.push(pips);
                }
                None => {
                    keys.push(key);
                    outcomes.push(Outcome {
                        chance: if pips == 0 { 1.0 } else { 1.0 / 6.0 },
                        pips: if pips == 0 { vec![] } else { vec![pips] },
                        lines: l,
                    })
                }
            }
        }
        // Engagements involving the units the order concerns, as the Combat phase would assess them.
        let touched: Vec<ForceId> = order_units(&base, order);
        let engagements: Vec<Engagement> = base
            .engagements()
            .into_iter()
            .filter(|g| g.iter().flatten().any(|u| touched.contains(u)))
            .map(|g| base.assess(&g))
            .collect();
        let names = [base.alliance_name(0), base.alliance_name(1)];
        let engagement_lines = engagements
            .iter()
            .flat_map(|e| {
                let mut v = vec![e.summary([&names[0], &names[1]])];
                v.extend(e.terms.iter().map(|t| format!("  {}: {}", base.name(t.unit), t.text())));
                v
            })
            .collect();
        Ok(Preview { engagements, engagement_lines, outcomes })
    }
}

fn lines(events: &[Event]) -> Vec<String> {
    events.iter().map(|e| e.text.clone()).collect()
}

/// What an outcome does: the events other than the die itself (faces with the same effects merge).
fn effects(events: &[Event]) -> Vec<String> {
    events.iter().filter(|e| !matches!(e.kind, EventKind::Die { .. })).map(|e| e.text.clone()).collect()
}

fn order_units(ctx: &Ctx, order: &Order) -> Vec<ForceId> {
    use super::order::Piece;
    let piece = |p: &Piece| ctx.piece_units(*p).map(|(_, u)| u).unwrap_or_default();
    match order {
        Order::Move { piece: p, .. } | Order::Fortify { piece: p } | Order::Detach { piece: p, .. } => piece(p),
        Order::MoveArmy { army, .. } => ctx.formation_units(*army),
        Order::CommitReserve { unit, .. } | Order::JoinCorps { unit, .. } => vec![*unit],
        Order::FormCorps { units, .. } => units.clone(),
        Order::Retreat { moves } => moves.iter().flat_map(|(p, _)| piece(p)).collect(),
        _ => Vec::new(),
    }
}
