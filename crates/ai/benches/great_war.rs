//! The Great War AI's cost: the front of the whole of Europe (the grand campaign, 701,250 hexes),
//! a Marshal power's whole first Movement phase there, every AI power's whole first turn there,
//! and a complete theatre game. `umpire play scenarios/great_war/august_1914.ron --ai all --level
//! marshal --turns N` prints the same per power and turn, with the longest think slice.

use ai::Level;
use ai::great_war::GwAi;
use ai::great_war::front::Front;
use ai::great_war::game::{GwSetup, play};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
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

criterion_group!(benches, grand_campaign, theatre);
criterion_main!(benches);
