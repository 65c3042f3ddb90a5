//! T-SKIRM-1…6, T-ART-1…3.

use rules::tactical::config::SkirmisherFate;
use rules::tactical::event::{Event, Removal};
use rules::tactical::{Ctx, Dir, Order, Reactions, Side, Status, Terrain, UnitId};
use rules::testing::Field;
use rules::testing::orders::*;

fn quiet() -> Option<Reactions> {
    Some(Reactions { counter_volley: false, counter_charge: false, intercept: false })
}

fn skirmish(unit: u32, on: bool) -> Order {
    Order::Skirmish { unit: UnitId(unit), on }
}

#[test]
fn t_skirm_1_light_infantry_takes_open_order_spending_the_whole_turn() {
    let mut c = Field::new(10, 10)
        .unit(1, Side::Red, "light_infantry", (2, 2), Dir::South)
        .unit(2, Side::Red, "line_infantry", (4, 2), Dir::South)
        .unit(3, Side::Red, "light_infantry", (6, 2), Dir::South)
        .unit(9, Side::Blue, "line_infantry", (6, 5), Dir::North)
        .ctx(1);
    assert!(refused(&mut c, skirmish(2, true)).contains("not light infantry"), "T-SKIRM-1");
    ok(&mut c, skirmish(1, true));
    assert!(c.unit(UnitId(1)).unwrap().skirmish.is_some());
    assert!(refused(&mut c, mv(1, &[(2, 3)])).contains("T-SKIRM-1"), "the whole turn");
    ok(&mut c, fire(3, 9));
    assert!(refused(&mut c, skirmish(3, true)).contains("already acted"), "not after firing");
    ok(&mut c, Order::EndTurn);
    ok(&mut c, Order::EndTurn);
    ok(&mut c, skirmish(1, false));
    assert!(c.unit(UnitId(1)).unwrap().skirmish.is_none());
}

#[test]
fn t_skirm_2_fire_at_skirmishers_hits_on_1_or_2_canister_too() {
    for (pips, hit) in [(1u8, true), (2, true), (3, false), (6, false)] {
        let mut c = Field::new(10, 10)
            .unit(1, Side::Red, "artillery", (4, 0), Dir::South)
            .unit_with(2, Side::Blue, "light_infantry", (4, 3), Dir::North, |u| u.skirmish = true)
            .unit(3, Side::Blue, "militia", (9, 9), Dir::North)
            .ctx(1);
        c.dice.script(vec![pips, 6]);
        ok(&mut c, fire(1, 2));
        assert_eq!(health(&c, 2), if hit { 3 } else { 7 }, "T-SKIRM-2: canister d6={pips}");
    }
}

fn first_morale_test(c: &rules::tactical::Ctx) -> Option<(u32, Vec<i32>, i32, bool)> {
    c.events.iter().find_map(|e| {
        if let Event::MoraleTest { unit, modifiers, total, passed, .. } = e {
            Some((unit.0, modifiers.iter().map(|m| m.value).collect(), *total, *passed))
        } else {
            None
        }
    })
}

/// Red skirmishers at (4, 2) facing south, a blue line battalion with Health 3 at (4, 4) facing
/// north, two cells apart; `attacker` moves first, and a militia of the other side stands far off.
fn skirmishers_facing_line(attacker: Side) -> Ctx {
    Field::new(10, 10)
        .attacker(attacker)
        .unit_with(1, Side::Red, "light_infantry", (4, 2), Dir::South, |u| {
            u.skirmish = true;
            u.reactions = quiet()
        })
        .unit_with(2, Side::Blue, "line_infantry", (4, 4), Dir::North, |u| {
            u.reactions = quiet();
            u.health = Some(3)
        })
        .unit(3, attacker.other(), "militia", (9, 9), Dir::North)
        .ctx(1)
}

