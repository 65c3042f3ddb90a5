//! The campaign's decisions the source leaves to a moderator, in a campaign set to ask
//! (`rules::moderation`): the engine stops where each falls, and the moderator's ruling, an
//! order of the log, takes it. Each test names its rule and shows the numbers on both sides of
//! the thresholds at which the question is put.

use rules::campaign::resolve::left_out_loss;
use rules::campaign::{ArmyId, Campaign, Event, Forces, Order, OrderError, Question, Ruling};
use rules::game::{Game, Save};
use rules::moderation::Asked;
use rules::tactical::{Battle, Side, UnitId};

#[path = "support/campaign.rs"]
mod common;
use common::*;

fn asking(c: &mut Campaign, asks: &[Asked]) {
    let events = ok(c, Order::Moderate { asks: asks.to_vec() });
    assert_eq!(events, vec![Event::Moderated { asks: rules::moderation::normalized(asks) }]);
}

fn question(c: &Campaign) -> Question {
    c.state().question.clone().expect("a question waits")
}

/// Nothing but the moderator's orders while a question waits (no side is to act, so none
/// writes a directive either).
fn waits(c: &mut Campaign, rule: &str) {
    assert!(c.awaits_moderator());
    assert_eq!(c.active_player(), None, "no side gives an order");
    assert_eq!(c.default_ruling(), Some(Order::Rule(Ruling::Default)));
    let directive = Order::Directive { to: None, text: "hold".to_string() };
    for order in [Order::EndTurn, c.pass(), mv(1, &[(0, 5)]), directive] {
        let e = c.apply(order.clone()).expect_err("refused");
        assert!(matches!(e, OrderError::AwaitsModerator { rule: r } if r == rule), "{order:?}: {e}");
    }
}

#[test]
fn t_strat_9_asked_the_moderator_judges_a_battle_of_6_units_or_fewer_one_of_7_is_played() {
    // 3 v 3 = 6: the engine would auto-battle; the moderator is asked, and may have it played.
    let mut c = campaign(vec![army(1, Side::Red, (0, 5), &line(3)), army(11, Side::Blue, (1, 5), &line(3))]);
    asking(&mut c, &[Asked::Played]);
    let events = ok(&mut c, mv(1, &[(1, 5)]));
    let q =
        Question::Played { at: hex(1, 5), attacker: Side::Red, from: Some(hex(0, 5)), units: [3, 3], played: false };
    assert!(events.contains(&Event::Asked { question: q.clone() }), "{events:?}");
    assert!(!events.iter().any(|e| matches!(e, Event::AutoRound { .. })), "nothing is fought yet");
    assert_eq!(question(&c), q);
    waits(&mut c, "T-STRAT-9");
    let e = refused(&mut c, Order::Rule(Ruling::Cut([3, 3])));
    assert!(e.contains("T-STRAT-9") && e.contains("does not answer"), "{e}");
    let events = ok(&mut c, Order::Rule(Ruling::Played(true)));
    assert!(events.contains(&Event::Ruled { rule: Asked::Played, ruling: Ruling::Played(true) }));
    assert!(events.contains(&Event::Cut { at: hex(1, 5), fielded: [3, 3], bring_up: None }));
    assert_eq!(c.state().battle.as_ref().map(|b| (b.number, b.attacker_from)), Some((1, Some(hex(0, 5)))));
    assert_eq!(c.active_player(), Some(Side::Red), "the attacker chooses its forces");
    assert!(!c.awaits_moderator());
    let e = refused(&mut c, Order::Rule(Ruling::Played(false)));
    assert!(e.contains("no question"), "{e}");

    // Ruled not played, it is the auto-battle the engine would have fought.
    let mut asked = campaign(vec![army(1, Side::Red, (0, 5), &line(3)), army(11, Side::Blue, (1, 5), &line(3))]);
    asking(&mut asked, &[Asked::Played]);
    ok(&mut asked, mv(1, &[(1, 5)]));
    let by_moderator = ok(&mut asked, Order::Rule(Ruling::Played(false)));
    let mut plain = campaign(vec![army(1, Side::Red, (0, 5), &line(3)), army(11, Side::Blue, (1, 5), &line(3))]);
    let by_engine = ok(&mut plain, mv(1, &[(1, 5)]));
    let fought = |events: &[Event]| -> Vec<Event> {
        events.iter().filter(|e| matches!(e, Event::AutoRound { .. } | Event::AutoBattleWon { .. })).cloned().collect()
    };
    assert_eq!(fought(&by_moderator), fought(&by_engine));
    assert!(!fought(&by_engine).is_empty());
    assert_eq!(asked.state().units, plain.state().units);

    // 3 v 4 = 7: never an auto-battle, so nobody is asked.
    let mut c = campaign(vec![army(1, Side::Red, (0, 5), &line(3)), army(11, Side::Blue, (1, 5), &line(4))]);
    asking(&mut c, &[Asked::Played]);
    ok(&mut c, mv(1, &[(1, 5)]));
    assert!(c.state().question.is_none() && c.state().battle.is_some());

    // A key hex (Lindenau, 1 v 1): the engine's answer is "played"; the moderator may say not.
    let mut c = campaign(vec![army(1, Side::Red, (2, 1), &line(1)), army(11, Side::Blue, (3, 1), &line(1))]);
    asking(&mut c, &[Asked::Played]);
    ok(&mut c, mv(1, &[(3, 1)]));
    assert!(matches!(question(&c), Question::Played { played: true, units: [1, 1], .. }));
    let events = ok(&mut c, Order::Rule(Ruling::Played(false)));
    assert!(events.iter().any(|e| matches!(e, Event::AutoBattleWon { .. })), "{events:?}");
    // The same, ruled by default: played.
    let mut c = campaign(vec![army(1, Side::Red, (2, 1), &line(1)), army(11, Side::Blue, (3, 1), &line(1))]);
    asking(&mut c, &[Asked::Played]);
    ok(&mut c, mv(1, &[(3, 1)]));
    ok(&mut c, Order::Rule(Ruling::Default));
    assert!(c.state().battle.is_some());

    // A fortress assault (Fort Hohenberg) is always played (T-FORT-1): not asked.
    let mut c = campaign(vec![army(1, Side::Red, (5, 5), &line(1)), army(11, Side::Blue, (6, 5), &line(1))]);
    asking(&mut c, &[Asked::Played]);
    ok(&mut c, mv(1, &[(6, 5)]));
    assert!(c.state().question.is_none() && c.state().battle.is_some());
}

