//! The campaign's state: armies on hexes, their units, the battle in progress, the clock.
//! Plain structs sorted by stable IDs; the canonical encoding of [`CampaignState`] is hashed.

use super::map::HexAt;
use crate::hash::{StateHash, hash_of};
use crate::moderation::Asked;
use crate::tactical::config::GeneralFate;
use crate::tactical::{Side, UnitId};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Stable identity of an army (from the scenario, or given when an army splits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ArmyId(pub u32);

impl fmt::Display for ArmyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "army {}", self.0)
    }
}

/// An army on the campaign map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Army {
    pub id: ArmyId,
    pub side: Side,
    pub name: String,
    pub at: HexAt,
    /// In army-list order.
    pub units: Vec<UnitId>,
    /// Movement points left this campaign turn (T-STRAT-1).
    pub mp_left: u32,
    /// Standing intercept order (T-STRAT-2).
    pub intercept: bool,
    /// The hex it last came from this turn (T-STRAT-11: where a beaten army falls back).
    pub came_from: Option<HexAt>,
    /// T-CMD-3: its general was killed or badly wounded in a battle of this campaign and is gone
    /// for its next battles (a lightly wounded one is back for the next battle). Left out of the
    /// encoding while `None`, so campaigns without it keep their hashes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub general_lost: Option<GeneralFate>,
}

/// A unit (regiment) of an army, with its Health carried from battle to battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Regiment {
    pub id: UnitId,
    pub side: Side,
    /// Unit type id in the battle's table.
    pub unit: String,
    pub name: String,
    pub health: i32,
}

/// What one side chose for a battle (T-STRAT-5/6, T-STRAT-8, T-STRAT-11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Forces {
    /// The units that fight, in the side's order.
    pub units: Vec<UnitId>,
    /// Redoubts it builds (T-STRAT-8).
    pub redoubts: u32,
    /// Where its units fall back if it loses (T-STRAT-11); default where they came from.
    #[serde(default)]
    pub retreat: Option<HexAt>,
}

/// A battle waiting to be fought on the grid (T-STRAT-4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingBattle {
    /// Battles of the campaign so far, this one included.
    pub number: u32,
    pub at: HexAt,
    /// The side that entered (T-STRAT-4) or intercepted (T-STRAT-2).
    pub attacker: Side,
    /// Seed of the battle's dice, fixed by the campaign.
    pub seed: u64,
    /// Unused MP of the attacker when it arrived (T-STRAT-8).
    pub attacker_mp: u32,
    /// Where the attacker came from (it deploys at that edge).
    pub attacker_from: Option<HexAt>,
    /// Units each side has in the hex, and fields (T-STRAT-5/6), per side index.
    pub units: [usize; 2],
    pub fielded: [usize; 2],
    /// The side that may bring up a unit from turn 5 (T-STRAT-6).
    pub bring_up: Option<Side>,
    /// The choices, per side index; the attacker chooses first.
    pub forces: [Option<Forces>; 2],
    /// The battle fought on the campaign's own log ([`super::Order::Fight`]): its orders so
    /// far, each checked by the battle's door; empty until the first (and where the battle is
    /// reported whole, [`super::Order::BattleResult`]). The battle as it stands is these
    /// orders on the battle's scenario and seed, so the campaign's hash covers it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fought: Vec<crate::tactical::Order>,
}

impl PendingBattle {
    pub fn defender(&self) -> Side {
        self.attacker.other()
    }

    /// Who chooses next; `None` once both have.
    pub fn chooser(&self) -> Option<Side> {
        [self.attacker, self.defender()].into_iter().find(|s| self.forces[s.index()].is_none())
    }
}

/// Why a campaign ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum VictoryReason {
    /// It held every key hex at the end of a campaign turn.
    AllKeyHexes,
    /// The enemy has no army left.
    EnemyDestroyed,
    /// The turn limit passed; it held more key hexes (or won the tie).
    TurnLimit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignOutcome {
    pub winner: Side,
    pub reason: VictoryReason,
    pub turn: u32,
}

