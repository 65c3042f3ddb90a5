//! The campaign layer's rules (tactical.md sections 1–2): one test per T-STRAT and T-AUTO rule,
//! with the rule's numbers on both sides of each threshold.

use rules::campaign::resolve::{AutoUnit, attacker_redoubts, auto_battle, cut, left_out_loss};
use rules::campaign::scenario::ArmySpec;
use rules::campaign::state::VictoryReason;
use rules::campaign::{ArmyId, Campaign, CampaignScenario, Event, Forces, HexAt, Order, OrderError};
use rules::game::Game;
use rules::tactical::config::GeneralFate;
use rules::tactical::units::UnitTable;
use rules::tactical::{Battle, Order as BattleOrder, Phase, Side, Status, UnitId};

#[path = "support/campaign.rs"]
mod common;
use common::*;

#[test]
fn t_strat_1_an_army_has_6_mp_per_campaign_turn() {
    assert_eq!(rules().movement_points, 6, "T-STRAT-1: X = 6 (MD-T2 house value)");
    let mut c = campaign(vec![army(1, Side::Red, (0, 5), &line(2)), army(11, Side::Blue, (7, 0), &line(2))]);
    // 7 hexes need 7 MP: refused; 6 hexes use all 6.
    let e = refused(&mut c, mv(1, &east_along_row_5(0, 7)));
    assert!(e.contains("T-STRAT-1") && e.contains("needs 7 MP") && e.contains("has 6 left"), "{e}");
    ok(&mut c, mv(1, &east_along_row_5(0, 6)));
    assert_eq!(c.state().army(ArmyId(1)).map(|a| (a.at, a.mp_left)), Some((hex(6, 5), 0)));
    assert!(refused(&mut c, mv(1, &[(7, 5)])).contains("needs 1 MP"));
    // A new campaign turn gives 6 again.
    ok(&mut c, Order::EndTurn);
    ok(&mut c, Order::EndTurn);
    assert_eq!(c.state().army(ArmyId(1)).map(|a| a.mp_left), Some(6));
    // The path must be of neighbouring hexes, on land.
    assert!(refused(&mut c, mv(1, &[(4, 5)])).contains("not next to"));
    assert!(refused(&mut c, Order::Move { army: ArmyId(1), path: vec![] }).contains("empty"));
}

#[test]
fn t_strat_1_rivers_are_crossed_at_fords_for_1_mp_more() {
    // The Linde runs along the southern hexsides of row 2; fords (1, 2)–(1, 3) and (5, 2)–(4, 3).
    let mut c = campaign(vec![army(1, Side::Red, (3, 2), &line(2)), army(11, Side::Blue, (7, 5), &line(2))]);
    assert!(refused(&mut c, mv(1, &[(3, 3)])).contains("river without a ford"));
    let reach = c.reach(ArmyId(1));
    assert_eq!(reach.iter().find(|(h, _)| *h == hex(1, 3)).map(|r| r.1), Some(4), "2 hexes + the ford (1 + 1)");
    assert_eq!(reach.iter().find(|(h, _)| *h == hex(2, 2)).map(|r| r.1), Some(1));
    ok(&mut c, mv(1, &[(2, 2), (1, 2), (1, 3)]));
    assert_eq!(c.state().army(ArmyId(1)).map(|a| (a.at, a.mp_left)), Some((hex(1, 3), 2)));
}

#[test]
fn t_strat_2_an_army_with_the_intercept_order_attacks_an_enemy_entering_a_hex_within_1() {
    assert_eq!(rules().intercept_range, 1);
    // Blue at (3, 4) is next to (2, 5) and (3, 5) of row 5 (its SW and SE neighbours).
    let setup = |intercept: bool, blue_at: (i32, i32)| {
        let mut c = campaign(vec![army(1, Side::Red, (0, 5), &line(4)), army(11, Side::Blue, blue_at, &line(4))]);
        if intercept {
            ok(&mut c, Order::EndTurn);
            ok(&mut c, Order::Intercept { army: ArmyId(11), on: true });
            ok(&mut c, Order::EndTurn);
        }
        c
    };
    let path = east_along_row_5(0, 5);
    // With the order, within 1 hex: the mover is stopped at (2, 5) and Blue attacks.
    let mut c = setup(true, (3, 4));
    assert_eq!(hex(3, 4).distance(hex(2, 5)), 1);
    let events = ok(&mut c, mv(1, &path));
    assert!(events.contains(&Event::Intercepted { army: ArmyId(11), at: hex(2, 5), target: ArmyId(1) }), "{events:?}");
    let b = c.state().battle.clone().expect("a battle");
    assert_eq!((b.at, b.attacker, b.units), (hex(2, 5), Side::Blue, [4, 4]), "T-STRAT-2: the interceptor attacks");
    assert_eq!(c.state().army(ArmyId(1)).map(|a| a.at), Some(hex(2, 5)), "the mover stops there");
    assert_eq!(c.state().army(ArmyId(11)).map(|a| a.intercept), Some(false), "the order is used up");
    // Without the order: no interception.
    let mut c = setup(false, (3, 4));
    ok(&mut c, mv(1, &path));
    assert!(c.state().battle.is_none());
    assert_eq!(c.state().army(ArmyId(1)).map(|a| a.at), Some(hex(5, 5)));
    // 2 hexes away: out of reach.
    let mut c = setup(true, (3, 3));
    assert_eq!(path.iter().map(|(x, y)| hex(3, 3).distance(hex(*x, *y))).min(), Some(2));
    ok(&mut c, mv(1, &path));
    assert!(c.state().battle.is_none(), "T-STRAT-2: only within 1 hex");
    // The preview names the risk but does not reveal the order.
    let c = setup(true, (3, 4));
    let p = c.preview(&mv(1, &path)).expect("preview");
    assert_eq!(p.interception_risk, vec![ArmyId(11)]);
    assert!(p.battle.is_none(), "the mover does not know the intercept order");
}

