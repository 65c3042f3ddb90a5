//! The game's only source of chance: a seeded ChaCha stream of d6 throws.
//!
//! Every die and coin of the rulebooks is a d6 drawn here, in a fixed order (rule order, then unit ID).
//! The preview runs the same rules code with a *scripted* die so it can enumerate every outcome.

use bevy_ecs::prelude::Resource;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// A d6 result, 1..=6.
pub type Pips = u8;

/// The seeded dice of one game.
#[derive(Resource, Clone, Debug)]
pub struct Dice {
    rng: ChaCha8Rng,
    script: Option<Script>,
    thrown: u64,
}

/// A fixed sequence of pips used in place of the stream; past its end every die shows 1 and the
/// overrun is recorded, so an enumerator knows where the outcome tree branches next.
#[derive(Clone, Debug, Default)]
struct Script {
    pips: Vec<Pips>,
    next: usize,
    /// For each throw, the pips that decide it when the caller said so (see [`Dice::d6_hinted`]).
    hints: Vec<Option<PipRange>>,
}

/// The persistent part of the dice: enough to continue the stream bit-identically.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceState {
    pub seed: [u8; 32],
    pub stream: u64,
    pub word_pos: u128,
    pub thrown: u64,
}

impl Dice {
    /// A fresh stream for a game started with `seed`.
    pub fn seeded(seed: u64) -> Self {
        Self { rng: ChaCha8Rng::seed_from_u64(seed), script: None, thrown: 0 }
    }

    /// Restores a stream saved with [`Dice::state`].
    pub fn from_state(state: &DiceState) -> Self {
        let mut rng = ChaCha8Rng::from_seed(state.seed);
        rng.set_stream(state.stream);
        rng.set_word_pos(state.word_pos);
        Self { rng, script: None, thrown: state.thrown }
    }

    pub fn state(&self) -> DiceState {
        DiceState {
            seed: self.rng.get_seed(),
            stream: self.rng.get_stream(),
            word_pos: self.rng.get_word_pos(),
            thrown: self.thrown,
        }
    }

    /// Replaces the stream by a script (used only by previews, on a copy of the game).
    pub fn script(&mut self, pips: Vec<Pips>) {
        self.script = Some(Script { pips, next: 0, hints: Vec::new() });
    }

    /// The hint recorded for scripted throw `index`: the range that decides it, if the caller gave one.
    pub fn hint(&self, index: usize) -> Option<PipRange> {
        self.script.as_ref().and_then(|s| s.hints.get(index).copied().flatten())
    }

    /// Throws one d6 whose outcome only depends on whether it falls in `decides` (a hit table row):
    /// an enumerator then needs two branches, not six. The stream is the same as [`Dice::d6`]'s.
    pub fn d6_hinted(&mut self, decides: Option<PipRange>) -> Pips {
        if let Some(script) = &mut self.script {
            let at = script.next;
            if script.hints.len() <= at {
                script.hints.resize(at + 1, None);
            }
            script.hints[at] = decides;
        }
        self.d6()
    }

    /// Whether a script ran out (its later dice all show 1): loops that throw until the dice
    /// differ must stop there, the enumerator branches at the first missing die anyway.
    pub fn exhausted(&self) -> bool {
        self.script.as_ref().is_some_and(|s| s.next > s.pips.len())
    }

    /// How many dice the script was asked for (may exceed its length).
    pub fn scripted_used(&self) -> usize {
        self.script.as_ref().map_or(0, |s| s.next)
    }

    /// Number of dice thrown in this game so far.
    pub fn thrown(&self) -> u64 {
        self.thrown
    }

    /// Throws one d6.
    pub fn d6(&mut self) -> Pips {
        self.thrown += 1;
        if let Some(script) = &mut self.script {
            let pips = script.pips.get(script.next).copied().unwrap_or(1);
            script.next += 1;
            return pips;
        }
        d6_from(&mut self.rng)
    }
}

impl Dice {
    /// A uniform choice of `0..n` (seeded lots, e.g. which ships a minefield takes, S-MINE-3).
    /// Scripted dice (previews) always choose 0.
    pub fn below(&mut self, n: u32) -> u32 {
        if n <= 1 {
            return 0;
        }
        self.thrown += 1;
        if self.script.is_some() {
            return 0;
        }
        let limit = u32::MAX - u32::MAX % n;
        loop {
            let word = self.rng.next_u32();
            if word < limit {
                return word % n;
            }
        }
    }
}

/// Unbiased d6 from 32-bit words by rejection; depends only on the word stream, so native and
/// wasm agree bit for bit (no `usize`, no float).
pub fn d6_from(rng: &mut impl Rng) -> Pips {
    // 4_294_967_292 = 6 × 715_827_882, the largest multiple of 6 that fits in a u32.
    const LIMIT: u32 = 4_294_967_292;
    loop {
        let word = rng.next_u32();
        if word < LIMIT {
            return (word % 6) as Pips + 1;
        }
    }
}

/// An inclusive range of pips, "4–6" in the rulebooks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PipRange(pub Pips, pub Pips);

impl PipRange {
    pub fn contains(self, pips: Pips) -> bool {
        (self.0..=self.1).contains(&pips)
    }

    /// Chance that one d6 falls in the range.
    pub fn chance(self) -> f64 {
        f64::from(self.1.saturating_sub(self.0) + 1) / 6.0
    }
}

impl std::fmt::Display for PipRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0 == self.1 { write!(f, "{}", self.0) } else { write!(f, "{}–{}", self.0, self.1) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_throws() {
        let mut a = Dice::seeded(7);
        let mut b = Dice::seeded(7);
        let xs: Vec<_> = (0..100).map(|_| a.d6()).collect();
        let ys: Vec<_> = (0..100).map(|_| b.d6()).collect();
        assert_eq!(xs, ys);
        assert!(xs.iter().all(|p| (1..=6).contains(p)));
    }

    #[test]
    fn state_round_trip_continues_the_stream() {
        let mut a = Dice::seeded(42);
        for _ in 0..17 {
            a.d6();
        }
        let mut b = Dice::from_state(&a.state());
        let xs: Vec<_> = (0..50).map(|_| a.d6()).collect();
        let ys: Vec<_> = (0..50).map(|_| b.d6()).collect();
        assert_eq!(xs, ys);
    }

    #[test]
    fn d6_is_uniform_enough() {
        let mut dice = Dice::seeded(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[usize::from(dice.d6() - 1)] += 1;
        }
        for c in counts {
            assert!((9_500..10_500).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn known_first_throws_are_fixed_forever() {
        // Saves depend on this exact stream: changing the sampler breaks every saved game.
        let mut dice = Dice::seeded(2024);
        let xs: Vec<_> = (0..12).map(|_| dice.d6()).collect();
        assert_eq!(xs, KNOWN_2024);
    }

    const KNOWN_2024: [Pips; 12] = [6, 6, 2, 5, 5, 6, 3, 3, 3, 2, 1, 2];
}
