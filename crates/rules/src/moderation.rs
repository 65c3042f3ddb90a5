//! The decisions the source rules leave to a moderator (rules README, "Former moderator
//! decisions"). The engine takes each by a written resolution unless a game is *set to ask*:
//! then it stops where the decision falls, puts a question, and goes on only when the
//! moderator's ruling comes, as an order of the log like any other (so a replay takes the same
//! decisions). Which decisions a game asks for is itself an order (`Moderate`), given by the
//! moderator's seat; a game nobody moderates never asks.
//!
//! ```
//! use rules::moderation::{Asked, normalized};
//!
//! assert_eq!(Asked::Played.rule(), "T-STRAT-9");
//! assert_eq!(normalized(&[Asked::Surrender, Asked::Played, Asked::Surrender]), [Asked::Played, Asked::Surrender]);
//! ```

use serde::{Deserialize, Serialize};

/// One kind of decision a game may ask its moderator for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Asked {
    /// T-STRAT-5: how many units each side fields when both exceed the battle limit (the
    /// moderator's recount; resolution: round-half-up(10 × S / L)).
    BattleCut,
    /// T-STRAT-7: the losses of the units left out of a battle (resolution: the fighting units'
    /// share of Health lost).
    LeftOutLosses,
    /// T-STRAT-9: whether a battle small enough for the auto-battle is "of extreme strategic
    /// importance" and played on the grid (resolution: in key hexes).
    Played,
    /// T-AUTO-2: when the auto-battle's winner is clear, and who it is (resolution: after the
    /// round that leaves a side with no unit above 0).
    AutoBattleEnd,
    /// T-AUTO-3: which of the auto-battle loser's units surrender and which are destroyed
    /// (resolution: all surrender).
    Surrender,
    /// T-FORT-7: the terms of a fortress's capitulation, as the generals agreed them
    /// (resolution: the garrison is taken prisoner).
    Capitulation,
    /// S-COMBAT-3: which units in reach each side brings up to support an engagement
    /// (resolution: every unit in contact joins).
    Support,
}

impl Asked {
    pub const ALL: [Asked; 7] = [
        Asked::BattleCut,
        Asked::LeftOutLosses,
        Asked::Played,
        Asked::AutoBattleEnd,
        Asked::Surrender,
        Asked::Capitulation,
        Asked::Support,
    ];

    /// The decisions a campaign takes (the others fall in its battles).
    pub const CAMPAIGN: [Asked; 5] =
        [Asked::BattleCut, Asked::LeftOutLosses, Asked::Played, Asked::AutoBattleEnd, Asked::Surrender];
    /// The decisions a battle takes.
    pub const BATTLE: [Asked; 1] = [Asked::Capitulation];
    /// The decisions the Great War takes.
    pub const GREAT_WAR: [Asked; 1] = [Asked::Support];

    /// The rule that leaves the decision to the moderator.
    pub fn rule(self) -> &'static str {
        match self {
            Asked::BattleCut => "T-STRAT-5",
            Asked::LeftOutLosses => "T-STRAT-7",
            Asked::Played => "T-STRAT-9",
            Asked::AutoBattleEnd => "T-AUTO-2",
            Asked::Surrender => "T-AUTO-3",
            Asked::Capitulation => "T-FORT-7",
            Asked::Support => "S-COMBAT-3",
        }
    }
}

/// The decisions asked for, each once, in a fixed order (a set as the log holds it).
pub fn normalized(asks: &[Asked]) -> Vec<Asked> {
    let mut v = asks.to_vec();
    v.sort();
    v.dedup();
    v
}

/// The decisions asked for, normalized, where every one is of `kind` (a game's own); else the
/// first that is not.
pub fn of_kind(asks: &[Asked], kind: &[Asked]) -> Result<Vec<Asked>, Asked> {
    match asks.iter().find(|a| !kind.contains(a)) {
        Some(a) => Err(*a),
        None => Ok(normalized(asks)),
    }
}