#[test]
fn t_skirm_3_skirmishers_lower_the_morale_of_the_unit_they_attack_by_1() {
    // They attack in melee: the defender's test at Health 2 is d6 4 − 1 = 3 < 4.
    let mut c = skirmishers_facing_line(Side::Red);
    ok(&mut c, mv(1, &[(4, 3)]));
    c.dice.script(vec![4]);
    ok(&mut c, Order::EndTurn); // 2 vs 3: skirmishers −2, line −1 → 2
    assert_eq!(first_morale_test(&c), Some((2, vec![-1], 3, false)), "T-SKIRM-3: −1 to the unit they attack");
    // A unit that attacks the skirmishers is not "attacked by" them: no −1 (T-MORALE-1).
    let mut d = skirmishers_facing_line(Side::Blue);
    ok(&mut d, mv(2, &[(4, 3)]));
    d.dice.script(vec![4]);
    ok(&mut d, Order::EndTurn); // 3 vs 2: line −1 → 2
    assert_eq!(first_morale_test(&d), Some((2, vec![], 4, true)), "T-MORALE-1: the attacker of skirmishers has no −1");
}

#[test]
fn t_morale_1_and_t_skirm_3_skirmishers_lower_the_morale_of_the_unit_they_attack_by_fire_too() {
    // «понижают мораль атакуемого подразделения», by fire as by melee: skirmishers (hit die 1–2
    // for fire at them, none for their own) fire 3 at light cavalry of Health 4 → 1, a test.
    let shot_at = |skirmish: bool, pips: u8| {
        let mut f = Field::new(10, 10)
            .unit_with(1, Side::Red, "light_infantry", (4, 0), Dir::South, |u| u.skirmish = skirmish)
            .unit_with(2, Side::Blue, "light_cavalry", (4, 3), Dir::North, |u| u.health = Some(4))
            .unit(3, Side::Blue, "militia", (9, 9), Dir::North)
            .ctx(1);
        f.dice.script(vec![pips]);
        ok(&mut f, fire(1, 2));
        first_morale_test(&f)
    };
    assert_eq!(shot_at(true, 4), Some((2, vec![-1], 3, false)), "T-SKIRM-3: d6 4 − 1 = 3 < 4, fails");
    assert_eq!(shot_at(true, 5), Some((2, vec![-1], 4, true)), "T-SKIRM-3: d6 5 − 1 = 4, passes");
    assert_eq!(shot_at(false, 4), Some((2, vec![], 4, true)), "light infantry in close order: no −1");
    // A counter-volley by skirmishers answers an attack: the attacker is not "attacked" (no −1).
    let mut c = Field::new(10, 10)
        .unit_with(1, Side::Red, "light_cavalry", (4, 1), Dir::South, |u| {
            u.health = Some(4);
            u.reactions = quiet()
        })
        .unit_with(2, Side::Blue, "light_infantry", (4, 3), Dir::North, |u| u.skirmish = true)
        .unit(3, Side::Red, "militia", (9, 9), Dir::North)
        .ctx(1);
    c.dice.script(vec![4, 4, 4, 4]);
    ok(&mut c, mv(1, &[(4, 2)]));
    let volley = c.events.iter().any(|e| matches!(e, Event::Fired { firer: UnitId(2), .. }));
    assert!(volley, "the skirmishers counter-volley: {:?}", c.events);
    assert_eq!(
        first_morale_test(&c).map(|t| (t.0, t.1)),
        Some((1, vec![])),
        "T-MORALE-1: no −1 for the unit they answer"
    );
}

#[test]
fn t_skirm_3_skirmishers_fight_cavalry_at_a_flat_minus_3() {
    let mut m = Field::new(10, 10)
        .unit_with(1, Side::Red, "light_infantry", (4, 4), Dir::South, |u| {
            u.skirmish = true;
            u.reactions = quiet()
        })
        .unit_with(2, Side::Blue, "heavy_cavalry", (4, 5), Dir::North, |u| u.reactions = quiet())
        .ctx(1);
    ok(&mut m, Order::EndTurn);
    let (red, red_damage) = m
        .events
        .iter()
        .find_map(|e| {
            if let Event::MeleeExchange { red, red_damage, .. } = e {
                Some((m.sum_text(red), *red_damage))
            } else {
                None
            }
        })
        .unwrap_or_default();
    // "-3 к результатам боя против кавалерии": 2 − 3 = −1, not capped at the unit's own 2.
    assert_eq!(red, "2 (light_infantry 1) − 3 skirmishers vs cavalry = -1", "T-SKIRM-3: a flat −3");
    assert_eq!(red_damage, 5, "T-MELEE-4: −1 vs 3 → 1 + 4");
}