/// Red's `red` units attack Blue's `blue` from the next hex, in a campaign asking `asks`.
fn joined(red: usize, blue: usize, asks: &[Asked]) -> (Campaign, Vec<Event>) {
    let mut c = campaign(vec![army(1, Side::Red, (0, 5), &line(red)), army(11, Side::Blue, (1, 5), &line(blue))]);
    asking(&mut c, asks);
    let events = ok(&mut c, mv(1, &[(1, 5)]));
    (c, events)
}

#[test]
fn t_strat_5_asked_the_moderator_recounts_when_both_sides_exceed_the_limit() {
    let (mut c, _) = joined(12, 13, &[Asked::BattleCut]);
    let q = Question::Cut {
        at: hex(1, 5),
        attacker: Side::Red,
        from: Some(hex(0, 5)),
        units: [12, 13],
        fielded: [9, 10],
        limit: 10,
    };
    assert_eq!(question(&c), q, "the engine's answer is the digest's 9 v 10");
    waits(&mut c, "T-STRAT-5");
    for (bad, why) in [([11, 10], "between 1 and 10"), ([0, 10], "between 1 and 10"), ([10, 14], "of its 13 units")] {
        let e = refused(&mut c, Order::Rule(Ruling::Cut(bad)));
        assert!(e.contains("T-STRAT-5") && e.contains(why), "{bad:?}: {e}");
    }
    let events = ok(&mut c, Order::Rule(Ruling::Cut([8, 10])));
    assert!(events.contains(&Event::Cut { at: hex(1, 5), fielded: [8, 10], bring_up: None }), "{events:?}");
    let ids = |from: u32, n: u32| (from..from + n).map(UnitId).collect::<Vec<_>>();
    let e = refused(&mut c, Order::ChooseForces(Forces { units: ids(100, 9), redoubts: 0, retreat: None }));
    assert!(e.contains("fields 8"), "{e}");
    ok(&mut c, Order::ChooseForces(Forces { units: ids(100, 8), redoubts: 0, retreat: None }));

    // The thresholds: the larger side over 10 (11, not 10) and the smaller at least 7 (7, not 6:
    // T-STRAT-6 fixes that case, no recount).
    for (red, blue, asked) in [(11, 7, true), (10, 7, false), (11, 6, false), (7, 11, true), (11, 11, true)] {
        let (c, events) = joined(red, blue, &[Asked::BattleCut]);
        assert_eq!(c.awaits_moderator(), asked, "{red} v {blue}");
        assert_eq!(!asked, events.iter().any(|e| matches!(e, Event::Cut { .. })), "{red} v {blue}");
    }
    // 11 v 6, not asked: the engine's T-STRAT-6 (all 6 against 10, one brought up later).
    let (c, _) = joined(11, 6, &[Asked::BattleCut]);
    assert_eq!(c.state().battle.as_ref().map(|b| (b.fielded, b.bring_up)), Some(([10, 6], Some(Side::Red))));
    // Ruled by default: the engine's recount (11 v 7 → 10 v 6, never fewer than 6).
    let (mut c, _) = joined(11, 7, &[Asked::BattleCut]);
    ok(&mut c, Order::Rule(Ruling::Default));
    assert_eq!(c.state().battle.as_ref().map(|b| b.fielded), Some([10, 6]));
}

