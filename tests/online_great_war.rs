//! Issue 29: a Great War turn played online between three seats, each from its own game, through
//! a server started in the test: Germany's leader (the Kaiser) and its general (Moltke), and
//! France; Great Britain is the server's AI. The Kaiser gives Moltke the 5th Army from the
//! seat's table (S-ARMY-3: orders go to armies, a general's to the armies given it); Moltke moves
//! it, the Kaiser may not; each power's phase ends once all its seats are done. Every seat's game
//! is its power's view, never more.

mod support;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use kriegsspiel::great_war::command::UiCommand;
use kriegsspiel::great_war::{Selected, Selection};
use kriegsspiel::net::command::Roster;
use kriegsspiel::net::{Conn, JoinOnline, Online, SeatLink};
use kriegsspiel::session::{GameEvents, Session};
use rules::strategic::state::Place;
use rules::strategic::{FormationId, GreatWar, HexAt, Order, Phase, PowerId};
use rules::view::{Sight, Viewer};
use serde_json::json;
use server::client::Client;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use support::online::{online, scenarios, sqlite};

const GERMANY: PowerId = PowerId(0);
const FRANCE: PowerId = PowerId(1);

fn session(app: &App) -> &Session<GreatWar> {
    app.world().get_resource::<Session<GreatWar>>().expect("the seat's war is on screen")
}