fn charged(pips: Vec<u8>, infantry_behind: bool) -> rules::tactical::Ctx {
    let mut f = Field::new(10, 10)
        .unit_with(1, Side::Red, "light_infantry", (4, 5), Dir::North, |u| {
            u.skirmish = true;
            u.reactions = quiet()
        })
        .unit_with(2, Side::Blue, "heavy_cavalry", (4, 1), Dir::South, |u| u.reactions = quiet())
        .unit(4, Side::Blue, "militia", (0, 0), Dir::South)
        .attacker(Side::Blue);
    f = if infantry_behind {
        f.unit(3, Side::Red, "line_infantry", (6, 6), Dir::North)
    } else {
        f.unit(3, Side::Red, "artillery", (9, 9), Dir::North)
    };
    let mut c = f.ctx(1);
    c.dice.script(pips);
    ok(&mut c, mv(2, &[(4, 2), (4, 3), (4, 4)]));
    c
}

#[test]
fn t_skirm_4_charged_by_cavalry_morale_test_then_the_table() {
    let c = charged(vec![2], true);
    assert_eq!(status(&c, 1), Status::Dispersed, "T-SKIRM-4: failed test → overrun");
    let c = charged(vec![4, 1], true);
    assert!(
        c.events.iter().any(|e| matches!(e, Event::SkirmishersCharged { fate: SkirmisherFate::Routs, roll: 1, .. }))
    );
    assert_eq!(status(&c, 1), Status::Dispersed, "T-SKIRM-4: 1 routs");
    let c = charged(vec![4, 3], true);
    assert_eq!(at(&c, 1), cell(6, 7), "T-SKIRM-4: 2–5 falls back behind its infantry");
    assert!(c.unit(UnitId(1)).unwrap().skirmish.unwrap().disorganized);
    let c = charged(vec![4, 5], false);
    assert_eq!(status(&c, 1), Status::Dispersed, "T-SKIRM-4: no infantry to fall behind → routs");
    let c = charged(vec![4, 6], true);
    assert_eq!(
        (at(&c, 1), c.unit(UnitId(1)).unwrap().skirmish.unwrap().disorganized),
        (cell(4, 5), true),
        "T-SKIRM-4: 6 stands"
    );
}

#[test]
fn t_skirm_5_disorganized_may_only_reform_and_routs_if_attacked() {
    let mut c = charged(vec![4, 6, 6], true); // passes, stands; passes again after the exchange
    ok(&mut c, Order::EndTurn);
    // T-SKIRM-3: 2 − 3 = −1 against the charge's 3 + 1 = 4: 7 − (1 + 5) = 1.
    assert_eq!(health(&c, 1), 1);
    assert!(refused(&mut c, fire(1, 2)).contains("T-SKIRM-5"));
    assert!(refused(&mut c, skirmish(1, false)).contains("T-SKIRM-5"));
    ok(&mut c, Order::Reform { unit: UnitId(1) });
    assert!(!c.unit(UnitId(1)).unwrap().skirmish.unwrap().disorganized, "T-SKIRM-5: reformed");
    // Attacked while disorganized: routs.
    let mut d = Field::new(10, 10)
        .unit_with(1, Side::Red, "light_infantry", (4, 5), Dir::North, |u| u.skirmish = true)
        .unit(2, Side::Blue, "line_infantry", (4, 2), Dir::South)
        .unit(3, Side::Blue, "militia", (0, 0), Dir::South)
        .attacker(Side::Blue)
        .ctx(1);
    if let Some(u) = d.unit_mut(UnitId(1)) {
        u.skirmish = Some(rules::tactical::components::Skirmishing { disorganized: true });
    }
    ok(&mut d, mv(2, &[(4, 3), (4, 4)]));
    assert!(
        d.events.iter().any(|e| matches!(e, Event::Removed { unit: UnitId(1), how: Removal::Routed })),
        "T-SKIRM-5"
    );
}

