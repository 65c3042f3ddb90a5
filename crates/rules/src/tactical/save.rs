//! Saved games: scenario (embedded, with its hash) + seed + order log + state hashes.
//! Loading replays the log and fails loudly on any difference.

use super::battle::{Battle, Checkpoint};
use super::order::{Order, OrderError};
use super::scenario::Scenario;
use crate::data::{DataError, Pos, to_ron};
use crate::hash::StateHash;
use crate::limits::Limit;
use crate::replay::{Header, Replay, replay};
use serde::{Deserialize, Serialize};

/// Version of the save format.
pub const SAVE_FORMAT: u32 = 1;

/// A saved battle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
pub type ReplayError = crate::replay::ReplayError<Order, OrderError>;

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
        let header = Header {
            format: save.format,
            supported: SAVE_FORMAT,
            scenario_hash: save.scenario_hash,
            found_scenario_hash: save.scenario.hash(),
            final_hash: save.final_hash,
        };
        replay(header, || Battle::new(&save.scenario, save.seed), &save.orders, &save.checkpoints, count)
    }
}

impl Replay for Battle {
    type Order = Order;
    type Error = OrderError;

    fn step(&mut self, order: Order) -> Result<(), OrderError> {
        self.apply(order).map(|_| ())
    }

    fn state_hash(&self) -> StateHash {
        self.hash()
    }

    fn turn(&self) -> u32 {
        self.clock().turn
    }
}

impl SaveGame {
    pub fn to_text(&self) -> String {
        to_ron(self)
    }

    /// Reads a save and checks the scenario it embeds as a scenario file is checked.
    pub fn from_text(path: &str, text: &str) -> Result<SaveGame, DataError> {
        let save: SaveGame = crate::replay::parse_save(path, text)?;
        Limit::Orders.check_len(save.orders.len()).map_err(|e| DataError::over_limit(path, Pos::START, e))?;
        save.scenario.check_embedded(path, text, "scenario")?;
        Ok(save)
    }
}
