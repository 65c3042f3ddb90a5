//! The moderator pauses and resumes a game, hands a seat to the AI and takes it back; a client
//! that drops resumes from the last order it saw, and a server that restarts restores its games
//! from the record.

mod support;

use serde_json::{Value, json};
use server::client::Client;
use server::protocol::{ClientMsg, ModAction};
use support::kind;

fn pass_for(status: &Value) -> Value {
    match status["clock"]["phase"].as_str() {
        Some("server.phase.battle") => json!("EndTurn"),
        _ => json!("EndSetup"),
    }
}

async fn moderate(m: &mut Client, action: ModAction) -> Value {
    let seq = m.seq();
    m.ask(ClientMsg::Moderate { seq, action }).await.expect("an answer")
}

/// Passes with whichever of the two sides is to move, `n` times; the last status.
async fn pass_turns(red: &mut Client, blue: &mut Client, mut status: Value, n: usize) -> Value {
    for _ in 0..n {
        let me = if status["clock"]["active"] == "red" { &mut *red } else { &mut *blue };
        let ack = me.order(pass_for(&status)).await.expect("an answer");
        assert_eq!(kind(&ack), "ack", "{ack}");
        status = ack["status"].clone();
    }
    status
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_moderator_pauses_hands_a_seat_to_the_ai_and_takes_it_back() {
    let (server, _db) = support::start_fresh("moderator").await;
    let addr = server.addr;
    let created = support::create(addr, "open_field.ron", None).await;
    let (mut red, welcome) = support::join(addr, &created, 0).await;
    let (mut blue, _) = support::join(addr, &created, 1).await;
    let (mut moderator, _) = support::join(addr, &created, 2).await;
    let status = welcome["status"].clone();
    let first = status["clock"]["active"].as_str().unwrap_or("").to_string();

    // Only the moderator moderates.
    let seq = red.seq();
    let r = red.ask(ClientMsg::Moderate { seq, action: ModAction::Pause }).await.expect("an answer");
    assert_eq!(r["code"], "moderator_only");

    assert_eq!(kind(&moderate(&mut moderator, ModAction::Pause).await), "ack");
    let me = if first == "red" { &mut red } else { &mut blue };
    let r = me.order(pass_for(&status)).await.expect("an answer");
    assert_eq!(r["code"], "paused", "{r}");
    let paused = me.wait_for(|v| kind(v) == "status" && v["status"]["paused"] == true).await;
    assert!(paused.is_ok(), "every seat is told of the pause");
    assert_eq!(kind(&moderate(&mut moderator, ModAction::Resume).await), "ack");

    // Blue is handed to the AI: blue's own orders are refused, and the AI plays blue's turns.
    let ack = moderate(&mut moderator, ModAction::HandToAi { seat: 1, level: ai::Level::Random }).await;
    assert_eq!(ack["status"]["ai"], json!(["blue"]), "{ack}");
    let mut status = ack["status"].clone();
    let before = red.at;
    let mut red_orders = 0;
    while red.at < before + 6 {
        if status["clock"]["active"] == "red" {
            let ack = red.order(pass_for(&status)).await.expect("an answer");
            assert_eq!(kind(&ack), "ack", "{ack}");
            red_orders += 1;
            status = ack["status"].clone();
        } else {
            let v = red.wait_for(|v| kind(v) == "events").await.expect("the AI plays blue");
            status = v["status"].clone();
        }
    }
    assert!(red.at - before > red_orders, "the AI gave blue's orders");
    let r = blue.order(json!("EndTurn")).await.expect("an answer");
    assert!(r["code"] == "ai_plays" || r["code"] == "not_your_turn", "{r}");

    // Taken back: blue plays its own turns again.
    let ack = moderate(&mut moderator, ModAction::TakeBack { seat: 1 }).await;
    assert_eq!(ack["status"]["ai"], json!([]), "{ack}");
    let mut status = ack["status"].clone();
    for _ in 0..4 {
        if status["clock"]["active"] == "blue" {
            break;
        }
        let ack = red.order(pass_for(&status)).await.expect("an answer");
        status = ack["status"].clone();
    }
    assert_eq!(status["clock"]["active"], "blue");
    let ack = blue.order(pass_for(&status)).await.expect("an answer");
    assert_eq!(kind(&ack), "ack", "blue gives its own order again: {ack}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_drops_resumes_after_the_last_order_it_saw() {
    let (server, db) = support::start_fresh("reconnect").await;
    let addr = server.addr;
    let created = support::create(addr, "open_field.ron", None).await;
    let (mut red, welcome) = support::join(addr, &created, 0).await;
    let (mut blue, _) = support::join(addr, &created, 1).await;
    let status = pass_turns(&mut red, &mut blue, welcome["status"].clone(), 3).await;
    blue.wait_at(3).await.expect("blue saw three orders");
    let seen = blue.at;
    blue.close().await;
    // The game goes on while this connection is away (blue's turns given from another
    // connection of blue's seat, as from another device).
    let (mut blue2, _) = support::join(addr, &created, 1).await;
    blue2.set_seq(100);
    let status = pass_turns(&mut red, &mut blue2, status, 4).await;
    blue2.close().await;
    let now = red.at;
    assert_eq!(now, 7);

    // Blue comes back: no view, the orders it missed, each once, in order.
    let (mut back, welcome) =
        Client::join(addr, &support::game(&created), &support::token(&created, 1), Some(seen)).await.expect("rejoins");
    assert_eq!(welcome["at"], seen);
    assert!(welcome["view"].is_null(), "a resuming client gets no fresh view: {welcome}");
    let mut ats = Vec::new();
    while ats.len() < usize::try_from(now - seen).unwrap_or(0) {
        let v = back.wait_for(|v| kind(v) == "events").await.expect("the missed orders");
        ats.push(v["at"].as_u64().unwrap_or(0));
    }
    assert_eq!(ats, ((seen + 1)..=now).collect::<Vec<_>>());
    assert!(
        back.arrives_within(std::time::Duration::from_millis(300), |v| kind(v) == "events").await.is_none(),
        "nothing twice"
    );

    // The server restarts: the game is restored from the record, and a client that was behind
    // gets a fresh view (the events it missed are no longer kept).
    server.stop().await;
    let server = support::start(&db).await;
    assert_eq!(server.restored, 1);
    let (mut again, welcome) =
        Client::join(server.addr, &support::game(&created), &support::token(&created, 0), Some(2))
            .await
            .expect("rejoins the restarted server");
    assert_eq!(welcome["at"], now);
    assert!(welcome["view"].is_object(), "{welcome}");
    // And the game goes on where it was; a repeated sequence number is not applied twice.
    again.set_seq(1000);
    let ack = again.order(pass_for(&status)).await.expect("an answer");
    let ack = if kind(&ack) == "refused" {
        assert_eq!(ack["code"], "not_your_turn");
        let (mut b, _) = support::join(server.addr, &created, 1).await;
        b.set_seq(1000);
        b.order(pass_for(&status)).await.expect("an answer")
    } else {
        ack
    };
    assert_eq!(ack["at"], now + 1, "{ack}");
    server.stop().await;
}
