//! Great War scale: loading the Europe 1914 map (701,250 hexes), movement on a 500,000-hex map, a
//! full Upkeep with 1,500 divisions, reading a save of the grand campaign (its map packed), and one
//! full turn (every phase, every power passing, every unit) of the grand campaign
//! `scenarios/great_war/august_1914.ron` and of the 1,500-division game.
//! `cargo bench -p rules --bench great_war`

use criterion::BatchSize;
use criterion::{Criterion, criterion_group, criterion_main};
use rules::Game;
use rules::strategic::apply::UPKEEP;
use rules::strategic::game::new_ctx;
use rules::strategic::hexmap::{HexAt, HexMap};
use rules::strategic::order::{Order, Piece};
use rules::strategic::scenario::{ArmySpec, CorpsSpec, ForceSpec, KindSpec, Scenario};
use rules::strategic::state::{Ctx, FormationId, Phase};
use rules::strategic::tables::Model;
use rules::strategic::testkit::{ctx, infantry, scenario, unit};
use std::hint::black_box;

const WIDTH: u32 = 1000;
const HEIGHT: u32 = 500;

/// 750 German and 750 French divisions in contact along the middle of the map, a cavalry
/// division in the west and an army of two corps in the east.
fn big_game() -> Ctx {
    let map = HexMap::generate(WIDTH, HEIGHT, 7);
    let mut forces: Vec<ForceSpec> = Vec::new();
    let mut next = 1;
    for (power, cols) in [("germany", [500, 501, 502]), ("france", [497, 498, 499])] {
        let mut placed = 0;
        'rows: for row in 0..HEIGHT as i32 {
            for col in cols {
                if placed == 750 {
                    break 'rows;
                }
                if map.is_land(HexAt::new(col, row)) {
                    forces.push(infantry(next, power, (col, row)));
                    next += 1;
                    placed += 1;
                }
            }
        }
    }
    let land = |c: i32, r: i32| map.is_land(HexAt::new(c, r));
    let cav =
        (200..400).flat_map(|c| (200..300).map(move |r| (c, r))).find(|(c, r)| land(*c, *r)).unwrap_or((200, 250));
    forces.push(unit(9000, "germany", cav, KindSpec::Cavalry { class: 1, model: Model::M1914, elite: false }));
    let mut corps_hexes = (700..900).flat_map(|c| (240..260).map(move |r| (c, r))).filter(|(c, r)| land(*c, *r));
    let a = corps_hexes.next().unwrap_or((700, 240));
    let b = corps_hexes.find(|h| h.0 > a.0 + 2).unwrap_or((710, 240));
    for (i, at) in [(9001, a), (9002, a), (9003, b), (9004, b)] {
        forces.push(infantry(i, "germany", at));
    }
    let mut s = scenario(map, forces);
    s.corps = vec![
        CorpsSpec { id: 1, name: "I".into(), units: vec![9001, 9002], attached: vec![] },
        CorpsSpec { id: 2, name: "II".into(), units: vec![9003, 9004], attached: vec![] },
    ];
    s.armies = vec![ArmySpec { id: 3, name: "1st Army".into(), corps: vec![1, 2], reserves: vec![], attached: vec![] }];
    ctx(&s, Phase::Movement, 0)
}

fn movement(c: &mut Criterion) {
    let game = big_game();
    let mut group = c.benchmark_group("great_war_movement_500k_hexes");
    group.bench_function("cavalry_25_mp_reachability", |b| {
        b.iter(|| black_box(game.destinations(Piece::Unit(rules::strategic::ForceId(9000))).len()))
    });
    group.bench_function("army_combined_move", |b| {
        b.iter(|| {
            let mut g = game.clone();
            let mut moves = Vec::new();
            for corps in [FormationId(1), FormationId(2)] {
                let dest = g.destinations(Piece::Corps(corps));
                let far = dest.iter().filter(|(_, cost, _)| *cost <= 10).max_by_key(|(h, _, _)| (h.col, h.row));
                if let Some((_, _, path)) = far {
                    moves.push((corps, path.clone()));
                }
            }
            let ok = g.apply(&Order::MoveArmy { army: FormationId(3), moves }).is_ok();
            black_box(ok)
        })
    });
    group.finish();
}

fn upkeep(c: &mut Criterion) {
    let mut game = big_game();
    game.clock.phase = Phase::Upkeep;
    let mut group = c.benchmark_group("great_war_upkeep");
    group.sample_size(20);
    group.bench_function("full_upkeep_1500_divisions", |b| {
        b.iter(|| {
            let mut g = game.clone();
            for (_, step) in UPKEEP {
                step(&mut g);
            }
            black_box(g.events.len())
        })
    });
    group.finish();
}

/// Reading, parsing and building maps/europe_1914.ron (budget: well under 1 s native).
fn load_europe(c: &mut Criterion) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../maps/europe_1914.ron");
    let mut group = c.benchmark_group("great_war_map");
    group.sample_size(10);
    group.bench_function("load_europe_1914", |b| {
        b.iter(|| {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            black_box(HexMap::parse(path, &text).map(|m| m.len()).unwrap_or(0))
        })
    });
    // A save of the grand campaign as `umpire replay` reads it: the text parsed, the packed map
    // unpacked and checked (hexmap::PACKED_ABOVE_HEXES).
    let (_, scenario) = campaign_scenario();
    let text = rules::strategic::GreatWar::new(&scenario, 1).save().to_text();
    group.bench_function(format!("read_grand_campaign_save_{}_bytes", text.len()), |b| {
        b.iter(|| black_box(rules::strategic::SaveGame::from_text("save.ron", &text).map(|s| s.orders.len()).ok()))
    });
    group.finish();
}

/// Every power passes every phase until the next turn begins (or the game ends): Preparation,
/// Movement, Fire, Combat and Upkeep with all their automatic steps.
fn pass_one_turn(mut c: Ctx) -> usize {
    let turn = c.clock.turn;
    while c.clock.turn == turn && c.clock.phase != Phase::Over {
        if c.apply(&Order::EndPhase).is_err() {
            break;
        }
    }
    c.events.len()
}

/// The grand campaign when it is shipped, else the largest shipped Great War scenario.
fn campaign_scenario() -> (String, Scenario) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios/great_war/");
    for name in ["august_1914", "test_front"] {
        let path = format!("{dir}{name}.ron");
        if let Ok(s) = Scenario::load(std::path::Path::new(&path)) {
            return (name.to_string(), s);
        }
    }
    panic!("no Great War scenario to bench in {dir}");
}

fn full_turn(c: &mut Criterion) {
    let (name, scenario) = campaign_scenario();
    let start = new_ctx(&scenario, 1);
    let mut group = c.benchmark_group("great_war_full_turn");
    group.sample_size(10);
    group.bench_function(format!("{name}_{}_units", start.forces.len()), |b| {
        b.iter_batched(|| start.clone(), |g| black_box(pass_one_turn(g)), BatchSize::LargeInput)
    });
    let mut big = big_game();
    big.clock.phase = Phase::Preparation;
    group.bench_function("synthetic_1505_divisions_500k_hexes", |b| {
        b.iter_batched(|| big.clone(), |g| black_box(pass_one_turn(g)), BatchSize::LargeInput)
    });
    group.finish();
}

criterion_group!(benches, load_europe, movement, upkeep, full_turn);
criterion_main!(benches);
