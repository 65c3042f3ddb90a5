//! State hashes: a fixed algorithm over a canonical encoding.
//!
//! The encoding is postcard's (a documented, stable, platform-independent format: little-endian
//! varints, length-prefixed sequences, variant indices), taken of plain state structs that hold
//! only integers, enums and `Vec`s sorted by stable IDs. The hash is 64-bit FNV-1a. No randomly
//! keyed hasher and no map iteration order is involved, so native and wasm agree bit for bit.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A 64-bit state hash, shown as 16 hex digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateHash(pub u64);

impl fmt::Display for StateHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl Serialize for StateHash {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for StateHash {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        u64::from_str_radix(&text, 16)
            .map(StateHash)
            .map_err(|_| serde::de::Error::custom(format!("`{text}` is not a 16-digit hex state hash")))
    }
}

/// 64-bit FNV-1a.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes.iter().fold(OFFSET, |h, b| (h ^ u64::from(*b)).wrapping_mul(PRIME))
}

/// The canonical bytes of a state value.
pub fn canonical_bytes<T: Serialize>(value: &T) -> Vec<u8> {
    // Serialising plain structs of integers into a Vec cannot fail.
    postcard::to_allocvec(value).unwrap_or_default()
}

/// Hash of a value's canonical encoding.
pub fn hash_of<T: Serialize>(value: &T) -> StateHash {
    StateHash(fnv1a64(&canonical_bytes(value)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_reference_vectors() {
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn encoding_is_fixed() {
        #[derive(Serialize)]
        struct S {
            a: u32,
            b: i32,
            c: Vec<u8>,
        }
        let bytes = canonical_bytes(&S { a: 300, b: -2, c: vec![1, 2] });
        assert_eq!(bytes, vec![0xac, 0x02, 0x03, 0x02, 0x01, 0x02]);
    }

    #[test]
    fn hash_text_round_trips() {
        let h = StateHash(0x0123_4567_89ab_cdef);
        let text = ron::to_string(&h).unwrap_or_default();
        assert_eq!(text, "\"0123456789abcdef\"");
        let back: StateHash = ron::from_str(&text).unwrap_or(StateHash(0));
        assert_eq!(back, h);
    }
}