/// Red's 3 line infantry attack Blue's line infantry and battery (5 units): the auto-battle's
/// rounds are 6 v 6, then 9 v 4, and Red wins after 2.
fn auto(asks: &[Asked]) -> (Campaign, Vec<Event>) {
    let mut c = campaign(vec![
        army(1, Side::Red, (0, 5), &line(3)),
        army(11, Side::Blue, (1, 5), &["line_infantry", "artillery"]),
    ]);
    asking(&mut c, asks);
    let events = ok(&mut c, mv(1, &[(1, 5)]));
    (c, events)
}

fn health(c: &Campaign, ids: std::ops::Range<u32>) -> Vec<i32> {
    ids.map(|i| c.state().unit(UnitId(i)).map_or(-1, |u| u.health)).collect()
}

#[test]
fn t_auto_2_asked_the_moderator_says_after_which_round_the_winner_is_clear() {
    let (mut c, events) = auto(&[Asked::AutoBattleEnd]);
    let q =
        Question::AutoBattleEnd { at: hex(1, 5), attacker: Side::Red, rounds: vec![[6, 6], [9, 4]], winner: Side::Red };
    assert_eq!(question(&c), q);
    assert!(!events.iter().any(|e| matches!(e, Event::AutoRound { .. })), "the rounds are told when ruled");
    waits(&mut c, "T-AUTO-2");
    for after in [0, 3] {
        let e = refused(&mut c, Order::Rule(Ruling::AutoBattleEnd { after, winner: Side::Red }));
        assert!(e.contains("T-AUTO-2") && e.contains("one of its 2 round(s)"), "{after}: {e}");
    }
    // After round 1 (6 v 6), Red's winning is clear: it takes only round 1's 6 damage.
    let events = ok(&mut c, Order::Rule(Ruling::AutoBattleEnd { after: 1, winner: Side::Red }));
    assert_eq!(
        events.iter().filter(|e| matches!(e, Event::AutoRound { .. })).count(),
        1,
        "one round fought: {events:?}"
    );
    assert!(events.contains(&Event::AutoBattleWon { at: hex(1, 5), winner: Side::Red, rounds: 1 }));
    assert_eq!(health(&c, 100..103), vec![4, 10, 10], "10 − 6; the engine's 2 rounds leave 1, 10, 10");
    assert!(events.contains(&Event::Captured { unit: UnitId(1100), by: Side::Red }));
    assert!(events.contains(&Event::GunTaken { unit: UnitId(1101), by: Side::Red, army: ArmyId(1) }));

    // The moderator may judge the defender the winner after round 1: Blue keeps its Health less
    // round 1's 6 (line infantry 10 → 4), and Red's three are taken.
    let (mut c, _) = auto(&[Asked::AutoBattleEnd]);
    let events = ok(&mut c, Order::Rule(Ruling::AutoBattleEnd { after: 1, winner: Side::Blue }));
    assert!(events.contains(&Event::AutoBattleWon { at: hex(1, 5), winner: Side::Blue, rounds: 1 }));
    assert_eq!(health(&c, 1100..1102), vec![4, 5]);
    assert!(c.state().army(ArmyId(1)).is_none());

    // By default: all 2 rounds, Red the winner, as the engine fights it unasked.
    let (mut c, _) = auto(&[Asked::AutoBattleEnd]);
    ok(&mut c, Order::Rule(Ruling::Default));
    let (plain, _) = auto(&[]);
    assert_eq!(c.state().units, plain.state().units);
    assert_eq!(health(&c, 100..103), vec![1, 10, 10]);
}

