//! T-STRAT-4: a campaign's battle fought on the campaign's own log, order by order
//! (`Order::Fight`), each side at its own seat: the battle's door checks each order, the battle's
//! sight decides what each side sees, and the battle ends as its reported save would have.

#[path = "support/campaign.rs"]
mod support;

use rules::campaign::{Campaign, Event, Order, OrderError};
use rules::game::Game;
use rules::tactical::units::Ability;
use rules::tactical::{Battle, Order as BattleOrder, Phase, Side};
use rules::view::{Seen, Sight, Viewer};
use support::*;

/// Light infantry on both sides (it hides in forest, T-TERR-2), Red attacking into (2, 1), whose
/// field has woods.
fn joined() -> Campaign {
    let red: Vec<&str> = [vec!["light_infantry"; 4], line(3), vec!["artillery"; 1]].concat();
    let blue: Vec<&str> = [vec!["light_infantry"; 4], line(4)].concat();
    let mut c = campaign(vec![army(1, Side::Red, (1, 1), &red), army(11, Side::Blue, (2, 1), &blue)]);
    ok(&mut c, mv(1, &[(2, 1)]));
    c
}

/// The next order of the side the battle waits for: in set-up, its light infantry into forest
/// (where it hides, T-TERR-2); in battle a shot where one is legal, else light infantry into the
/// woods away from everyone, else a move (at most three a turn), else the end of its turn.
fn next_battle_order(fight: &rules::tactical::Ctx) -> BattleOrder {
    if fight.clock.phase == Phase::Deployment {
        let hides = |o: &&BattleOrder| match o {
            BattleOrder::Deploy { unit, cell, .. } => {
                fight.grid.is_forest(*cell) && fight.unit(*unit).is_some_and(|u| fight.has(u, Ability::Ambush))
            }
            _ => false,
        };
        if let Some(o) = fight.legal_orders().iter().find(hides) {
            return o.clone();
        }
    }
    if fight.clock.phase == Phase::Battle {
        let legal = fight.legal_orders();
        if let Some(o) = legal.iter().find(|o| matches!(o, BattleOrder::Fire { .. })) {
            return o.clone();
        }
        let into_woods = |o: &&BattleOrder| match o {
            BattleOrder::Move { unit, path, .. } => {
                fight.unit(*unit).is_some_and(|u| fight.has(u, Ability::Ambush) && !u.concealed)
                    && path.last().is_some_and(|c| {
                        fight.grid.is_forest(*c) && !c.neighbours().iter().any(|n| fight.at(*n).is_some())
                    })
            }
            _ => false,
        };
        if fight.clock.orders_this_turn < 3
            && let Some(o) = legal.iter().find(into_woods)
        {
            return o.clone();
        }
        if fight.clock.orders_this_turn < 3
            && let Some(o) = legal.iter().find(|o| matches!(o, BattleOrder::Move { .. }))
        {
            return o.clone();
        }
        return BattleOrder::EndTurn;
    }
    BattleOrder::EndSetup
}

