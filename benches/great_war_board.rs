//! What panning the Great War map costs the CPU on the whole of Europe (701,250 hexes): the chunks
//! a view needs, one chunk's features (rivers, bridges, roads, railways, borders, occupation,
//! cities, fortresses, ports) built into its mesh, and the overview image made once per game.
//! Rendering itself is measured under Xvfb (see the closing note of issue 14). The overlays'
//! values and pictures on the same map are measured too.

use bevy::math::{Rect, Vec2};
use criterion::{Criterion, criterion_group, criterion_main};
use kriegsspiel::great_war::board::{CHUNK, chunks_in, features_mesh};
use kriegsspiel::great_war::{art, files, layers};
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

/// The overlays on the whole of Europe in August 1914: the values worked out when the game
/// changes with an overlay on (supply, front line, encirclement, sea lanes), the sea areas
/// placed once a game, and the climate tint made once a game.
fn overlays(c: &mut Criterion) {
    let scenario = europe();
    let ctx = rules::strategic::GreatWar::new(&scenario, 1).ctx();
    c.bench_function("overlay_supply_europe", |b| b.iter(|| black_box(layers::supply(&ctx))));
    c.bench_function("overlay_front_line_europe", |b| b.iter(|| black_box(layers::front_line(&ctx))));
    c.bench_function("overlay_encirclement_europe", |b| b.iter(|| black_box(layers::encirclement(&ctx))));
    c.bench_function("overlay_lanes_europe", |b| b.iter(|| black_box(layers::lanes(&ctx))));
    c.bench_function("sea_places_europe", |b| b.iter(|| black_box(layers::sea_places(&scenario.map))));
    let map = &scenario.map;
    c.bench_function("climate_tint_europe", |b| {
        b.iter(|| {
            let harsh = map
                .hexes()
                .filter_map(|at| map.cell(at).filter(|c| c.climate.is_harsh()).map(|_| (at, [150, 90, 200, 110])));
            black_box(layers::tint_image(map, harsh))
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = board, overlays
}
criterion_main!(benches);
