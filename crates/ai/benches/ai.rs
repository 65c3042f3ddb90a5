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
    let scenario = open_field();
    let battle = Battle::new(&scenario, 1);
    let ctx = battle.ctx();
    c.bench_function("marshal_think_slice_8ms", |b| {
        b.iter(|| {
            let mut ai = Ai::new(Side::Red, Level::Marshal, 1);
            black_box(matches!(ai.think(&ctx, Duration::from_millis(8)), Think::Order(_)))
        })
    });
}

criterion_group!(benches, battles, think_slice);
criterion_main!(benches);