#[test]
fn t_skirm_6_skirmishers_occupy_buildings_and_ambush_in_forest() {
    let mut c = Field::new(10, 10)
        .terrain(&[(2, 3)], Terrain::Building)
        .terrain(&[(6, 6)], Terrain::SparseForest)
        .unit_with(1, Side::Red, "light_infantry", (2, 2), Dir::South, |u| u.skirmish = true)
        .unit_with(3, Side::Blue, "light_infantry", (6, 6), Dir::North, |u| u.skirmish = true)
        .ctx(1);
    ok(&mut c, mv(1, &[(2, 3)])); // T-SKIRM-6
    assert!(c.unit(UnitId(3)).unwrap().concealed, "T-SKIRM-6 / T-TERR-2");
}

#[test]
fn t_art_1_foot_artillery_that_moved_deploys_and_fires_one_volley() {
    let mut c = Field::new(10, 10)
        .unit(1, Side::Red, "artillery", (2, 0), Dir::South)
        .unit(3, Side::Red, "artillery", (8, 0), Dir::South)
        .unit(8, Side::Blue, "line_infantry", (8, 4), Dir::North)
        .unit(9, Side::Blue, "line_infantry", (5, 4), Dir::North)
        .ctx(1);
    ok(&mut c, mv(1, &[(2, 1)]));
    ok(&mut c, fire(1, 9)); // T-ART-1: moved, deployed, one volley (canister at 3 cells)
    assert_eq!(health(&c, 9), 6);
    assert!(refused(&mut c, fire(1, 9)).contains("T-FIRE-1"), "foot artillery: one volley");
    ok(&mut c, fire(3, 8));
    assert!(refused(&mut c, mv(3, &[(8, 1)])).contains("T-ART-1"), "a deployed battery that fired stays");
    assert!(!c.events.iter().any(|e| matches!(e, Event::ShotsTest { .. })), "foot artillery takes no shots test");
}

#[test]
fn t_art_1_horse_artillery_moves_and_fires_twice_by_the_shots_test() {
    // The shots test (house): d6 4–6 gives the second shot; 3 does not.
    for (pips, second) in [(4u8, true), (3, false)] {
        let mut c = Field::new(10, 10)
            .faction(Side::Red, "France")
            .unit(2, Side::Red, "horse_artillery", (6, 0), Dir::South)
            .unit(9, Side::Blue, "line_infantry", (5, 4), Dir::North)
            .ctx(1);
        ok(&mut c, mv(2, &[(6, 1), (6, 2)]));
        ok(&mut c, fire(2, 9)); // no deployment: it fires after its move
        assert_eq!(health(&c, 9), 6);
        c.dice.script(vec![pips, 6]);
        ok(&mut c, fire(2, 9));
        let test = c.events.iter().find_map(|e| match e {
            Event::ShotsTest { unit, roll } => Some((unit.0, roll.pips, roll.success())),
            _ => None,
        });
        assert_eq!(test, Some((2, pips, second)), "T-ART-1: d6={pips}");
        assert_eq!(health(&c, 9), if second { 2 } else { 6 }, "T-ART-1: d6={pips}");
        assert!(refused(&mut c, fire(2, 9)).contains("T-FIRE-1"), "two shots at most");
    }
}

#[test]
fn t_art_1_horse_artillery_only_for_the_factions_that_field_it() {
    let with = |faction: &str| {
        let s = Field::new(10, 10)
            .faction(Side::Red, faction)
            .unit(2, Side::Red, "horse_artillery", (6, 0), Dir::South)
            .unit(9, Side::Blue, "line_infantry", (5, 8), Dir::North)
            .scenario();
        rules::tactical::Scenario::from_resolved_text("t.ron", &ron::to_string(&s).expect("ron"))
    };
    let table = rules::tactical::units::UnitTable::builtin();
    let horse = table.get("horse_artillery").expect("horse artillery");
    assert_eq!(horse.factions, ["France", "Russia", "Britain", "Austria", "Prussia"]);
    for faction in ["France", "Russia", "Britain"] {
        with(faction).unwrap_or_else(|e| panic!("{faction}: {e}"));
    }
    let e = with("Turkey").expect_err("Turkey fields no horse artillery").to_string();
    assert!(e.contains("T-ART-1") && e.contains("Turkey"), "{e}");
    assert!(table.get("artillery").is_some_and(|t| t.fielded_by("Turkey")), "foot artillery: every faction");
}

