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

/// Two nodes on one database: a game's lease is one node's at a time; only its owner appends;
/// one that runs out, or whose owner is gone, passes to the other.
async fn leases(a: Arc<dyn Store>, b: Arc<dyn Store>) {
    let g = server::seats::new_game_id().expect("random");
    a.create_game(&game(&g), &[seat(0), seat(1)]).await.expect("a game is recorded");
    assert_ne!(a.node(), b.node());
    assert!(a.unheld().await.expect("unheld").contains(&g), "nobody holds a new game");
    assert_eq!(a.lease(&g).await.expect("a lease"), None);

    let lease = a.claim(&g, "127.0.0.1:1", 60_000).await.expect("claimed");
    assert_eq!((lease.owner.as_str(), lease.addr.as_str()), (a.node(), "127.0.0.1:1"));
    let theirs = b.claim(&g, "127.0.0.1:2", 60_000).await.expect("asked");
    assert_eq!(theirs.owner, a.node(), "a lease that has not run out stays its owner's");
    assert!(!a.unheld().await.expect("unheld").contains(&g));
    assert_eq!(b.held_by_others().await.expect("others").into_iter().filter(|(x, _)| *x == g).count(), 1);

    // Only the owner writes the log.
    assert!(matches!(b.append_order(&g, &order(0)).await, Err(StoreError::NotOwner(x)) if x == g));
    a.append_order(&g, &order(0)).await.expect("the owner appends");
    let mail = MailRecord {
        idx: 0,
        kind: "chat".to_string(),
        from_seat: Some(1),
        seq: Some(1),
        recipients: "[0]".to_string(),
        deliver_at: 0,
        body: "{}".to_string(),
    };
    assert!(matches!(b.append_mail(&g, &mail).await, Err(StoreError::NotOwner(_))));
    assert_eq!(a.orders(&g).await.expect("orders"), vec![order(0)]);
    // Nor may another change the game's seats, flags, timer or snapshot.
    let mut handed = seat(1);
    handed.ai = Some("veteran".to_string());
    assert!(matches!(b.update_seat(&g, &handed).await, Err(StoreError::NotOwner(_))));
    assert!(matches!(b.set_flags(&g, true, false).await, Err(StoreError::NotOwner(_))));
    assert!(matches!(b.set_clock(&g, "{}").await, Err(StoreError::NotOwner(_))));
    assert!(matches!(b.put_snapshot(&g, 1, "{}").await, Err(StoreError::NotOwner(_))));
    assert_eq!(a.seats(&g).await.expect("seats")[1], seat(1), "unchanged");
    a.update_seat(&g, &handed).await.expect("the owner changes a seat");
    a.set_clock(&g, "{}").await.expect("the owner sets the timer");
    a.put_snapshot(&g, 1, "{\"after\": 1}").await.expect("the owner keeps a snapshot");
    assert_eq!(b.snapshot(&g).await.expect("asked"), None, "restored from a turn behind the newest: none yet");
    a.put_snapshot(&g, 5, "{\"after\": 5}").await.expect("kept");
    assert_eq!(b.snapshot(&g).await.expect("asked"), Some((1, "{\"after\": 1}".to_string())));
    a.put_snapshot(&g, 9, "{\"after\": 9}").await.expect("kept");
    assert_eq!(b.snapshot(&g).await.expect("asked"), Some((5, "{\"after\": 5}".to_string())), "the two newest kept");

    // Both live, and each knows it of the other.
    assert_eq!(a.alive(b.node()).await.expect("asked"), Some(true));
    assert_eq!(b.alive(a.node()).await.expect("asked"), Some(true));
    assert_eq!(a.alive("../../etc/passwd").await.expect("asked"), None, "a node ID is hex");

    // Renewed, it stays; run out (renewed into the past), the other takes it, and the old
    // owner's renewal no longer lists it nor may it append.
    assert!(a.renew(60_000).await.expect("renewed").contains(&g));
    a.renew(-1_000).await.expect("renewed into the past");
    assert!(a.unheld().await.expect("unheld").contains(&g), "a lease run out is nobody's");
    let taken = b.claim(&g, "127.0.0.1:2", 60_000).await.expect("claimed");
    assert_eq!((taken.owner.as_str(), taken.addr.as_str()), (b.node(), "127.0.0.1:2"));
    assert!(!a.renew(60_000).await.expect("renewed").contains(&g));
    assert!(matches!(a.append_order(&g, &order(1)).await, Err(StoreError::NotOwner(_))));
    b.append_order(&g, &order(1)).await.expect("the new owner appends");

    // A take-over names the dead owner: naming a live one's wrongly changes nothing.
    let kept = a.take_over(&g, "0123", "127.0.0.1:1", 60_000).await.expect("asked");
    assert_eq!(kept.owner, b.node());
    b.retire().await.expect("retired");
    let gone = a.alive(b.node()).await.expect("asked");
    assert_eq!(gone, Some(false), "a retired node is gone once retire returns");
    // Asked at once by many (a keeper's round and a client's request of two processes), every
    // answer is that it is gone: asking takes nothing that would make it look alive.
    let asked = futures_util::future::join_all((0..16).map(|_| a.alive(b.node()))).await;
    assert!(asked.iter().all(|r| matches!(r, Ok(Some(false)))), "{asked:?}");
    let back = a.take_over(&g, b.node(), "127.0.0.1:1", 60_000).await.expect("taken over");
    assert_eq!(back.owner, a.node());
    a.append_order(&g, &order(2)).await.expect("appends again");

    // Let go, it is nobody's.
    a.release(&g).await.expect("released");
    assert_eq!(a.lease(&g).await.expect("asked"), None);
    assert!(a.unheld().await.expect("unheld").contains(&g));

    // A token's seat, in whichever game.
    let found = b.seats_of_token("hash1").await.expect("found");
    let mine: Vec<_> = found.iter().filter(|s| s.game == g).collect();
    assert_eq!(mine.len(), 1);
    assert_eq!((mine[0].seat, mine[0].name.as_str(), mine[0].kind.as_str()), (1, "Seat 1", "battle"));
    assert!(a.seats_of_token("no such hash").await.expect("asked").is_empty());
}

#[tokio::test]
async fn the_storage_suite_on_sqlite() {
    let store = store::open(&support::sqlite_url("store")).await.expect("opens");
    suite(store).await;
}

#[tokio::test]
async fn leases_on_sqlite() {
    let url = support::sqlite_url("leases");
    let a = store::open(&url).await.expect("opens");
    let b = store::open(&url).await.expect("opens again, another node");
    leases(a, b).await;
}

#[tokio::test]
async fn leases_on_postgresql() {
    let Ok(url) = std::env::var("KRIEGSSPIEL_TEST_PG") else {
        eprintln!("KRIEGSSPIEL_TEST_PG is not set: the PostgreSQL lease suite is skipped");
        return;
    };
    let a = store::open(&url).await.expect("opens");
    let b = store::open(&url).await.expect("opens again, another node");
    leases(a, b).await;
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
