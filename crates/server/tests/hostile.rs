//! Hostile clients: each refused with a clear error, and the game unharmed (the other seat plays
//! on and the order count is what the honest orders made it).

mod support;

use serde_json::{Value, json};
use server::client::{self, Client};
use server::protocol::{ClientMsg, Lang};
use support::kind;

/// A battle with red and blue joined; red is to move first or blue is (returned: the mover).
async fn battle(name: &str) -> (server::Server, Value, Client, Client) {
    let (server, _db) = support::start_fresh(name).await;
    let created = support::create(server.addr, "open_field.ron", None).await;
    let (red, _) = support::join(server.addr, &created, 0).await;
    let (blue, _) = support::join(server.addr, &created, 1).await;
    (server, created, red, blue)
}

/// The seat to move, then the other.
fn mover<'a>(status: &Value, red: &'a mut Client, blue: &'a mut Client) -> (&'a mut Client, &'a mut Client) {
    if status["clock"]["active"] == "red" { (red, blue) } else { (blue, red) }
}

async fn status_of(addr: std::net::SocketAddr, created: &Value) -> Value {
    let (code, info) =
        client::http(addr, "GET", &format!("/api/games/{}", support::game(created)), None).await.expect("answers");
    assert_eq!(code, 200);
    info["status"].clone()
}

/// The next refusal (the seat's status news, another seat connecting, may come before it).
async fn refusal(c: &mut Client) -> Value {
    c.wait_for(|v| kind(v) == "refused").await.expect("an answer")
}

