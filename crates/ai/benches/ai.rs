//! AI throughput: complete 10 v 10 battles, Veteran against Veteran, and one think slice.

use ai::game::{GameSetup, play};
use ai::{Ai, Level, Think};
use criterion::{Criterion, criterion_group, criterion_main};
use rules::tactical::{Battle, Scenario, Side};
use std::hint::black_box;
use std::path::Path;
use web_time::Duration;

fn open_field() -> Scenario {
    Scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/open_field.ron")).expect("scenario")
}

fn battles(c: &mut Criterion) {
    let scenario = open_field();
    let mut group = c.benchmark_group("battle");
    group.sample_size(10);
    let mut seed = 0;
    group.bench_function("veteran_v_veteran_open_field", |b| {
        b.iter(|| {
            seed += 1;
            let report = play(&scenario, &GameSetup::ai(seed, Level::Veteran, Level::Veteran)).expect("plays");
            black_box(report.battle.hash())
        })
    });
    group.finish();
}

fn think_slice(c: &mut Criterion) {
    // A battle already joined: the Semyonovskoye flèches after a few Veteran rounds.
    let scenario =
        Scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/borodino.ron")).expect("scenario");
    let setup = GameSetup { max_rounds: Some(3), ..GameSetup::ai(2, Level::Veteran, Level::Veteran) };
    let battle: Battle = play(&scenario, &setup).expect("plays").battle;
    let ctx = battle.ctx();
    let side = ctx.clock.active;
    c.bench_function("marshal_first_decision_in_5ms_slices", |b| {
        b.iter(|| {
            let mut ai = Ai::new(side, Level::Marshal, 1);
            let mut slices = 0u32;
            while !matches!(ai.think(&ctx, Duration::from_millis(5)), Think::Order(_)) {
                slices += 1;
            }
            black_box((slices, ai.stats.longest_slice))
        })
    });
    let _ = Side::Red;
}

criterion_group!(benches, battles, think_slice);
criterion_main!(benches);
