//! Great War games as a whole: the shipped scenario, phase schedules run alone, determinism,
//! saves that replay bit-identically, and invariants over many seeded games of random legal orders.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use rules::Game;
use rules::strategic::apply::PhaseSchedule;
use rules::strategic::game::SaveGame;
use rules::strategic::hexmap::HexAt;
use rules::strategic::order::{Order, Piece};
use rules::strategic::state::{Ctx, ForceKind, FormationKind, Phase, Place};
use rules::strategic::testkit::run_phase;
use rules::strategic::{GreatWar, ReplayError, Scenario};
use std::collections::BTreeMap;
use std::path::Path;

fn test_front() -> Scenario {
    Scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/great_war/test_front.ron"))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn scripted_orders() -> Vec<Order> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/great_war/test_front_orders.ron");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    rules::data::parse_ron(&path.to_string_lossy(), &text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_test_front_has_every_unit_kind_and_terrain() {
    let s = test_front();
    let g = GreatWar::new(&s, 1);
    let c = g.ctx();
    let kinds = |f: fn(&ForceKind) -> bool| c.forces.iter().filter(|u| f(&u.kind)).count();
    assert!(kinds(|k| matches!(k, ForceKind::Infantry { mountain: true, .. })) >= 2);
    assert!(kinds(|k| matches!(k, ForceKind::Infantry { elite: true, .. })) >= 2);
    assert!(kinds(|k| matches!(k, ForceKind::Infantry { colonial: true, .. })) >= 3);
    assert!(kinds(|k| matches!(k, ForceKind::Cavalry { .. })) >= 2);
    assert!(kinds(|k| matches!(k, ForceKind::Tank { .. })) >= 3);
    assert!(kinds(|k| matches!(k, ForceKind::Artillery { .. })) >= 5);
    let mut terrains: Vec<_> = s.map.hexes().filter_map(|h| s.map.terrain(h)).collect();
    terrains.sort();
    terrains.dedup();
    assert_eq!(terrains.len(), 8, "every terrain");
    assert_eq!(c.formations.iter().filter(|f| f.kind == FormationKind::Army).count(), 1);
}

#[test]
fn s_turn_2_phases_are_schedules_that_run_alone() {
    let s = test_front();
    let g = GreatWar::new(&s, 1);
    // Bring France's 20e Corps next to the Germans' corps and run only the Combat schedule.
    let mut c = g.ctx();
    {
        let f = c.force_mut(rules::strategic::ForceId(30)).unwrap_or_else(|| panic!("unit 30"));
        f.place = Place::Map(HexAt::new(13, 6));
        c.rebuild_occupancy();
    }
    let events = run_phase(&mut c, PhaseSchedule::Combat);
    assert!(events.iter().any(|e| matches!(e.kind, rules::strategic::EventKind::Engagement { .. })), "{events:?}");
    // The Upkeep schedule alone pays the troops.
    let money = c.powers[0].money;
    let events = run_phase(&mut c, PhaseSchedule::Upkeep);
    assert!(events.iter().any(|e| matches!(e.kind, rules::strategic::EventKind::Supply { .. })));
    assert_ne!(c.powers[0].money, money);
    // Preparation alone starts a turn; Movement alone readies the fleets; Fire alone restores damage
    // that destroyed nothing (S-TURN-3).
    run_phase(&mut c, PhaseSchedule::Preparation);
    assert_eq!(c.clock.phase, Phase::Preparation);
    c.hex_state_mut(HexAt::new(9, 6)).damage = 1;
    run_phase(&mut c, PhaseSchedule::Fire);
    assert_eq!(c.hex_state(HexAt::new(9, 6)).damage, 0);
    let s = Scenario::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/great_war/north_sea_1916.ron"))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut sea = GreatWar::new(&s, 1).ctx();
    assert_eq!(sea.navy.fleets[0].mp_left, 0);
    run_phase(&mut sea, PhaseSchedule::Movement);
    assert_eq!(sea.navy.fleets[0].mp_left, 20, "the Grand Fleet moves at its battleships' 20");
}

#[test]
fn same_seed_and_orders_give_the_same_hash_and_saves_replay() {
    let s = test_front();
    let play = |seed| {
        let mut g = GreatWar::new(&s, seed);
        for o in scripted_orders() {
            g.apply(o.clone()).unwrap_or_else(|e| panic!("{o:?}: {e}"));
        }
        g
    };
    let a = play(5);
    let b = play(5);
    assert_eq!(a.hash(), b.hash());
    assert_eq!(a.clock().turn, 6);
    let save = a.save();
    let text = save.to_text();
    let back = SaveGame::from_text("gw.ron", &text).unwrap_or_else(|e| panic!("{e}"));
    let replayed = GreatWar::replay(&back).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replayed.hash(), a.hash());
    // A changed seed is caught at the first checkpoint that differs (the gas die).
    let mut bad = back.clone();
    bad.seed = 6;
    assert!(matches!(GreatWar::replay(&bad), Err(ReplayError::Diverged { .. })));
    let mut bad = back;
    bad.scenario.max_turns += 1;
    assert!(matches!(GreatWar::replay(&bad), Err(ReplayError::ScenarioHash { .. })));
}

