//! Two seats play a battle to its end through real sockets; the moderator watches; the revealed
//! seed matches its commitment and the revealed log replays to the same hash.

mod support;

use rules::Game;
use rules::tactical::Side;
use rules::view::{Sight, Viewer};
use serde_json::{Value, json};
use server::client::Client;
use support::kind;

/// The order that ends the active side's set-up step or turn, by the phase the status names.
fn pass_for(status: &Value) -> Value {
    match status["clock"]["phase"].as_str() {
        Some("server.phase.battle") => json!("EndTurn"),
        _ => json!("EndSetup"),
    }
}

fn active(status: &Value) -> String {
    status["clock"]["active"].as_str().unwrap_or("").to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_seats_play_a_battle_to_its_end() {
    let (server, db) = support::start_fresh("battle").await;
    let addr = server.addr;
    let created = support::create(addr, "open_field.ron", None).await;
    assert_eq!(created["players"], json!(["red", "blue"]));
    // Red follows views (as the game's own client does), blue takes events only.
    let (mut red, welcome) =
        Client::join_following(addr, &support::game(&created), &support::token(&created, 0)).await.expect("red joins");
    assert_eq!(kind(&welcome), "welcome");
    assert!(welcome["view"].is_object(), "a fresh seat gets its view: {welcome}");
    let (mut blue, _) = support::join(addr, &created, 1).await;
    let (mut moderator, _) = support::join(addr, &created, 2).await;

    // The side whose turn it is not is refused, and the game is unharmed.
    let mut status = welcome["status"].clone();
    let first = active(&status);
    let (idle, _) = if first == "red" { (&mut blue, &mut red) } else { (&mut red, &mut blue) };
    let r = idle.order(pass_for(&status)).await.expect("an answer");
    assert_eq!(kind(&r), "refused");
    assert_eq!(r["code"], "not_your_turn");
    assert_eq!(r["text"], "it is not this seat's turn");

    // Set-up, three rounds of turns, then the side to move orders the retreat (T-END-2) and
    // both pass until the battle ends (T-TURN-4's round limit, or the retreat done).
    let mut orders = 0u64;
    let mut turns = 0;
    let mut retreated = false;
    loop {
        let side = active(&status);
        let me: &mut Client = if side == "red" { &mut red } else { &mut blue };
        let in_battle = status["clock"]["phase"] == "server.phase.battle";
        let order = if in_battle && turns >= 6 && !retreated {
            retreated = true;
            json!("Retreat")
        } else {
            pass_for(&status)
        };
        if in_battle {
            turns += 1;
        }
        let ack = me.order(order.clone()).await.expect("an answer");
        assert_eq!(kind(&ack), "ack", "{order}: {ack}");
        assert_eq!(ack["applied"], true);
        orders += 1;
        assert_eq!(ack["at"], orders);
        status = ack["status"].clone();
        if status["clock"]["over"] == true {
            break;
        }
        assert!(orders < 200, "the battle does not end");
    }
    // Every seat sees every order once, in order, and then the reveal.
    for c in [&mut red, &mut blue, &mut moderator] {
        c.wait_at(orders).await.expect("the seat catches up");
        let reveal = c.wait_for(|v| kind(v) == "reveal").await.expect("the game is revealed");
        assert_eq!(reveal["seed_commit"], created["seed_commit"]);
        let seed = reveal["seed"].as_u64().expect("the seed");
        assert_eq!(
            server::seats::seed_commit(&support::game(&created), seed),
            created["seed_commit"].as_str().unwrap_or("")
        );
        let save = rules::Save::<rules::tactical::Battle>::from_text("revealed", reveal["save"].as_str().unwrap_or(""))
            .expect("the revealed log reads as a battle save");
        assert_eq!(save.seed, seed);
        assert_eq!(save.orders.len() as u64, orders);
        let replayed = rules::tactical::Battle::replay(&save).expect("the revealed log replays");
        assert_eq!(replayed.state_hash().to_string(), reveal["hash"].as_str().unwrap_or(""));
        assert!(replayed.is_over());
    }
    // Every message each seat was sent is what the engine's sight gives that seat: the
    // revealed log replayed order by order, each order's events as the seat sees them.
    let save_text = {
        let v: Value =
            serde_json::from_str(red.received.iter().rev().find(|t| t.contains("\"reveal\"")).expect("a reveal"))
                .expect("JSON");
        v["save"].as_str().unwrap_or("").to_string()
    };
    let save = rules::Save::<rules::tactical::Battle>::from_text("revealed", &save_text).expect("a save");
    let seed_text = save.seed.to_string();
    for (client, viewer) in
        [(&red, Viewer::Player(Side::Red)), (&blue, Viewer::Player(Side::Blue)), (&moderator, Viewer::Umpire)]
    {
        let mut game = rules::tactical::Battle::new(&save.scenario, save.seed);
        let mut expected: Vec<Value> = Vec::new();
        let mut views: Vec<Value> = Vec::new();
        for order in &save.orders {
            let before = game.events().len();
            game.apply(order.clone()).expect("the log replays");
            let seen = game.seen(viewer, &game.events()[before..]);
            expected.push(serde_json::to_value(&seen).expect("JSON"));
            views.push(serde_json::to_value(game.view(viewer)).expect("JSON"));
        }
        let mut checked = 0;
        // A client that follows views is sent, after the events up to `at`, the view at `at`.
        let follows = std::ptr::eq(client, &red);
        let mut events_at = 0;
        let mut views_at = Vec::new();
        for text in &client.received {
            let v: Value = serde_json::from_str(text).expect("JSON");
            if kind(&v) == "reveal" {
                break;
            }
            assert!(!text.contains(&seed_text), "the seed is in no message before the reveal");
            if kind(&v) == "view" {
                assert!(follows, "{viewer:?} follows no views and was sent one");
                let at = v["at"].as_u64().unwrap_or(0);
                assert_eq!(at, events_at, "the view follows the events up to its order");
                let i = usize::try_from(at).unwrap_or(0);
                assert_eq!(v["view"], views[i - 1], "the view after order {at} is {viewer:?}'s");
                views_at.push(at);
            }
            if matches!(kind(&v), "events" | "ack") && v["applied"] != json!(false) {
                events_at = v["at"].as_u64().unwrap_or(0);
            }
            if matches!(kind(&v), "events" | "ack") && v["applied"] != json!(false) {
                let at = usize::try_from(v["at"].as_u64().unwrap_or(0)).unwrap_or(0);
                assert_eq!(v["events"], expected[at - 1], "order {at} as {viewer:?} sees it");
                checked += 1;
            }
        }
        assert_eq!(checked, save.orders.len(), "{viewer:?} was sent every order's events");
        if follows {
            // One view for each order, none twice (two orders between reads share the later one).
            assert!(views_at.windows(2).all(|w| w[0] < w[1]), "{views_at:?}");
            assert_eq!(views_at.last().copied(), Some(save.orders.len() as u64), "the last view is the end's");
            assert!(views_at.len() * 2 >= save.orders.len(), "a view after most orders: {views_at:?}");
        }
        let welcome: Value = serde_json::from_str(&client.received[0]).expect("JSON");
        let start = rules::tactical::Battle::new(&save.scenario, save.seed);
        assert_eq!(
            welcome["view"],
            serde_json::to_value(start.view(viewer)).expect("JSON"),
            "the first view is the seat's"
        );
    }
    let mut ats: Vec<u64> = Vec::new();
    for text in &blue.received {
        let v: Value = serde_json::from_str(text).expect("JSON");
        if matches!(kind(&v), "events" | "ack") && v.get("applied") != Some(&json!(false)) {
            ats.push(v["at"].as_u64().unwrap_or(0));
        }
    }
    let expected: Vec<u64> = (1..=orders).collect();
    assert_eq!(ats, expected, "blue saw every order once, in order");
    server.stop().await;

    // Restarted, the server restores no game that is over; asked for, it is there, and its
    // seats are sent the reveal again.
    let server = support::start(&db).await;
    assert_eq!(server.restored, 0, "a game over waits to be asked for");
    let status = support::status(server.addr, &support::game(&created)).await;
    assert_eq!(status["clock"]["over"], true);
    assert_eq!(status["clock"]["orders"], orders);
    let (mut blue, _) = support::join(server.addr, &created, 1).await;
    blue.wait_for(|v| kind(v) == "reveal").await.expect("revealed again");
    server.stop().await;
}

/// A game made with a seat given to the AI: the AI plays that side from the first order (the
/// status says so), the person's seat plays the other; only a player's seat may be the AI's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_given_to_the_ai_when_the_game_is_made_is_played_by_it() {
    let (server, _db) = support::start_fresh("battle-ai-seat").await;
    let addr = server.addr;
    let seats = json!([
        { "role": "player", "player": "red", "name": "red" },
        { "role": "player", "player": "blue", "name": "blue", "ai": "Recruit" },
    ]);
    let created = support::create(addr, "open_field.ron", Some(seats)).await;
    let (mut red, welcome) = support::join(addr, &created, 0).await;
    assert_eq!(welcome["status"]["ai"], json!(["blue"]), "{welcome}");
    // Red ends its set-up steps and turns; the AI's side answers each by itself.
    let mut status = welcome["status"].clone();
    let mut mine = 0;
    while mine < 4 {
        if active(&status) == "red" {
            let ack = red.order(pass_for(&status)).await.expect("an answer");
            assert_eq!(kind(&ack), "ack", "{ack}");
            mine += 1;
            status = ack["status"].clone();
        } else {
            let next = red.wait_for(|v| matches!(kind(v), "events" | "view")).await.expect("the AI moves");
            status = next["status"].clone();
        }
    }
    assert!(red.at > 4, "the AI gave orders too: {}", red.at);
    // A moderator's seat (or an observer's) is never the AI's.
    let bad = json!({ "scenario": "open_field.ron", "seats": [
        { "role": "player", "player": "red", "name": "red" },
        { "role": "player", "player": "blue", "name": "blue" },
        { "role": "moderator", "name": "m", "ai": "Veteran" },
    ]});
    let (code, answer) = server::client::http(addr, "POST", "/api/games", Some(&bad)).await.expect("an answer");
    assert_eq!(code, 422, "{answer}");
    assert!(answer.to_string().contains("only a player's seat"), "{answer}");
    red.close().await;
}
