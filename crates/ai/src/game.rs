//! Playing whole battles with AI sides: for the referee, tournaments, tests and benches.

use crate::{Ai, Level, Think};
use rules::tactical::components::{Phase, Side};
use rules::tactical::{Battle, Order, OrderError, Scenario};
use rules::view::{Sight, Viewer};
use web_time::{Duration, Instant};

/// How a battle is played.
#[derive(Clone, Debug)]
pub struct GameSetup {
    pub seed: u64,
    /// The AI of each side (red, blue); `None` = orders from `orders`.
    pub players: [Option<Level>; 2],
    /// Stop after this many rounds (the battle may then still be on).
    pub max_rounds: Option<u32>,
    /// Orders for the sides without an AI, taken in turn; when they run out such a side ends its turn.
    pub orders: Vec<Order>,
    /// The AI thinks in slices of this length (the decisions do not depend on it).
    pub slice: Duration,
    /// Positional weights for each side's planner, if not the level's own.
    pub weights: [Option<crate::eval::Weights>; 2],
}

impl GameSetup {
    pub fn ai(seed: u64, red: Level, blue: Level) -> GameSetup {
        GameSetup {
            seed,
            players: [Some(red), Some(blue)],
            max_rounds: None,
            orders: Vec::new(),
            slice: Duration::from_millis(50),
            weights: [None, None],
        }
    }
}

/// What happened.
#[derive(Debug)]
pub struct GameReport {
    pub battle: Battle,
    /// Thinking time of each side's turns.
    pub turn_times: [Vec<Duration>; 2],
    /// The longest single think slice.
    pub longest_slice: Duration,
    /// Orders an AI gave that the engine refused (should stay 0).
    pub refused: Vec<(Order, OrderError)>,
}

impl GameReport {
    /// Mean and max thinking time per turn of a side.
    pub fn turn_time(&self, side: Side) -> (Duration, Duration) {
        let times = &self.turn_times[side.index()];
        let max = times.iter().copied().max().unwrap_or_default();
        let mean = if times.is_empty() { Duration::ZERO } else { times.iter().sum::<Duration>() / times.len() as u32 };
        (mean, max)
    }
}

/// An order from the list for a side without an AI could not be applied.
#[derive(Debug)]
pub struct ScriptError {
    pub index: usize,
    pub order: Order,
    pub error: OrderError,
}

/// Orders a side may give in one turn before the game ends its turn for it.
pub(crate) const MAX_ORDERS_PER_TURN: u32 = 400;

/// Plays a battle to its end (or to `max_rounds`).
pub fn play(scenario: &Scenario, setup: &GameSetup) -> Result<GameReport, ScriptError> {
    let mut battle = Battle::new(scenario, setup.seed);
    let mut ais: [Option<Ai>; 2] = [Side::Red, Side::Blue].map(|s| {
        setup.players[s.index()].map(|l| match setup.weights[s.index()] {
            Some(w) => Ai::with_weights(s, l, setup.seed, w),
            None => Ai::new(s, l, setup.seed),
        })
    });
    let mut script = setup.orders.iter().cloned().enumerate();
    let mut report_times: [Vec<Duration>; 2] = [Vec::new(), Vec::new()];
    let mut this_turn = Duration::ZERO;
    let mut turn_key = (battle.clock().phase, battle.clock().turn, battle.clock().active);
    let mut refused = Vec::new();
    loop {
        let clock = battle.clock();
        if clock.phase == Phase::Over
            || setup.max_rounds.is_some_and(|m| clock.phase == Phase::Battle && clock.round > m)
        {
            break;
        }
        // No moderator at this table: a question the scripted orders left open (a game set to
        // ask) takes the engine's answer.
        if let Some(ruling) = rules::game::Game::default_ruling(&battle) {
            if battle.apply(ruling).is_err() {
                break;
            }
            continue;
        }
        let key = (clock.phase, clock.turn, clock.active);
        if key != turn_key {
            if ais[turn_key.2.index()].is_some() {
                report_times[turn_key.2.index()].push(this_turn);
            }
            this_turn = Duration::ZERO;
            turn_key = key;
        }
        let side = clock.active;
        let pass = Order::pass_in(clock.phase);
        let order = if clock.orders_this_turn >= MAX_ORDERS_PER_TURN {
            pass.clone()
        } else if let Some(ai) = ais[side.index()].as_mut() {
            // The AI thinks on its own side's view (issue 26): hidden enemies absent.
            let ctx = battle.ctx_as(Viewer::Player(side));
            let start = Instant::now();
            let order = loop {
                match ai.think(&ctx, setup.slice) {
                    Think::Order(o) => break o,
                    Think::Thinking => {}
                    Think::Idle => break pass.clone(),
                }
            };
            this_turn += start.elapsed();
            order
        } else {
            match script.next() {
                Some((index, order)) => {
                    battle.apply(order.clone()).map_err(|error| ScriptError { index, order, error })?;
                    continue;
                }
                None => pass.clone(),
            }
        };
        if let Err(e) = battle.apply(order.clone()) {
            refused.push((order, e));
            battle.apply(pass).ok();
        }
    }
    if ais[turn_key.2.index()].is_some() && this_turn > Duration::ZERO {
        report_times[turn_key.2.index()].push(this_turn);
    }
    let longest_slice = ais.iter().flatten().map(|a| a.stats.longest_slice).max().unwrap_or_default();
    Ok(GameReport { battle, turn_times: report_times, longest_slice, refused })
}

/// Results of a tournament between two levels.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: u32,
    /// Wins of A and B, and wins of A by the side it played.
    pub a_wins: u32,
    pub b_wins: u32,
    pub unfinished: u32,
    pub a_wins_as: [u32; 2],
    pub a_games_as: [u32; 2],
}

/// Plays `games` seeded games, A taking red in even games and blue in odd ones.
pub fn tournament(
    scenario: &Scenario,
    a: Level,
    b: Level,
    games: u32,
    first_seed: u64,
    max_rounds: Option<u32>,
) -> Tally {
    let mut t = Tally::default();
    for g in 0..games {
        let seed = first_seed + u64::from(g);
        let a_side = if g % 2 == 0 { Side::Red } else { Side::Blue };
        let players = if a_side == Side::Red { [Some(a), Some(b)] } else { [Some(b), Some(a)] };
        let setup = GameSetup {
            seed,
            players,
            max_rounds,
            orders: Vec::new(),
            slice: Duration::from_secs(3600),
            weights: [None, None],
        };
        let Ok(report) = play(scenario, &setup) else { continue };
        t.games += 1;
        t.a_games_as[a_side.index()] += 1;
        match report.battle.outcome() {
            Some(o) if o.winner == a_side => {
                t.a_wins += 1;
                t.a_wins_as[a_side.index()] += 1;
            }
            Some(_) => t.b_wins += 1,
            None => t.unfinished += 1,
        }
    }
    t
}
