//! The Great War set to ask its moderator (`rules::moderation`): S-COMBAT-3, "the moderator asks
//! whether a player brings up units in reach". Where the moderator decides, the Combat phase
//! stops before its engagements; the ruling names the blocks not brought up, and they stay out.

use rules::game::Game;
use rules::moderation::Asked;
use rules::strategic::event::EventKind;
use rules::strategic::hexmap::{HexMap, Terrain};
use rules::strategic::order::{Order, OrderError};
use rules::strategic::state::{Ctx, Phase, Place};
use rules::strategic::testkit::*;
use rules::strategic::{GreatWar, Ruling};

/// French 1 and 3 on either side of German 2 (two French blocks, one German); far off, French 5
/// next to German 4 (one block each: nothing to bring up).
fn front() -> Ctx {
    let forces = vec![
        infantry(1, "france", (2, 2)),
        infantry(2, "germany", (3, 2)),
        infantry(3, "france", (4, 2)),
        infantry(4, "germany", (9, 6)),
        infantry(5, "france", (10, 6)),
    ];
    ctx(&scenario(HexMap::filled("test", 14, 9, Terrain::Clear), forces), Phase::Fire, 0)
}

fn moderated(c: &mut Ctx, asks: &[Asked]) {
    c.apply(&Order::Moderate { asks: asks.to_vec() }).unwrap_or_else(|e| panic!("{e}"));
}

/// Every power ends its part of the Fire phase.
fn end_fire(c: &mut Ctx) {
    while c.clock.phase == Phase::Fire {
        c.apply(&Order::EndPhase).unwrap_or_else(|e| panic!("{e}"));
    }
}

fn refused(c: &mut Ctx, order: Order) -> String {
    let before = c.state().hash();
    let e = c.apply(&order).expect_err("refused").line().to_string();
    assert_eq!(c.state().hash(), before, "a refused order changes nothing");
    e
}

fn place(c: &Ctx, n: u32) -> Place {
    c.force(id(n)).map_or(Place::Destroyed, |f| f.place)
}

#[test]
fn s_combat_3_asked_the_moderator_rules_which_blocks_are_brought_up() {
    let mut c = front();
    let e = refused(&mut c, Order::Moderate { asks: vec![Asked::Played] });
    assert!(e.contains("T-STRAT-9") && e.contains("not a decision of the Great War"), "{e}");
    moderated(&mut c, &[Asked::Support]);
    assert!(c.clock.ask_support);
    end_fire(&mut c);
    // The Combat phase waits before its engagements: only the engagement with a block to bring
    // up is asked (1 and 3 against 2), not 5 against 4.
    assert_eq!((c.clock.phase, c.clock.support_asked), (Phase::Combat, true));
    assert_eq!(c.support_question(), vec![[vec![vec![id(1)], vec![id(3)]], vec![vec![id(2)]]]]);
    assert!(!c.events.iter().any(|e| matches!(e.kind, EventKind::Engagement { .. })), "nothing fought yet");
    let e = refused(&mut c, Order::EndPhase);
    assert!(e.contains("waits for the moderator") && e.contains("S-COMBAT-3"), "{e}");
    // Each side keeps a block; a ruling names blocks of the question, each once.
    for (withheld, why) in [
        (vec![id(2)], "keeps at least one block"),
        (vec![id(1), id(3)], "keeps at least one block"),
        (vec![id(5)], "names no block"),
        (vec![id(3), id(3)], "names no block"),
        (vec![id(1), id(3), id(2), id(4)], "4 blocks named; the engagements waiting for the ruling have 3"),
    ] {
        let e = refused(&mut c, Order::Rule(Ruling::Support { withheld: withheld.clone() }));
        assert!(e.contains(why), "{withheld:?}: {e}");
    }
    let mut by_default = c.clone();

    // French 3 is not brought up: 30 against 30, D = 0, and German 2 stands; by default the two
    // French divisions fight it, 60 against 30, D = 30: destroyed (S-COMBAT-8).
    c.apply(&Order::Rule(Ruling::Support { withheld: vec![id(3)] })).unwrap_or_else(|e| panic!("{e}"));
    assert!(!c.clock.support_asked && c.clock.phase != Phase::Combat, "the turn goes on: {:?}", c.clock);
    let fought: Vec<(i64, i64)> = c
        .events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Engagement { stronger_total, weaker_total, .. } => Some((stronger_total, weaker_total)),
            _ => None,
        })
        .collect();
    assert!(fought.contains(&(30, 30)), "{fought:?}");
    assert_eq!(place(&c, 2), Place::Map(hex(3, 2)));
    assert!(c.withheld.is_empty(), "the ruling's blocks are kept out of this phase only");
    by_default.apply(&Order::Rule(Ruling::Default)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(place(&by_default, 2), Place::Destroyed);
    let e = refused(&mut c, Order::Rule(Ruling::Default));
    assert!(e.contains("no question"), "{e}");
}

#[test]
fn s_combat_3_nothing_is_asked_without_a_block_to_bring_up_nor_unless_the_moderator_decides() {
    // One block a side everywhere: the Combat phase is fought at once, as unasked.
    let forces = vec![infantry(1, "france", (2, 2)), infantry(2, "germany", (3, 2))];
    let mut c = ctx(&scenario(HexMap::filled("test", 8, 6, Terrain::Clear), forces), Phase::Fire, 0);
    moderated(&mut c, &[Asked::Support]);
    end_fire(&mut c);
    assert!(!c.clock.support_asked && c.clock.phase != Phase::Combat);
    // Asked, then given back to the engine: not asked either.
    let mut c = front();
    moderated(&mut c, &[Asked::Support]);
    moderated(&mut c, &[]);
    end_fire(&mut c);
    assert!(!c.clock.support_asked);
    assert_eq!(place(&c, 2), Place::Destroyed, "every unit in contact joined");
}

#[test]
fn s_combat_3_the_war_waits_for_the_moderator_and_only_the_umpire_sees_the_question() {
    let mut s = scenario(HexMap::filled("test", 14, 9, Terrain::Clear), Vec::new());
    s.forces = vec![infantry(1, "france", (2, 2)), infantry(2, "germany", (3, 2)), infantry(3, "france", (4, 2))];
    s.start_turn = 5;
    let mut g = GreatWar::new(&s, 1);
    g.apply(Order::Moderate { asks: vec![Asked::Support] }).expect("moderated");
    let mut guard = 0;
    while !g.awaits_moderator() && guard < 50 {
        guard += 1;
        let order = g.pass();
        g.apply(order).expect("passes");
    }
    assert!(g.awaits_moderator(), "the Combat phase asks");
    assert_eq!((g.active_player(), g.default_ruling()), (None, Some(Order::Rule(Ruling::Default))));
    assert!(GreatWar::is_moderators(&Order::Rule(Ruling::Default)) && !GreatWar::is_moderators(&Order::EndPhase));
    use rules::view::{Sight, Viewer};
    let umpire = g.view(Viewer::Umpire);
    assert_eq!(umpire.support_question.len(), 1);
    for p in g.players() {
        let v = g.view(Viewer::Player(p));
        assert!(v.support_question.is_empty() && v.clock.support_asked, "{p:?} sees only that the war waits");
    }
    assert!(matches!(g.apply(Order::EndPhase), Err(OrderError::Moderation(_))));
    g.apply(Order::Rule(Ruling::Support { withheld: vec![id(3)] })).expect("ruled");
    assert!(!g.awaits_moderator() && g.active_player().is_some());
    // The save replays through the question and the ruling to the same state.
    let replayed = GreatWar::replay(&g.save()).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(replayed.state_hash(), g.state_hash());
}
