//! Determinism, replay, illegal orders, and invariants over many random games.

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use rules::Game;
use rules::tactical::components::Phase;
use rules::tactical::scenario::can_stand;
use rules::tactical::{Battle, Order, SaveGame, Status, UnitId};
use rules::testing::{shipped, shipped_names};
use std::collections::BTreeSet;

/// Plays `steps` uniformly random legal orders (end turn weighted down so games progress).
fn random_game(name: &str, seed: u64, steps: usize, mut check: impl FnMut(&Battle)) -> Battle {
    let mut b = Battle::new(&shipped(name), seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9);
    for _ in 0..steps {
        if b.clock().phase == Phase::Over {
            break;
        }
        let orders = b.ctx().legal_orders();
        let pick = (rng.next_u32() as usize) % orders.len();
        let order = orders[pick].clone();
        if let Err(e) = b.apply(order.clone()) {
            panic!("{name} seed {seed}: a legal order was refused: {order:?}: {e}");
        }
        check(&b);
    }
    b
}

fn invariants(b: &Battle) {
    let ctx = b.ctx();
    let mut cells = BTreeSet::new();
    for u in &ctx.units {
        assert!(u.health.current <= u.health.max, "Health never above its maximum: {u:?}");
        if u.status == Status::Active {
            assert!(cells.insert(u.cell), "one unit per cell: {:?}", u.cell);
            let terrain = ctx.grid.terrain(u.cell).expect("on the map");
            assert!(can_stand(ctx.ty(u).arm, terrain).is_ok(), "nothing on impassable terrain: {u:?} on {terrain:?}");
        }
        if u.concealed {
            assert!(!ctx.in_contact(u), "a hidden unit never has an enemy next to it");
        }
    }
}

#[test]
fn same_seed_and_orders_give_the_same_hash() {
    for name in ["open_field", "badajoz", "borodino"] {
        let a = random_game(name, 11, 300, |_| {});
        let b = random_game(name, 11, 300, |_| {});
        assert_eq!(a.hash(), b.hash(), "{name}");
        assert_eq!(a.orders(), b.orders());
        let c = random_game(name, 12, 300, |_| {});
        assert_ne!(a.orders(), c.orders(), "different seeds play differently");
    }
}

#[test]
fn a_save_replays_to_the_same_hash_and_survives_its_text_form() {
    for name in shipped_names() {
        let game = random_game(&name, 5, 250, |_| {});
        let save = game.save();
        let text = save.to_text();
        let back = SaveGame::from_text("game.ron", &text).unwrap();
        assert_eq!(back, save, "{name}: the text form round-trips");
        let replayed = Battle::replay(&back).unwrap();
        assert_eq!(replayed.hash(), game.hash(), "{name}");
        assert_eq!(replayed.events(), game.events(), "{name}: every die falls the same");
    }
}

#[test]
fn a_tampered_save_fails_loudly() {
    let game = random_game("borodino", 3, 120, |_| {});
    let mut save = game.save();
    let last = save.checkpoints.len() - 1;
    save.checkpoints[last].hash = rules::StateHash(save.checkpoints[last].hash.0 ^ 1);
    let err = Battle::replay(&save).unwrap_err().to_string();
    assert!(err.contains("diverged"), "{err}");
    let mut moved = game.save();
    moved.scenario.units[0].name = Some("someone else".into());
    assert!(Battle::replay(&moved).unwrap_err().to_string().contains("altered"));
}

#[test]
fn illegal_orders_are_refused_and_leave_the_world_untouched() {
    let mut b = Battle::new(&shipped("borodino"), 4);
    let bad = [
        Order::Move { unit: UnitId(21), path: vec![rules::tactical::Cell::new(7, 7)], exit: false }, // not red's unit
        Order::Move { unit: UnitId(1), path: vec![rules::tactical::Cell::new(7, 3)], exit: false },  // diagonal
        Order::Fire { unit: UnitId(7), target: UnitId(99) },
        Order::Capitulate,
        Order::EndSetup,
        Order::PlaceRedoubt { cell: rules::tactical::Cell::new(1, 1) },
    ];
    for order in bad {
        let (hash, events, orders) = (b.hash(), b.events().len(), b.orders().len());
        assert!(b.apply(order.clone()).is_err(), "{order:?}");
        assert_eq!(
            (b.hash(), b.events().len(), b.orders().len()),
            (hash, events, orders),
            "{order:?} changed the world"
        );
    }
}

#[test]
fn every_shipped_scenario_plays_to_the_end_without_panicking() {
    for name in shipped_names() {
        let b = random_game(&name, 99, 4000, invariants);
        assert!(b.clock().phase == Phase::Over || b.orders().len() == 4000, "{name}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random legal orders for many seeded games keep the invariants: Health never above its
    /// maximum, one unit per cell, nothing on impassable terrain, removed units never act.
    #[test]
    fn random_games_keep_the_invariants(seed in 0u64..1_000_000, pick in 0usize..5) {
        let names = shipped_names();
        let name = &names[pick % names.len()];
        let mut gone: BTreeSet<UnitId> = BTreeSet::new();
        random_game(name, seed, 400, |b| {
            invariants(b);
            let ctx = b.ctx();
            if let Some(last) = b.orders().last()
                && let Some(unit) = last.unit()
                && !matches!(last, Order::SetReactions { .. })
            {
                assert!(!gone.contains(&unit), "removed unit {unit} acted: {last:?}");
            }
            for u in &ctx.units {
                if !matches!(u.status, Status::Active | Status::Undeployed) {
                    gone.insert(u.id);
                }
            }
        });
    }
}