/// A random legal order for the power to act, or EndPhase.
fn random_order(c: &Ctx, rng: &mut ChaCha8Rng) -> Order {
    let power = c.active_power();
    if rng.next_u32().is_multiple_of(4) {
        return Order::EndPhase;
    }
    match c.clock.phase {
        Phase::Movement => {
            let pieces: Vec<Piece> = c
                .forces
                .iter()
                .filter(|f| f.power == power && f.on_map() && f.member.corps.is_none() && f.member.army.is_none())
                .map(|f| Piece::Unit(f.id))
                .chain(
                    c.formations
                        .iter()
                        .filter(|f| f.power == power && f.kind == FormationKind::Corps)
                        .map(|f| Piece::Corps(f.id)),
                )
                .collect();
            if pieces.is_empty() {
                return Order::EndPhase;
            }
            let piece = pieces[(rng.next_u32() as usize) % pieces.len()];
            if rng.next_u32().is_multiple_of(5) {
                return Order::Fortify { piece };
            }
            let dest = c.destinations(piece);
            if dest.is_empty() {
                return Order::EndPhase;
            }
            let (_, _, path) = &dest[(rng.next_u32() as usize) % dest.len()];
            Order::Move { piece, path: path.clone() }
        }
        Phase::Fire => {
            let guns: Vec<_> =
                c.forces.iter().filter(|f| f.power == power && f.kind.is_artillery() && f.present()).collect();
            let targets: Vec<HexAt> =
                c.forces.iter().filter(|f| c.hostile(power, f.power)).filter_map(|f| f.hex()).collect();
            if guns.is_empty() || targets.is_empty() {
                return Order::EndPhase;
            }
            let g = guns[(rng.next_u32() as usize) % guns.len()];
            let t = targets[(rng.next_u32() as usize) % targets.len()];
            Order::Fire { unit: g.id, target: t, gas: rng.next_u32().is_multiple_of(3) }
        }
        _ => Order::EndPhase,
    }
}

fn check_invariants(c: &Ctx, seed: u64) {
    let mut per_hex: BTreeMap<HexAt, Vec<&rules::strategic::state::Force>> = BTreeMap::new();
    for f in &c.forces {
        assert!(f.vitals.health <= f.vitals.max_health, "seed {seed}: Health above maximum");
        if let (Some(m), Some(mm)) = (f.vitals.morale, f.vitals.max_morale) {
            assert!((0..=mm).contains(&m), "seed {seed}: Morale out of range");
        }
        if let Some(h) = f.hex() {
            assert!(c.map().is_land(h), "seed {seed}: {} stands on water at {h}", f.id);
            assert!(f.vitals.health > 0, "seed {seed}: {} on the map at Health 0", f.id);
            per_hex.entry(h).or_default().push(f);
        }
    }
    for (h, units) in per_hex {
        // S-ARMY-4: one division, one corps or one artillery division or battery per hex.
        let corps: Vec<_> =
            units.iter().map(|u| u.member.corps.map(|c| c.0).or(u.member.battery.map(|b| b.0 + 1_000_000))).collect();
        let one_group = units.len() == 1 || corps.iter().all(|c| c.is_some() && *c == corps[0]);
        assert!(one_group, "seed {seed}: hex {h} holds {:?}", units.iter().map(|u| u.id).collect::<Vec<_>>());
        let sides: Vec<u8> = units.iter().map(|u| c.alliance(u.power)).collect();
        assert!(sides.iter().all(|s| *s == sides[0]), "seed {seed}: enemies share hex {h}");
    }
}

