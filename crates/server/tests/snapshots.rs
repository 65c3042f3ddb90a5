//! A Great War game keeps a snapshot when a turn begins, and is restored from it and the rest
//! of its log (not its whole log), to the same state; a snapshot that does not match the record
//! is passed over and the whole log replayed.

mod support;

use serde_json::json;
use server::client::Client;
use support::kind;

const SCENARIO: &str = "great_war/test_front.ron";

async fn hash_of(server: &server::Server, game: &str) -> String {
    let room = server.hub.room(game).await.expect("the game is held");
    let state = room.state.lock().await;
    state.table.state_hash()
}

/// The events of order `index`, as the umpire sees them (none known for an order before the
/// snapshot a game was restored from).
async fn events_of(server: &server::Server, game: &str, index: u64) -> Vec<serde_json::Value> {
    let room = server.hub.room(game).await.expect("the game is held");
    let state = room.state.lock().await;
    state.table.seen(None, usize::try_from(index).expect("an index"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_great_war_game_is_restored_from_its_snapshot_and_the_rest_of_its_log() {
    let (server, db) = support::start_fresh("snapshots").await;
    let created = support::create(server.addr, SCENARIO, None).await;
    let game = support::game(&created);
    let mut seats: Vec<Client> = Vec::new();
    for i in 0..3 {
        seats.push(support::join(server.addr, &created, i).await.0);
    }
    assert_eq!(server.hub.store.snapshot(&game).await.expect("asked"), None, "none before a turn has passed");
    // Two turns and a phase of the next, every power passing: a game is restored from the
    // snapshot a turn behind the newest (the answer to each seat's latest order is then known).
    let mut status = support::status(server.addr, &game).await;
    let first = status["clock"]["turn"].as_u64().expect("a turn");
    let mut turn_began_at = None;
    let mut newest = None;
    while newest.is_none_or(|at| status["clock"]["orders"].as_u64() < Some(at + 2)) {
        let i = match status["clock"]["active"].as_str() {
            Some("germany") => 0,
            Some("france") => 1,
            _ => 2,
        };
        let r = seats[i].order(json!("EndPhase")).await.expect("an answer");
        assert_eq!(kind(&r), "ack", "{r}");
        status = r["status"].clone();
        if turn_began_at.is_none() && status["clock"]["turn"].as_u64() == Some(first + 1) {
            turn_began_at = status["clock"]["orders"].as_u64();
            assert_eq!(
                server.hub.store.snapshot(&game).await.expect("asked"),
                None,
                "one snapshot: none to restore from"
            );
        }
        if newest.is_none() && status["clock"]["turn"].as_u64() == Some(first + 2) {
            newest = status["clock"]["orders"].as_u64();
        }
    }
    let at = turn_began_at.expect("the next turn began");
    let (after, _) = server.hub.store.snapshot(&game).await.expect("asked").expect("a snapshot was kept");
    assert_eq!(u64::try_from(after).ok(), Some(at), "taken when the turn began, a turn behind the newest");
    let orders = status["clock"]["orders"].clone();
    let hash = hash_of(&server, &game).await;
    let turn_began = events_of(&server, &game, at - 1).await;
    assert!(!turn_began.is_empty(), "the order that began the turn has events");
    server.stop().await;

    // Restored from the snapshot and the turn and two orders after it: the same state.
    let server = support::start(&db).await;
    assert_eq!(server.restored, 1);
    assert_eq!(hash_of(&server, &game).await, hash);
    assert!(events_of(&server, &game, at - 1).await.is_empty(), "resumed from the snapshot, not replayed");
    assert_eq!(support::status(server.addr, &game).await["clock"]["orders"], orders);

    // A snapshot that does not match its record is passed over: the whole log is replayed.
    server.hub.store.put_snapshot(&game, after, "{\"after\": 1}").await.expect("kept");
    server.stop().await;
    let server = support::start(&db).await;
    assert_eq!(hash_of(&server, &game).await, hash, "restored from the whole log");
    assert_eq!(events_of(&server, &game, at - 1).await, turn_began);
    let (mut germany, welcome) = support::join(server.addr, &created, 0).await;
    assert_eq!(kind(&welcome), "welcome");
    assert!(welcome["view"].is_object(), "a seat behind the snapshot gets a fresh view");
    let _ = germany.quiet_for(std::time::Duration::from_millis(50)).await;
    server.stop().await;
}