/// Frames of every app until `done` holds for the one named (at most 30 s).
fn until(apps: &mut [App], what: &str, done: impl Fn(&[App]) -> bool) {
    let start = Instant::now();
    while !done(apps) {
        assert!(start.elapsed() < Duration::from_secs(30), "never: {what}");
        for app in apps.iter_mut() {
            app.update();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// An order given at the app's screen, through the session as the board gives it.
fn give(app: &mut App, order: Order) {
    app.world_mut()
        .run_system_once(move |mut s: ResMut<Session<GreatWar>>, mut events: MessageWriter<GameEvents<GreatWar>>| {
            let _ = s.apply(order.clone(), &mut events);
        })
        .expect("the system runs");
}

/// One of the 5th Army's corps (the I Bavarian, else the Guards) one hex on, as the war the seat
/// knows allows.
fn army_move(game: &GreatWar) -> Order {
    let ctx = game.ctx();
    let mut why = Vec::new();
    for corps in [101, 102] {
        let Some(at) = corps_hex(game, corps) else { continue };
        let moving = |h: HexAt| Order::MoveArmy { army: FormationId(201), moves: vec![(FormationId(corps), vec![h])] };
        if let Some(to) = at.neighbours().into_iter().find(|h| ai::great_war::legal(&ctx, &moving(*h))) {
            return moving(to);
        }
        why.extend(
            at.neighbours().into_iter().map(|h| format!("{corps} to {h:?}: {:?}", ctx.clone().apply(&moving(h)).err())),
        );
    }
    panic!("no move of the 5th Army at {:?}: {why:?}", ctx.clock)
}

/// The 5th Army asked for as its panel's Select button asks; what the board then holds selected.
fn select_army(app: &mut App) -> Option<Selected> {
    app.world_mut().write_message(UiCommand::Select(Selected::Army(FormationId(201))));
    app.update();
    let selection = *app.world().resource::<Selection>();
    selection.of(session(app))
}

/// Where a corps's first unit stands.
fn corps_hex(game: &GreatWar, corps: u32) -> Option<HexAt> {
    game.ctx().forces.iter().find(|f| f.member.corps == Some(FormationId(corps))).and_then(|f| match f.place {
        Place::Map(h) => Some(h),
        _ => None,
    })
}

/// The corps an army move moves.
fn moved_corps(order: &Order) -> u32 {
    match order {
        Order::MoveArmy { moves, .. } => moves.first().map_or(0, |(c, _)| c.0),
        _ => 0,
    }
}

#[test]
fn a_great_war_turn_is_played_online_by_a_leader_its_general_and_the_enemy() {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime");
    let server = rt
        .block_on(server::Server::start(&sqlite(), &scenarios(), SocketAddr::from(([127, 0, 0, 1], 0))))
        .expect("the server starts");
    let addr = server.addr;
    let body = json!({
        "scenario": "great_war/test_front.ron",
        "seats": [
            { "role": "player", "player": "germany", "name": "Kaiser" },
            { "role": "general", "player": "germany", "name": "Moltke" },
            { "role": "player", "player": "france", "name": "Joffre" },
            { "role": "player", "player": "gb", "name": "French", "ai": "Recruit" },
        ],
    });
    let (code, created) = rt.block_on(server::client::http(addr, "POST", "/api/games", Some(&body))).expect("made");
    assert_eq!(code, 200, "{created}");
    let game = created["game"].as_str().expect("a game").to_string();
    let token = |i: usize| created["seats"][i]["token"].as_str().expect("a token").to_string();

    // Each person opens their seat's link in their own game.
    let mut apps: Vec<App> = (0..3).map(|_| support::app()).collect();
    for (i, app) in apps.iter_mut().enumerate() {
        let link = SeatLink::parse(&format!("http://{addr}/?game={game}&seat={}", token(i)), "").expect("a link");
        app.world_mut().write_message(JoinOnline(link));
    }
    until(&mut apps, "three wars on screen", |a| {
        a.iter().all(|a| a.world().get_resource::<Session<GreatWar>>().is_some())
    });
    let (kaiser, moltke, joffre) = (0, 1, 2);
    for (i, power) in [(kaiser, GERMANY), (moltke, GERMANY), (joffre, FRANCE)] {
        let s = session(&apps[i]);
        assert_eq!(s.viewer(), Some(power), "seat {i} has its power's eyes");
        assert!(!s.hot_seat() && !s.can_undo());
        assert_eq!(s.game.orders().len(), 0, "a view, not the game's log");
    }
    // France's war holds nothing of Germany's treasury; Germany's seats hold it.
    assert_eq!(session(&apps[joffre]).game.ctx().powers[0].money, 0);
    assert!(session(&apps[kaiser]).game.ctx().powers[0].money > 0);

    // The Kaiser's table names his armies (the 5th, not its corps) for his general; he gives
    // Moltke the 5th Army, as ticking it there does.
    let roster = apps[kaiser].world().resource::<Roster>().clone();
    assert_eq!(roster.formations, vec![(201, "5th Army".to_string())], "{roster:?}");
    let french = apps[joffre].world().resource::<Roster>().clone();
    assert!(french.formations.iter().all(|(id, _)| *id != 201), "France gives no German army: {french:?}");
    apps[kaiser].world_mut().resource_mut::<Online>().assign(1, vec![201], Vec::new());
    let holds = |a: &App| matches!(&online(a).seat.as_ref().map(|s| s.role.clone()), Some(wire::Role::General { formations, .. }) if formations == &vec![201]);
    until(&mut apps, "Moltke told his command", |a| holds(&a[moltke]));
    let told_france = online(&apps[joffre]).seats.iter().find(|s| s.seat == 1).map(|s| s.role.clone());
    assert!(
        matches!(&told_france, Some(wire::Role::General { formations, .. }) if formations.is_empty()),
        "France knows Moltke is there, not what he holds: {told_france:?}"
    );

    let start_turn = session(&apps[kaiser]).game.clock().turn;
    let start_hexes = [101, 102].map(|c| corps_hex(&session(&apps[joffre]).game, c));
    let mut moved: Option<u32> = None;
    let mut kaiser_tried = false;
    let mut ended = [0u32; 3];
    let started = Instant::now();
    while session(&apps[joffre]).game.clock().turn == start_turn {
        assert!(started.elapsed() < Duration::from_secs(120), "the turn does not end");
        for app in apps.iter_mut() {
            app.update();
        }
        std::thread::sleep(Duration::from_millis(2));
        for i in 0..3 {
            let o = online(&apps[i]);
            if o.conn != Conn::Live || o.unanswered() > 0 {
                continue;
            }
            let s = session(&apps[i]);
            if !s.human_turn() {
                continue;
            }
            let movement = s.game.clock().phase == Phase::Movement;
            if i == kaiser && movement && !kaiser_tried {
                // The 5th Army is Moltke's now: the Kaiser's board does not select it, and says
                // why; an order of it given all the same is refused by the server, as the
                // engine's refusals are shown.
                assert_eq!(select_army(&mut apps[i]), None, "the Kaiser's board does not select the 5th Army");
                let why = session(&apps[i]).refusal.clone().expect("said why");
                let words = apps[i].world().resource::<kriegsspiel::i18n::Tr>().msg(&why);
                assert!(words.contains("not under your command"), "{words}");
                let m = army_move(&session(&apps[i]).game);
                give(&mut apps[i], m);
                kaiser_tried = true;
                until(&mut apps, "the Kaiser's refusal", |a| session(&a[kaiser]).refusal.is_some());
                let refusal = session(&apps[kaiser]).refusal.clone().expect("refused");
                let words = apps[kaiser].world().resource::<kriegsspiel::i18n::Tr>().msg(&refusal);
                assert!(words.contains("general"), "{words}");
                continue;
            }
            if i == moltke && movement && moved.is_none() {
                assert_eq!(
                    select_army(&mut apps[i]),
                    Some(Selected::Army(FormationId(201))),
                    "Moltke's board selects it"
                );
                let m = army_move(&session(&apps[i]).game);
                moved = Some(moved_corps(&m));
                give(&mut apps[i], m);
                continue;
            }
            give(&mut apps[i], Order::EndPhase);
            ended[i] += 1;
        }
    }
    let corps = moved.expect("Germany had a Movement phase");
    assert!(kaiser_tried);
    assert!(ended.iter().all(|n| *n > 0), "each seat ended its phases: {ended:?}");
    until(&mut apps, "every seat settled", |a| a.iter().all(|a| session(a).remote.as_ref().is_some_and(|r| !r.busy())));

    // The corps moved, and France saw it; each seat's war is its power's view as the server has it.
    let after = corps_hex(&session(&apps[joffre]).game, corps).expect("still on the map");
    let start_hex = start_hexes[usize::from(corps == 102)];
    assert_ne!(Some(after), start_hex, "France saw the 5th Army's corps move");
    // And France's log has it: the events its seat was sent, in order, each phase's start too.
    let log = session(&apps[joffre]).events();
    let moved =
        |e: &rules::strategic::Event| matches!(e.kind, rules::strategic::EventKind::Moved { to, .. } if to == after);
    assert!(log.iter().any(moved), "France's log tells the move");
    assert!(log.iter().filter(|e| matches!(e.kind, rules::strategic::EventKind::Phase { .. })).count() >= 4);
    assert!(session(&apps[joffre]).game.events().is_empty(), "the war on screen is a view: its log is the seat's");
    assert!(session(&apps[moltke]).events().iter().any(moved), "Moltke's log tells his own move (the answer's events)");
    for (i, power) in [(kaiser, GERMANY), (moltke, GERMANY), (joffre, FRANCE)] {
        let server_view = |apps: &[App]| {
            let (check, welcome) = rt.block_on(Client::join(addr, &game, &token(i), None)).expect("the seat again");
            rt.block_on(check.close());
            let ours = serde_json::to_value(session(&apps[i]).game.view(Viewer::Player(power))).expect("JSON");
            ours == welcome["view"]
        };
        until(&mut apps, "the seat's war is its view", server_view);
    }
    let france = session(&apps[joffre]).game.view(Viewer::Player(FRANCE));
    assert!(france.powers[0].secrets.is_none() && france.powers[1].secrets.is_some());
    drop(server);
}

/// The orders of the test front played by the AI for every power from the game's seed, with
/// the moderator deciding S-COMBAT-3, up to the first Combat phase that asks: each with the ID
/// of the power that gives it (as the server's `rulings.rs` plays them).
fn up_to_a_question(scenario: &rules::strategic::Scenario, seed: u64) -> Vec<(String, Order)> {
    use ai::great_war::GwAi;
    use rules::Game;
    let mut g = GreatWar::new(scenario, seed);
    g.apply(Order::Moderate { asks: vec![rules::moderation::Asked::Support] }).expect("the umpire's order");
    let mut ais: std::collections::BTreeMap<u8, GwAi> = std::collections::BTreeMap::new();
    let mut out = Vec::new();
    while !g.clock().support_asked {
        assert!(!g.is_over() && out.len() < 2_000, "the AI's war never asked: {:?}", g.clock());
        let power: PowerId = g.active_player().expect("a power to move");
        let ai = ais.entry(power.0).or_insert_with(|| GwAi::new(power, ai::Level::Marshal, u64::from(power.0)));
        let order = loop {
            match ai::Player::<GreatWar>::think(ai, &g.ctx(), Duration::from_secs(60)) {
                ai::Think::Order(o) => break o,
                ai::Think::Thinking => {}
                ai::Think::Idle => break Order::EndPhase,
            }
        };
        g.apply(order.clone()).expect("the AI's order is legal");
        out.push((scenario.powers[usize::from(power.0)].id.clone(), order));
    }
    out
}

/// The moderator's seat played from the game: its table asks for the S-COMBAT-3 decision (the
/// war's order of it), and when the Combat phase waits, shows each engagement's blocks; the
/// moderator keeps one block out and the war goes on. The powers' seats do not see the blocks.
#[test]
fn the_moderator_rules_the_support_of_an_engagement_from_the_game() {
    use kriegsspiel::net::rulings::{self, Rulings};
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime");
    let server = rt
        .block_on(server::Server::start(&sqlite(), &scenarios(), SocketAddr::from(([127, 0, 0, 1], 0))))
        .expect("the server starts");
    let addr = server.addr;
    let body = json!({ "scenario": "great_war/test_front.ron" });
    let (code, created) = rt.block_on(server::client::http(addr, "POST", "/api/games", Some(&body))).expect("made");
    assert_eq!(code, 200, "{created}");
    let game = created["game"].as_str().expect("a game").to_string();
    let seats = created["seats"].as_array().expect("seats").clone();
    let moderator = seats.iter().position(|s| s["role"]["role"] == "moderator").expect("a moderator's seat");
    let token = |i: usize| seats[i]["token"].as_str().expect("a token").to_string();

    let mut apps = vec![support::app(), support::app()];
    let at = |i: usize| SeatLink::parse(&format!("http://{addr}/?game={game}&seat={}", token(i)), "").expect("a link");
    apps[0].world_mut().write_message(JoinOnline(at(moderator)));
    apps[1].world_mut().write_message(JoinOnline(at(0)));
    until(&mut apps, "the moderator's war", |a| {
        a.iter().all(|a| a.world().get_resource::<Session<GreatWar>>().is_some())
    });
    assert_eq!(session(&apps[0]).viewer(), None, "the moderator sees everything");
    let table = apps[0].world().resource::<Rulings>().clone();
    assert_eq!(table.kinds, vec![(rules::moderation::Asked::Support, false)]);
    assert!(table.question.is_none());
    assert!(apps[1].world().resource::<Rulings>().kinds.is_empty(), "a power's seat has no rulings");

    // The moderator ticks "I decide S-COMBAT-3".
    apps[0].world_mut().resource_scope(|world, rulings: Mut<Rulings>| {
        rulings::ask(&mut world.resource_mut::<Online>(), &rulings, rules::moderation::Asked::Support, true);
    });
    until(&mut apps, "the war asks", |a| session(&a[0]).game.clock().ask_support);

    // The powers play up to the Combat phase that asks (the AI's orders, over the server's client).
    let rec =
        rt.block_on(server.hub.store.games()).expect("games").into_iter().find(|g| g.id == game).expect("the game");
    let scenario = rules::strategic::Scenario::load(&scenarios().join("great_war/test_front.ron")).expect("the front");
    let players: Vec<String> =
        created["players"].as_array().expect("players").iter().filter_map(|p| p.as_str().map(String::from)).collect();
    let mut clients: Vec<Client> = Vec::new();
    for i in 0..players.len() {
        clients.push(rt.block_on(Client::join(addr, &game, &token(i), None)).expect("a power's seat").0);
    }
    for (power, order) in up_to_a_question(&scenario, rec.seed) {
        let i = players.iter().position(|p| *p == power).expect("a seat of the power");
        let ack = rt.block_on(clients[i].order(serde_json::to_value(&order).expect("JSON"))).expect("an answer");
        assert_eq!(ack["type"], "ack", "{power}: {order:?}: {ack}");
    }
    until(&mut apps, "the question at the table", |a| a[0].world().resource::<Rulings>().question.is_some());
    let q = apps[0].world().resource::<Rulings>().question.clone().expect("a question");
    assert_eq!(q.rule, "S-COMBAT-3");
    // Germany's seat knows the war waits, not the blocks.
    assert!(session(&apps[1]).game.clock().support_asked);
    assert!(session(&apps[1]).game.view(Viewer::Player(GERMANY)).support_question.is_empty());
    // One block of a side with more than one is kept out (a side keeps at least one).
    let (_, blocks) = q.ticks.iter().find(|(_, b)| b.len() > 1).expect("a side with two blocks");
    let (kept_out, name) = blocks[0].clone();
    assert!(!name.is_empty() && !name.contains('#'), "a block is named by its units: {name}");
    let (_, make) = q.with_ticks.clone().expect("the answer of the ticks");
    rulings::rule(&mut apps[0].world_mut().resource_mut::<Online>(), make(&[kept_out]));
    until(&mut apps, "the ruling taken", |a| !session(&a[0]).game.clock().support_asked);
    assert!(online(&apps[0]).refused.is_none(), "{:?}", online(&apps[0]).refused);
    until(&mut apps, "the table's question gone", |a| a[0].world().resource::<Rulings>().question.is_none());
    for c in clients {
        rt.block_on(c.close());
    }
    drop(server);
}
