//! Time runs on the server, on a clock the tests move, exact on both sides of each threshold:
//! T-SETUP-1 (one clock of 120 s for the whole set-up of both sides, logged as `EndSetup` when it
//! runs out), T-TURN-2 (20 s a turn, 15 s when neither army fields more than 5 units, logged as
//! `EndTurn`), the moderator's pause and extension, and a deadline that survives a restart.

mod support;

use serde_json::{Value, json};
use server::clock::ManualClock;
use server::protocol::{ClientMsg, ModAction};
use std::sync::Arc;
use support::{T0, kind};

fn timer(status: &Value) -> (String, bool, i64) {
    let t = &status["timer"];
    (t["what"].as_str().unwrap_or("").to_string(), t["running"] == true, t["left_ms"].as_i64().unwrap_or(-1))
}

fn phase(status: &Value) -> String {
    status["clock"]["phase"].as_str().unwrap_or("").to_string()
}

/// The orders of a game's record: (source, body).
async fn record(server: &server::Server, game: &str) -> Vec<(String, String)> {
    let orders = server.hub.store.orders(game).await.expect("the record");
    orders.into_iter().map(|o| (o.source, o.body)).collect()
}

async fn moderate(m: &mut server::client::Client, action: ModAction) -> Value {
    let seq = m.seq();
    m.ask(ClientMsg::Moderate { seq, action }).await.expect("an answer")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn t_setup_1_one_clock_of_120_seconds_for_both_sides_then_t_turn_2_20_seconds() {
    let clock = Arc::new(ManualClock::new(T0));
    let db = support::fresh_db("clocks").await;
    let server = support::start_on(&db, clock.clone()).await;
    let addr = server.addr;
    let created = support::create(addr, "open_field.ron", None).await;
    let game = support::game(&created);
    let (mut red, welcome) = support::join(addr, &created, 0).await;
    let (mut blue, _) = support::join(addr, &created, 1).await;
    let (mut moderator, _) = support::join(addr, &created, 2).await;
    let status = welcome["status"].clone();
    assert_eq!(timer(&status), ("setup".to_string(), true, 120_000), "T-SETUP-1: 120 s: {status}");

    // The first side sets up for 30 s and ends its step; the clock runs on for the next.
    clock.advance(30_000);
    let me = if status["clock"]["active"] == "red" { &mut red } else { &mut blue };
    let ack = me.order(json!("EndSetup")).await.expect("an answer");
    assert_eq!(kind(&ack), "ack", "{ack}");
    assert_eq!(timer(&ack["status"]), ("setup".to_string(), true, 90_000), "one clock for both sides: {ack}");

    // 89.999 s later nothing has happened; at 90 s every set-up step still to come is ended
    // by the clock, one after another (a clock run out stays out).
    clock.advance(89_999);
    assert!(!server.hub.tick(&game).await.expect("the game"), "1 ms is left");
    let s = support::status(addr, &game).await;
    assert_eq!(s["clock"]["orders"], 1);
    assert_eq!(timer(&s).2, 1);
    clock.advance(1);
    let mut s = s;
    while phase(&s) != "server.phase.battle" {
        s = red.wait_for(|v| kind(v) == "events").await.expect("the clock ends the set-up")["status"].clone();
    }
    let log = record(&server, &game).await;
    assert!(log.len() >= 2, "{log:?}");
    assert_eq!(log[0].0, "seat");
    for (source, body) in &log[1..] {
        assert_eq!((source.as_str(), body.as_str()), ("clock", "EndSetup"), "T-SETUP-1's time-out: {log:?}");
    }
    let setup_orders = log.len() as u64;

    // T-TURN-2: 20 s (open field: 10 units a side). At 19.999 s the turn goes on; at 20 s the
    // clock ends it (EndTurn) and the other side gets 20 s of its own.
    let s = support::status(addr, &game).await;
    assert_eq!(timer(&s), ("turn".to_string(), true, 20_000), "{s}");
    let first = s["clock"]["active"].clone();
    clock.advance(19_999);
    assert!(!server.hub.tick(&game).await.expect("the game"));
    assert_eq!(support::status(addr, &game).await["clock"]["orders"], setup_orders);
    clock.advance(1);
    let v = red.wait_for(|v| kind(v) == "events" && v["at"] == setup_orders + 1).await.expect("the time-out");
    assert_ne!(v["status"]["clock"]["active"], first, "the turn passed to the other side");
    assert_eq!(timer(&v["status"]), ("turn".to_string(), true, 20_000));
    assert_eq!(record(&server, &game).await.last(), Some(&("clock".to_string(), "EndTurn".to_string())));

    // The moderator extends the turn by 10 s, and pauses: a paused clock does not run.
    clock.advance(5_000);
    let ack = moderate(&mut moderator, ModAction::Extend { seconds: 10 }).await;
    assert_eq!(timer(&ack["status"]), ("turn".to_string(), true, 25_000), "{ack}");
    let r = moderate(&mut moderator, ModAction::Extend { seconds: 0 }).await;
    assert_eq!(r["code"], "bad_extension");
    let r = moderate(&mut moderator, ModAction::Extend { seconds: 7 * 24 * 3600 + 1 }).await;
    assert_eq!(r["code"], "bad_extension");
    let seq = red.seq();
    let r = red.ask(ClientMsg::Moderate { seq, action: ModAction::Extend { seconds: 60 } }).await.expect("answer");
    assert_eq!(r["code"], "moderator_only");
    let ack = moderate(&mut moderator, ModAction::Pause).await;
    assert_eq!(timer(&ack["status"]), ("turn".to_string(), false, 25_000), "{ack}");
    clock.advance(3_600_000);
    assert!(!server.hub.tick(&game).await.expect("the game"), "paused for an hour: no time-out");
    let ack = moderate(&mut moderator, ModAction::Resume).await;
    assert_eq!(timer(&ack["status"]), ("turn".to_string(), true, 25_000), "{ack}");
    let deadline = ack["status"]["timer"]["deadline_ms"].as_i64().expect("a deadline");
    assert_eq!(deadline, clock_now(&clock) + 25_000);

    // The deadline survives a restart: the same deadline, not a fresh turn.
    clock.advance(4_000);
    server.stop().await;
    let server = support::start_on(&db, clock.clone()).await;
    let s = support::status(server.addr, &game).await;
    assert_eq!(s["timer"]["deadline_ms"], deadline, "{s}");
    assert_eq!(timer(&s), ("turn".to_string(), true, 21_000));
    let orders = s["clock"]["orders"].as_u64().expect("a count");
    clock.advance(20_999);
    assert!(!server.hub.tick(&game).await.expect("the game"));
    clock.advance(1);
    let (mut watcher, _) = support::join(server.addr, &created, 2).await;
    watcher.wait_at(orders + 1).await.expect("timed out after the restart");
    server.stop().await;
}

fn clock_now(clock: &ManualClock) -> i64 {
    use server::clock::Clock;
    clock.now_ms()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn t_turn_2_15_seconds_when_neither_army_fields_more_than_5_units() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = support::start_on(&support::fresh_db("clocks-small").await, clock.clone()).await;
    let created = support::create(server.addr, "tutorial.ron", None).await;
    let game = support::game(&created);
    let (mut red, _) = support::join(server.addr, &created, 0).await;
    // The tutorial opens with its armies placed, in the battle; were there a set-up, its clock
    // would be run out first (every step ended by the clock), then the first turn.
    let mut s = support::status(server.addr, &game).await;
    if phase(&s) != "server.phase.battle" {
        clock.advance(120_000);
    }
    while phase(&s) != "server.phase.battle" {
        s = red.wait_for(|v| kind(v) == "events").await.expect("the set-up ends")["status"].clone();
    }
    assert_eq!(timer(&s), ("turn".to_string(), true, 15_000), "T-TURN-2: 2 v 2 units: 15 s: {s}");
    let at = s["clock"]["orders"].as_u64().expect("a count");
    clock.advance(14_999);
    assert!(!server.hub.tick(&game).await.expect("the game"));
    clock.advance(1);
    red.wait_at(at + 1).await.expect("the turn timed out at 15 s");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_battle_clock_switched_off_never_runs_out() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = support::start_on(&support::fresh_db("clocks-off").await, clock.clone()).await;
    let body = json!({ "scenario": "open_field.ron", "settings": { "battle_clock": false } });
    let (code, created) = server::client::http(server.addr, "POST", "/api/games", Some(&body)).await.expect("answers");
    assert_eq!(code, 200, "{created}");
    let game = support::game(&created);
    clock.advance(86_400_000);
    assert!(!server.hub.tick(&game).await.expect("the game"));
    let s = support::status(server.addr, &game).await;
    assert!(s["timer"].is_null(), "{s}");
    assert_eq!(s["clock"]["orders"], 0);
    // Unknown settings and deadlines out of bounds are refused.
    for bad in [json!({ "colour": 1 }), json!({ "phase_minutes": 0 }), json!({ "phase_minutes": 20161 })] {
        let body = json!({ "scenario": "open_field.ron", "settings": bad });
        let (code, _) = server::client::http(server.addr, "POST", "/api/games", Some(&body)).await.expect("answers");
        assert_eq!(code, 422, "{bad}");
    }
    server.stop().await;
}
