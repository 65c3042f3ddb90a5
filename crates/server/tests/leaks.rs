//! Nothing hidden leaks, in every mode: scripted games of a campaign (Linden, a battle fought
//! on the way) and a Great War game (the test front: an army reserve, hidden from the other
//! side, gas, fortifications) are played through real sockets by every seat, observers and the
//! moderator watching, previews asked, orders refused, a seat reconnecting mid-game; then every
//! message each connection was sent is checked against that seat's sight, the game replayed
//! from its record (`support::leak`). The battle's own check is in `battle.rs`.

mod support;

use rules::Game;
use rules::view::{Sight, Viewer};
use serde_json::{Value, json};
use server::client::Client;
use server::protocol::ClientMsg;
use server::table::Served;
use support::kind;
use support::leak::{self, Asked};

/// One connection of a seat, and whose sight it has.
struct Seat {
    client: Client,
    sees: Option<String>,
    /// Connections this seat had before (reconnected), with their messages.
    before: Vec<Vec<String>>,
}

async fn seats_for(server: &server::Server, scenario: &str, observers: &[&str]) -> (Value, Vec<Seat>) {
    let probe = support::create(server.addr, scenario, None).await;
    let players: Vec<String> =
        probe["players"].as_array().expect("players").iter().filter_map(|p| p.as_str().map(str::to_string)).collect();
    let mut asked: Vec<Value> = players.iter().map(|p| json!({ "role": "player", "player": p, "name": p })).collect();
    asked.push(json!({ "role": "moderator", "name": "umpire" }));
    for o in observers {
        asked.push(json!({ "role": "observer", "player": o, "name": format!("watching {o}") }));
    }
    let created = support::create(server.addr, scenario, Some(Value::from(asked.clone()))).await;
    let mut seats = Vec::new();
    for (i, a) in asked.iter().enumerate() {
        let (client, _) = support::join(server.addr, &created, i).await;
        seats.push(Seat { client, sees: a["player"].as_str().map(str::to_string), before: Vec::new() });
    }
    (created, seats)
}

fn active(status: &Value) -> Option<String> {
    status["clock"]["active"].as_str().map(str::to_string)
}

/// Gives `order` from the active player's leader seat, after a preview of it from that seat
/// and from the moderator; the answer.
async fn give(seats: &mut [Seat], asked: &mut [Vec<Asked>], players: usize, order: Value, status: &Value) -> Value {
    let me = seats.iter().position(|s| s.sees == active(status)).expect("the active player's seat");
    // No AI and no clock here: the game stands where the last answer left it.
    let at = status["clock"]["orders"].as_u64().expect("the order count");
    // The end of a turn is not previewed (its forecast runs the whole end of the turn, many times).
    let ends = [json!("EndPhase"), json!("EndTurn"), json!({ "Fight": "EndTurn" })];
    if !ends.contains(&order) {
        for who in [me, players] {
            let c = &mut seats[who].client;
            let (seq, answer) = paced(c, |seq| ClientMsg::Preview { seq, order: order.clone() }).await;
            assert!(matches!(kind(&answer), "preview" | "refused"), "{answer}");
            asked[who].push(Asked { seq, at, order: order.clone() });
        }
        // Another player's leader gives it out of turn: refused, and checked as a refusal.
        let other = (me + 1) % players;
        let (_, r) = paced(&mut seats[other].client, |seq| ClientMsg::Order { seq, order: order.clone() }).await;
        assert_eq!(r["code"], "not_your_turn", "{r}");
    }
    paced(&mut seats[me].client, |seq| ClientMsg::Order { seq, order: order.clone() }).await.1
}