#[test]
fn random_legal_games_keep_the_invariants_and_replay() {
    let s = test_front();
    for seed in 0..12 {
        let mut g = GreatWar::new(&s, seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut steps = 0;
        while !g.is_over() && steps < 600 {
            let c = g.ctx();
            let order = random_order(&c, &mut rng);
            let before = g.hash();
            match g.apply(order.clone()) {
                Ok(_) => check_invariants(&g.ctx(), seed),
                Err(_) => {
                    assert_eq!(g.hash(), before, "seed {seed}: an illegal order changed the state");
                    g.apply(Order::EndPhase).unwrap_or_else(|e| panic!("seed {seed}: EndPhase refused: {e}"));
                }
            }
            steps += 1;
        }
        assert!(g.is_over(), "seed {seed}: the scenario's turns ran out");
        let replayed = GreatWar::replay(&g.save()).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(replayed.hash(), g.hash());
    }
}

/// A game of the test front with the first `count` scripted orders applied.
fn test_front_after(seed: u64, count: usize) -> GreatWar {
    let mut g = GreatWar::new(&test_front(), seed);
    for o in scripted_orders().into_iter().take(count) {
        g.apply(o.clone()).unwrap_or_else(|e| panic!("{o:?}: {e}"));
    }
    g
}

#[test]
fn replay_until_stops_after_the_given_order_and_checks_the_checkpoints_on_the_way() {
    let orders = scripted_orders();
    let save = test_front_after(5, orders.len()).save();
    // Up to the Dicke Bertha's fire of turn 4.
    let count = 1 + orders.iter().position(|o| matches!(o, Order::Fire { .. })).expect("a fire order");
    let part = GreatWar::replay_until(&save, count).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(part.orders(), &orders[..count]);
    assert_eq!(part.hash(), test_front_after(5, count).hash());
    // A checkpoint on the way that no longer matches stops the replay at that checkpoint …
    let on_the_way = save.checkpoints.iter().rposition(|c| c.after > 0 && c.after <= count).expect("a checkpoint");
    let mut bad = save.clone();
    bad.checkpoints[on_the_way].hash = rules::hash::StateHash(bad.checkpoints[on_the_way].hash.0 ^ 1);
    match GreatWar::replay_until(&bad, count) {
        Err(ReplayError::Diverged { after, .. }) => assert_eq!(after, save.checkpoints[on_the_way].after),
        other => panic!("{:?}", other.map(|g| g.hash())),
    }
    // … one after the stopping point is not reached, nor is the final hash; the whole replay checks both.
    let later = save.checkpoints.iter().position(|c| c.after > count).expect("a later checkpoint");
    let mut bad = save.clone();
    bad.checkpoints[later].hash = rules::hash::StateHash(bad.checkpoints[later].hash.0 ^ 1);
    bad.final_hash = rules::hash::StateHash(bad.final_hash.0 ^ 1);
    assert!(GreatWar::replay_until(&bad, count).is_ok());
    assert!(matches!(GreatWar::replay(&bad), Err(ReplayError::Diverged { .. })));
}

/// What an order's events do, without the dice: as the preview merges its outcomes.
fn effects(events: &[rules::strategic::Event]) -> Vec<rules::texts::Msg> {
    use rules::strategic::EventKind;
    let mut v: Vec<rules::texts::Msg> = events
        .iter()
        .filter(|e| !matches!(e.kind, EventKind::Die { .. } | EventKind::Volley))
        .map(|e| e.line.clone())
        .collect();
    v.sort();
    v
}

#[test]
fn the_game_preview_of_a_fire_order_lists_what_applying_it_then_does() {
    use rules::strategic::scenario::KindSpec;
    use rules::strategic::testkit::{hex, id, infantry, scenario, unit};
    // S-ART-7: a French mortar fires into the stubborn fighting of its own division 3 with the
    // German division 2; one d6 decides who takes the hits.
    let s = scenario(
        rules::strategic::HexMap::filled("test", 10, 6, rules::strategic::Terrain::Clear),
        vec![
            unit(1, "france", (2, 1), KindSpec::Artillery("Mortier de 370 Filloux".into())),
            infantry(2, "germany", (4, 1)),
            infantry(3, "france", (3, 1)),
        ],
    );
    let fire = Order::Fire { unit: id(1), target: hex(4, 1), gas: false };
    let mut outcomes_seen = Vec::new();
    for seed in 0..12 {
        let mut g = GreatWar::new(&s, seed);
        // Preparation and Movement of both powers, then Germany's Fire phase: France fires next.
        for _ in 0..5 {
            g.apply(Order::EndPhase).unwrap_or_else(|e| panic!("{e}"));
        }
        assert_eq!((g.clock().phase, g.clock().active), (Phase::Fire, 1));
        let before = g.hash();
        let preview = g.preview(&fire).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(g.hash(), before, "a preview changes nothing");
        assert_eq!(preview.outcomes.len(), 2, "{preview:#?}");
        let total: f64 = preview.outcomes.iter().map(|o| o.chance).sum::<f64>() + preview.unexplored;
        assert!((total - 1.0).abs() < 1e-9, "seed {seed}: {total}");
        let events = g.apply(fire.clone()).unwrap_or_else(|e| panic!("{e}"));
        let done = effects(&events);
        let outcome = preview.outcomes.iter().find(|o| o.effects == done);
        let outcome = outcome.unwrap_or_else(|| panic!("seed {seed}: {done:?} is not among {preview:#?}"));
        // The face thrown is one the preview lists for this outcome.
        let thrown: Vec<u8> = events
            .iter()
            .filter_map(|e| match e.kind {
                rules::strategic::EventKind::Die { pips, .. } => Some(pips),
                _ => None,
            })
            .collect();
        assert_eq!(thrown.len(), 1, "seed {seed}: {events:?}");
        assert!(outcome.pips.contains(&thrown[0]), "seed {seed}: d6 = {}, outcome {outcome:?}", thrown[0]);
        if !outcomes_seen.contains(&done) {
            outcomes_seen.push(done);
        }
    }
    assert_eq!(outcomes_seen.len(), 2, "the seeds reach both outcomes: {outcomes_seen:?}");
}

#[test]
fn the_game_preview_of_an_attack_shows_the_engagement_the_attack_then_fights() {
    use rules::strategic::testkit::{hex, id, infantry, scenario};
    let s = scenario(
        rules::strategic::HexMap::filled("test", 12, 8, rules::strategic::Terrain::Clear),
        vec![infantry(1, "germany", (3, 1)), infantry(12, "france", (3, 4)), infantry(13, "france", (4, 4))],
    );
    let mut g = GreatWar::new(&s, 1);
    // Preparation of both powers, then Germany moves its division into contact.
    for o in [Order::EndPhase, Order::EndPhase] {
        g.apply(o).unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(g.clock().phase, Phase::Movement);
    g.apply(Order::Move { piece: Piece::Unit(id(1)), path: vec![hex(3, 2), hex(3, 3)] })
        .unwrap_or_else(|e| panic!("{e}"));
    let attack = Order::Attack { piece: Piece::Unit(id(1)), target: hex(4, 4) };
    let preview = g.preview(&attack).unwrap_or_else(|e| panic!("{e}"));
    let events = g.apply(attack).unwrap_or_else(|e| panic!("{e}"));
    // Naming a target throws no die: one certain outcome, the one applying it had.
    assert_eq!(preview.outcomes.len(), 1);
    assert!((preview.outcomes[0].chance - 1.0).abs() < 1e-12 && preview.unexplored == 0.0);
    assert_eq!(preview.outcomes[0].effects, effects(&events));
    // S-COMBAT-8: the engagement shown is the one now standing for the Combat phase: 1 against 13.
    let c = g.ctx();
    let now: Vec<_> = c.engagements().into_iter().map(|e| c.assess(&e)).collect();
    assert_eq!(preview.engagements, now);
    assert_eq!(c.engagements(), vec![[vec![id(13)], vec![id(1)]]]);
}
