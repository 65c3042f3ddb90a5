//! Issue 29: the game plays a seat of a battle online, through a server started in the test,
//! against a second seat played over the server's own test client. The app's game is the seat's
//! view (never more), its orders are the server's to apply, and a connection lost mid-turn is
//! taken up again by itself with nothing lost or given twice.

mod support;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use kriegsspiel::net::{Conn, JoinOnline, Online, SeatLink};
use kriegsspiel::session::{GameEvents, Session};
use rules::Game;
use rules::tactical::{Battle, Order, Side};
use rules::view::{Sight, Viewer};
use serde_json::{Value, json};
use server::client::Client;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use support::online::{online, orders_on_server, scenarios, sqlite};

/// Frames until `done` holds (at most 20 s).
fn until(app: &mut App, what: &str, done: impl Fn(&mut App) -> bool) {
    let start = Instant::now();
    while !done(app) {
        assert!(start.elapsed() < Duration::from_secs(20), "never: {what}");
        app.update();
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn session(app: &App) -> &Session<Battle> {
    app.world().get_resource::<Session<Battle>>().expect("the seat's game is on screen")
}

/// An order given at the app's screen, through the session as the board gives it.
fn give(app: &mut App, order: Order) {
    app.world_mut()
        .run_system_once(move |mut s: ResMut<Session<Battle>>, mut events: MessageWriter<GameEvents<Battle>>| {
            s.apply(order.clone(), &mut events).expect("the session takes it");
        })
        .expect("the system runs");
}

fn pass_of(game: &Battle) -> Order {
    game.pass()
}

#[test]
fn a_battle_is_played_online_from_the_game_against_a_second_seat() {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime");
    let server = rt
        .block_on(server::Server::start(&sqlite(), &scenarios(), SocketAddr::from(([127, 0, 0, 1], 0))))
        .expect("the server starts");
    let addr = server.addr;
    let body = json!({ "scenario": "open_field.ron", "settings": { "battle_clock": false } });
    let (code, created) =
        rt.block_on(server::client::http(addr, "POST", "/api/games", Some(&body))).expect("the lobby answers");
    assert_eq!(code, 200, "{created}");
    let game = created["game"].as_str().expect("a game").to_string();
    let token = |i: usize| created["seats"][i]["token"].as_str().expect("a token").to_string();
    assert_eq!(created["seats"][0]["name"], "red");

    // Red is played from the game, by its invite link; blue over the server's test client.
    let mut app = support::app();
    let link = format!("http://{addr}/?game={game}&seat={}", token(0));
    let invite = SeatLink::parse(&link, "").expect("the seat's link");
    app.world_mut().write_message(JoinOnline(invite));
    until(&mut app, "the seat's game is on screen", |a| a.world().get_resource::<Session<Battle>>().is_some());
    let (mut blue, _) = rt.block_on(Client::join(addr, &game, &token(1), None)).expect("blue joins");
    {
        let s = session(&app);
        assert_eq!(s.viewer(), Some(Side::Red), "the board has red's eyes");
        assert!(!s.hot_seat() && !s.can_undo(), "no hand-over, no undo online");
        assert_eq!(s.game.orders().len(), 0, "the app holds a view, not the game's log");
    }

    // Both sides set up and play turns: red from the app, blue from its client.
    let mut given = 0u64;
    let mut cut_done = false;
    while given < 8 {
        until(&mut app, "the game settles", |a| {
            let o = online(a);
            o.unanswered() == 0 && o.conn == Conn::Live && o.view_at == Some(given)
        });
        let active = session(&app).game.active_player().expect("a side to move");
        if active == Side::Red {
            until(&mut app, "red is waited for", |a| session(a).human_turn());
            let pass = pass_of(&session(&app).game);
            give(&mut app, pass);
            if given == 4 && !cut_done {
                // The connection breaks just after the order went out (or before: the link's
                // thread may not have sent it yet). It is taken up again by itself, the order
                // sent again under its number; the server applies it once.
                app.update();
                online(&app).cut();
                cut_done = true;
                until(&mut app, "the loss is seen", |a| !matches!(online(a).conn, Conn::Live));
                assert!(!session(&app).human_turn(), "no orders while the order is unanswered");
            }
        } else {
            let order = serde_json::to_value(pass_of(&session(&app).game)).expect("JSON");
            let ack = rt.block_on(blue.order(order)).expect("blue's answer");
            assert_eq!(ack["type"], "ack", "{ack}");
        }
        given += 1;
        until(&mut app, "the order's view", |a| online(a).view_at == Some(given) && online(a).unanswered() == 0);
        assert_eq!(orders_on_server(&rt, addr, &game), given, "each order is applied once");
    }
    assert!(cut_done);
    // The log is the events the seat was sent (the view on screen has none of its own).
    assert!(!session(&app).events().is_empty() && session(&app).game.events().is_empty());

    // The app's game is red's view as the server has it now (a fresh seat's welcome gives it).
    let (check, welcome) = rt.block_on(Client::join(addr, &game, &token(0), None)).expect("red again");
    let ours = serde_json::to_value(session(&app).game.view(Viewer::Player(Side::Red))).expect("JSON");
    assert_eq!(ours, welcome["view"], "the app's game is red's view, after the reconnect too");
    // And nothing of blue's that red may not see: the app's units are the view's.
    let units: Vec<Value> = welcome["view"]["units"].as_array().cloned().unwrap_or_default();
    assert_eq!(session(&app).game.ctx().units.len(), units.len());
    // Red's page opened again (a second app at its seat): its log is the one the seat was sent,
    // every order of it, none shown again on the board.
    let mut again = support::app();
    support::online::join(&mut again, addr, &game, &token(0));
    until(&mut again, "red's seat again", |a| a.world().get_resource::<Session<Battle>>().is_some());
    assert!(!session(&again).events().is_empty());
    assert_eq!(session(&again).events(), session(&app).events(), "the log of a page opened again");
    drop(again);
    let bar = kriegsspiel::net::bar::words(online(&app), app.world().resource::<kriegsspiel::i18n::Tr>(), 0.0).0;
    let red_moves = session(&app).game.active_player() == Some(Side::Red);
    use kriegsspiel::session::PlayGame;
    assert_eq!(bar.contains("Your move"), red_moves, "{bar}");
    assert_eq!(bar.contains("Waiting for blue"), !red_moves, "{bar}");
    let title =
        kriegsspiel::net::notify::title_for(Some(online(&app)), app.world().resource::<kriegsspiel::i18n::Tr>());
    assert_eq!(title.starts_with("● Your move"), red_moves, "the window's title tells red its move: {title}");

    // A refusal from the server shows as the engine's do, and changes nothing.
    if !red_moves {
        let order = serde_json::to_value(pass_of(&session(&app).game)).expect("JSON");
        assert_eq!(rt.block_on(blue.order(order)).expect("blue's answer")["type"], "ack");
        given += 1;
    }
    until(&mut app, "red to move", |a| online(a).view_at == Some(given) && session(a).human_turn());
    let wrong = if session(&app).game.in_setup() { Order::EndTurn } else { Order::EndSetup };
    give(&mut app, wrong);
    until(&mut app, "the refusal", |a| online(a).unanswered() == 0 && session(a).refusal.is_some());
    assert_eq!(orders_on_server(&rt, addr, &game), given, "a refused order is not applied");
    assert!(session(&app).human_turn(), "red still moves");
    rt.block_on(check.close());
    rt.block_on(blue.close());
    drop(server);
}

/// The moderator's seat played from the game: it sees everything (the umpire's view), pauses the
/// game and hands a side to the AI from its table, and the written record reaches it both ways;
/// the window's title tells a seat its move.
#[test]
fn the_moderators_table_is_played_from_the_game() {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime");
    let server = rt
        .block_on(server::Server::start(&sqlite(), &scenarios(), SocketAddr::from(([127, 0, 0, 1], 0))))
        .expect("the server starts");
    let addr = server.addr;
    let body = json!({ "scenario": "open_field.ron", "settings": { "battle_clock": false } });
    let (_, created) = rt.block_on(server::client::http(addr, "POST", "/api/games", Some(&body))).expect("made");
    let game = created["game"].as_str().expect("a game").to_string();
    let token = |i: usize| created["seats"][i]["token"].as_str().expect("a token").to_string();
    assert_eq!(created["seats"][2]["name"], "moderator");

    let mut app = support::app();
    let link = SeatLink::parse(&format!("http://{addr}/?game={game}&seat={}", token(2)), "").expect("a link");
    app.world_mut().write_message(JoinOnline(link));
    until(&mut app, "the moderator's board", |a| a.world().get_resource::<Session<Battle>>().is_some());
    let (mut blue, _) = rt.block_on(Client::join(addr, &game, &token(1), None)).expect("blue joins");
    assert_eq!(session(&app).viewer(), None, "the moderator has the umpire's eyes");
    assert!(!session(&app).human_turn(), "the moderator gives no side's orders");
    let title =
        kriegsspiel::net::notify::title_for(Some(online(&app)), app.world().resource::<kriegsspiel::i18n::Tr>());
    assert_eq!(title, "Kriegsspiel", "nothing waits for the moderator");

    // A chat line from blue to the moderator reaches its table.
    let seq = blue.seq();
    let ack = rt
        .block_on(blue.ask(wire::ClientMsg::Chat { seq, to: wire::ChatTo::Moderator, text: "A question".into() }))
        .expect("an answer");
    assert_eq!(ack["type"], "ack", "{ack}");
    until(&mut app, "the letter", |a| online(a).letters.iter().any(|l| l.text == "A question"));
    assert_eq!(online(&app).unread, 1);
    // The moderator answers blue, pauses the game, and hands blue's side to the AI.
    app.world_mut().resource_mut::<Online>().chat(wire::ChatTo::Seat(1), "An answer".into());
    let got = rt.block_on(blue.wait_for(|v| v["type"] == "mail" && v["text"] == "An answer")).expect("blue's mail");
    assert_eq!(got["from"], 2);
    app.world_mut().resource_mut::<Online>().moderate(wire::ModAction::Pause);
    until(&mut app, "the pause", |a| online(a).status.as_ref().is_some_and(|s| s.paused));
    let bar = kriegsspiel::net::bar::words(online(&app), app.world().resource::<kriegsspiel::i18n::Tr>(), 0.0).0;
    assert!(bar.contains("Paused"), "{bar}");
    app.world_mut().resource_mut::<Online>().moderate(wire::ModAction::Resume);
    app.world_mut().resource_mut::<Online>().moderate(wire::ModAction::HandToAi { seat: 1, level: ai::Level::Recruit });
    until(&mut app, "the AI plays blue", |a| {
        online(a).status.as_ref().is_some_and(|s| !s.paused && s.ai.iter().any(|p| p == "blue"))
    });
    assert!(online(&app).refused.is_none(), "{:?}", online(&app).refused);
    // The table shows who is connected: blue and the moderator, then the moderator alone.
    until(&mut app, "blue connected", |a| online(a).status.as_ref().is_some_and(|s| s.connected == vec![1, 2]));
    rt.block_on(blue.close());
    until(&mut app, "blue gone", |a| online(a).status.as_ref().is_some_and(|s| s.connected == vec![2]));
    drop(server);
}

/// A battle played online to its end from the game against the AI's seat: the server reveals
/// the whole log, the game replays it to the server's hash and keeps it with the player's saves.
#[test]
fn an_online_battle_played_to_its_end_keeps_its_revealed_log() {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime");
    let server = rt
        .block_on(server::Server::start(&sqlite(), &scenarios(), SocketAddr::from(([127, 0, 0, 1], 0))))
        .expect("the server starts");
    let addr = server.addr;
    let body = json!({
        "scenario": "open_field.ron",
        "settings": { "battle_clock": false },
        "seats": [
            { "role": "player", "player": "red", "name": "red" },
            { "role": "player", "player": "blue", "name": "blue", "ai": "Recruit" },
        ],
    });
    let (code, created) = rt.block_on(server::client::http(addr, "POST", "/api/games", Some(&body))).expect("made");
    assert_eq!(code, 200, "{created}");
    let game = created["game"].as_str().expect("a game").to_string();
    let token = created["seats"][0]["token"].as_str().expect("a token").to_string();
    let mut app = support::app();
    let link = SeatLink::parse(&format!("http://{addr}/?game={game}&seat={token}"), "").expect("a link");
    app.world_mut().write_message(JoinOnline(link));
    until(&mut app, "red's board", |a| a.world().get_resource::<Session<Battle>>().is_some());
    // Red passes its set-up and turns, then orders the retreat (T-END-2) and passes until the
    // battle is over; the AI plays blue on the server.
    let mut retreated = false;
    for _ in 0..300 {
        until(&mut app, "red to move or the end", |a| {
            a.world().get_resource::<Session<Battle>>().is_none_or(|s| s.human_turn() || s.game.is_over())
        });
        let Some(s) = app.world().get_resource::<Session<Battle>>() else { break };
        if s.game.is_over() {
            break;
        }
        let in_battle = !kriegsspiel::session::PlayGame::in_setup(&s.game);
        let order = if in_battle && s.game.clock().turn >= 2 && !retreated {
            retreated = true;
            Order::Retreat
        } else {
            s.game.pass()
        };
        give(&mut app, order);
        until(&mut app, "the answer", |a| online(a).unanswered() == 0);
    }
    until(&mut app, "the log kept", |a| a.world().get_resource::<Session<Battle>>().is_none_or(|s| s.notice.is_some()));
    let notice = session(&app).notice.clone().unwrap_or_default();
    assert!(notice.contains("whole log"), "{notice}");
    // The kept save replays to the end of the battle, as the server had it.
    let store = kriegsspiel::storage::store().expect("the store");
    let keys = store.keys("");
    let key = keys.iter().find(|k| k.contains(&kriegsspiel::net::saved_name(&game))).expect("the game's save");
    let text = store.read(key).expect("readable").expect("there");
    let saved = kriegsspiel::saves::saved_game_from_text::<rules::tactical::SaveGame>(key, &text).expect("a save");
    let replayed = Battle::replay(&saved.save).expect("it replays");
    assert!(replayed.is_over());
    drop(server);
}
