//! Great War phase deadlines, set per game when it is made (minutes to days), on a clock the
//! test moves: at the deadline the power passes (`EndPhase`, logged as the clock's order) or
//! the AI plays the rest of its phase and gives it back when the phase ends, as the game is set.

mod support;

use serde_json::{Value, json};
use server::clock::ManualClock;
use std::sync::Arc;
use support::{T0, kind};

const SCENARIO: &str = "great_war/test_front.ron";

async fn make(server: &server::Server, settings: Value) -> Value {
    let body = json!({ "scenario": SCENARIO, "settings": settings });
    let (code, created) = server::client::http(server.addr, "POST", "/api/games", Some(&body)).await.expect("answers");
    assert_eq!(code, 200, "{created}");
    created
}

/// The seat numbers of a power's seats in a game made with the default seats.
fn seats_of(created: &Value, power: &Value) -> Vec<u64> {
    created["seats"]
        .as_array()
        .expect("seats")
        .iter()
        .filter(|s| s["role"]["role"] == "player" && s["role"]["player"] == *power)
        .filter_map(|s| s["seat"].as_u64())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phase_deadline_of_two_days_passes_the_power_when_it_runs_out() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = support::start_on(&support::fresh_db("deadline-pass").await, clock.clone()).await;
    let created = make(&server, json!({ "phase_minutes": 2880 })).await;
    let game = support::game(&created);
    let last = created["seats"].as_array().map_or(0, Vec::len) - 1;
    let (mut moderator, _) = support::join(server.addr, &created, last).await;
    let s = support::status(server.addr, &game).await;
    assert_eq!(s["timer"]["what"], "phase", "{s}");
    assert_eq!(s["timer"]["left_ms"], 172_800_000, "two days: {s}");
    let active = s["clock"]["active"].clone();
    let key = (s["clock"]["turn"].clone(), s["clock"]["phase"].clone(), active.clone());
    // Every seat sees whom the game waits for: the active power's seat.
    let waiting: Vec<u64> = s["waiting_for"].as_array().expect("a list").iter().filter_map(Value::as_u64).collect();
    assert_eq!(waiting, seats_of(&created, &active), "{s}");

    clock.advance(172_799_999);
    assert!(!server.hub.tick(&game).await.expect("the game"), "a millisecond is left");
    assert_eq!(support::status(server.addr, &game).await["clock"]["orders"], 0);
    clock.advance(1);
    let v = moderator.wait_for(|v| kind(v) == "events" && v["at"] == 1).await.expect("the deadline passes");
    let orders = server.hub.store.orders(&game).await.expect("the record");
    assert_eq!((orders[0].source.as_str(), orders[0].body.as_str()), ("clock", "EndPhase"));
    // The next phase (or power) has two days of its own.
    let s = &v["status"];
    assert_ne!((s["clock"]["turn"].clone(), s["clock"]["phase"].clone(), s["clock"]["active"].clone()), key);
    assert_eq!(s["timer"]["left_ms"], 172_800_000, "{s}");
    assert_eq!(s["timer"]["running"], true);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_a_deadline_set_so_the_ai_plays_the_rest_of_the_phase_and_gives_it_back() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = support::start_on(&support::fresh_db("deadline-ai").await, clock.clone()).await;
    let created = make(&server, json!({ "phase_minutes": 1, "on_expiry": { "ai": "Random" } })).await;
    let game = support::game(&created);
    let last = created["seats"].as_array().map_or(0, Vec::len) - 1;
    let (mut moderator, welcome) = support::join(server.addr, &created, last).await;
    let s = welcome["status"].clone();
    assert_eq!(s["timer"]["left_ms"], 60_000, "{s}");
    let key = (s["clock"]["turn"].clone(), s["clock"]["phase"].clone(), s["clock"]["active"].clone());
    clock.advance(59_999);
    assert!(!server.hub.tick(&game).await.expect("the game"));
    assert_eq!(support::status(server.addr, &game).await["ai"], json!([]));
    clock.advance(1);
    // The AI stands in: it plays the power until the phase ends, then the power is its seats'.
    let mut v = moderator.wait_for(|v| kind(v) == "status" || kind(v) == "events").await.expect("news");
    loop {
        let st = &v["status"];
        let now = (st["clock"]["turn"].clone(), st["clock"]["phase"].clone(), st["clock"]["active"].clone());
        if now != key {
            assert_eq!(st["ai"], json!([]), "the AI gives the power back when its phase ends: {st}");
            assert_eq!(st["timer"]["left_ms"], 60_000, "a fresh minute: {st}");
            break;
        }
        v = moderator.wait_for(|v| kind(v) == "status" || kind(v) == "events").await.expect("news");
    }
    // The AI played the phase to its end: its orders, none of the clock's.
    let orders = server.hub.store.orders(&game).await.expect("the record");
    assert!(!orders.is_empty() && orders.iter().all(|o| o.source == "ai"), "{orders:?}");
    server.stop().await;
}
