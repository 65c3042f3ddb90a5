//! Playing whole Great War games with AI powers: for the referee, tournaments, tests and benches.

use super::GwAi;
use super::judge::war_score;
use crate::{Level, Think};
use rules::Game;
use rules::strategic::{GreatWar, Order, OrderError, Phase, PowerId, Scenario};
use rules::view::{Sight, Viewer};
use web_time::{Duration, Instant};

/// How a game is played.
#[derive(Clone, Debug)]
pub struct GwSetup {
    pub seed: u64,
    /// The AI of each power in the scenario's order; `None` = orders from `orders`.
    pub players: Vec<Option<Level>>,
    /// Stop after this many turns (the scenario may end sooner).
    pub max_turns: Option<u32>,
    /// Orders for the powers without an AI, taken in turn; when they run out such a power passes.
    pub orders: Vec<Order>,
    /// The AI thinks in slices of this length (the decisions do not depend on it).
    pub slice: Duration,
}

impl GwSetup {
    /// Every power played by the AI at `level`.
    pub fn all(scenario: &Scenario, seed: u64, level: Level) -> GwSetup {
        GwSetup {
            seed,
            players: vec![Some(level); scenario.powers.len()],
            max_turns: None,
            orders: Vec::new(),
            slice: Duration::from_millis(8),
        }
    }
}

/// What happened.
#[derive(Debug)]
pub struct GwReport {
    pub game: GreatWar,
    /// Thinking time of each power in each turn (all its phases together).
    pub turn_times: Vec<Vec<Duration>>,
    /// The longest single think slice.
    pub longest_slice: Duration,
    /// The longest think slice of each power (zero for a power without an AI).
    pub longest_slices: Vec<Duration>,
    /// Orders an AI gave that the engine refused (should stay empty).
    pub refused: Vec<(PowerId, Order, OrderError)>,
    /// How long the general staffs' steps took, by kind, all powers together.
    pub steps: super::staff::StepTimes,
}

impl GwReport {
    /// Mean and max thinking time per turn of a power.
    pub fn turn_time(&self, power: PowerId) -> (Duration, Duration) {
        let times = self.turn_times.get(usize::from(power.0)).map_or(&[][..], Vec::as_slice);
        let max = times.iter().copied().max().unwrap_or_default();
        let mean = if times.is_empty() { Duration::ZERO } else { times.iter().sum::<Duration>() / times.len() as u32 };
        (mean, max)
    }

    /// The alliances' scores by [`war_score`] and the alliance ahead by it (`None`: level).
    pub fn result(&self) -> ([i64; 2], Option<usize>) {
        let s = war_score(&self.game.ctx());
        let winner = match s[0].cmp(&s[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        (s, winner)
    }

    /// How the game ended by the scenario's own victory conditions, from alliance 0's side.
    pub fn verdict(&self) -> Verdict {
        Verdict::of(&self.game.ctx())
    }
}

/// How a game ended for alliance 0, by the scenario's victory conditions first (the engine's
/// `victory.rs`): a surrender of every enemy power at war, then the victory-point margin at the
/// end; where those are level (or the scenario has no victory block), the war score's margin
/// ([`war_score`]: losses inflicted, provinces and ships taken). Ordered: a greater verdict is a
/// better result for alliance 0, so alliance 1's result is the reverse order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Verdict {
    /// +1: alliance 0 won by surrender; −1: alliance 1 did; 0: no surrender.
    pub surrender: i8,
    /// Alliance 0's victory points less alliance 1's (0 without a victory block).
    pub points: i64,
    /// Alliance 0's war score less alliance 1's.
    pub war_score: i64,
}

impl Verdict {
    pub fn of(ctx: &rules::strategic::Ctx) -> Verdict {
        use rules::strategic::campaign::Outcome;
        let war = war_score(ctx);
        let mut v = Verdict { surrender: 0, points: 0, war_score: war[0] - war[1] };
        if ctx.scenario().victory.is_none() {
            return v;
        }
        if let Some(Outcome::Surrender { winner }) = ctx.outcome() {
            v.surrender = if winner == 0 { 1 } else { -1 };
        }
        // A game stopped before its end (`max_turns`) is judged by the points it stands at.
        let points = ctx.victory_points();
        v.points = i64::try_from(points[0]).unwrap_or(i64::MAX) - i64::try_from(points[1]).unwrap_or(i64::MAX);
        v
    }