/// The game still takes an honest order, and its count is `orders + 1` after it.
async fn unharmed(addr: std::net::SocketAddr, created: &Value, red: &mut Client, blue: &mut Client, orders: u64) {
    let status = status_of(addr, created).await;
    assert_eq!(status["clock"]["orders"], orders, "{status}");
    let (me, _) = mover(&status, red, blue);
    let ack = me.order(json!("EndSetup")).await.expect("an answer");
    assert_eq!(kind(&ack), "ack", "{ack}");
    assert_eq!(ack["at"], orders + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_unknown_fields_and_binary_frames_are_refused() {
    let (server, created, mut red, mut blue) = battle("garbage").await;
    red.send_text("{{{ not json".to_string()).await.expect("sent");
    let r = refusal(&mut red).await;
    assert_eq!(r["code"], "bad_message", "{r}");
    red.send_text(r#"{"type":"order","seq":1,"order":"EndSetup","admin":true}"#.to_string()).await.expect("sent");
    let r = refusal(&mut red).await;
    assert_eq!(r["code"], "bad_message");
    assert!(r["text"].as_str().unwrap_or("").contains("admin"), "{r}");
    red.send_text(r#"{"type":"order","seq":1,"order":{"Teleport":{}}}"#.to_string()).await.expect("sent");
    let r = red.wait_for(|v| v["seq"] == 1).await.expect("an answer");
    assert_eq!(r["code"], "bad_order", "{r}");
    red.send_binary(vec![0, 1, 2, 3]).await.expect("sent");
    let r = refusal(&mut red).await;
    assert_eq!(r["code"], "binary");
    unharmed(server.addr, &created, &mut red, &mut blue, 0).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_giant_frame_closes_only_that_connection() {
    let (server, created, mut red, mut blue) = battle("giant").await;
    let giant = format!(r#"{{"type":"order","seq":1,"order":"{}"}}"#, "x".repeat(server::live::MAX_MESSAGE + 1));
    let _ = red.send_text(giant).await;
    // Whatever status came before (another seat connected), then the close.
    while let Ok(v) = red.next().await {
        assert_eq!(kind(&v), "status", "only news of the game before the close: {v}");
    }
    let (mut red, _) = support::join(server.addr, &created, 0).await;
    red.set_seq(10);
    unharmed(server.addr, &created, &mut red, &mut blue, 0).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_keeps_to_the_rate_is_refused_now_and_then_and_never_closed() {
    let (server, created, mut red, mut blue) = battle("bursts").await;
    // Three bursts of 60 two seconds apart: 40 taken and 20 refused each time (the bucket holds
    // 40 and refills in 2 s), 60 refusals in all, more than a flood's 50 in a row.
    let mut refused = 0;
    for burst in 0..3u64 {
        for i in 0..60u64 {
            let msg = ClientMsg::Preview { seq: 1000 + burst * 100 + i, order: json!("EndSetup") };
            red.send(&msg).await.expect("still open");
        }
        let mut answers = 0;
        while answers < 60 {
            let v = red.next().await.expect("every message is answered");
            if kind(&v) == "status" {
                continue;
            }
            answers += 1;
            if v["code"] == "rate_limited" {
                refused += 1;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(2_100)).await;
    }
    assert!(refused > 50, "{refused} refused");
    red.set_seq(2_000);
    let r = red.order(json!("Nonsense")).await.expect("the connection is open");
    assert_eq!(r["code"], "bad_order", "{r}");
    unharmed(server.addr, &created, &mut red, &mut blue, 0).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_is_rate_limited_then_closed() {
    let (server, created, mut red, mut blue) = battle("flood").await;
    for i in 0..400u64 {
        let msg = ClientMsg::Preview { seq: 1000 + i, order: json!("EndSetup") };
        if red.send(&msg).await.is_err() {
            break;
        }
    }
    let mut limited = 0;
    let closed;
    loop {
        match red.next().await {
            Ok(v) if v["code"] == "rate_limited" => {
                assert!(v["seq"].as_u64().is_some_and(|s| s >= 1000), "the message it refuses: {v}");
                limited += 1;
            }
            Ok(v) if v["code"] == "flood" => {}
            Ok(_) => {}
            Err(_) => {
                closed = true;
                break;
            }
        }
    }
    assert!(limited > 0 && closed, "rate limited {limited} times, closed {closed}");
    unharmed(server.addr, &created, &mut red_again(&server, &created).await, &mut blue, 0).await;
    server.stop().await;
}

async fn red_again(server: &server::Server, created: &Value) -> Client {
    let (mut c, _) = support::join(server.addr, created, 0).await;
    c.set_seq(5000);
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeated_message_is_answered_again_and_never_applied_twice() {
    let (server, created, mut red, mut blue) = battle("repeat").await;
    let status = status_of(server.addr, &created).await;
    let (me, _) = mover(&status, &mut red, &mut blue);
    let msg = ClientMsg::Order { seq: 7, order: json!("EndSetup") };
    let first = me.ask(msg.clone()).await.expect("an answer");
    assert_eq!(kind(&first), "ack");
    let again = me.ask(msg).await.expect("an answer");
    assert_eq!(again, first, "the same answer");
    assert_eq!(status_of(server.addr, &created).await["clock"]["orders"], 1);
    // A sequence number below the last one, never seen: forged or replayed, refused.
    let r = me.ask(ClientMsg::Order { seq: 3, order: json!("EndSetup") }).await.expect("an answer");
    assert_eq!(r["code"], "stale_seq", "{r}");
    let r = me.ask(ClientMsg::Order { seq: 0, order: json!("EndSetup") }).await.expect("an answer");
    assert_eq!(r["code"], "stale_seq", "{r}");
    unharmed(server.addr, &created, &mut red, &mut blue, 1).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_games_token_and_no_hello_are_refused() {
    let (server, created, mut red, mut blue) = battle("token").await;
    let other = support::create(server.addr, "open_field.ron", None).await;
    let (mut c, welcome) =
        Client::join(server.addr, &support::game(&created), &support::token(&other, 0), None).await.expect("connects");
    assert_eq!(welcome["code"], "bad_token", "{welcome}");
    assert!(c.next().await.is_err(), "closed");
    let (_, welcome) = Client::join(server.addr, &support::game(&created), "00ff", None).await.expect("connects");
    assert_eq!(welcome["code"], "bad_token");
    let mut c = Client::open(server.addr, &support::game(&created)).await.expect("connects");
    c.send(&ClientMsg::Order { seq: 1, order: json!("EndSetup") }).await.expect("sent");
    assert_eq!(c.next().await.expect("an answer")["code"], "hello_first");
    let (_, welcome) =
        Client::join(server.addr, "nosuchgame", &support::token(&created, 0), None).await.expect("connects");
    assert_eq!(welcome["code"], "no_game");
    // A second hello on a seat's connection.
    red.send(&ClientMsg::Hello {
        token: support::token(&created, 1),
        last: None,
        lang: Lang::En,
        mail: None,
        views: false,
        history: false,
    })
    .await
    .expect("sent");
    assert_eq!(refusal(&mut red).await["code"], "hello_twice");
    unharmed(server.addr, &created, &mut red, &mut blue, 0).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn orders_out_of_turn_out_of_phase_or_from_the_wrong_seat_are_refused() {
    let (server, created, mut red, mut blue) = battle("phase").await;
    let status = status_of(server.addr, &created).await;
    let (me, other) = mover(&status, &mut red, &mut blue);
    let r = other.order(json!("EndSetup")).await.expect("an answer");
    assert_eq!(r["code"], "not_your_turn");
    // Ending a turn in the set-up: the engine refuses it, in the seat's language.
    let r = me.order(json!("EndTurn")).await.expect("an answer");
    assert_eq!(r["code"], "illegal", "{r}");
    let (mut moderator, _) = support::join(server.addr, &created, 2).await;
    let r = moderator.order(json!("EndSetup")).await.expect("an answer");
    assert_eq!(r["code"], "no_orders");
    // In Russian.
    let (mut ru, _) = {
        let mut c = Client::open(server.addr, &support::game(&created)).await.expect("connects");
        c.send(&ClientMsg::Hello {
            token: support::token(&created, 2),
            last: None,
            lang: Lang::Ru,
            mail: None,
            views: false,
            history: false,
        })
        .await
        .expect("sent");
        let w = c.next().await.expect("welcome");
        (c, w)
    };
    ru.set_seq(50);
    let r = ru.order(json!("EndSetup")).await.expect("an answer");
    assert_eq!(r["text"], "это место не отдаёт приказов");
    unharmed(server.addr, &created, &mut red, &mut blue, 0).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_refuses_unknown_fields_giant_bodies_and_bad_seats() {
    let (server, _db) = support::start_fresh("lobby").await;
    let addr = server.addr;
    let (code, list) = client::http(addr, "GET", "/api/scenarios", None).await.expect("answers");
    assert_eq!(code, 200);
    let kinds: Vec<&str> = list.as_array().expect("a list").iter().filter_map(|e| e["kind"].as_str()).collect();
    for k in ["battle", "campaign", "great_war"] {
        assert!(kinds.contains(&k), "the list has a {k}: {list}");
    }
    let (code, _) = client::http(addr, "POST", "/api/games", Some(&json!({"scenario": "open_field.ron", "seed": 1})))
        .await
        .expect("answers");
    assert_eq!(code, 422, "no seat may choose the seed");
    let (code, _) =
        client::http(addr, "POST", "/api/games", Some(&json!({"scenario": "../Cargo.toml"}))).await.expect("answers");
    assert_eq!(code, 404);
    let seats = json!([{ "role": "player", "player": "green", "name": "x" }]);
    let (code, e) =
        client::http(addr, "POST", "/api/games", Some(&json!({"scenario": "open_field.ron", "seats": seats})))
            .await
            .expect("answers");
    assert_eq!(code, 422, "{e}");
    let seats = json!([{ "role": "general", "player": "red", "name": "x" }]);
    let (code, e) =
        client::http(addr, "POST", "/api/games", Some(&json!({"scenario": "open_field.ron", "seats": seats})))
            .await
            .expect("answers");
    assert_eq!(code, 422, "a general serves under its side's leader seat: {e}");
    let seats = json!([
        { "role": "player", "player": "red", "name": "x" },
        { "role": "general", "player": "red", "formations": [1], "fleets": [3], "name": "y" },
    ]);
    let (code, e) =
        client::http(addr, "POST", "/api/games", Some(&json!({"scenario": "open_field.ron", "seats": seats})))
            .await
            .expect("answers");
    assert_eq!(code, 422, "a battle has no fleets: {e}");
    let many: Vec<Value> = (0..200).map(|_| json!({ "role": "moderator", "name": "m" })).collect();
    let (code, _) =
        client::http(addr, "POST", "/api/games", Some(&json!({"scenario": "open_field.ron", "seats": many})))
            .await
            .expect("answers");
    assert_eq!(code, 422);
    let giant = format!(r#"{{"scenario":"{}"}}"#, "x".repeat(server::lobby::MAX_BODY + 10));
    let (code, _) = client::http_raw(addr, "POST", "/api/games", &giant).await.expect("answers");
    assert_eq!(code, 413);
    // My games: a token finds its seat, another finds nothing.
    let created = support::create(addr, "open_field.ron", None).await;
    let body = json!({ "tokens": [support::token(&created, 1), "00000000000000000000000000000000"] });
    let (code, mine) = client::http(addr, "POST", "/api/my-games", Some(&body)).await.expect("answers");
    assert_eq!(code, 200);
    assert_eq!(mine.as_array().map(Vec::len), Some(1), "{mine}");
    assert_eq!(mine[0]["seat"], 1);
    server.stop().await;
}
