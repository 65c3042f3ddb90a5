//! Webhooks: a seat registers an http:// URL (checked, capped); "your turn" and "a directive for
//! you" are POSTed to it as JSON (a tiny axum receiver on 127.0.0.1 here), once each; a receiver
//! that never answers gets one attempt and the game goes on.

mod support;

use axum::extract::State;
use axum::routing::post;
use serde_json::{Value, json};
use server::client::Client;
use server::protocol::ClientMsg;
use std::sync::Arc;
use std::time::Duration;
use support::kind;
use tokio::sync::mpsc;

/// A receiver on a free port of 127.0.0.1: every body POSTed to it comes out of the channel.
async fn receiver() -> (String, mpsc::UnboundedReceiver<Value>) {
    let (tx, rx) = mpsc::unbounded_channel::<Value>();
    let app = axum::Router::new()
        .route(
            "/hook",
            post(|State(tx): State<mpsc::UnboundedSender<Value>>, body: axum::Json<Value>| async move {
                let _ = tx.send(body.0);
                "ok"
            }),
        )
        .with_state(tx);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let addr = listener.local_addr().expect("an address");
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (format!("http://{addr}/hook"), rx)
}

async fn hook(c: &mut Client, url: Option<String>) -> Value {
    let seq = c.seq();
    c.ask(ClientMsg::Webhook { seq, url }).await.expect("an answer")
}

async fn next(rx: &mut mpsc::UnboundedReceiver<Value>) -> Value {
    tokio::time::timeout(Duration::from_secs(10), rx.recv()).await.expect("a notice in time").expect("a notice")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn your_turn_and_a_directive_are_posted_once_to_the_seats_hook() {
    let (server, _db) = support::start_fresh("webhooks").await;
    let seats = json!([
        { "role": "player", "player": "germany", "name": "Kaiser" },
        { "role": "general", "player": "germany", "name": "Moltke" },
        { "role": "player", "player": "france", "name": "Joffre" },
        { "role": "player", "player": "gb", "name": "French" },
    ]);
    let created = support::create(server.addr, "great_war/test_front.ron", Some(seats)).await;
    let game = support::game(&created);
    let mut c = Vec::new();
    for seat in 0..4 {
        c.push(support::join(server.addr, &created, seat).await.0);
    }
    // Bad URLs are refused.
    for bad in ["https://127.0.0.1/x", "ftp://127.0.0.1/", &format!("http://a/{}", "x".repeat(300))] {
        let r = hook(&mut c[1], Some(bad.to_string())).await;
        assert_eq!(r["code"], "bad_url", "{bad}: {r}");
    }
    let (url, mut rx) = receiver().await;
    let (france_url, mut france_rx) = receiver().await;
    assert_eq!(kind(&hook(&mut c[1], Some(url)).await), "ack");
    assert_eq!(kind(&hook(&mut c[2], Some(france_url)).await), "ack");
    let status = support::status(server.addr, &game).await;
    assert_eq!(status["clock"]["active"], "germany", "{status}");
    // Germany is to move: Moltke is told; France is not yet.
    let n = next(&mut rx).await;
    assert_eq!((n["event"].clone(), n["seat"].clone(), n["game"].clone()), (json!("your_turn"), json!(1), json!(game)));
    // A directive for Moltke: a notice, without its text.
    let seq = c[0].seq();
    let ack = c[0].ask(ClientMsg::Directive { seq, to: vec![1], text: "SECRET-ORDERS".into() }).await.expect("answer");
    assert_eq!(kind(&ack), "ack", "{ack}");
    let n = next(&mut rx).await;
    assert_eq!(n["event"], "directive");
    assert!(!n.to_string().contains("SECRET"), "{n}");
    // Germany's seats end the phase; France is told it is its turn, once.
    for s in [0, 1] {
        assert_eq!(kind(&c[s].order(json!("EndPhase")).await.expect("answer")), "ack");
    }
    let n = next(&mut france_rx).await;
    assert_eq!((n["event"].clone(), n["seat"].clone()), (json!("your_turn"), json!(2)));
    assert!(tokio::time::timeout(Duration::from_millis(500), france_rx.recv()).await.is_err(), "once");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_receiver_that_never_answers_gets_one_attempt_and_the_game_goes_on() {
    let (server, _db) = support::start_fresh("webhooks-dead").await;
    let created = support::create(server.addr, "open_field.ron", None).await;
    let (mut red, welcome) = support::join(server.addr, &created, 0).await;
    let (mut blue, _) = support::join(server.addr, &created, 1).await;
    // A listener that accepts and never answers; it counts connections.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let addr = listener.local_addr().expect("an address");
    let count = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = count.clone();
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((s, _)) = listener.accept().await {
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            held.push(s);
        }
    });
    let first = welcome["status"]["clock"]["active"].as_str().unwrap_or("").to_string();
    let me = if first == "red" { &mut red } else { &mut blue };
    assert_eq!(kind(&hook(me, Some(format!("http://{addr}/hook"))).await), "ack");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(count.load(std::sync::atomic::Ordering::SeqCst), 1, "one attempt");
    // The game is not held up by it.
    let ack = me.order(json!("EndSetup")).await.expect("an answer");
    assert_eq!(kind(&ack), "ack", "{ack}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(count.load(std::sync::atomic::Ordering::SeqCst), 1, "no retry");
    server.stop().await;
}
