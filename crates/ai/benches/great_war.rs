//! The Great War AI's cost: the front of the whole of Europe (the grand campaign, 701,250 hexes),
//! a Marshal power's whole first Movement phase there, every AI power's whole first turn there,
//! and a complete theatre game. `umpire play scenarios/great_war/august_1914.ron --ai all --level
//! marshal --turns N` prints the same per power and turn, with the longest think slice.
//!
//! Before the timed benches, a slice report plays the grand campaign's first two turns and every
//! theatre scenario with every power a Marshal thinking in 8 ms slices, and prints each power's
//! time per turn (mean, max) and the longest slice, by the wall clock and by the thread's CPU time
//! (what the slice takes on a core of its own: on a shared machine the wall clock also counts the
//! time the scheduler gave to other work), with the staffs' steps by kind.

use ai::Level;
use ai::great_war::GwAi;
use ai::great_war::front::Front;
use ai::great_war::game::{GwSetup, play};
use criterion::{BatchSize, Criterion, criterion_group};
use rules::Game;
use rules::strategic::{GreatWar, Order, Phase, PowerId, Scenario};
use std::hint::black_box;
use std::path::Path;
use web_time::Duration;

fn load(name: &str) -> Scenario {
    Scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/great_war").join(name))
        .expect("scenario")
}

/// The grand campaign with every power before `power` passed up to `power`'s first Movement.
fn at_movement(s: &Scenario, power: PowerId) -> GreatWar {
    let mut game = GreatWar::new(s, 1);
    while let Some(active) = game.active_player() {
        let ctx = game.ctx();
        if ctx.clock.phase == Phase::Movement && active == power {
            break;
        }
        game.apply(Order::EndPhase).expect("a pass");
    }
    game
}

fn grand_campaign(c: &mut Criterion) {
    let s = load("august_1914.ron");
    let germany = PowerId(s.powers.iter().position(|p| p.id == "germany").expect("germany") as u8);
    let mut group = c.benchmark_group("great_war_grand_campaign");
    group.sample_size(10);
    let game = at_movement(&s, germany);
    let ctx = game.ctx();
    group.bench_function("front_of_germany", |b| b.iter(|| black_box(Front::of(&ctx, germany).line.len())));
    group.bench_function("marshal_germany_first_movement_phase", |b| {
        b.iter_batched(
            || at_movement(&s, germany),
            |mut game| {
                let mut ai = GwAi::new(germany, Level::Marshal, 1);
                while game.active_player() == Some(germany) && game.ctx().clock.phase == Phase::Movement {
                    let order = ai.decide(&game.ctx()).expect("its turn");
                    if game.apply(order).is_err() {
                        break;
                    }
                }
                black_box(game.hash())
            },
            BatchSize::PerIteration,
        )
    });
    group.bench_function("marshal_every_power_first_turn", |b| {
        let setup = GwSetup { max_turns: Some(1), ..GwSetup::all(&s, 1, Level::Marshal) };
        b.iter(|| black_box(play(&s, &setup).expect("plays").game.hash()))
    });
    group.finish();
}

fn theatre(c: &mut Criterion) {
    let s = load("test_front.ron");
    let mut group = c.benchmark_group("great_war_theatre");
    group.sample_size(10);
    let mut seed = 0;
    group.bench_function("marshal_v_greedy_test_front_whole_game", |b| {
        b.iter(|| {
            seed += 1;
            let players = s.powers.iter().map(|p| Some(if p.alliance == 0 { Level::Marshal } else { Level::Greedy }));
            let setup = GwSetup {
                seed,
                players: players.collect(),
                max_turns: None,
                orders: Vec::new(),
                slice: Duration::from_millis(8),
            };
            black_box(play(&s, &setup).expect("plays").game.hash())
        })
    });
    group.finish();
}

/// The thread's CPU time (on a non-unix host, the wall clock).
#[cfg(unix)]
fn cpu_now() -> std::time::Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    std::time::Duration::new(u64::try_from(t.tv_sec).unwrap_or(0), u32::try_from(t.tv_nsec).unwrap_or(0))
}

#[cfg(not(unix))]
fn cpu_now() -> std::time::Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

