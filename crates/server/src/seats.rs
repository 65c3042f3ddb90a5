//! Seats: who sits where, and the invite tokens that claim them.
//!
//! A seat is claimed by an unguessable token (128 random bits, shown once when the game is made);
//! the record keeps only its SHA-256, and a token is compared against every seat of the game in
//! constant time, so neither the answer nor its timing tells which seat a wrong token was close to.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// What a seat may do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case", deny_unknown_fields)]
pub enum Role {
    /// A battle's or campaign's side, or a Great War power's leader (diplomacy, economy,
    /// research, purchases, directives, and every piece no general of its power holds).
    Player { player: String },
    /// A general of `player`: in the Great War it commands the armies (by formation ID, corps
    /// outside an army too) and fleets its leader assigns (S-ARMY-3: orders go to armies); in a
    /// campaign the armies (by army ID) and their battles; in a battle the formations (by the
    /// battle's formation ID, T-CMD-1). It serves under its player's leader seat.
    General {
        player: String,
        #[serde(default)]
        formations: Vec<u32>,
        #[serde(default)]
        fleets: Vec<u32>,
    },
    /// Sees everything, pauses, extends clocks, hands seats to the AI.
    Moderator,
    /// Sees what one side sees (everything once the game is over).
    Observer { player: String },
}

/// Whom a game's clockface names while it awaits its moderator's ruling.
pub const MODERATOR: &str = "moderator";

impl Role {
    /// Whether a game waiting for `active` (a player, or [`MODERATOR`]: a ruling) waits for
    /// this seat.
    pub fn is_waited_for(&self, active: &str) -> bool {
        self.commands() == Some(active) || (active == MODERATOR && *self == Role::Moderator)
    }

    /// The player (side or power) the seat gives orders for.
    pub fn commands(&self) -> Option<&str> {
        match self {
            Role::Player { player } | Role::General { player, .. } => Some(player),
            Role::Moderator | Role::Observer { .. } => None,
        }
    }

    /// The player whose sight the seat has (`None`: the umpire's).
    pub fn sees_as(&self) -> Option<&str> {
        match self {
            Role::Player { player } | Role::General { player, .. } | Role::Observer { player } => Some(player),
            Role::Moderator => None,
        }
    }

    pub fn is_leader(&self) -> bool {
        matches!(self, Role::Player { .. })
    }
}

/// The bytes of a token.
pub const TOKEN_BYTES: usize = 16;

/// A fresh invite token, as hex.
pub fn new_token() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes)?;
    Ok(hex(&bytes))
}

/// A fresh game ID (public; 64 random bits, hex).
pub fn new_game_id() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes)?;
    Ok(hex(&bytes))
}

/// Whether a text has the shape of a game ID the lobby makes (hex; the record's IDs only).
pub fn is_game_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 32 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

/// A fresh seed for the dice.
pub fn new_seed() -> Result<u64, getrandom::Error> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes)?;
    Ok(u64::from_le_bytes(bytes))
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok()).collect()
}

/// The hash the record keeps of a token.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Whether a token has the shape of one the lobby makes (so many bytes, as hex).
pub fn well_formed(token: &str) -> bool {
    unhex(token).is_some_and(|b| b.len() == TOKEN_BYTES)
}

/// The seat whose token hash matches `token`, compared in constant time against every seat.
pub fn find_seat(token: &str, hashes: &[&str]) -> Option<usize> {
    // A token of the wrong shape matches nothing (and is hashed all the same).
    let well_formed = well_formed(token);
    let mine = Sha256::digest(token.as_bytes());
    let mut found = None;
    for (i, h) in hashes.iter().enumerate() {
        let theirs = unhex(h).unwrap_or_default();
        let equal: bool = theirs.len() == mine.len() && bool::from(mine.as_slice().ct_eq(&theirs));
        if equal && well_formed {
            found = Some(i);
        }
    }
    found
}

/// The seed's commitment, published when the game starts: SHA-256 of the game's ID and the
/// seed, so that the seed revealed at the end can be checked against it.
pub fn seed_commit(game: &str, seed: u64) -> String {
    let mut h = Sha256::new();
    h.update(b"kriegsspiel seed ");
    h.update(game.as_bytes());
    h.update(b" ");
    h.update(seed.to_le_bytes());
    hex(&h.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_finds_its_own_seat_and_no_other() {
        let a = new_token().expect("random");
        let b = new_token().expect("random");
        assert_eq!(a.len(), 32);
        let ha = token_hash(&a);
        let hb = token_hash(&b);
        assert_eq!(find_seat(&a, &[&ha, &hb]), Some(0));
        assert_eq!(find_seat(&b, &[&ha, &hb]), Some(1));
        assert_eq!(find_seat("00", &[&ha, &hb]), None);
        assert_eq!(find_seat(&ha, &[&ha, &hb]), None);
    }

    #[test]
    fn the_commitment_binds_the_seed() {
        assert_eq!(seed_commit("g", 7), seed_commit("g", 7));
        assert_ne!(seed_commit("g", 7), seed_commit("g", 8));
    }
}