#[test]
fn t_strat_3_a_directive_is_a_message_with_no_rules_effect() {
    let mut c = campaign(vec![army(1, Side::Red, (0, 5), &line(2)), army(11, Side::Blue, (7, 0), &line(2))]);
    let before = c.hash();
    let text = "Take Lindenau by the third turn.".to_string();
    let events = ok(&mut c, Order::Directive { to: Some(ArmyId(1)), text: text.clone() });
    assert_eq!(events, vec![Event::Directive { side: Side::Red, to: Some(ArmyId(1)), text }]);
    assert_eq!(c.hash(), before, "T-STRAT-3: no effect on the state");
    assert_eq!(c.orders().len(), 1, "but it is in the order log");
    assert!(refused(&mut c, Order::Directive { to: None, text: "x".repeat(2001) }).contains("T-STRAT-3"));
    assert!(refused(&mut c, Order::Directive { to: Some(ArmyId(11)), text: "go".into() }).contains("belongs to Blue"));
}

#[test]
fn t_strat_4_enemy_armies_in_one_hex_fight_the_side_that_entered_attacks() {
    let mut c = campaign(vec![
        army(1, Side::Red, (0, 5), &line(4)),
        army(11, Side::Blue, (3, 5), &line(2)),
        army(12, Side::Blue, (3, 5), &["light_cavalry", "artillery"]),
    ]);
    let e = refused(&mut c, mv(1, &east_along_row_5(0, 4)));
    assert!(e.contains("T-STRAT-4") && e.contains("past the enemy"), "{e}");
    let events = ok(&mut c, mv(1, &east_along_row_5(0, 3)));
    // Both Blue armies fight together: 4 v 4 units.
    assert!(events.contains(&Event::BattleJoined { at: hex(3, 5), attacker: Side::Red, units: [4, 4] }), "{events:?}");
    let b = c.state().battle.clone().expect("a battle waits");
    assert_eq!((b.attacker, b.defender()), (Side::Red, Side::Blue));
    // While it waits nothing else moves.
    assert!(matches!(c.apply(Order::EndTurn), Err(OrderError::BattlePending { .. })));
    // The attacker chooses first, then the defender; then the battle waits for its own first
    // side: the defender, who places its redoubts first (T-SETUP-2).
    assert_eq!(c.active_player(), Some(Side::Red));
    pass(&mut c);
    assert_eq!(c.active_player(), Some(Side::Blue));
    pass(&mut c);
    assert_eq!(c.fight().map(|f| (f.clock.phase, f.clock.active)), Some((Phase::Redoubts, Side::Blue)));
    assert_eq!(c.active_player(), Some(Side::Blue));
    let scenario = c.battle_scenario().expect("the battle's scenario");
    assert_eq!(scenario.attacker, Side::Red);
    assert_eq!(scenario.units.iter().filter(|u| u.side == Side::Blue).count(), 4);
}

#[test]
fn t_strat_5_at_most_10_units_a_side_the_cut_of_the_digest() {
    let r = rules();
    assert_eq!((r.battle_limit, r.cut_smaller_min), (10, 7));
    // The digest's examples.
    assert_eq!(cut(12, 13, &r).fielded, (9, 10), "12 v 13 → 9 v 10");
    assert_eq!(cut(13, 12, &r).fielded, (10, 9));
    assert_eq!(cut(8, 12, &r).fielded, (7, 10), "8 v 12 → 7 v 10 (6.7 → 7)");
    // 10 and 11 for the larger side: 10 v 10 is not cut, 11 v 10 is (100 / 11 = 9.1 → 9).
    assert_eq!(cut(10, 10, &r).fielded, (10, 10));
    assert_eq!(cut(11, 10, &r).fielded, (10, 9));
    assert_eq!(cut(11, 11, &r).fielded, (10, 10), "10 × 11 / 11");
    // Rounding half up: 10 × 9 / 20 = 4.5 → 5, raised to 6 (T-STRAT-5/6, no cliff).
    assert_eq!(cut(20, 9, &r).fielded, (10, 6));
    assert_eq!(cut(8, 12, &r).bring_up, None);
    // In the campaign: 12 attack 13, and the owners pick which units fight.
    let mut c = campaign(vec![army(1, Side::Red, (0, 5), &line(12)), army(11, Side::Blue, (1, 5), &line(13))]);
    let events = ok(&mut c, mv(1, &[(1, 5)]));
    assert!(events.contains(&Event::Cut { at: hex(1, 5), fielded: [9, 10], bring_up: None }), "{events:?}");
    let ids = |from: u32, n: u32| (from..from + n).map(UnitId).collect::<Vec<_>>();
    let e = refused(&mut c, Order::ChooseForces(Forces { units: ids(100, 10), redoubts: 0, retreat: None }));
    assert!(e.contains("T-STRAT-5") && e.contains("fields 9"), "{e}");
    let e = refused(&mut c, Order::ChooseForces(Forces { units: ids(1100, 9), redoubts: 0, retreat: None }));
    assert!(e.contains("not one of Red's units"), "{e}");
    // Red picks its last 9; Blue takes the default, its first 10 in army-list order.
    ok(&mut c, Order::ChooseForces(Forces { units: ids(103, 9), redoubts: 0, retreat: None }));
    pass(&mut c);
    let s = c.battle_scenario().expect("scenario");
    let of = |side| s.units.iter().filter(|u| u.side == side).map(|u| u.id).collect::<Vec<_>>();
    assert_eq!(of(Side::Red), ids(103, 9));
    assert_eq!(of(Side::Blue), ids(1100, 10));
    assert!(s.units.iter().all(|u| !u.reserve), "no one comes up in a cut battle");
}