#[test]
fn t_auto_3_asked_the_moderator_says_which_of_the_losers_units_are_destroyed() {
    let (mut c, events) = auto(&[Asked::Surrender]);
    assert!(events.contains(&Event::AutoRound { round: 2, damage: [9, 4] }), "fought to its end: {events:?}");
    // The loser's gun passes to the winner whatever the moderator says (T-AUTO-4): not asked.
    let q = Question::Surrender { at: hex(1, 5), winner: Side::Red, rounds: 2, units: vec![UnitId(1100)] };
    assert_eq!(question(&c), q);
    waits(&mut c, "T-AUTO-3");
    for bad in [vec![UnitId(1101)], vec![UnitId(100)]] {
        let e = refused(&mut c, Order::Rule(Ruling::Surrender { destroyed: bad.clone() }));
        assert!(e.contains("T-AUTO-3") && e.contains("not one of the loser's units"), "{bad:?}: {e}");
    }
    let e = refused(&mut c, Order::Rule(Ruling::Surrender { destroyed: vec![UnitId(1100); 2] }));
    assert!(e.contains("has 1 unit(s) here, not 2"), "{e}");
    let events = ok(&mut c, Order::Rule(Ruling::Surrender { destroyed: vec![UnitId(1100)] }));
    assert!(events.contains(&Event::UnitLost { unit: UnitId(1100) }), "{events:?}");
    assert!(!events.iter().any(|e| matches!(e, Event::Captured { .. })));
    assert!(events.contains(&Event::GunTaken { unit: UnitId(1101), by: Side::Red, army: ArmyId(1) }));
    assert!(events.contains(&Event::AutoBattleWon { at: hex(1, 5), winner: Side::Red, rounds: 2 }));
    assert!(c.state().outcome.is_some(), "Blue has no army left");
    // None destroyed, or the default: all surrender.
    for ruling in [Ruling::Surrender { destroyed: Vec::new() }, Ruling::Default] {
        let (mut c, _) = auto(&[Asked::Surrender]);
        let events = ok(&mut c, Order::Rule(ruling));
        assert!(events.contains(&Event::Captured { unit: UnitId(1100), by: Side::Red }));
    }
    // A loser of guns only: nothing to ask.
    let mut c = campaign(vec![army(1, Side::Red, (0, 5), &line(3)), army(11, Side::Blue, (1, 5), &["artillery"])]);
    asking(&mut c, &[Asked::Surrender]);
    ok(&mut c, mv(1, &[(1, 5)]));
    assert!(!c.awaits_moderator());
    assert_eq!(c.state().unit(UnitId(1100)).map(|u| u.side), Some(Side::Red));
}