/// Plays `turns` turns (all when `None`) with every power a Marshal in 8 ms slices and prints the
/// time per power per turn and the longest slice, by wall clock and CPU time.
fn slice_report(name: &str, turns: Option<u32>) {
    let s = load(name);
    let slice = Duration::from_millis(8);
    let mut game = GreatWar::new(&s, 1);
    let powers = game.players();
    let mut ais: Vec<GwAi> = powers.iter().map(|p| GwAi::new(*p, Level::Marshal, 1)).collect();
    // Per power: per turn (wall, cpu); the longest slice (wall, cpu).
    let mut per_turn: Vec<Vec<(std::time::Duration, std::time::Duration)>> = vec![Vec::new(); powers.len()];
    let mut longest = vec![(std::time::Duration::ZERO, std::time::Duration::ZERO); powers.len()];
    let first = game.turn();
    let (mut phase_key, mut given) = (None, 0u32);
    while let Some(active) = game.active_player() {
        let turn = game.turn();
        if turns.is_some_and(|t| turn >= first + t) {
            break;
        }
        let key = (turn, game.ctx().clock.phase, active);
        if phase_key != Some(key) {
            phase_key = Some(key);
            given = 0;
        }
        let i = usize::from(active.0);
        let ctx = game.ctx();
        let order = loop {
            if given >= 300 {
                break Order::EndPhase;
            }
            let (w0, c0) = (std::time::Instant::now(), cpu_now());
            let think = ais[i].think(&ctx, slice);
            let (wall, cpu) = (w0.elapsed(), cpu_now().saturating_sub(c0));
            let slot = (turn - first) as usize;
            if per_turn[i].len() <= slot {
                per_turn[i].resize(slot + 1, Default::default());
            }
            per_turn[i][slot].0 += wall;
            per_turn[i][slot].1 += cpu;
            longest[i].0 = longest[i].0.max(wall);
            longest[i].1 = longest[i].1.max(cpu);
            match think {
                ai::Think::Order(o) => break o,
                ai::Think::Thinking => {}
                ai::Think::Idle => break Order::EndPhase,
            }
        };
        given += 1;
        if game.apply(order).is_err() {
            game.apply(Order::EndPhase).ok();
        }
    }
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    println!("slice report: {} ({} turns, every power a Marshal, 8 ms slices)", s.name, game.turn() - first);
    for (i, times) in per_turn.iter().enumerate() {
        if times.iter().all(|t| t.0.is_zero()) {
            continue;
        }
        let n = times.len() as f64;
        let mean = |f: fn(&(std::time::Duration, std::time::Duration)) -> std::time::Duration| {
            times.iter().map(|t| ms(f(t))).sum::<f64>() / n
        };
        let max = |f: fn(&(std::time::Duration, std::time::Duration)) -> std::time::Duration| {
            times.iter().map(|t| ms(f(t))).fold(0.0, f64::max)
        };
        println!(
            "  {:<16} per turn: wall mean {:7.1} max {:7.1} ms, CPU mean {:7.1} max {:7.1} ms; longest slice wall {:5.1} ms, CPU {:5.1} ms",
            s.powers[i].id,
            mean(|t| t.0),
            max(|t| t.0),
            mean(|t| t.1),
            max(|t| t.1),
            ms(longest[i].0),
            ms(longest[i].1)
        );
    }
    let (wall, cpu) = longest
        .iter()
        .fold(Default::default(), |a: (std::time::Duration, std::time::Duration), l| (a.0.max(l.0), a.1.max(l.1)));
    println!("  longest slice of all: wall {:.1} ms, CPU {:.1} ms", ms(wall), ms(cpu));
    let mut steps = ai::great_war::staff::StepTimes::default();
    for a in &ais {
        if let Some(s) = a.steps() {
            steps.merge(s);
        }
    }
    let mut kinds: Vec<_> = steps.0.iter().collect();
    kinds.sort_by_key(|(kind, t)| (std::cmp::Reverse(t.longest), **kind));
    let list: Vec<String> = kinds
        .iter()
        .take(8)
        .map(|(k, t)| {
            format!("{k} {} × mean {:.2} max {:.1} ms", t.count, ms(t.total) / f64::from(t.count.max(1)), ms(t.longest))
        })
        .collect();
    println!("  steps by kind (wall clock), longest first: {}", list.join("; "));
}

fn slice_reports() {
    slice_report("august_1914.ron", Some(2));
    for name in ["test_front.ron", "east_prussia_1914.ron", "frontiers_marne_1914.ron", "north_sea_1916.ron"] {
        slice_report(name, None);
    }
}

criterion_group!(benches, grand_campaign, theatre);

fn main() {
    // `cargo bench -p ai --bench great_war -- --list` and test runs skip the report.
    if !std::env::args().any(|a| a == "--list" || a == "--test") {
        slice_reports();
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