/// Passes set-up, then gives turns until the clock shows `turn` with `side` to move.
fn battle_until(battle: &mut Battle, turn: u32) {
    while battle.clock().phase != Phase::Battle || battle.clock().turn < turn {
        let order = Game::pass(battle);
        battle.apply(order).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn t_strat_6_six_units_or_fewer_against_more_than_10_no_cut_one_unit_comes_up_from_turn_5() {
    let r = rules();
    assert_eq!((r.bring_up_units, r.bring_up_turn), (1, 5));
    // S = 6: no cut, 6 v 10, the larger may bring up 1; S = 7: the cut (7 v 12 → 6 v 10).
    let six = cut(6, 12, &r);
    assert_eq!((six.fielded, six.bring_up), ((6, 10), Some(true)));
    let seven = cut(7, 12, &r);
    assert_eq!((seven.fielded, seven.bring_up), ((6, 10), None), "10 × 7 / 12 = 5.8 → 6");
    assert_eq!(cut(12, 4, &r).bring_up, Some(false), "the first side is the larger");
    // In the campaign: 12 Red attack 6 Blue.
    let mut c = campaign(vec![army(1, Side::Red, (0, 5), &line(12)), army(11, Side::Blue, (1, 5), &line(6))]);
    let events = ok(&mut c, mv(1, &[(1, 5)]));
    assert!(events.contains(&Event::Cut { at: hex(1, 5), fielded: [10, 6], bring_up: Some(Side::Red) }), "{events:?}");
    pass(&mut c);
    pass(&mut c);
    let s = c.battle_scenario().expect("scenario");
    let reserves: Vec<UnitId> = s.units.iter().filter(|u| u.reserve).map(|u| u.id).collect();
    assert_eq!(reserves, vec![UnitId(110), UnitId(111)], "the 2 left out wait to come up");
    assert_eq!((s.red.bring_up, s.red.bring_up_from_turn, s.blue.bring_up), (1, 5, 0));
    // The battle: reserves are not deployed; one comes up at the start of turn 5 or later.
    let mut b = Battle::new(&s, 1);
    let e =
        b.apply(BattleOrder::Deploy { unit: UnitId(110), cell: (3, 0).into(), facing: rules::tactical::Dir::South });
    assert!(e.is_err_and(|e| e.to_string().contains("T-STRAT-6")) || b.clock().phase != Phase::Deployment);
    battle_until(&mut b, 3);
    assert_eq!(b.clock().active, Side::Red);
    let zone_cell = (0..20)
        .map(|x| rules::tactical::Cell::new(x, 0))
        .find(|c| b.units(None).iter().all(|u| u.cell != *c))
        .expect("a free cell");
    let up =
        |unit: u32| BattleOrder::BringUp { unit: UnitId(unit), cell: zone_cell, facing: rules::tactical::Dir::South };
    let e = b.apply(up(110)).expect_err("turn 3 is too early").to_string();
    assert!(e.contains("T-STRAT-6") && e.contains("from turn 5"), "{e}");
    battle_until(&mut b, 5);
    assert_eq!((b.clock().turn, b.clock().active), (5, Side::Red));
    b.apply(up(110)).unwrap_or_else(|e| panic!("turn 5: {e}"));
    assert!(b.units(None).iter().any(|u| u.id == UnitId(110) && u.status == "active"));
    let other = rules::tactical::Cell::new(zone_cell.x + 1, 0);
    let e = b.apply(BattleOrder::BringUp { unit: UnitId(111), cell: other, facing: rules::tactical::Dir::South });
    assert!(e.expect_err("only 1").to_string().contains("brought up 1 of the 1"));
}

#[test]
fn t_strat_5_and_6_the_limit_has_no_cliff_a_smaller_army_fields_at_least_6() {
    let r = rules();
    // 6 v 13: no cut, 6 fight (T-STRAT-6); 7 v 13: 10 × 7 / 13 = 5.4 → 5, but never fewer than
    // the 6 a smaller army would field: 6 v 10 (house).
    assert_eq!(cut(6, 13, &r).fielded, (6, 10));
    assert_eq!(cut(7, 13, &r).fielded, (6, 10), "7 v 13 → 6 v 10, not 5 v 10");
    assert_eq!(cut(13, 7, &r).fielded, (10, 6));
    assert_eq!(cut(7, 30, &r).fielded, (6, 10), "10 × 7 / 30 = 2.3 → 2, raised to 6");
    // Above the floor the formula stands: 10 × 8 / 13 = 6.2 → 6; 10 × 9 / 13 = 6.9 → 7.
    assert_eq!(cut(8, 13, &r).fielded, (6, 10));
    assert_eq!(cut(9, 13, &r).fielded, (7, 10));
    assert_eq!(cut(7, 13, &r).bring_up, None, "the cut battle brings no one up");
}

#[test]
fn t_strat_6_a_unit_comes_up_only_at_the_start_of_a_turn() {
    let mut c = campaign(vec![army(1, Side::Red, (0, 5), &line(11)), army(11, Side::Blue, (1, 5), &line(5))]);
    ok(&mut c, mv(1, &[(1, 5)]));
    pass(&mut c);
    pass(&mut c);
    let s = c.battle_scenario().expect("scenario");
    let mut b = Battle::new(&s, 2);
    battle_until(&mut b, 5);
    let unit = b.units(Some(Side::Red)).into_iter().find(|u| u.status == "active").expect("a red unit");
    b.apply(BattleOrder::Turn { unit: unit.id, facing: rules::tactical::Dir::East }).unwrap_or_else(|e| panic!("{e}"));
    let free = (0..20)
        .map(|x| rules::tactical::Cell::new(x, 0))
        .find(|c| b.units(None).iter().all(|u| u.cell != *c))
        .expect("free");
    let e = b.apply(BattleOrder::BringUp { unit: UnitId(110), cell: free, facing: rules::tactical::Dir::South });
    assert!(e.expect_err("after another order").to_string().contains("start of the turn"));
}

#[test]
fn t_strat_7_left_out_units_lose_the_share_their_side_lost() {
    // F = 10 / 40: a unit of Health 10 loses 2 (2.5 rounded down), of 7 loses 1 (1.75).
    assert_eq!(left_out_loss(10, 40, 10), 2);
    assert_eq!(left_out_loss(10, 40, 7), 1);
    assert_eq!(left_out_loss(0, 40, 10), 0, "no losses, no loss");
    // All lost (F = 1): never below Health 1.
    assert_eq!(left_out_loss(40, 40, 10), 9);
    assert_eq!(left_out_loss(40, 40, 1), 0);
}

#[test]
fn t_strat_7_and_11_a_grid_battle_result_comes_back_to_the_campaign() {
    // 12 Red (guns among them) attack 13 Blue: 9 v 10 fight, 3 and 3 are left out.
    let red: Vec<&str> = [vec!["artillery"; 4], line(8)].concat();
    let blue: Vec<&str> = [vec!["artillery"; 3], line(10)].concat();
    let mut c = campaign(vec![army(1, Side::Red, (0, 5), &red), army(11, Side::Blue, (1, 5), &blue)]);
    ok(&mut c, mv(1, &[(1, 5)]));
    pass(&mut c);
    pass(&mut c);
    let save = fight(&mut c, "9 v 10");
    let battle = Battle::replay(&save).unwrap_or_else(|e| panic!("{e}"));
    let result = battle.result().expect("over");
    let before = c.state().clone();
    let events = ok(&mut c, Order::BattleResult { save: Box::new(save) });
    let winner = result.winner;
    let loser = winner.other();
    // T-STRAT-7: each left-out unit loses floor(F × Health), F from its side's fighting units.
    let s_units = |side: Side| result.units.iter().filter(|u| u.side == side).collect::<Vec<_>>();
    for side in Side::BOTH {
        let fighting = s_units(side);
        let start: i64 = fighting.iter().map(|u| i64::from(u.max_health)).sum();
        let lost: i64 = fighting
            .iter()
            .map(|u| match u.status {
                Status::Active | Status::Retreated => i64::from(u.max_health - u.health.max(0)),
                _ => i64::from(u.max_health),
            })
            .sum();
        let left_out: Vec<UnitId> =
            before.units_at(hex(1, 5), side).into_iter().filter(|id| fighting.iter().all(|u| u.id != *id)).collect();
        assert_eq!(left_out.len(), 3, "{side:?}");
        for id in left_out {
            let h = before.unit(id).map_or(0, |u| u.health);
            let want = h - i32::try_from((lost * i64::from(h)) / start).unwrap_or(0).min(h - 1);
            assert_eq!(
                c.state().unit(id).map(|u| u.health),
                Some(want),
                "T-STRAT-7: unit {id} of {side:?}, {lost}/{start}"
            );
        }
        if side == loser {
            assert!(lost > 0, "the loser lost something (else the test shows nothing)");
        }
    }
    // T-STRAT-11: the winner's dispersed units rejoin with Health 1; the loser falls back to an
    // enemy-free neighbouring hex (the attacker: where it came from).
    let dispersed: Vec<_> = s_units(winner).into_iter().filter(|u| u.status == Status::Dispersed).collect();
    for u in &dispersed {
        assert_eq!(c.state().unit(u.id).map(|x| x.health), Some(1), "T-STRAT-11: {} rejoins", u.id);
    }
    let loser_armies: Vec<_> = c.state().armies.iter().filter(|a| a.side == loser).collect();
    assert!(loser_armies.iter().all(|a| a.at != hex(1, 5) && a.at.distance(hex(1, 5)) == 1), "{loser_armies:?}");
    if loser == Side::Red {
        assert!(loser_armies.iter().all(|a| a.at == hex(0, 5)), "back where it came from");
    }
    // T-END-4: the loser's guns taken on the field join the winner at full Health.
    for id in &result.sides[loser.index()].guns_lost {
        let u = c.state().unit(*id).expect("kept");
        assert_eq!((u.side, u.health), (winner, 5));
    }
    assert!(events.iter().any(|e| matches!(e, Event::BattleWon { .. })));
    assert!(c.state().battle.is_none());
}

#[test]
fn t_strat_11_a_beaten_army_with_no_free_hex_is_captured() {
    // Blue in (0, 5), the corner: its neighbours on the map are (1, 5), (0, 4) and (1, 4), all
    // held by Red. 12 Red guns attack 12 Blue line: 10 v 10, 2 Blue units left out.
    let mut c = campaign(vec![
        army(1, Side::Red, (1, 5), &["artillery"; 12]),
        army(2, Side::Red, (0, 4), &["light_cavalry"]),
        army(3, Side::Red, (1, 4), &["light_cavalry"]),
        army(4, Side::Red, (1, 5), &["light_cavalry"]),
        army(11, Side::Blue, (0, 5), &line(12)),
        army(12, Side::Blue, (7, 0), &line(1)),
    ]);
    let open: Vec<HexAt> = hex(0, 5).neighbours().into_iter().filter(|h| c.scenario().map.passable(*h)).collect();
    assert_eq!(open.len(), 3);
    assert!(open.iter().all(|h| [hex(1, 5), hex(0, 4), hex(1, 4)].contains(h)));
    ok(&mut c, mv(1, &[(0, 5)]));
    assert_eq!(c.state().battle.as_ref().map(|b| b.fielded), Some([10, 10]));
    pass(&mut c);
    pass(&mut c);
    let save = fight(&mut c, "guns v line");
    let result = Battle::replay(&save).ok().and_then(|b| b.result()).expect("over");
    assert_eq!(result.winner, Side::Red, "the guns win the field");
    let events = ok(&mut c, Order::BattleResult { save: Box::new(save) });
    for id in [UnitId(1110), UnitId(1111)] {
        assert!(events.contains(&Event::Captured { unit: id, by: Side::Red }), "T-STRAT-11: {id} has nowhere to go");
        assert!(c.state().unit(id).is_none());
    }
    assert!(c.state().army(ArmyId(11)).is_none());
    assert!(c.state().outcome.is_none(), "Blue still has an army");
}

#[test]
fn t_strat_8_redoubts_defender_2_attacker_1_per_2_unused_mp_at_most_2() {
    let r = rules();
    assert_eq!((r.defender_redoubts, r.mp_per_redoubt, r.max_attacker_redoubts), (2, 2, 2));
    let by_mp: Vec<u32> = (0..=6).map(|mp| attacker_redoubts(mp, &r)).collect();
    assert_eq!(by_mp, vec![0, 0, 1, 1, 2, 2, 2], "MP 0..6");
    // In the campaign: Red arrives with 4 MP left (2 spent), builds 2 redoubts, and cannot move on.
    let mut c = campaign(vec![army(1, Side::Red, (0, 5), &line(5)), army(11, Side::Blue, (2, 5), &line(5))]);
    ok(&mut c, mv(1, &[(1, 5), (2, 5)]));
    assert_eq!(c.state().battle.as_ref().map(|b| b.attacker_mp), Some(4));
    let all = |from: u32| (from..from + 5).map(UnitId).collect::<Vec<_>>();
    let e = refused(&mut c, Order::ChooseForces(Forces { units: all(100), redoubts: 3, retreat: None }));
    assert!(e.contains("T-STRAT-8") && e.contains("4 unused MP") && e.contains("at most 2"), "{e}");
    let events = ok(&mut c, Order::ChooseForces(Forces { units: all(100), redoubts: 2, retreat: None }));
    assert!(events.contains(&Event::RedoubtsBuilt { side: Side::Red, redoubts: 2, mp_spent: 4 }));
    assert_eq!(c.state().army(ArmyId(1)).map(|a| a.mp_left), Some(0), "the 4 MP are gone");
    let e = refused(&mut c, Order::ChooseForces(Forces { units: all(1100), redoubts: 3, retreat: None }));
    assert!(e.contains("defender places at most 2"), "{e}");
    ok(&mut c, Order::ChooseForces(Forces { units: all(1100), redoubts: 2, retreat: None }));
    let s = c.battle_scenario().expect("scenario");
    assert_eq!((s.red.redoubts, s.blue.redoubts), (2, 2));
    // With 3 MP left: 1 redoubt (3 / 2).
    let mut c = campaign(vec![army(1, Side::Red, (0, 5), &line(5)), army(11, Side::Blue, (3, 5), &line(5))]);
    ok(&mut c, mv(1, &[(1, 5), (2, 5), (3, 5)]));
    assert_eq!(c.pass(), Order::ChooseForces(Forces { units: all(100), redoubts: 1, retreat: None }));
}

#[test]
fn t_strat_9_auto_battle_when_both_together_have_6_units_or_fewer() {
    assert_eq!(rules().auto_battle_units, 6);
    // 3 v 3 = 6: settled at once.
    let mut c = campaign(vec![army(1, Side::Red, (0, 5), &line(3)), army(11, Side::Blue, (1, 5), &line(3))]);
    let events = ok(&mut c, mv(1, &[(1, 5)]));
    assert!(events.iter().any(|e| matches!(e, Event::AutoBattleWon { .. })), "{events:?}");
    assert!(c.state().battle.is_none());
    // 3 v 4 = 7: fought on the grid.
    let mut c = campaign(vec![army(1, Side::Red, (0, 5), &line(3)), army(11, Side::Blue, (1, 5), &line(4))]);
    let events = ok(&mut c, mv(1, &[(1, 5)]));
    assert!(!events.iter().any(|e| matches!(e, Event::AutoRound { .. })));
    assert!(c.state().battle.is_some());
    // A key hex (Lindenau) or a fortress (Fort Hohenberg): always played, even 1 v 1.
    for at in [(3, 1), (6, 5)] {
        let from = (at.0 - 1, at.1);
        let mut c = campaign(vec![army(1, Side::Red, from, &line(1)), army(11, Side::Blue, at, &line(1))]);
        ok(&mut c, mv(1, &[at]));
        assert!(c.state().battle.is_some(), "T-STRAT-9: {at:?} is of extreme importance");
    }
}

#[test]
fn t_fort_1_a_fortress_assault_fields_up_to_15_attackers_and_10_defenders_without_a_cut() {
    let t = rules::tactical::config::RulesConfig::builtin();
    assert_eq!((t.max_units_fortress_attacker, t.max_units_fortress_defender), (15, 10));
    // Fort Hohenberg (6, 5); the attacker comes from (5, 5). Attacker 15 | 16, defender 10 | 11.
    for (attacking, defending, fielded) in [(16, 11, [15, 10]), (15, 10, [15, 10]), (14, 9, [14, 9])] {
        let mut c = campaign(vec![
            army(1, Side::Red, (5, 5), &line(attacking)),
            army(11, Side::Blue, (6, 5), &line(defending)),
        ]);
        let events = ok(&mut c, mv(1, &[(6, 5)]));
        let want = Event::Cut { at: hex(6, 5), fielded, bring_up: None };
        assert!(events.contains(&want), "T-FORT-1: {attacking} v {defending}: {events:?}");
        pass(&mut c);
        pass(&mut c);
        let s = c.battle_scenario().expect("scenario");
        let count = |side| s.units.iter().filter(|u| u.side == side && !u.reserve).count();
        assert_eq!([count(Side::Red), count(Side::Blue)], fielded);
        assert!(s.units.iter().all(|u| !u.reserve), "no unit comes up in an assault");
        let text = ron::to_string(&s).expect("ron");
        s.check_embedded("assault", &text, "scenario")
            .unwrap_or_else(|e| panic!("T-FORT-1: the assault is a valid battle: {e}"));
    }
    // The other way round: Blue storms with 16, Red holds with 11.
    let mut c = campaign(vec![army(1, Side::Red, (6, 5), &line(11)), army(11, Side::Blue, (5, 5), &line(16))]);
    let events = ok(&mut c, Order::EndTurn);
    let events = [events, ok(&mut c, mv(11, &[(6, 5)]))].concat();
    assert!(events.contains(&Event::Cut { at: hex(6, 5), fielded: [10, 15], bring_up: None }), "{events:?}");
}

#[test]
fn t_fort_2_breaches_count_the_attackers_guns_fielded_or_not() {
    // Fort Hohenberg (6, 5): 16 line and, but for the first case, 1 gun attack 10 line; the
    // attacker fields 15 (T-FORT-1), choosing the gun or leaving it out.
    let breaches = |gun: bool, field_gun: bool| {
        let units: Vec<&str> = if gun { [vec!["artillery"], line(16)].concat() } else { line(16) };
        let mut c = campaign(vec![army(1, Side::Red, (5, 5), &units), army(11, Side::Blue, (6, 5), &line(10))]);
        ok(&mut c, mv(1, &[(6, 5)]));
        let mine: Vec<UnitId> = c.state().units_at(hex(6, 5), Side::Red);
        let chosen: Vec<UnitId> = if field_gun { mine[..15].to_vec() } else { mine[mine.len() - 15..].to_vec() };
        assert_eq!(chosen.contains(&UnitId(100)), gun && field_gun);
        ok(&mut c, Order::ChooseForces(Forces { units: chosen, redoubts: 0, retreat: None }));
        pass(&mut c);
        let s = c.battle_scenario().expect("scenario");
        assert_eq!(s.kind, rules::tactical::BattleKind::Fortress);
        s.map.cells().filter(|cell| s.map.terrain(*cell) == Some(rules::tactical::Terrain::Breach)).count()
    };
    assert_eq!(breaches(false, false), 2, "T-FORT-2: no guns, 2 breaches");
    assert_eq!(breaches(true, true), 3, "T-FORT-2: a gun fielded, 3 breaches");
    assert_eq!(breaches(true, false), 3, "T-FORT-2: a gun in the army, left out of the assault: still 3");
}

/// The fates of each side's army general (formation "Army") in a battle of 5 v 5 guns at
/// (1, 5), fought out by fire (a division: a casualty test at 10 and 20 lost), with campaign seed `seed`; and the campaign after it.
fn general_fates(seed: u64) -> (Vec<(Side, GeneralFate)>, Campaign) {
    let mut s = linden();
    let guns = ["artillery"; 5];
    s.armies = vec![army(1, Side::Red, (0, 5), &guns), army(11, Side::Blue, (1, 5), &guns)];
    let mut c = Campaign::new(&s, seed);
    ok(&mut c, mv(1, &[(1, 5)]));
    pass(&mut c);
    pass(&mut c);
    let save = fight(&mut c, "5 v 5");
    let result = Battle::replay(&save).unwrap_or_else(|e| panic!("{e}")).result().expect("over");
    ok(&mut c, Order::BattleResult { save: Box::new(save) });
    let fates = result.generals.iter().filter(|g| g.formation == "Army").map(|g| (g.side, g.fate)).collect();
    (fates, c)
}

#[test]
fn t_cmd_3_a_general_killed_or_badly_wounded_is_gone_for_the_campaigns_next_battles() {
    let army_of = |side: Side| if side == Side::Red { ArmyId(1) } else { ArmyId(11) };
    // T-CMD-2's d6: 1 killed, 2 badly wounded (gone), 3–4 lightly wounded (back next battle).
    let (mut gone, mut back) = (false, false);
    for seed in 1..60 {
        let (fates, c) = general_fates(seed);
        for (side, fate) in fates {
            // A beaten army may have lost every unit, and itself with them.
            let Some(army) = c.state().army(army_of(side)) else { continue };
            let lost = army.general_lost;
            match fate {
                GeneralFate::Killed | GeneralFate::BadlyWounded => {
                    assert_eq!(lost, Some(fate), "T-CMD-3: seed {seed}, {side:?}: {fate:?} is gone");
                    gone = true;
                }
                GeneralFate::LightlyWounded => {
                    assert_eq!(lost, None, "T-CMD-3: seed {seed}, {side:?}: lightly wounded, back next battle");
                    back = true;
                }
                GeneralFate::Unhurt => {}
            }
        }
        if gone && back {
            break;
        }
    }
    assert!(gone && back, "some battle lost a general for good and some one lightly wounded");
    // The next battle: Red's army 1 without its general, Blue's with; Red's second army (12)
    // still has its own, so it leads when its unit comes first.
    let mut c = campaign(vec![
        army(1, Side::Red, (0, 5), &line(5)),
        army(12, Side::Red, (0, 5), &line(5)),
        army(11, Side::Blue, (1, 5), &line(10)),
    ]);
    ok(&mut c, Order::EndTurn);
    ok(&mut c, mv(11, &[(0, 5)]));
    let mut state = c.state().clone();
    let pending = state.battle.clone().expect("a battle");
    let scenario = linden();
    let next =
        |state: &rules::campaign::CampaignState| rules::campaign::field::battle_scenario(&scenario, state, &pending);
    for fate in [GeneralFate::Killed, GeneralFate::BadlyWounded] {
        if let Some(a) = state.armies.iter_mut().find(|a| a.id == ArmyId(1)) {
            a.general_lost = Some(fate);
        }
        // Army 12 fielding too: its general commands, from its first unit (1200).
        let s = next(&state);
        assert_eq!((s.red.general_lost, s.red.hq), (None, Some(UnitId(1200))), "{fate:?}");
        if let Some(a) = state.armies.iter_mut().find(|a| a.id == ArmyId(12)) {
            a.general_lost = Some(fate);
        }
        let s = next(&state);
        assert_eq!(s.red.general_lost, Some(fate), "{fate:?}: no general left");
        assert_eq!(s.blue.general_lost, None);
        let battle = Battle::new(&s, 1);
        let ctx = battle.ctx();
        let formations = &ctx.command.formations;
        assert!(
            formations.iter().filter(|f| f.side == Side::Red).all(|f| f.general_lost() && f.general_with.is_none())
        );
        assert!(formations.iter().filter(|f| f.side == Side::Blue).all(|f| !f.general_lost()));
        for a in state.armies.iter_mut() {
            a.general_lost = None;
        }
    }
    let s = next(&state);
    assert_eq!((s.red.general_lost, s.red.hq), (None, None), "both generals there: the first unit's army leads");
}

#[test]
fn t_strat_10_special_units_only_for_their_faction_and_replenished_never_raised() {
    // France may not have the Life-Guard Hussars of T-RUS-4.
    let mut s = linden();
    s.armies[0].units[0].unit = "lg_hussars".to_string();
    let text = rules::data::to_ron(&s);
    let e = CampaignScenario::from_resolved("x.ron", &text).expect_err("refused").to_string();
    assert!(e.contains("T-STRAT-10") && e.contains("lg_hussars"), "{e}");
    // Russia may, and they fight in the battle scenario as Russian special units.
    let mut c = campaign(vec![
        army(1, Side::Red, (0, 5), &line(4)),
        army(11, Side::Blue, (1, 5), &["lg_semyonovsky", "lg_pavlovsky", "jaeger_17", "lg_hussars"]),
    ]);
    ok(&mut c, mv(1, &[(1, 5)]));
    pass(&mut c);
    pass(&mut c);
    let s = c.battle_scenario().expect("scenario");
    assert_eq!(s.blue.faction, "Russia");
    assert!(s.units.iter().any(|u| u.unit == "lg_semyonovsky"));
    // No order raises a unit: units only ever leave or change hands (guns, T-AUTO-4), and a
    // dispersed special unit of the winner rejoins (T-STRAT-11) — the replenishment.
    let mut c = campaign(vec![
        army(1, Side::Red, (0, 5), &["light_cavalry"]),
        army(11, Side::Blue, (1, 5), &["jaeger_17", "lg_hussars"]),
    ]);
    let units_before = c.state().units.len();
    ok(&mut c, mv(1, &[(1, 5)]));
    assert!(c.state().units.len() <= units_before);
    let table = UnitTable::builtin();
    assert!(table.types.iter().filter(|t| t.faction.as_deref() == Some("Russia")).count() == 6, "T-RUS-1..6");
}

#[test]
fn t_strat_10_special_units_that_lost_health_are_replenished_standing_never_raised() {
    // Blue (Russia): the 17th Jägers at 8 of 9 (lost 1), the Life-Guard Hussars at 5 of 5, a
    // line regiment (generic) at 3 of 10; a second army's Semyonovsky regiment at 12 of 12.
    let with_health = |mut a: ArmySpec, health: &[Option<i32>]| {
        for (u, h) in a.units.iter_mut().zip(health) {
            u.health = *h;
        }
        a
    };
    let mut c = campaign(vec![
        army(1, Side::Red, (0, 1), &line(4)),
        with_health(
            army(11, Side::Blue, (6, 5), &["jaeger_17", "lg_hussars", "line_infantry"]),
            &[Some(8), None, Some(3)],
        ),
        army(12, Side::Blue, (5, 5), &["lg_semyonovsky", "line_infantry"]),
        with_health(army(13, Side::Blue, (7, 5), &["line_infantry"]), &[Some(3)]),
    ]);
    let e = refused(&mut c, Order::Replenish { army: ArmyId(11) });
    assert!(e.contains("Blue's turn") || e.contains("turn"), "{e}");
    ok(&mut c, Order::EndTurn);
    let units_before = c.state().units.len();
    let health = |c: &Campaign, id: u32| c.state().unit(UnitId(id)).map(|u| u.health);
    let e = refused(&mut c, Order::Replenish { army: ArmyId(12) });
    assert!(e.contains("T-STRAT-10") && e.contains("no special unit below full"), "12 of 12: {e}");
    let e = refused(&mut c, Order::Replenish { army: ArmyId(13) });
    assert!(e.contains("T-STRAT-10") && e.contains("only special units"), "a generic unit is not replenished: {e}");
    let events = ok(&mut c, Order::Replenish { army: ArmyId(11) });
    assert_eq!(events, vec![Event::Replenished { unit: UnitId(1100), health: 9 }], "8 of 9 → 9");
    assert_eq!((health(&c, 1100), health(&c, 1101), health(&c, 1102)), (Some(9), Some(5), Some(3)));
    assert_eq!(c.state().army(ArmyId(11)).map(|a| a.mp_left), Some(0), "it spends the turn");
    assert_eq!(c.state().units.len(), units_before, "T-STRAT-10: nothing is raised");
    // An army that has moved does not replenish that turn.
    let mut c = campaign(vec![
        army(1, Side::Red, (0, 1), &line(4)),
        with_health(army(11, Side::Blue, (6, 5), &["jaeger_17"]), &[Some(1)]),
    ]);
    ok(&mut c, Order::EndTurn);
    ok(&mut c, mv(11, &[(7, 5)]));
    let e = refused(&mut c, Order::Replenish { army: ArmyId(11) });
    assert!(e.contains("T-STRAT-10") && e.contains("has moved"), "{e}");
}

fn ty(id: &str) -> rules::tactical::units::UnitType {
    UnitTable::builtin().get(id).cloned().unwrap_or_else(|| panic!("{id}"))
}

#[test]
fn t_auto_1_rounds_ranged_then_melee_damage_fills_units_in_order() {
    let r = rules();
    let (li, lt) = (ty("line_infantry"), ty("light_infantry"));
    // Line 3/2 Health 10 against light 2/3 Health 7.
    let red = [AutoUnit { kind: &li, health: 10 }];
    let blue = [AutoUnit { kind: &lt, health: 7 }];
    let b = auto_battle(&red, &blue, false, &r);
    // Round 1 ranged: 2 and 3 → 5 and 7; round 2 melee 3 and 2 → 2 and 5; round 3 → 0 and 3.
    assert_eq!(b.rounds, vec![(2, 3), (3, 2), (3, 2)]);
    assert_eq!((b.health.0.clone(), b.health.1.clone()), (vec![3], vec![0]));
    assert!(b.first_wins);
    // Cavalry charges in round 2 only: light cavalry 2 + 1, heavy 3 + 1; it fires 1 in round 1.
    let (lc, hc, mi) = (ty("light_cavalry"), ty("heavy_cavalry"), ty("militia"));
    let cav = [AutoUnit { kind: &lc, health: 5 }, AutoUnit { kind: &hc, health: 6 }];
    let b = auto_battle(&cav, &[AutoUnit { kind: &mi, health: 6 }], true, &r);
    assert_eq!(b.rounds, vec![(1, 1), (3 + 4, 2)], "round 1 ranged (heavy cavalry none), round 2 melee + charge");
    assert_eq!(b.health.0, vec![5 - 1 - 2, 6]);
    // Damage fills the first unit up to its Health, the rest passes on: 8 on 5 + 6 → 0 and 3.
    let mut one_round = r.clone();
    one_round.auto_round_limit = 1;
    let art = ty("artillery");
    let guns = [AutoUnit { kind: &art, health: 5 }, AutoUnit { kind: &art, health: 5 }];
    let b = auto_battle(&guns, &cav, true, &one_round);
    assert_eq!(b.rounds, vec![(8, 1)]);
    assert_eq!(b.health.1, vec![0, 3], "5 fill the first, 3 pass on");
    assert_eq!(b.health.0, vec![4, 5]);
}

#[test]
fn t_auto_2_the_battle_ends_when_a_side_has_no_unit_above_0_both_at_once_the_defender_wins() {
    let r = rules();
    let li = ty("line_infantry");
    let one = [AutoUnit { kind: &li, health: 10 }];
    // Equal lines: 2, 3, 3, 3 → both at 0 after round 4.
    for first_defends in [true, false] {
        let b = auto_battle(&one, &one, first_defends, &r);
        assert_eq!(b.rounds.len(), 4);
        assert_eq!((b.health.0[0], b.health.1[0]), (0, 0));
        assert_eq!(b.first_wins, first_defends, "T-AUTO-2: the defender wins");
    }
    // Nothing can hurt anything: the house round limit, the defender wins.
    let mut none = ty("militia");
    none.melee = 0;
    none.ranged = None;
    none.range = None;
    let idle = [AutoUnit { kind: &none, health: 6 }];
    let b = auto_battle(&idle, &idle, false, &r);
    assert_eq!((b.rounds.len(), b.first_wins), (30, false));
}

#[test]
fn t_auto_3_and_4_the_loser_is_captured_the_winner_keeps_its_losses_and_takes_the_guns() {
    // Red: 3 line infantry attack Blue's line infantry and a battery; 5 units in all.
    let mut c = campaign(vec![
        army(1, Side::Red, (0, 5), &line(3)),
        army(11, Side::Blue, (1, 5), &["line_infantry", "artillery"]),
    ]);
    let events = ok(&mut c, mv(1, &[(1, 5)]));
    let rounds: Vec<[i32; 2]> = events
        .iter()
        .filter_map(|e| if let Event::AutoRound { damage, .. } = e { Some(*damage) } else { None })
        .collect();
    // Round 1: Red 3 × 2 = 6, Blue 2 + 4 = 6; round 2: Red 9, Blue 3 + 1 = 4; ...
    assert_eq!(rounds[0], [6, 6]);
    assert_eq!(rounds[1], [9, 4]);
    assert!(events.contains(&Event::AutoBattleWon { at: hex(1, 5), winner: Side::Red, rounds: 2 }), "{events:?}");
    // T-AUTO-4: the winner takes 6 + 4 = 10 damage: the first unit (10) dispersed, rejoining at 1.
    let health: Vec<i32> = (100..103).map(|i| c.state().unit(UnitId(i)).map_or(-1, |u| u.health)).collect();
    assert_eq!(health, vec![1, 10, 10]);
    assert!(events.contains(&Event::Rejoined { unit: UnitId(100), health: 1 }));
    // T-AUTO-3: the loser's units are all captured; T-AUTO-4: its gun joins the winner at full Health.
    assert!(events.contains(&Event::Captured { unit: UnitId(1100), by: Side::Red }));
    assert!(events.contains(&Event::GunTaken { unit: UnitId(1101), by: Side::Red, army: ArmyId(1) }));
    let gun = c.state().unit(UnitId(1101)).expect("the gun");
    assert_eq!((gun.side, gun.health), (Side::Red, 5));
    assert_eq!(c.state().army(ArmyId(1)).map(|a| a.units.len()), Some(4));
    assert!(c.state().army(ArmyId(11)).is_none());
    // Blue has no army left: Red wins the campaign.
    assert_eq!(c.state().outcome.map(|o| (o.winner, o.reason)), Some((Side::Red, VictoryReason::EnemyDestroyed)));
    // The preview foresaw it: no dice in an auto-battle, so the odds are 1.
    let c2 = campaign(vec![
        army(1, Side::Red, (0, 5), &line(3)),
        army(11, Side::Blue, (1, 5), &["line_infantry", "artillery"]),
    ]);
    let p = c2.preview(&mv(1, &[(1, 5)])).expect("preview");
    let f = p.battle.expect("a battle");
    assert_eq!((f.auto, f.attacker_wins, f.units), (true, Some(1.0), [3, 2]));
}
