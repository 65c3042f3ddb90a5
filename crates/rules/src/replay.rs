//! Replaying saves, for both games: a save is the scenario (with its hash), the seed, the order
//! log and state hashes taken on the way; a replay applies the log to a fresh game and fails
//! loudly at the first difference.

use crate::data::DataError;
use crate::hash::StateHash;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Parses a save; a file cut short anywhere (not only at a token's end) is called truncated:
/// every save the game writes ends with `)`.
pub fn parse_save<T: serde::de::DeserializeOwned>(path: &str, text: &str) -> Result<T, DataError> {
    crate::data::parse_ron(path, text).map_err(|mut e| {
        if !text.trim_end().ends_with(')') && !e.message.contains("truncated") {
            e.message.push_str(": the file ends too early (truncated?)");
        }
        e
    })
}

/// A hash taken after an order, so a replay can prove it followed the same game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// Orders applied when the hash was taken.
    pub after: usize,
    pub turn: u32,
    pub hash: StateHash,
}

/// Adds a checkpoint unless one was already taken after as many orders.
pub fn record(points: &mut Vec<Checkpoint>, after: usize, turn: u32, hash: StateHash) {
    if points.last().is_none_or(|c| c.after != after) {
        points.push(Checkpoint { after, turn, hash });
    }
}

/// Why a save could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError<O: fmt::Debug, E: fmt::Display> {
    #[error("{0}")]
    File(#[from] DataError),
    #[error("save format {found} is not supported (this game reads format {supported})")]
    Format { found: u32, supported: u32 },
    #[error("the embedded scenario has hash {found}, the save says {expected}: the file was altered")]
    ScenarioHash { expected: StateHash, found: StateHash },
    /// `index` counts from 0; the message counts from 1, as every order message does.
    #[error("order {} ({order:?}) is illegal on replay: {error}", .index + 1)]
    Illegal { index: usize, order: O, error: E },
    #[error("replay diverged after order {after} (turn {turn}): state hash {found}, the save recorded {expected}")]
    Diverged { after: usize, turn: u32, expected: StateHash, found: StateHash },
}

/// What a save says about itself, checked before anything is replayed.
#[derive(Clone, Copy, Debug)]
pub struct Header {
    pub format: u32,
    pub supported: u32,
    /// The scenario hash the save recorded, and the hash of the scenario it embeds.
    pub scenario_hash: StateHash,
    pub found_scenario_hash: StateHash,
    pub final_hash: StateHash,
}

/// Replays the first `count` orders on the game `start` makes, checking every checkpoint on the
/// way, and the final hash when the whole log is replayed.
pub fn replay<G: crate::game::Game>(
    header: Header,
    start: impl FnOnce() -> G,
    orders: &[G::Order],
    checkpoints: &[Checkpoint],
    count: usize,
) -> Result<G, ReplayError<G::Order, G::Error>> {
    if header.format != header.supported {
        return Err(ReplayError::Format { found: header.format, supported: header.supported });
    }
    if header.found_scenario_hash != header.scenario_hash {
        return Err(ReplayError::ScenarioHash { expected: header.scenario_hash, found: header.found_scenario_hash });
    }
    let mut game = start();
    let mut points = checkpoints.iter().peekable();
    let mut verify = |game: &G, done: usize| {
        while let Some(p) = points.peek() {
            if p.after > done {
                break;
            }
            if p.after == done {
                let found = game.state_hash();
                if found != p.hash {
                    return Err(ReplayError::Diverged { after: p.after, turn: p.turn, expected: p.hash, found });
                }
            }
            points.next();
        }
        Ok(())
    };
    verify(&game, 0)?;
    for (index, order) in orders.iter().take(count).enumerate() {
        game.apply(order.clone()).map(|_| ()).map_err(|error| ReplayError::Illegal {
            index,
            order: order.clone(),
            error,
        })?;
        verify(&game, index + 1)?;
    }
    if count == orders.len() {
        let found = game.state_hash();
        if found != header.final_hash {
            return Err(ReplayError::Diverged { after: count, turn: game.turn(), expected: header.final_hash, found });
        }
    }
    Ok(game)
}
