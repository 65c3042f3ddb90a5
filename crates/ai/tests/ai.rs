//! The AI: deterministic, always legal, finishes every shipped battle, thinks in slices.

use ai::game::{GameSetup, play};
use ai::{Ai, Level, Think};
use rules::tactical::components::Phase;
use rules::tactical::{Battle, Side};
use rules::testing::{shipped, shipped_names};
use web_time::Duration;

#[test]
fn same_seed_same_game() {
    for level in [Level::Recruit, Level::Veteran, Level::Marshal, Level::Greedy, Level::Random] {
        let s = shipped("open_field");
        let a = play(&s, &GameSetup { max_rounds: Some(6), ..GameSetup::ai(7, level, level) }).unwrap();
        let b = play(&s, &GameSetup { max_rounds: Some(6), ..GameSetup::ai(7, level, level) }).unwrap();
        assert_eq!(a.battle.hash(), b.battle.hash(), "{level}");
        assert_eq!(a.battle.orders(), b.battle.orders(), "{level}");
    }
}

#[test]
fn decisions_do_not_depend_on_the_time_slices() {
    let s = shipped("borodino");
    let sliced = play(
        &s,
        &GameSetup {
            max_rounds: Some(3),
            slice: Duration::from_micros(50),
            ..GameSetup::ai(3, Level::Veteran, Level::Marshal)
        },
    )
    .unwrap();
    let whole = play(
        &s,
        &GameSetup {
            max_rounds: Some(3),
            slice: Duration::from_secs(60),
            ..GameSetup::ai(3, Level::Veteran, Level::Marshal)
        },
    )
    .unwrap();
    assert_eq!(sliced.battle.orders(), whole.battle.orders());
    assert!(sliced.battle.orders().len() > 10);
}

#[test]
fn every_ai_finishes_every_shipped_battle_with_legal_orders_only() {
    for name in shipped_names() {
        let s = shipped(&name);
        for (i, (red, blue)) in
            [(Level::Veteran, Level::Marshal), (Level::Greedy, Level::Recruit), (Level::Random, Level::Veteran)]
                .into_iter()
                .enumerate()
        {
            let report = play(&s, &GameSetup::ai(11 + i as u64, red, blue)).unwrap();
            assert!(report.refused.is_empty(), "{name}: {red} v {blue}: refused {:?}", report.refused);
            assert_eq!(report.battle.clock().phase, Phase::Over, "{name}: {red} v {blue} did not finish");
        }
    }
}

#[test]
fn ai_orders_are_always_legal_over_many_seeds() {
    let s = shipped("open_field");
    for seed in 0..6 {
        let report = play(&s, &GameSetup::ai(seed, Level::Marshal, Level::Veteran)).unwrap();
        assert!(report.refused.is_empty(), "seed {seed}: {:?}", report.refused);
    }
}

#[test]
fn think_returns_within_the_budget_and_resumes() {
    let s = shipped("open_field");
    let mut b = Battle::new(&s, 1);
    // Set up quickly, then ask the Marshal for its first battle order in tiny slices.
    while b.clock().phase != Phase::Battle {
        let order = ai::deploy::next_setup_order(&b.ctx(), b.clock().active);
        b.apply(order).unwrap();
    }
    let mut marshal = Ai::new(Side::Red, Level::Marshal, 1);
    let ctx = b.ctx();
    let mut slices = 0;
    let order = loop {
        slices += 1;
        match marshal.think(&ctx, Duration::from_micros(200)) {
            Think::Order(o) => break o,
            Think::Thinking => {}
            Think::Idle => panic!("it is red's turn"),
        }
    };
    assert!(slices > 1, "a whole decision does not fit in 200 µs");
    b.apply(order).unwrap();
    assert_eq!(Ai::new(Side::Blue, Level::Marshal, 1).think(&b.ctx(), Duration::from_millis(1)), Think::Idle);
}

#[test]
fn levels_parse_by_name() {
    for l in Level::ALL {
        assert_eq!(l.name().parse::<Level>(), Ok(l));
    }
    assert!("general".parse::<Level>().is_err());
}