#[test]
fn t_art_2_each_health_lost_to_fire_minus_1_morale() {
    let mut c = Field::new(10, 10)
        .unit(1, Side::Red, "line_infantry", (4, 1), Dir::South)
        .unit(2, Side::Red, "line_infantry", (6, 1), Dir::South)
        .unit(3, Side::Blue, "artillery", (4, 3), Dir::North)
        .unit(4, Side::Blue, "militia", (9, 9), Dir::North)
        .ctx(1);
    ok(&mut c, fire(1, 3)); // 5 − 2 = 3
    c.dice.script(vec![6]);
    ok(&mut c, mv(2, &[(6, 2), (5, 2)]));
    ok(&mut c, Order::EndTurn);
    ok(&mut c, Order::EndTurn);
    let mut d = c.clone();
    d.dice.script(vec![5]);
    ok(&mut d, fire(2, 3)); // 3 − 2 = 1: test d6 5 − 4 lost to fire = 1 < 4
    let test = d.events.iter().find_map(|e| {
        if let Event::MoraleTest { modifiers, total, .. } = e {
            Some((modifiers.iter().map(|m| m.value).sum::<i32>(), *total))
        } else {
            None
        }
    });
    assert_eq!(test, Some((-4, 1)), "T-ART-2: −1 per Health lost to fire");
}

#[test]
fn t_art_3_overrun_unless_a_unit_stands_behind_it_which_then_fights() {
    // Unsupported: overrun when closed on (after its counter-volley).
    let mut c = Field::new(10, 10)
        .unit_with(1, Side::Red, "heavy_cavalry", (4, 0), Dir::South, |u| u.reactions = quiet())
        .unit_with(2, Side::Blue, "artillery", (4, 4), Dir::North, |u| u.reactions = quiet())
        .unit(3, Side::Blue, "militia", (9, 9), Dir::North)
        .ctx(1);
    ok(&mut c, mv(1, &[(4, 1), (4, 2), (4, 3)]));
    assert!(c.events.iter().any(|e| matches!(e, Event::Removed { unit: UnitId(2), how: Removal::Overrun })), "T-ART-3");
    // Supported: the unit behind fights for it; the guns stay if their side takes no more damage.
    let mut s = Field::new(10, 10)
        .unit_with(1, Side::Red, "light_cavalry", (4, 0), Dir::South, |u| u.reactions = quiet())
        .unit_with(2, Side::Blue, "artillery", (4, 4), Dir::North, |u| u.reactions = quiet())
        .unit_with(3, Side::Blue, "grenadiers", (4, 5), Dir::North, |u| u.reactions = quiet())
        .ctx(1);
    ok(&mut s, mv(1, &[(4, 1), (4, 2), (4, 3)]));
    assert_eq!(status(&s, 2), Status::Active);
    ok(&mut s, Order::EndTurn);
    let ex = s.events.iter().find_map(|e| {
        if let Event::MeleeExchange { red, blue, blue_primary, .. } = e {
            Some((red.total, blue.total, *blue_primary))
        } else {
            None
        }
    });
    assert_eq!(
        ex,
        Some((3, 4, Some(UnitId(3)))),
        "T-ART-3: the grenadiers fight (2 + 1 charge vs 4), the guns add nothing"
    );
    assert_eq!((status(&s, 2), health(&s, 2)), (Status::Active, 5), "won the exchange: guns stay");
    // Supported but beaten: the guns are removed.
    let mut l = Field::new(10, 10)
        .unit_with(1, Side::Red, "heavy_cavalry", (4, 0), Dir::South, |u| u.reactions = quiet())
        .unit_with(2, Side::Blue, "artillery", (4, 4), Dir::North, |u| u.reactions = quiet())
        .unit_with(3, Side::Blue, "militia", (4, 5), Dir::North, |u| u.reactions = quiet())
        .ctx(1);
    ok(&mut l, mv(1, &[(4, 1), (4, 2), (4, 3)]));
    ok(&mut l, Order::EndTurn);
    assert!(
        l.events.iter().any(|e| matches!(e, Event::Removed { unit: UnitId(2), how: Removal::Overrun })),
        "T-ART-3: lost the exchange"
    );
}
