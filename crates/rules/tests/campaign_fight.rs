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

/// The campaign each side's client plays on (`Mirror`): rebuilt from the side's view at every
/// order of a campaign whose battle is fought on the log with light infantry hidden in forest
/// (T-TERR-2), it gives back that view, its battle is the battle that side knows (the hidden
/// infantry absent where the side's own view lacks it), its previews are the ones the campaign
/// gives that side, and the side to move and its legal battle orders are the campaign's. The
/// umpire's rebuilt campaign holds every unit.
#[test]
fn t_strat_4_a_campaign_rebuilt_from_each_sides_view_is_the_campaign_that_side_knows() {
    use rules::view::Mirror;
    let mut c = joined();
    let scenario = c.ctx().scenario.as_ref().clone();
    let mut checked = 0;
    let mut hidden_units = 0;
    let mut guard = 0;
    loop {
        for viewer in [Viewer::Player(Side::Red), Viewer::Player(Side::Blue), Viewer::Umpire] {
            let view = c.view(viewer);
            let mirror = Campaign::from_view(&scenario, &view).unwrap_or_else(|e| panic!("{viewer:?}: {e}"));
            assert_eq!(mirror.view(viewer), view, "{viewer:?}: the view given back");
            assert_eq!(mirror.active_player(), c.active_player());
            if let (Some(theirs), Some(fight)) = (mirror.fight(), c.fight()) {
                let known = c.ctx_as(viewer).fighting.expect("the side knows its battle");
                assert_eq!(theirs.units, known.units, "{viewer:?}: the battle's units as the side knows them");
                hidden_units += fight.units.len() - theirs.units.len();
                if viewer.sees_all() {
                    assert_eq!(theirs.units, fight.units, "the umpire's battle holds every unit");
                }
                if viewer.player() == Some(fight.clock.active) {
                    assert_eq!(theirs.legal_orders(), known.legal_orders());
                }
            }
            let order = c.pass();
            if viewer.player().is_some_and(|p| Some(p) == c.active_player()) {
                assert_eq!(
                    format!("{:?}", mirror.preview_as(viewer, &order)),
                    format!("{:?}", c.preview_as(viewer, &order)),
                    "{viewer:?}: the preview of {order:?}"
                );
            }
            checked += 1;
        }
        if c.state().battles > 0 && c.state().battle.is_none() {
            break;
        }
        guard += 1;
        assert!(guard < 5_000, "the battle ends");
        let order = match c.fight() {
            Some(fight) => Order::Fight(next_battle_order(fight)),
            None => c.pass(),
        };
        ok(&mut c, order);
    }
    assert!(checked > 30 && hidden_units > 0, "{checked} views, {hidden_units} units hidden");
}

/// A view the rules could not give is refused, not made into a campaign: another scenario, a
/// regiment the scenario lacks or of another type, units or armies out of order, an army off the
/// map, without units or marching with another side's unit, key hexes of another count, a battle
/// fought where none waits.
#[test]
fn a_campaign_view_of_another_scenario_or_that_the_rules_could_not_give_is_refused() {
    use rules::view::{Mirror, ViewError};
    let c = joined();
    let scenario = c.ctx().scenario.as_ref().clone();
    let view = c.view(Viewer::Player(Side::Red));
    Campaign::from_view(&scenario, &view).expect("the view as given");
    let refused = |v: &rules::campaign::CampaignView| {
        matches!(Campaign::from_view(&scenario, v), Err(ViewError::Inconsistent(_)))
    };
    assert!(matches!(Campaign::from_view(&support::linden(), &view), Err(ViewError::Scenario { .. })));
    let mut stranger = view.clone();
    stranger.units[0].id = rules::tactical::UnitId(9_999);
    stranger.units.sort_by_key(|u| u.id);
    assert!(refused(&stranger));
    let mut retyped = view.clone();
    retyped.units[0].unit = "artillery".into();
    assert!(refused(&retyped), "light infantry is not artillery");
    let mut twice = view.clone();
    twice.units.push(twice.units[0].clone());
    assert!(refused(&twice));
    let mut swapped = view.clone();
    swapped.armies.reverse();
    assert!(refused(&swapped));
    let mut off = view.clone();
    off.armies[0].at = rules::campaign::HexAt::new(-1, 0);
    assert!(refused(&off));
    let mut empty = view.clone();
    empty.armies[0].units.clear();
    assert!(refused(&empty));
    let mut theirs = view.clone();
    let blue = theirs.armies[1].units[0];
    theirs.armies[0].units.push(blue);
    assert!(refused(&theirs), "red's army marches with a blue unit");
    let mut holders = view.clone();
    holders.holders.push(Side::Red);
    assert!(refused(&holders));
    let mut pending = c.clone();
    pass(&mut pending);
    let mut bare = pending.view(Viewer::Player(Side::Red));
    assert!(bare.ground.is_some(), "the battle's generated field is in the view");
    Campaign::from_view(&scenario, &bare).expect("the view with its ground");
    bare.ground = None;
    assert!(refused(&bare), "a battle on a generated field without its ground");
    let mut fought = view.clone();
    fought.fight = Some(Battle::new(&rules::testing::shipped("open_field"), 1).view(Viewer::Player(Side::Red)));
    assert!(refused(&fought), "no battle waits with both sides' forces chosen");
}