#[test]
fn t_strat_4_a_battle_fought_on_the_log_ends_as_its_save_reported_whole_would() {
    let mut c = joined();
    // Before both sides have chosen, there is no battle to fight.
    let e = refused(&mut c, Order::Fight(BattleOrder::EndSetup));
    assert!(e.contains("T-STRAT-5"), "{e}");
    pass(&mut c);
    pass(&mut c);
    let mut whole = c.clone();
    let b = c.state().battle.clone().expect("a battle waits");
    let mut battle = Battle::new(&c.battle_scenario().expect("its scenario"), b.seed);
    let mut hidden = 0;
    let mut guard = 0;
    while c.state().battle.is_some() {
        guard += 1;
        assert!(guard < 5_000, "the battle ends");
        let fight = c.fight().expect("the battle stands");
        // The side the campaign waits for is the battle's; its pass ends its set-up or turn.
        assert_eq!(c.active_player(), Some(fight.clock.active));
        let passing = if fight.clock.phase == Phase::Battle { BattleOrder::EndTurn } else { BattleOrder::EndSetup };
        assert_eq!(c.pass(), Order::Fight(passing));
        let order = next_battle_order(fight);
        let events = ok(&mut c, Order::Fight(order.clone()));
        let battle_events = battle.apply(order).expect("the battle takes it too");
        // Each side sees the battle's events as the battle's own sight shows them.
        for side in Side::BOTH {
            let viewer = Viewer::Player(side);
            let seen = c.seen(viewer, &events);
            let fought: Vec<Seen<rules::tactical::Event>> = seen
                .iter()
                .filter_map(|s| match s {
                    Seen::Open(Event::Fought { event, .. }) => Some(Seen::Open(event.clone())),
                    Seen::Hidden => Some(Seen::Hidden),
                    Seen::Open(_) => None,
                })
                .collect();
            let expected = battle.seen(viewer, &battle_events);
            assert_eq!(fought[..expected.len()], expected[..], "{side:?} sees the battle as the battle shows it");
            hidden += expected.iter().filter(|s| **s == Seen::Hidden).count();
            if c.state().battle.is_some() {
                let view = c.view(viewer);
                assert_eq!(view.fight, Some(battle.view(viewer)), "{side:?}'s view holds its battle");
                let pending = view.battle.expect("the battle waits");
                assert!(pending.fought.is_empty() && pending.seed == 0, "no order and no seed of it in a view");
                assert!(c.ctx_as(viewer).state.battle.is_some_and(|b| b.fought.is_empty() && b.seed != battle.seed()));
            }
        }
    }
    assert!(Game::is_over(&battle));
    assert!(hidden > 0, "light infantry hid in forest at least once (else the sight shows nothing)");
    // The same battle reported whole gives the same campaign.
    let events = ok(&mut whole, Order::BattleResult { save: Box::new(battle.save()) });
    assert!(events.iter().any(|e| matches!(e, Event::BattleWon { .. })));
    assert_eq!(c.hash(), whole.hash(), "fought on the log or reported whole, the same result");
    assert_eq!(c.dice_thrown(), whole.dice_thrown());
    // The campaign's save holds the battle's orders and replays to the same hash.
    let replayed = Campaign::replay(&c.save()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replayed.hash(), c.hash());
}

#[test]
fn t_strat_4_the_battles_door_refuses_for_it_and_a_fight_begun_is_not_reported_whole() {
    let mut c = joined();
    pass(&mut c);
    pass(&mut c);
    let b = c.state().battle.clone().expect("a battle waits");
    let scenario = c.battle_scenario().expect("its scenario");
    let mut report = Battle::new(&scenario, b.seed);
    // The battle's moderator orders are not the campaign's.
    let e = refused(&mut c, Order::Fight(BattleOrder::Moderate { asks: Vec::new() }));
    assert!(e.contains("moderator"), "{e}");
    // An order the battle refuses is refused with the battle's reason, and changes nothing.
    let turn = BattleOrder::EndTurn;
    let before = c.hash();
    let err = c.apply(Order::Fight(turn.clone())).expect_err("no turn to end in set-up");
    let own = report.apply(turn).expect_err("the battle refuses it too");
    assert_eq!(err, OrderError::Fight(own));
    assert_eq!(c.hash(), before);
    ok(&mut c, Order::Fight(BattleOrder::EndSetup));
    // Begun on the log, the battle is not reported whole.
    while !Game::is_over(&report) {
        let order = Game::pass(&report);
        report.apply(order).unwrap_or_else(|e| panic!("{e}"));
    }
    let e = refused(&mut c, Order::BattleResult { save: Box::new(report.save()) });
    assert!(e.contains("order by order"), "{e}");
}

#[test]
fn t_strat_4_a_side_that_only_passes_stands_its_battle_out_turn_by_turn() {
    let mut c = joined();
    pass(&mut c);
    pass(&mut c);
    let mut passes = 0;
    while c.state().battle.is_some() {
        passes += 1;
        assert!(passes < 500, "the battle reaches its last turn");
        pass(&mut c);
    }
    // Every side's set-up and every turn of both sides, to the round limit (T-TURN-4).
    let limit = usize::try_from(support::linden().rules.round_limit).unwrap_or(0);
    assert!(passes >= 2 * limit, "{passes} passes for {limit} rounds");
    assert!(c.state().battles > 0);
}