#[test]
fn t_strat_7_asked_the_moderator_sets_the_losses_of_the_units_left_out() {
    // 12 Red attack 13 Blue: 9 v 10 fight, 3 and 3 are left out.
    let (mut c, _) = joined(12, 13, &[Asked::LeftOutLosses]);
    pass(&mut c);
    pass(&mut c);
    let save = fight(&mut c, "9 v 10");
    let result = Battle::replay(&save).ok().and_then(|b| b.result()).expect("over");
    let mut plain = campaign(vec![army(1, Side::Red, (0, 5), &line(12)), army(11, Side::Blue, (1, 5), &line(13))]);
    ok(&mut plain, mv(1, &[(1, 5)]));
    pass(&mut plain);
    pass(&mut plain);
    ok(&mut plain, Order::BattleResult { save: Box::new(save.clone()) });

    let events = ok(&mut c, Order::BattleResult { save: Box::new(save) });
    assert!(!events.iter().any(|e| matches!(e, Event::LeftOutLoss { .. })), "{events:?}");
    let Question::LeftOut { at, units } = question(&c) else { panic!("{:?}", question(&c)) };
    assert_eq!(at, hex(1, 5));
    // The six left out (the last 3 of each side), each with the engine's floor(F × Health).
    let ids: Vec<u32> = units.iter().map(|u| u.unit.0).collect();
    assert_eq!(ids, vec![109, 110, 111, 1110, 1111, 1112]);
    for u in &units {
        let side = if u.unit.0 < 1000 { Side::Red } else { Side::Blue };
        let fighting: Vec<_> = result.units.iter().filter(|f| f.side == side).collect();
        let start: i64 = fighting.iter().map(|f| i64::from(f.max_health)).sum();
        let lost: i64 = fighting
            .iter()
            .map(|f| match f.status {
                rules::tactical::Status::Active | rules::tactical::Status::Retreated => {
                    i64::from(f.max_health - f.health.max(0))
                }
                _ => i64::from(f.max_health),
            })
            .sum();
        assert_eq!((u.health, u.loss), (10, left_out_loss(lost, start, 10)), "unit {}", u.unit);
    }
    waits(&mut c, "T-STRAT-7");
    let e = refused(&mut c, Order::Rule(Ruling::LeftOut { losses: vec![0; 5] }));
    assert!(e.contains("6 unit(s) were left out; 5"), "{e}");
    // Health 10: a loss of 0 to 9 (never below 1); 10 and −1 are refused.
    for bad in [10, -1] {
        let e = refused(&mut c, Order::Rule(Ruling::LeftOut { losses: vec![bad, 0, 0, 0, 0, 0] }));
        assert!(e.contains("T-STRAT-7") && e.contains("between 0 and 9"), "{bad}: {e}");
    }
    let events = ok(&mut c, Order::Rule(Ruling::LeftOut { losses: vec![9, 0, 0, 0, 0, 3] }));
    assert!(events.contains(&Event::LeftOutLoss { unit: UnitId(109), lost: 9, health: 1 }), "{events:?}");
    assert!(events.contains(&Event::LeftOutLoss { unit: UnitId(1112), lost: 3, health: 7 }));
    assert_eq!(events.iter().filter(|e| matches!(e, Event::LeftOutLoss { .. })).count(), 2, "a loss of 0 is none");
    assert_eq!(c.state().unit(UnitId(110)).map(|u| u.health), Some(10));
    assert!(c.active_player().is_some(), "the campaign goes on");

    // Ruled by default, the units end as the engine leaves them unasked.
    let (mut d, _) = joined(12, 13, &[Asked::LeftOutLosses]);
    pass(&mut d);
    pass(&mut d);
    let save = fight(&mut d, "9 v 10");
    ok(&mut d, Order::BattleResult { save: Box::new(save) });
    ok(&mut d, Order::Rule(Ruling::Default));
    assert_eq!(d.state().units, plain.state().units);
    assert_eq!(d.state().armies, plain.state().armies);
}

#[test]
fn moderator_orders_are_logged_replayed_and_taken_back_by_moderating_nothing() {
    let (mut c, _) = auto(&[Asked::Surrender, Asked::AutoBattleEnd, Asked::Surrender]);
    assert_eq!(c.state().asks, vec![Asked::AutoBattleEnd, Asked::Surrender], "a set, in a fixed order");
    ok(&mut c, Order::Rule(Ruling::AutoBattleEnd { after: 2, winner: Side::Red }));
    assert!(matches!(question(&c), Question::Surrender { .. }), "then the next question");
    ok(&mut c, Order::Rule(Ruling::Surrender { destroyed: vec![UnitId(1100)] }));
    assert!(Campaign::is_moderators(&Order::Rule(Ruling::Default)));
    assert!(Campaign::is_moderators(&Order::Moderate { asks: Vec::new() }));
    assert!(!Campaign::is_moderators(&Order::EndTurn));
    // The save replays to the same state, through the same questions.
    let save = c.save();
    let text = save.to_text();
    let back = Save::<Campaign>::from_text("moderated.ron", &text).unwrap_or_else(|e| panic!("{e}"));
    let replayed = Campaign::replay(&back).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(replayed.hash(), c.hash());

    // Moderating nothing: the engine decides again.
    let mut c = campaign(vec![army(1, Side::Red, (0, 5), &line(3)), army(11, Side::Blue, (1, 5), &line(3))]);
    asking(&mut c, &[Asked::Played]);
    asking(&mut c, &[]);
    assert!(c.state().asks.is_empty());
    let events = ok(&mut c, mv(1, &[(1, 5)]));
    assert!(events.iter().any(|e| matches!(e, Event::AutoBattleWon { .. })));
    // A campaign never moderated hashes as before the moderator existed (no field written).
    let fresh = campaign(vec![army(1, Side::Red, (0, 5), &line(3))]);
    let text = rules::data::to_ron(fresh.state());
    assert!(!text.contains("asks") && !text.contains("question"), "{text}");
}
