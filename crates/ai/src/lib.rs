//! Scripted opponents for Napoleonic battles.
//!
//! Built on the engine's public API only: the legal orders and the forecasts behind `preview`.
//! An AI sees the field as its side does (hidden enemies are not in its copy) and has no
//! bonuses; difficulty comes from how it plays. It thinks in slices: [`Ai::think`] returns
//! within its budget (plus one candidate's evaluation) and resumes where it stopped, and the
//! decision never depends on how the thinking was sliced, so a seeded game is the same every time.

pub mod baseline;
pub mod campaign;
pub mod deploy;
pub mod eval;
pub mod game;
pub mod great_war;
pub mod planner;

use rules::Game;
use rules::tactical::components::{Phase, Side};
use rules::tactical::{Battle, Ctx, Order};
use std::fmt;
use std::str::FromStr;
use web_time::{Duration, Instant};

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Level {
    /// Uniformly random legal orders (a baseline).
    Random,
    /// Each unit takes its single best immediate fire or attack (a baseline).
    Greedy,
    /// Simple and forgiving.
    Recruit,
    Veteran,
    /// The best it can do.
    Marshal,
}

impl Level {
    pub const ALL: [Level; 5] = [Level::Random, Level::Greedy, Level::Recruit, Level::Veteran, Level::Marshal];

    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Greedy => "greedy",
            Level::Recruit => "recruit",
            Level::Veteran => "veteran",
            Level::Marshal => "marshal",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown level `{s}` (random, greedy, recruit, veteran, marshal)"))
    }
}

/// What a slice of thinking produced (`O`: the game's order; a battle's by default).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Think<O = Order> {
    /// The next order for the game.
    Order(O),
    /// Out of time: call again (the work done so far is kept).
    Thinking,
    /// Not this side's turn.
    Idle,
}

/// A player the machine plays, in any game: the app's AI turns and tools drive every game's AI
/// through this, a slice of thinking at a time.
pub trait Player<G: Game> {
    /// Thinks for at most about `budget` on a working copy of the game; work left over is kept
    /// for the next call, and the decision never depends on how the thinking was sliced.
    fn think(&mut self, ctx: &G::Ctx, budget: Duration) -> Think<G::Order>;
}

impl Player<Battle> for Ai {
    fn think(&mut self, ctx: &Ctx, budget: Duration) -> Think {
        Ai::think(self, ctx, budget)
    }
}

/// Time the AI spent, for reports.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ThinkStats {
    pub slices: u64,
    pub longest_slice: Duration,
    pub total: Duration,
}

/// An AI player for one side.
pub struct Ai {
    pub side: Side,
    pub level: Level,
    brain: Brain,
    pub stats: ThinkStats,
}

enum Brain {
    Random(Box<baseline::RandomPlayer>),
    Greedy(baseline::GreedyPlayer),
    Planner(Box<planner::Planner>),
}

impl Ai {
    /// An AI for `side`, seeded (its tie-breaks and a Recruit's mistakes come from this seed only).
    pub fn new(side: Side, level: Level, seed: u64) -> Ai {
        let seed = seed ^ (0xA1A1_0000 + side.index() as u64);
        let brain = match level {
            Level::Random => Brain::Random(Box::new(baseline::RandomPlayer::new(seed))),
            Level::Greedy => Brain::Greedy(baseline::GreedyPlayer::new(side)),
            _ => Brain::Planner(Box::new(planner::Planner::new(side, level, seed))),
        };
        Ai { side, level, brain, stats: ThinkStats::default() }
    }

    /// A planning AI (Recruit, Veteran, Marshal) with its own positional weights (for tuning).
    pub fn with_weights(side: Side, level: Level, seed: u64, weights: eval::Weights) -> Ai {
        let mut ai = Ai::new(side, level, seed);
        if let Brain::Planner(p) = &mut ai.brain {
            p.set_weights(weights);
        }
        ai
    }

    /// Thinks for at most about `budget` on the current state of the battle.
    pub fn think(&mut self, ctx: &Ctx, budget: Duration) -> Think {
        if ctx.clock.phase == Phase::Over || ctx.clock.active != self.side {
            return Think::Idle;
        }
        let start = Instant::now();
        let out = match &mut self.brain {
            Brain::Random(p) => Think::Order(p.next(ctx)),
            Brain::Greedy(p) => Think::Order(p.next(ctx)),
            Brain::Planner(p) => p.think(ctx, start, budget),
        };
        let took = start.elapsed();
        self.stats.slices += 1;
        self.stats.total += took;
        self.stats.longest_slice = self.stats.longest_slice.max(took);
        out
    }

    /// Thinks until it has the next order (no time limit).
    pub fn decide(&mut self, ctx: &Ctx) -> Option<Order> {
        loop {
            match self.think(ctx, Duration::from_secs(3600)) {
                Think::Order(o) => return Some(o),
                Think::Idle => return None,
                Think::Thinking => {}
            }
        }
    }
}
