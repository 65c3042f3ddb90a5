//! Seats: who sits where, and the invite tokens that claim them.
//!
//! A seat is claimed by an unguessable token (128 random bits, shown once when the game is made);
//! the record keeps only its SHA-256, and a token is compared against every seat of the game in
//! constant time, so neither the answer nor its timing tells which seat a wrong token was close to.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

pub use wire::{MODERATOR, Role};

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
