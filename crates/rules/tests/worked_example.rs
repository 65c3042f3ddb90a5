//! T-EX: the worked example of the source, both variants, step by step with exact Health.

use rules::tactical::event::Event;
use rules::tactical::{Battle, Cell, Order, UnitId};
use rules::testing::{orders_file, shipped};

const L: UnitId = UnitId(1);
const P: UnitId = UnitId(2);
const C: UnitId = UnitId(3);

fn health(b: &Battle, id: UnitId) -> i32 {
    b.ctx().unit(id).map(|u| u.health.current).unwrap_or(i32::MIN)
}

fn morale_tests(events: &[Event]) -> Vec<UnitId> {
    events.iter().filter_map(|e| if let Event::MoraleTest { unit, .. } = e { Some(*unit) } else { None }).collect()
}

#[test]
fn t_ex_1_variant_a_step_by_step() {
    // T-EX-1: steps 1–3, then A4 and A5.
    for seed in 0..20 {
        let mut b = Battle::new(&shipped("worked_example_a"), seed);
        assert_eq!((health(&b, L), health(&b, P)), (10, 7), "start");
        // Step 1: L fires at P two cells ahead: −2 (T-FIRE-1).
        b.apply(Order::Fire { unit: L, target: P }).unwrap();
        assert_eq!((health(&b, L), health(&b, P)), (10, 5), "T-EX step 1");
        // Steps 2–3: L moves to (5,4) into contact; P counter-volleys, frontal: −3 (T-FIRE-9).
        b.apply(Order::Move { unit: L, path: vec![Cell::new(5, 4)], exit: false }).unwrap();
        assert_eq!((health(&b, L), health(&b, P)), (7, 5), "T-EX step 3: L 10 → 7, P 7 → 5");
        // A4: end of the British turn: 3 vs 2, difference 1: L −1, P −2 (T-MELEE-4).
        b.apply(Order::EndTurn).unwrap();
        assert_eq!((health(&b, L), health(&b, P)), (6, 3), "T-EX A4: L 6, P 3");
        // A5: end of the French turn, again: L 5, P 1 and a morale test for P.
        let events = b.apply(Order::EndTurn).unwrap();
        assert_eq!(health(&b, L), 5, "T-EX A5: L 5");
        assert_eq!(health(&b, P), 1, "T-EX A5: P 1");
        assert_eq!(morale_tests(&events), vec![P], "T-EX A5: P takes a morale test (T-MELEE-8)");
        // C never moved: variant A has no intercept.
        assert_eq!(b.ctx().unit(C).map(|u| (u.cell, u.health.current)), Some((Cell::new(3, 5), 5)));
    }
}

#[test]
fn t_ex_2_variant_b_step_by_step() {
    // T-EX-2: steps 1–3, then B4–B7.
    for seed in 0..20 {
        let mut b = Battle::new(&shipped("worked_example_b"), seed);
        b.apply(Order::Fire { unit: L, target: P }).unwrap();
        assert_eq!((health(&b, L), health(&b, P)), (10, 5), "T-EX step 1");
        let events = b.apply(Order::Move { unit: L, path: vec![Cell::new(5, 4)], exit: false }).unwrap();
        // Step 3 then B4: P counter-volleys (−3), C intercepts via (3,4), turns east free and fires: −1 (T-MELEE-2).
        let c = b.ctx().unit(C).cloned().unwrap();
        assert_eq!(c.cell, Cell::new(4, 4), "T-EX B5: C ends on L's flank at (4,4)");
        assert_eq!(health(&b, L), 6, "T-EX B4: L 6 after C's shot");
        assert_eq!(health(&b, P), 5);
        let fired: Vec<(UnitId, i32)> =
            events
                .iter()
                .filter_map(|e| {
                    if let Event::Fired { firer, damage, .. } = e { Some((*firer, damage.total)) } else { None }
                })
                .collect();
        assert_eq!(
            fired,
            vec![(P, 3), (C, 1)],
            "T-EX: P's counter-volley 3, C's intercept shot 1; L moved, so no counter-volley at C (B5)"
        );
        // B6: 2 (C) + 1 charge + 1 flank + 2 (P) = 6 vs 3: L −(1 + 3), blue −1 to the primary P (T-MELEE-5/7).
        let events = b.apply(Order::EndTurn).unwrap();
        let exchange = events.iter().find_map(|e| match e {
            Event::MeleeExchange { red, blue, red_damage, blue_damage, blue_primary, .. } => {
                Some((red.total, blue.total, *red_damage, *blue_damage, *blue_primary, b.ctx().sum_text(blue)))
            }
            _ => None,
        });
        let (red_sum, blue_sum, red_dmg, blue_dmg, primary, blue_text) = exchange.unwrap();
        assert_eq!((blue_sum, red_sum), (6, 3), "T-EX B6: 6 vs 3 ({blue_text})");
        assert!(blue_text.contains("+ 1 charge + 1 flank"), "{blue_text}");
        assert_eq!((red_dmg, blue_dmg, primary), (4, 1, Some(P)), "T-EX B6: L −4, P −1");
        assert_eq!((health(&b, L), health(&b, P), health(&b, C)), (2, 4, 5), "T-EX B6/B7: L 2, P 4, C unhurt at 5");
        // B7: L at 2 takes a morale test (d6 4+).
        assert!(morale_tests(&events).contains(&L), "T-EX B7: L takes a morale test");
    }
}

#[test]
fn t_ex_orders_file_matches_the_steps() {
    let orders = orders_file("scenarios/orders/worked_example_a.ron");
    let mut b = Battle::new(&shipped("worked_example_a"), 7);
    for o in orders {
        b.apply(o).unwrap();
    }
    // T-EX-1: L 5, P 1 (P may then be dispersed by its morale test, keeping Health 1).
    assert_eq!((health(&b, L), health(&b, P)), (5, 1));
}