/// The whole campaign state (the scenario's static data excluded).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CampaignState {
    /// Campaign turn, from 1.
    pub turn: u32,
    /// The side giving orders (when no battle is waiting).
    pub active: Side,
    /// Sorted by id.
    pub armies: Vec<Army>,
    /// Sorted by id.
    pub units: Vec<Regiment>,
    /// Holder of each key hex, in the scenario's order.
    pub holders: Vec<Side>,
    pub battle: Option<PendingBattle>,
    /// Battles so far (grid and auto).
    pub battles: u32,
    pub next_army: u32,
    pub outcome: Option<CampaignOutcome>,
    /// The decisions this campaign asks its moderator for ([`crate::moderation`]); none unless
    /// a moderator set them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub asks: Vec<Asked>,
    /// The decision waiting for the moderator's ruling: no side gives an order meanwhile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<Question>,
}

/// A decision waiting for the moderator's ruling, with the engine's own answer (what it
/// decides where nobody is asked, and what [`super::Ruling::Default`] takes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Question {
    /// T-STRAT-9: a battle of at most the auto-battle's units joined at `at` (`units` per side
    /// index): played on the grid (of extreme strategic importance), or settled by auto-battle?
    Played { at: HexAt, attacker: Side, from: Option<HexAt>, units: [usize; 2], played: bool },
    /// T-STRAT-5: both sides exceed the battle limit: how many of its `units` each side fields
    /// (at most `limit`).
    Cut { at: HexAt, attacker: Side, from: Option<HexAt>, units: [usize; 2], fielded: [usize; 2], limit: usize },
    /// T-AUTO-2: the auto-battle at `at` fought to its end, damage dealt per round and side
    /// index: after which round is its winner clear, and who is it?
    AutoBattleEnd { at: HexAt, attacker: Side, rounds: Vec<[i32; 2]>, winner: Side },
    /// T-AUTO-3: the units of the auto-battle's loser (its guns, which pass to the winner by
    /// T-AUTO-4, left out): which surrender and which are destroyed (the engine: all surrender).
    Surrender { at: HexAt, winner: Side, rounds: u32, units: Vec<UnitId> },
    /// T-STRAT-7: the units left out of the battle at `at`, each with its Health and the loss
    /// the engine gives it.
    LeftOut { at: HexAt, units: Vec<LeftOut> },
}

impl Question {
    /// What the question asks.
    pub fn asked(&self) -> Asked {
        match self {
            Question::Played { .. } => Asked::Played,
            Question::Cut { .. } => Asked::BattleCut,
            Question::AutoBattleEnd { .. } => Asked::AutoBattleEnd,
            Question::Surrender { .. } => Asked::Surrender,
            Question::LeftOut { .. } => Asked::LeftOutLosses,
        }
    }
}

/// A unit left out of a battle (T-STRAT-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeftOut {
    pub unit: UnitId,
    pub health: i32,
    /// The engine's loss: floor(F × Health), leaving at least 1.
    pub loss: i32,
}

impl CampaignState {
    pub fn hash(&self) -> StateHash {
        hash_of(self)
    }

    pub fn army(&self, id: ArmyId) -> Option<&Army> {
        self.armies.binary_search_by_key(&id, |a| a.id).ok().map(|i| &self.armies[i])
    }

    pub fn army_mut(&mut self, id: ArmyId) -> Option<&mut Army> {
        self.armies.binary_search_by_key(&id, |a| a.id).ok().map(|i| &mut self.armies[i])
    }

    pub fn unit(&self, id: UnitId) -> Option<&Regiment> {
        self.units.binary_search_by_key(&id, |u| u.id).ok().map(|i| &self.units[i])
    }

    pub fn unit_mut(&mut self, id: UnitId) -> Option<&mut Regiment> {
        self.units.binary_search_by_key(&id, |u| u.id).ok().map(|i| &mut self.units[i])
    }

    /// The armies of a side in a hex, by id.
    pub fn armies_at(&self, at: HexAt, side: Side) -> Vec<ArmyId> {
        self.armies.iter().filter(|a| a.at == at && a.side == side).map(|a| a.id).collect()
    }

    /// A side's units in a hex: its armies by id, each in army-list order (T-STRAT-4: they
    /// fight together; T-STRAT-5: the default choice).
    pub fn units_at(&self, at: HexAt, side: Side) -> Vec<UnitId> {
        self.armies.iter().filter(|a| a.at == at && a.side == side).flat_map(|a| a.units.iter().copied()).collect()
    }

    pub fn enemy_at(&self, at: HexAt, side: Side) -> bool {
        self.armies.iter().any(|a| a.at == at && a.side != side)
    }

    /// The army a unit belongs to.
    pub fn army_of(&self, unit: UnitId) -> Option<ArmyId> {
        self.armies.iter().find(|a| a.units.contains(&unit)).map(|a| a.id)
    }
}