/// Sends a message and waits for its answer, as a client keeping to the rate limits does: a
/// message refused for the rate is sent again (with a new number) a moment later.
async fn paced(c: &mut Client, make: impl Fn(u64) -> ClientMsg) -> (u64, Value) {
    loop {
        let seq = c.seq();
        let answer = c.ask(make(seq)).await.expect("an answer");
        if answer["code"] != "rate_limited" {
            return (seq, answer);
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

async fn check_all<G: Served>(server: &server::Server, created: &Value, seats: &mut [Seat], asked: &[Vec<Asked>]) {
    let game = support::game(created);
    let rec = server.hub.store.games().await.expect("games").into_iter().find(|g| g.id == game).expect("the game");
    let log: Vec<String> = server.hub.store.orders(&game).await.expect("the log").into_iter().map(|o| o.body).collect();
    let scenario = G::load(&support::scenarios().join(&rec.scenario)).expect("the scenario");
    let now = log.len() as u64;
    let mut checked = 0;
    for (i, seat) in seats.iter_mut().enumerate() {
        seat.client.wait_at(now).await.expect("every seat catches up");
        for earlier in &seat.before {
            checked += leak::check::<G>(&scenario, rec.seed, &log, earlier, seat.sees.as_deref(), &asked[i]);
        }
        let n = leak::check::<G>(&scenario, rec.seed, &log, &seat.client.received, seat.sees.as_deref(), &asked[i]);
        assert!(n as u64 >= now, "seat {i} was checked on every order ({n} of {now})");
        checked += n;
    }
    assert!(checked > 0);
}

/// Drops a seat's connection and resumes it after the last order it saw.
async fn reconnect(server: &server::Server, created: &Value, seats: &mut [Seat], i: usize) {
    let at = seats[i].client.at;
    let (client, welcome) = Client::join(server.addr, &support::game(created), &support::token(created, i), Some(at))
        .await
        .expect("rejoins");
    assert!(welcome["view"].is_null(), "resumes without a fresh view: {welcome}");
    let old = std::mem::replace(&mut seats[i].client, client);
    seats[i].before.push(old.received.clone());
    old.close().await;
    seats[i].client.set_seq(10_000);
}

/// Every seat's page opened again: a fresh view with the history of the orders before it, each
/// order's events as the seat saw them then (checked with the rest of its messages).
async fn reopen_all(server: &server::Server, created: &Value, seats: &mut [Seat]) {
    for (i, seat) in seats.iter_mut().enumerate() {
        let (page, welcome) =
            Client::join_with_history(server.addr, &support::game(created), &support::token(created, i))
                .await
                .expect("opens again");
        let history = welcome["history"].as_array().map_or(0, Vec::len);
        assert!(history > 0, "seat {i} is told the orders before its view (at {})", welcome["at"]);
        seat.before.push(page.received.clone());
        page.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_great_war_game_leaks_nothing_to_any_seat() {
    let (server, _db) = support::start_fresh("leak-gw").await;
    let (created, mut seats) = seats_for(&server, "great_war/test_front.ron", &["germany", "gb"]).await;
    let players = created["players"].as_array().map_or(0, Vec::len);
    let mut asked: Vec<Vec<Asked>> = (0..seats.len()).map(|_| Vec::new()).collect();
    let text =
        std::fs::read_to_string(support::scenarios().join("great_war/test_front_orders.ron")).expect("the orders");
    let orders: Vec<rules::strategic::Order> =
        rules::data::parse_orders("test_front_orders.ron", &text).expect("orders");
    let mut status = support::status(server.addr, &support::game(&created)).await;
    let mut refused = 0;
    for (k, order) in orders.iter().enumerate() {
        if status["clock"]["over"] == true {
            break;
        }
        let answer = give(&mut seats, &mut asked, players, serde_json::to_value(order).expect("JSON"), &status).await;
        match kind(&answer) {
            "ack" => status = answer["status"].clone(),
            _ => refused += 1,
        }
        if k == orders.len() / 2 {
            // The German observer drops and comes back mid-game.
            let i = players + 1;
            reconnect(&server, &created, &mut seats, i).await;
        }
    }
    eprintln!("test front: {} orders given, {refused} refused", orders.len());
    reopen_all(&server, &created, &mut seats).await;
    check_all::<rules::strategic::GreatWar>(&server, &created, &mut seats, &asked).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_campaign_with_a_battle_leaks_nothing_to_any_seat() {
    let (server, db) = support::start_fresh("leak-campaign").await;
    let (created, mut seats) = seats_for(&server, "campaign/linden.ron", &["red", "blue"]).await;
    let players = created["players"].as_array().map_or(0, Vec::len);
    let game = support::game(&created);
    let mut asked: Vec<Vec<Asked>> = (0..seats.len()).map(|_| Vec::new()).collect();
    let text = std::fs::read_to_string(support::scenarios().join("campaign/linden_orders.ron")).expect("the orders");
    let mut script: Vec<rules::campaign::Order> =
        rules::data::parse_orders("linden_orders.ron", &text).expect("orders");
    script.reverse();
    let rec = server.hub.store.games().await.expect("games").into_iter().find(|g| g.id == game).expect("the game");
    let scenario = rules::campaign::CampaignScenario::load(&support::scenarios().join("campaign/linden.ron"))
        .expect("the scenario");
    let mut status = support::status(server.addr, &game).await;
    let mut refused = 0;
    let mut local = rules::campaign::Campaign::new(&scenario, rec.seed);
    // Each side's seat as an AI would play it, from its own view: the battle it joins is fought
    // on the campaign's log, order by order, each side at its own seat.
    let mut players_ai = [rules::tactical::Side::Red, rules::tactical::Side::Blue]
        .map(|s| ai::campaign::CampaignAi::seat(s, ai::Level::Greedy, 5));
    let (mut fought, mut reconnected) = (0, false);
    // The script, then the seats' AI until the battle has been fought to its end and the
    // campaign has gone on a little.
    for _ in 0..(script.len() + 1500) {
        if status["clock"]["over"] == true || (fought > 0 && local.state().battle.is_none() && script.is_empty()) {
            break;
        }
        let order = match script.pop() {
            Some(o) => o,
            None => {
                let side = local.active_player().expect("a side to move");
                let ctx = local.ctx_as(Viewer::Player(side));
                players_ai[side.index()]
                    .decide(&ctx, std::time::Duration::from_millis(200))
                    .unwrap_or_else(|| local.pass())
            }
        };
        let is_fight = matches!(order, rules::campaign::Order::Fight(_));
        let answer = give(&mut seats, &mut asked, players, serde_json::to_value(&order).expect("JSON"), &status).await;
        match kind(&answer) {
            "ack" => {
                status = answer["status"].clone();
                local.apply(order).expect("the server took it: so does the engine");
                fought += usize::from(is_fight);
            }
            _ => refused += 1,
        }
        if fought == 3 && !reconnected {
            // The blue general drops in the middle of the battle and comes back.
            reconnected = true;
            reconnect(&server, &created, &mut seats, 1).await;
        }
    }
    assert!(fought > 0 && local.state().battles > 0, "a battle was fought on the log ({fought} orders)");
    let log = server.hub.store.orders(&game).await.expect("the log");
    assert_eq!(local.orders().len(), log.len(), "the seats' orders are the record");
    eprintln!("Linden: {} orders in the record, {refused} refused", log.len());
    reopen_all(&server, &created, &mut seats).await;
    check_all::<rules::campaign::Campaign>(&server, &created, &mut seats, &asked).await;
    // The record, the script's written directive (`Some` left out in the engine's RON) and the
    // battle's result among it, restores on a restart (this game and the probe).
    server.stop().await;
    let server = support::start(&db).await;
    assert_eq!(server.restored, 2);
    assert_eq!(support::status(server.addr, &game).await["clock"]["orders"], log.len() as u64);
    server.stop().await;
}