    /// The alliance that won this game by the scenario (the war score where the scenario has no
    /// victory block or its points are level); `None`: a draw.
    pub fn winner(&self) -> Option<usize> {
        match self.cmp(&Verdict::default()) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// A pair of games on the same seed: A takes alliance 0 in the first and B in the second. A did
/// better than B when its result in the seat was better than B's in the same seat: alliance 0's
/// verdict was greater when A held it (and then, by the same numbers, A as alliance 1 also did
/// better than B did there). A scenario that favours one alliance gives that alliance's player the
/// same head start in both games, so only the play decides. `Some(true)`: A won the pair,
/// `Some(false)`: B did, `None`: level.
pub fn pair_winner(a_as_0: Verdict, b_as_0: Verdict) -> Option<bool> {
    match a_as_0.cmp(&b_as_0) {
        std::cmp::Ordering::Greater => Some(true),
        std::cmp::Ordering::Less => Some(false),
        std::cmp::Ordering::Equal => None,
    }
}

/// An order from the list for a power without an AI could not be applied.
#[derive(Debug)]
pub struct GwScriptError {
    pub index: usize,
    pub order: Order,
    /// Boxed: an order's error names its words (`Msg`), too large to return by value.
    pub error: Box<OrderError>,
}

/// Orders a power may give in one part of a phase before the game passes for it.
const MAX_ORDERS_PER_PHASE: usize = 300;

/// Plays a Great War game to its end (or to `max_turns`).
pub fn play(scenario: &Scenario, setup: &GwSetup) -> Result<GwReport, GwScriptError> {
    let mut game = GreatWar::new(scenario, setup.seed);
    let powers = game.players();
    let mut ais: Vec<Option<GwAi>> = powers
        .iter()
        .map(|p| setup.players.get(usize::from(p.0)).copied().flatten().map(|l| GwAi::new(*p, l, setup.seed)))
        .collect();
    let mut script = setup.orders.iter().cloned().enumerate();
    let mut turn_times: Vec<Vec<Duration>> = vec![Vec::new(); powers.len()];
    let mut refused = Vec::new();
    let mut phase_key = None;
    let mut given = 0usize;
    let first_turn = game.turn();
    loop {
        // No moderator at this table: a question the scripted orders left open (a war set to
        // ask) takes the engine's answer.
        if let Some(ruling) = rules::game::Game::default_ruling(&game) {
            if game.apply(ruling).is_err() {
                break;
            }
            continue;
        }
        let Some(active) = game.active_player() else { break };
        let turn = game.turn();
        if setup.max_turns.is_some_and(|m| turn >= first_turn + m) {
            break;
        }
        let key = (turn, game.ctx().clock.phase, active);
        if phase_key != Some(key) {
            phase_key = Some(key);
            given = 0;
        }
        let i = usize::from(active.0);
        let order = if given >= MAX_ORDERS_PER_PHASE {
            Order::EndPhase
        } else if let Some(ai) = ais.get_mut(i).and_then(Option::as_mut) {
            // The AI thinks on its own power's view (issue 26): undetected boats, the others'
            // reserves and treasuries absent.
            let ctx = game.ctx_as(Viewer::Player(active));
            let start = Instant::now();
            let order = loop {
                match ai.think(&ctx, setup.slice) {
                    Think::Order(o) => break o,
                    Think::Thinking => {}
                    Think::Idle => break Order::EndPhase,
                }
            };
            let times = &mut turn_times[i];
            let slot = (turn - first_turn) as usize;
            if times.len() <= slot {
                times.resize(slot + 1, Duration::ZERO);
            }
            times[slot] += start.elapsed();
            order
        } else {
            match script.next() {
                Some((index, order)) => {
                    game.apply(order.clone()).map_err(|error| GwScriptError {
                        index,
                        order,
                        error: Box::new(error),
                    })?;
                    given += 1;
                    continue;
                }
                None => Order::EndPhase,
            }
        };
        given += 1;
        if let Err(e) = game.apply(order.clone()) {
            refused.push((active, order, e));
            game.apply(Order::EndPhase).ok();
        }
    }
    for (i, t) in turn_times.iter_mut().enumerate() {
        if ais[i].is_none() {
            t.clear();
        }
    }
    let longest_slice = ais.iter().flatten().map(|a| a.stats.longest_slice).max().unwrap_or_default();
    let longest_slices = ais.iter().map(|a| a.as_ref().map_or(Duration::ZERO, |a| a.stats.longest_slice)).collect();
    let mut steps = super::staff::StepTimes::default();
    for ai in ais.iter().flatten() {
        if let Some(s) = ai.steps() {
            steps.merge(s);
        }
    }
    Ok(GwReport { game, turn_times, longest_slice, longest_slices, refused, steps })
}

/// Results of a tournament between two levels, in pairs of games with the alliances swapped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GwTally {
    /// Pairs played, won by A, won by B, level.
    pub pairs: u32,
    pub a_pairs: u32,
    pub b_pairs: u32,
    pub level_pairs: u32,
    /// Games played and their winners by the scenario alone ([`Verdict::winner`]).
    pub games: u32,
    pub a_wins: u32,
    pub b_wins: u32,
    pub draws: u32,
    /// A's wins and games by the alliance it played.
    pub a_wins_as: [u32; 2],
    pub a_games_as: [u32; 2],
    /// Orders the engine refused from either AI (should stay 0).
    pub refused: u32,
    /// Mean and max AI time per power per turn over all games, and the longest slice.
    pub mean_turn: Duration,
    pub max_turn: Duration,
    pub longest_slice: Duration,
    /// The same for A's powers and for B's: mean and max time per power per turn, longest slice.
    pub by_level: [LevelTimes; 2],
}

/// Thinking times of the powers one level played in a tournament.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelTimes {
    pub mean_turn: Duration,
    pub max_turn: Duration,
    pub longest_slice: Duration,
}

/// Plays `pairs` pairs of seeded games (pair i on seed `first_seed + i`): A takes alliance 0 in
/// the first game of a pair and alliance 1 in the second; each pair is judged by [`pair_winner`].
pub fn tournament(scenario: &Scenario, a: Level, b: Level, pairs: u32, first_seed: u64, slice: Duration) -> GwTally {
    let mut t = GwTally::default();
    let (mut sum, mut n) = (Duration::ZERO, 0u32);
    let mut level_sum = [(Duration::ZERO, 0u32); 2];
    for pair in 0..pairs {
        let seed = first_seed + u64::from(pair);
        let mut verdicts = [Verdict::default(); 2];
        let mut complete = true;
        for (a_alliance, verdict) in verdicts.iter_mut().enumerate() {
            let players = scenario
                .powers
                .iter()
                .map(|p| Some(if usize::from(p.alliance.min(1)) == a_alliance { a } else { b }))
                .collect();
            let setup = GwSetup { seed, players, max_turns: None, orders: Vec::new(), slice };
            let Ok(report) = play(scenario, &setup) else {
                complete = false;
                continue;
            };
            t.games += 1;
            t.a_games_as[a_alliance] += 1;
            t.refused += report.refused.len() as u32;
            for (i, times) in report.turn_times.iter().enumerate() {
                let side = usize::from(usize::from(scenario.powers[i].alliance.min(1)) != a_alliance);
                for d in times {
                    sum += *d;
                    n += 1;
                    t.max_turn = t.max_turn.max(*d);
                    level_sum[side].0 += *d;
                    level_sum[side].1 += 1;
                    t.by_level[side].max_turn = t.by_level[side].max_turn.max(*d);
                }
                let slice = report.longest_slices.get(i).copied().unwrap_or_default();
                t.by_level[side].longest_slice = t.by_level[side].longest_slice.max(slice);
            }
            t.longest_slice = t.longest_slice.max(report.longest_slice);
            *verdict = report.verdict();
            match verdict.winner() {
                Some(w) if w == a_alliance => {
                    t.a_wins += 1;
                    t.a_wins_as[a_alliance] += 1;
                }
                Some(_) => t.b_wins += 1,
                None => t.draws += 1,
            }
        }
        if !complete {
            continue;
        }
        t.pairs += 1;
        match pair_winner(verdicts[0], verdicts[1]) {
            Some(true) => t.a_pairs += 1,
            Some(false) => t.b_pairs += 1,
            None => t.level_pairs += 1,
        }
    }
    t.mean_turn = if n == 0 { Duration::ZERO } else { sum / n };
    for (side, (sum, n)) in level_sum.iter().enumerate() {
        t.by_level[side].mean_turn = if *n == 0 { Duration::ZERO } else { *sum / *n };
    }
    t
}

/// Whether the game has ended (for callers that step it).
pub fn over(game: &GreatWar) -> bool {
    game.ctx().clock.phase == Phase::Over
}
