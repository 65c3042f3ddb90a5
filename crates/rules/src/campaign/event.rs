//! What happened in a campaign, in plain words.

use super::map::HexAt;
use super::order::Ruling;
use super::state::{ArmyId, Question, VictoryReason};
use crate::moderation::Asked;
use crate::tactical::{EndReason, Side, UnitId};
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    Moved {
        army: ArmyId,
        to: HexAt,
        mp_left: u32,
    },
    /// T-STRAT-2: an army with the intercept order entered the mover's hex.
    Intercepted {
        army: ArmyId,
        at: HexAt,
        target: ArmyId,
    },
    InterceptOrder {
        army: ArmyId,
        on: bool,
    },
    Split {
        army: ArmyId,
        new: ArmyId,
        units: usize,
    },
    Merged {
        army: ArmyId,
        into: ArmyId,
    },
    /// T-STRAT-3.
    Directive {
        side: Side,
        to: Option<ArmyId>,
        text: String,
    },
    /// T-STRAT-4: armies meet; `units` per side index.
    BattleJoined {
        at: HexAt,
        attacker: Side,
        units: [usize; 2],
    },
    /// T-STRAT-5/6: how many fight, per side index, and who may bring up a unit.
    Cut {
        at: HexAt,
        fielded: [usize; 2],
        bring_up: Option<Side>,
    },
    ForcesChosen {
        side: Side,
        units: usize,
        redoubts: u32,
    },
    /// T-STRAT-8: MP spent on redoubts.
    RedoubtsBuilt {
        side: Side,
        redoubts: u32,
        mp_spent: u32,
    },
    /// T-AUTO-1: one round, damage dealt per side index.
    AutoRound {
        round: u32,
        damage: [i32; 2],
    },
    /// T-AUTO-2.
    AutoBattleWon {
        at: HexAt,
        winner: Side,
        rounds: u32,
    },
    /// A grid battle's result applied.
    BattleWon {
        at: HexAt,
        winner: Side,
        reason: EndReason,
        turns: u32,
    },
    /// T-STRAT-7.
    LeftOutLoss {
        unit: UnitId,
        lost: i32,
        health: i32,
    },
    /// T-STRAT-11.
    Rejoined {
        unit: UnitId,
        health: i32,
    },
    /// T-STRAT-10: a special unit brought back to full strength.
    Replenished {
        unit: UnitId,
        health: i32,
    },
    /// Killed, destroyed or taken.
    UnitLost {
        unit: UnitId,
    },
    /// T-AUTO-3, T-STRAT-11.
    Captured {
        unit: UnitId,
        by: Side,
    },
    /// T-AUTO-4, T-END-4: the loser's gun joins the winner at full Health.
    GunTaken {
        unit: UnitId,
        by: Side,
        army: ArmyId,
    },
    /// T-STRAT-11.
    FellBack {
        army: ArmyId,
        to: HexAt,
    },
    ArmyGone {
        army: ArmyId,
    },
    KeyHexTaken {
        at: HexAt,
        by: Side,
    },
    TurnEnded {
        turn: u32,
        side: Side,
    },
    CampaignOver {
        winner: Side,
        reason: VictoryReason,
    },
    /// The decisions the moderator takes from now on ([`crate::moderation`]).
    Moderated {
        asks: Vec<Asked>,
    },
    /// A decision waits for the moderator.
    Asked {
        question: Question,
    },
    /// The moderator ruled (or the engine's answer was taken: [`Ruling::Default`]).
    Ruled {
        rule: Asked,
        ruling: Ruling,
    },
    /// One event of the battle fought on the campaign's log ([`super::Order::Fight`]), with the
    /// sides it is hidden from (it names a unit hidden from them, T-TERR-2), as the battle's
    /// sight found it when it happened.
    Fought {
        event: crate::tactical::Event,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        hidden_from: Vec<Side>,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Moved { army, to, mp_left } => write!(f, "{army} moves to {to} ({mp_left} MP left)"),
            Event::Intercepted { army, at, target } => write!(f, "{army} intercepts {target} at {at} (T-STRAT-2)"),
            Event::InterceptOrder { army, on } => {
                write!(f, "{army} {} the intercept order", if *on { "takes" } else { "drops" })
            }
            Event::Split { army, new, units } => write!(f, "{army} detaches {units} unit(s) as {new}"),
            Event::Merged { army, into } => write!(f, "{army} joins {into}"),
            Event::Directive { side, to, text } => match to {
                Some(a) => write!(f, "{side:?} to {a}: {text}"),
                None => write!(f, "{side:?}: {text}"),
            },
            Event::BattleJoined { at, attacker, units } => write!(
                f,
                "battle at {at}: {attacker:?} attacks, {} v {} units (red v blue, T-STRAT-4)",
                units[0], units[1]
            ),
            Event::Cut { at, fielded, bring_up } => {
                write!(f, "at {at} {} v {} fight (T-STRAT-5)", fielded[0], fielded[1])?;
                match bring_up {
                    Some(s) => write!(f, "; {s:?} may bring up a unit (T-STRAT-6)"),
                    None => Ok(()),
                }
            }
            Event::ForcesChosen { side, units, redoubts } => {
                write!(f, "{side:?} fields {units} unit(s) and {redoubts} redoubt(s)")
            }
            Event::RedoubtsBuilt { side, redoubts, mp_spent } => {
                write!(f, "{side:?} spends {mp_spent} MP on {redoubts} redoubt(s) (T-STRAT-8)")
            }
            Event::AutoRound { round, damage } => {
                write!(f, "auto-battle round {round}: red deals {}, blue deals {} (T-AUTO-1)", damage[0], damage[1])
            }
            Event::AutoBattleWon { at, winner, rounds } => {
                write!(f, "{winner:?} wins the auto-battle at {at} after {rounds} round(s) (T-AUTO-2)")
            }
            Event::BattleWon { at, winner, reason, turns } => {
                write!(f, "{winner:?} wins the battle at {at} ({}) after {turns} turns", reason.key())
            }
            Event::LeftOutLoss { unit, lost, health } => {
                write!(f, "unit {unit} (left out) loses {lost}, Health {health} (T-STRAT-7)")
            }
            Event::Rejoined { unit, health } => write!(f, "unit {unit} rejoins with Health {health} (T-STRAT-11)"),
            Event::Replenished { unit, health } => {
                write!(f, "special unit {unit} is replenished to Health {health} (T-STRAT-10)")
            }
            Event::UnitLost { unit } => write!(f, "unit {unit} is lost"),
            Event::Captured { unit, by } => write!(f, "unit {unit} is taken prisoner by {by:?}"),
            Event::GunTaken { unit, by, army } => write!(f, "{by:?} takes gun {unit} into {army}"),
            Event::FellBack { army, to } => write!(f, "{army} falls back to {to} (T-STRAT-11)"),
            Event::ArmyGone { army } => write!(f, "{army} is gone"),
            Event::KeyHexTaken { at, by } => write!(f, "{by:?} takes the key hex {at}"),
            Event::TurnEnded { turn, side } => write!(f, "{side:?} ends campaign turn {turn}"),
            Event::CampaignOver { winner, reason } => write!(f, "{winner:?} wins the campaign ({reason:?})"),
            Event::Moderated { asks } if asks.is_empty() => write!(f, "the engine takes every decision again"),
            Event::Moderated { asks } => {
                let rules: Vec<&str> = asks.iter().map(|a| a.rule()).collect();
                write!(f, "the moderator decides {}", rules.join(", "))
            }
            Event::Asked { question } => write!(f, "the moderator is asked ({})", question.asked().rule()),
            Event::Ruled { rule, ruling } => write!(f, "the moderator rules {ruling:?} ({})", rule.rule()),
            Event::Fought { event, .. } => write!(f, "in the battle: {}", event.describe(&|u| format!("unit {u}"))),
        }
    }
}
