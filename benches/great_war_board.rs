//! What panning the Great War map costs the CPU on the whole of Europe (701,250 hexes): the chunks
//! a view needs, one chunk's features (rivers, bridges, roads, railways, borders, occupation,
//! cities, fortresses, ports) built into its mesh, and the overview image made once per game.
//! Rendering itself is measured under Xvfb (see the closing note of issue 14).

use bevy::math::{Rect, Vec2};
use criterion::{Criterion, criterion_group, criterion_main};
use kriegsspiel::great_war::board::{CHUNK, chunks_in, features_mesh};
use kriegsspiel::great_war::{art, files};
use rules::strategic::Scenario;
use rules::strategic::state::ProvinceState;
use std::hint::black_box;

fn europe() -> Scenario {
    files::load_scenario("scenarios/great_war/august_1914.ron").expect("the Europe 1914 scenario loads")
}

fn board(c: &mut Criterion) {
    let scenario = europe();
    let occupation = vec![ProvinceState::default(); scenario.map.provinces.len()];
    // A chunk over the Rhine (railways, rivers, borders and cities in it).
    let (c0, r0) = (4 * CHUNK, 8 * CHUNK);
    c.bench_function("features_mesh_europe_chunk", |b| {
        b.iter(|| black_box(features_mesh(&scenario, &occupation, c0, r0)))
    });
    let view = Rect::from_center_half_size(Vec2::new(9000.0, -14000.0), Vec2::new(1280.0, 720.0));
    c.bench_function("chunks_in_view_europe", |b| b.iter(|| black_box(chunks_in(&scenario.map, view))));
    c.bench_function("overview_europe", |b| b.iter(|| black_box(art::overview(&scenario.map))));
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = board
}
criterion_main!(benches);
