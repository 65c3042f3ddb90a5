//! The storage suite, run against SQLite always and against PostgreSQL when
//! `KRIEGSSPIEL_TEST_PG` gives a database URL (`.ci/run` starts one).

mod support;

use server::store::{self, GameRecord, MailRecord, OrderRecord, SeatRecord, Store, StoreError};
use std::sync::Arc;

fn game(id: &str) -> GameRecord {
    GameRecord {
        id: id.to_string(),
        kind: "battle".to_string(),
        scenario: "open_field.ron".to_string(),
        scenario_hash: "0123".to_string(),
        // The seed's top bit set: it must come back as the same u64.
        seed: u64::MAX - 5,
        seed_commit: "commit".to_string(),
        settings: "{}".to_string(),
        paused: false,
        over: false,
        created: 17,
    }
}

fn seat(n: i32) -> SeatRecord {
    SeatRecord {
        seat: n,
        role: format!(r#"{{"role":"player","player":"p{n}"}}"#),
        name: format!("Seat {n}"),
        token_hash: format!("hash{n}"),
        ai: None,
        webhook: None,
    }
}

fn order(idx: i64) -> OrderRecord {
    OrderRecord { idx, seat: Some(0), seq: Some(idx + 1), source: "seat".to_string(), body: format!("Order{idx}") }
}

async fn suite(store: Arc<dyn Store>) {
    let id = server::seats::new_game_id().expect("random");
    store.migrate().await.expect("migrating twice is harmless");
    store.create_game(&game(&id), &[seat(0), seat(1)]).await.expect("a game is recorded");
    let games = store.games().await.expect("games");
    let g = games.iter().find(|g| g.id == id).expect("the game is listed");
    assert_eq!(*g, game(&id));
    assert_eq!(store.seats(&id).await.expect("seats"), vec![seat(0), seat(1)]);

    for i in 0..3 {
        store.append_order(&id, &order(i)).await.expect("an order is committed");
    }
    // The same place twice: another writer got there first; nothing is overwritten.
    let mut dup = order(1);
    dup.body = "Other".to_string();
    assert!(matches!(store.append_order(&id, &dup).await, Err(StoreError::Conflict(1))));
    assert_eq!(store.orders(&id).await.expect("orders"), vec![order(0), order(1), order(2)]);

    let mut s = seat(1);
    s.ai = Some("veteran".to_string());
    s.webhook = Some("http://127.0.0.1:1/hook".to_string());
    s.role = r#"{"role":"general","player":"p1","formations":[201],"fleets":[]}"#.to_string();
    store.update_seat(&id, &s).await.expect("a seat changes");
    assert_eq!(store.seats(&id).await.expect("seats")[1], s);

    store.set_flags(&id, true, true).await.expect("flags");
    let g = store.games().await.expect("games").into_iter().find(|g| g.id == id).expect("listed");
    assert!(g.paused && g.over);

    let mail = MailRecord {
        idx: 0,
        kind: "directive".to_string(),
        from_seat: Some(0),
        seq: Some(9),
        recipients: "[1]".to_string(),
        deliver_at: 1234,
        body: "Hold the Marne. Держать Марну.".to_string(),
    };
    store.append_mail(&id, &mail).await.expect("mail");
    assert!(matches!(store.append_mail(&id, &mail).await, Err(StoreError::Conflict(0))));
    assert_eq!(store.mail(&id).await.expect("mail"), vec![mail]);
    assert!(store.orders("no-such-game").await.expect("an empty log").is_empty());

    // The game's timer: none until stored, then the last one stored.
    assert_eq!(store.clock(&id).await.expect("a clock"), None);
    store.set_clock(&id, r#"{"key":"setup"}"#).await.expect("stored");
    store.set_clock(&id, r#"{"key":"turn 1 red"}"#).await.expect("stored again");
    assert_eq!(store.clock(&id).await.expect("a clock").as_deref(), Some(r#"{"key":"turn 1 red"}"#));
}

#[tokio::test]
async fn the_storage_suite_on_sqlite() {
    let store = store::open(&support::sqlite_url("store")).await.expect("opens");
    suite(store).await;
}

#[tokio::test]
async fn the_storage_suite_on_postgresql() {
    let Ok(url) = std::env::var("KRIEGSSPIEL_TEST_PG") else {
        eprintln!("KRIEGSSPIEL_TEST_PG is not set: the PostgreSQL suite is skipped");
        return;
    };
    let store = store::open(&url).await.expect("opens");
    suite(store).await;
}

#[tokio::test]
async fn a_url_of_another_database_is_refused() {
    assert!(matches!(store::open("mysql://x").await, Err(StoreError::Url(_))));
}
