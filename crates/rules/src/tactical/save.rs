//! Saved games: scenario (embedded, with its hash) + seed + order log + state hashes.
//! Loading replays the log and fails loudly on any difference.

use super::battle::{Battle, Checkpoint};
use super::order::{Order, OrderError};
use super::scenario::Scenario;
use crate::data::{DataError, parse_ron, to_ron};
use crate::hash::StateHash;
use serde::{Deserialize, Serialize};

/// Version of the save format.
pub const SAVE_FORMAT: u32 = 1;

/// A saved battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SaveGame {
    pub format: u32,
    pub scenario_hash: StateHash,
    pub seed: u64,
    pub orders: Vec<Order>,
    pub checkpoints: Vec<Checkpoint>,
    pub final_hash: StateHash,
    pub scenario: Scenario,
}

/// Why a save could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    #[error("{0}")]
    File(#[from] DataError),
    #[error("save format {found} is not supported (this game reads format {SAVE_FORMAT})")]
    Format { found: u32 },
    #[error("the embedded scenario has hash {found}, the save says {expected}: the file was altered")]
    ScenarioHash { expected: StateHash, found: StateHash },
    #[error("order {index} ({order:?}) is illegal on replay: {error}")]
    Illegal { index: usize, order: Order, error: OrderError },
    #[error("replay diverged after order {after} (turn {turn}): state hash {found}, the save recorded {expected}")]
    Diverged { after: usize, turn: u32, expected: StateHash, found: StateHash },
}

impl Battle {
    /// The save of this battle so far.
    pub fn save(&self) -> SaveGame {
        SaveGame {
            format: SAVE_FORMAT,
            scenario_hash: self.scenario().hash(),
            seed: self.seed(),
            orders: self.orders().to_vec(),
            checkpoints: self.checkpoints().to_vec(),
            final_hash: self.hash(),
            scenario: self.scenario().clone(),
        }
    }

    /// Replays a save, checking every recorded hash.
    pub fn replay(save: &SaveGame) -> Result<Battle, ReplayError> {
        Self::replay_until(save, save.orders.len())
    }

    /// Replays the first `count` orders of a save (for a replay viewer), checking hashes on the way.
    pub fn replay_until(save: &SaveGame, count: usize) -> Result<Battle, ReplayError> {
        if save.format != SAVE_FORMAT {
            return Err(ReplayError::Format { found: save.format });
        }
        let found = save.scenario.hash();
        if found != save.scenario_hash {
            return Err(ReplayError::ScenarioHash { expected: save.scenario_hash, found });
        }
        let mut battle = Battle::new(&save.scenario, save.seed);
        let mut points = save.checkpoints.iter().peekable();
        let verify = |battle: &Battle, points: &mut std::iter::Peekable<std::slice::Iter<Checkpoint>>, done: usize| {
            while let Some(p) = points.peek() {
                if p.after > done {
                    break;
                }
                if p.after == done {
                    let found = battle.hash();
                    if found != p.hash {
                        return Err(ReplayError::Diverged { after: p.after, turn: p.turn, expected: p.hash, found });
                    }
                }
                points.next();
            }
            Ok(())
        };
        verify(&battle, &mut points, 0)?;
        for (index, order) in save.orders.iter().take(count).enumerate() {
            battle.apply(order.clone()).map_err(|error| ReplayError::Illegal { index, order: order.clone(), error })?;
            verify(&battle, &mut points, index + 1)?;
        }
        if count == save.orders.len() {
            let found = battle.hash();
            if found != save.final_hash {
                return Err(ReplayError::Diverged {
                    after: count,
                    turn: battle.clock().turn,
                    expected: save.final_hash,
                    found,
                });
            }
        }
        Ok(battle)
    }
}

impl SaveGame {
    pub fn to_text(&self) -> String {
        to_ron(self)
    }

    pub fn from_text(path: &str, text: &str) -> Result<SaveGame, DataError> {
        parse_ron(path, text)
    }
}
