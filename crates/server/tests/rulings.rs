//! A game set to ask its moderator (`rules::moderation`): the moderator's seat alone says
//! which decisions it takes and rules them; while a ruling is awaited the game waits for the
//! moderator (its clockface and webhook say so) and no player acts; at the deadline the
//! engine's own answer is taken, logged as the clock's order.

mod support;

use rules::campaign::{Campaign, CampaignScenario, HexAt};
use rules::game::Game;
use serde_json::{Value, json};
use server::clock::ManualClock;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use support::{T0, kind};

/// The shortest path of Linden's hexes from `from` to `to` (the engine's step costs).
fn path(from: HexAt, to: HexAt) -> Vec<HexAt> {
    let scenario = CampaignScenario::load(&support::scenarios().join("campaign/linden.ron")).expect("Linden");
    let c = Campaign::new(&scenario, 1);
    let ctx = c.ctx();
    let mut came: BTreeMap<HexAt, HexAt> = BTreeMap::new();
    let mut queue = VecDeque::from([from]);
    while let Some(h) = queue.pop_front() {
        if h == to {
            break;
        }
        for n in h.neighbours() {
            if n != from && !came.contains_key(&n) && ctx.step_cost(h, n).is_ok() {
                came.insert(n, h);
                queue.push_back(n);
            }
        }
    }
    let mut out = vec![to];
    while let Some(prev) = came.get(out.last().expect("a hex")).copied().filter(|p| *p != from) {
        out.push(prev);
    }
    out.reverse();
    out
}

fn seat_of(created: &Value, role: &str) -> usize {
    created["seats"].as_array().expect("seats").iter().position(|s| s["role"]["role"] == role).expect("the seat")
}

/// The question an `Asked` event of the moderator's stream holds.
fn asked(received: &[String]) -> Option<Value> {
    received
        .iter()
        .rev()
        .find_map(|t| {
            let v: Value = serde_json::from_str(t).ok()?;
            v["events"].as_array()?.iter().rev().find_map(|e| e["Open"]["Asked"]["question"].as_object().cloned())
        })
        .map(Value::Object)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_moderator_rules_where_a_campaign_asks_and_the_deadline_takes_the_engines_answer() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = support::start_on(&support::fresh_db("rulings").await, clock.clone()).await;
    let addr = server.addr;
    let body = json!({ "scenario": "campaign/linden.ron", "settings": { "phase_minutes": 1 } });
    let (code, created) = server::client::http(addr, "POST", "/api/games", Some(&body)).await.expect("answers");
    assert_eq!(code, 200, "{created}");
    let game = support::game(&created);
    let (mut red, _) = support::join(addr, &created, 0).await;
    let (mut blue, _) = support::join(addr, &created, 1).await;
    let (mut moderator, _) = support::join(addr, &created, seat_of(&created, "moderator")).await;

    // Only the moderator's seat says what it decides, and it gives no player's order.
    let asks = json!({ "Moderate": { "asks": ["Played", "Surrender"] } });
    let r = red.order(asks.clone()).await.expect("an answer");
    assert_eq!(r["code"], "not_moderator", "{r}");
    let r = moderator.order(json!("EndTurn")).await.expect("an answer");
    assert_eq!(r["code"], "no_orders", "{r}");
    let ack = moderator.order(asks).await.expect("an answer");
    assert_eq!(kind(&ack), "ack", "{ack}");
    assert_eq!(ack["status"]["clock"]["active"], "red", "the moderator's order takes no one's turn");

    // Red's light cavalry (2) rides into the Cossacks (2): 4 units, an auto-battle unless the
    // moderator judges it of extreme importance (T-STRAT-9).
    let route = path(HexAt::new(6, 0), HexAt::new(5, 3));
    let ack = red.order(json!({ "Move": { "army": 2, "path": route } })).await.expect("an answer");
    assert_eq!(kind(&ack), "ack", "{ack}");
    assert_eq!(ack["status"]["clock"]["active"], "moderator", "{ack}");
    let waiting: Vec<usize> = ack["status"]["waiting_for"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(Value::as_u64)
        .filter_map(|s| usize::try_from(s).ok())
        .collect();
    assert_eq!(waiting, vec![seat_of(&created, "moderator")], "everyone sees the game waits for the moderator");
    assert_eq!(ack["status"]["timer"]["left_ms"], 60_000, "the ruling has the phase deadline: {ack}");
    moderator.wait_at(2).await.expect("the move reaches the moderator");
    let q = asked(&moderator.received).expect("the question");
    assert_eq!(q["Played"]["played"], false, "{q}");
    for (seat, order, code) in [
        (&mut blue, json!("EndTurn"), "awaits_moderator"),
        (&mut red, json!({ "Rule": { "Played": true } }), "not_moderator"),
    ] {
        let r = seat.order(order).await.expect("an answer");
        assert_eq!(r["code"], code, "{r}");
    }
    let r = moderator.order(json!({ "Rule": { "Cut": [1, 1] } })).await.expect("an answer");
    assert_eq!(r["code"], "illegal", "{r}");
    assert!(r["text"].as_str().is_some_and(|t| t.contains("does not answer") && t.contains("T-STRAT-9")), "{r}");

    // The moderator does not answer in time: the engine's answer (no: auto-battle), logged as
    // the clock's; then the next question, whose units surrender or are destroyed (T-AUTO-3).
    clock.advance(59_999);
    assert!(!server.hub.tick(&game).await.expect("the game"), "a millisecond is left");
    clock.advance(1);
    moderator.wait_at(3).await.expect("the deadline passes");
    let orders = server.hub.store.orders(&game).await.expect("the record");
    assert_eq!((orders[2].source.as_str(), orders[2].body.as_str()), ("clock", "Rule(Default)"));
    let s = support::status(addr, &game).await;
    assert_eq!(s["clock"]["active"], "moderator", "{s}");
    assert_eq!(s["timer"]["left_ms"], 60_000, "the next question has a deadline of its own: {s}");
    let q = asked(&moderator.received).expect("the next question");
    let surrender = &q["Surrender"];
    let loser_units: Vec<u64> =
        surrender["units"].as_array().expect("units").iter().filter_map(Value::as_u64).collect();
    assert!(!loser_units.is_empty(), "{q}");
    let ack = moderator
        .order(json!({ "Rule": { "Surrender": { "destroyed": [loser_units[0]] } } }))
        .await
        .expect("an answer");
    assert_eq!(kind(&ack), "ack", "{ack}");
    let text = ack["events"].to_string();
    assert!(text.contains("UnitLost") && text.contains("AutoBattleWon"), "{text}");
    assert_ne!(ack["status"]["clock"]["active"], "moderator", "{ack}");
    let orders = server.hub.store.orders(&game).await.expect("the record");
    assert_eq!(orders.last().map(|o| o.source.as_str()), Some("seat"));

    // The players saw the question put and answered (the campaign's map is open).
    red.wait_at(4).await.expect("red sees it all");
    assert!(
        red.received.iter().any(|t| t.contains("\"Asked\"")) && red.received.iter().any(|t| t.contains("\"Ruled\""))
    );
    server.stop().await;
}

/// Passes with whichever side is to move until `until` holds of the status; the last status.
async fn pass_until(
    red: &mut server::client::Client,
    blue: &mut server::client::Client,
    mut status: Value,
    until: impl Fn(&Value) -> bool,
) -> Value {
    for _ in 0..20 {
        if until(&status) {
            return status;
        }
        let me = if status["clock"]["active"] == "red" { &mut *red } else { &mut *blue };
        let pass = if status["clock"]["phase"] == "server.phase.battle" { json!("EndTurn") } else { json!("EndSetup") };
        let ack = me.order(pass).await.expect("an answer");
        assert_eq!(kind(&ack), "ack", "{ack}");
        status = ack["status"].clone();
    }
    panic!("never reached: {status}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fortress_capitulates_on_the_terms_the_moderator_records() {
    let (server, _db) = support::start_fresh("terms").await;
    let addr = server.addr;
    let created = support::create(addr, "badajoz.ron", None).await;
    let (mut red, welcome) = support::join(addr, &created, 0).await;
    let (mut blue, _) = support::join(addr, &created, 1).await;
    let (mut moderator, _) = support::join(addr, &created, seat_of(&created, "moderator")).await;
    let r = moderator.order(json!({ "Moderate": { "asks": ["Played"] } })).await.expect("an answer");
    assert_eq!(r["code"], "illegal", "a campaign's decision is no battle's: {r}");
    let ack = moderator.order(json!({ "Moderate": { "asks": ["Capitulation"] } })).await.expect("an answer");
    assert_eq!(kind(&ack), "ack", "{ack}");

    // Set-up passed and the attacker's turn given, the defender capitulates as its first order.
    let scenario =
        rules::tactical::Scenario::load(&support::scenarios().join("badajoz.ron")).expect("the shipped fortress");
    let defender = if scenario.attacker == rules::tactical::Side::Red { "blue" } else { "red" };
    let status = pass_until(&mut red, &mut blue, welcome["status"].clone(), |s| {
        s["clock"]["phase"] == "server.phase.battle" && s["clock"]["active"] == defender
    })
    .await;
    let me = if defender == "red" { &mut red } else { &mut blue };
    let ack = me.order(json!("Capitulate")).await.expect("an answer");
    assert_eq!(kind(&ack), "ack", "{ack}");
    assert_eq!(ack["status"]["clock"]["active"], "moderator", "{status} then {ack}");
    let r = me.order(json!("EndTurn")).await.expect("an answer");
    assert_eq!(r["code"], "awaits_moderator", "{r}");
    let ack = moderator.order(json!({ "Rule": { "Terms": "MarchOut" } })).await.expect("an answer");
    assert_eq!(kind(&ack), "ack", "{ack}");
    assert_eq!(ack["status"]["clock"]["over"], true, "{ack}");
    assert!(ack["events"].to_string().contains("MarchedOut"), "{ack}");
    server.stop().await;
}

/// The orders of August-style play on the test front, every power the AI, from the game's
/// seed with the moderator deciding S-COMBAT-3, up to the first Combat phase that asks: each
/// with the power that gives it.
fn up_to_a_question(seed: u64) -> Vec<(String, rules::strategic::Order)> {
    use ai::great_war::GwAi;
    use rules::strategic::{GreatWar, Order, PowerId, Scenario};
    let scenario = Scenario::load(&support::scenarios().join("great_war/test_front.ron")).expect("the test front");
    let mut g = GreatWar::new(&scenario, seed);
    g.apply(Order::Moderate { asks: vec![rules::moderation::Asked::Support] }).expect("the umpire's order");
    let mut ais: BTreeMap<u8, GwAi> = BTreeMap::new();
    let mut out = Vec::new();
    while !g.clock().support_asked {
        assert!(!g.is_over() && out.len() < 2_000, "the AI's war never asked: {:?}", g.clock());
        let power: PowerId = g.active_player().expect("a power to move");
        let ai = ais.entry(power.0).or_insert_with(|| GwAi::new(power, ai::Level::Marshal, u64::from(power.0)));
        let order = loop {
            match ai::Player::<GreatWar>::think(ai, &g.ctx(), std::time::Duration::from_secs(60)) {
                ai::Think::Order(o) => break o,
                ai::Think::Thinking => {}
                ai::Think::Idle => break Order::EndPhase,
            }
        };
        g.apply(order.clone()).expect("the AI's order is legal");
        out.push((scenario.powers[usize::from(power.0)].id.clone(), order));
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_great_wars_combat_waits_for_the_moderator_to_rule_which_blocks_are_brought_up() {
    let (server, _db) = support::start_fresh("support").await;
    let addr = server.addr;
    let created = support::create(addr, "great_war/test_front.ron", None).await;
    let game = support::game(&created);
    let players: Vec<String> =
        created["players"].as_array().expect("players").iter().filter_map(|p| p.as_str().map(String::from)).collect();
    let mut seats = Vec::new();
    for i in 0..players.len() {
        seats.push(support::join(addr, &created, i).await.0);
    }
    let moderator_seat = seat_of(&created, "moderator");
    let (mut moderator, _) = support::join(addr, &created, moderator_seat).await;
    let r = moderator.order(json!({ "Moderate": { "asks": ["Played"] } })).await.expect("an answer");
    assert_eq!(r["code"], "illegal", "a campaign's decision is not the Great War's: {r}");
    let ack = moderator.order(json!({ "Moderate": { "asks": ["Support"] } })).await.expect("an answer");
    assert_eq!(kind(&ack), "ack", "{ack}");

    // The war played by its seats (the AI's orders, worked out beside the server on the same
    // seed) up to the Combat phase with a block to bring up.
    let rec = server.hub.store.games().await.expect("games").into_iter().find(|g| g.id == game).expect("the game");
    let orders = up_to_a_question(rec.seed);
    let mut status = Value::Null;
    for (power, order) in &orders {
        let i = players.iter().position(|p| p == power).expect("a seat of the power");
        let ack = seats[i].order(serde_json::to_value(order).expect("JSON")).await.expect("an answer");
        assert_eq!(kind(&ack), "ack", "{power}: {order:?}: {ack}");
        status = ack["status"].clone();
    }
    assert_eq!(status["clock"]["active"], "moderator", "{status}");
    assert_eq!(status["clock"]["phase"], "gw.phase.combat", "{status}");
    assert_eq!(status["waiting_for"], json!([moderator_seat]), "{status}");
    for seat in &mut seats {
        let r = seat.order(json!("EndPhase")).await.expect("an answer");
        assert_eq!(r["code"], "awaits_moderator", "{r}");
    }
    // The moderator's view holds the question, each engagement's blocks; a power's view only
    // that the war waits.
    let (_, welcome) = support::join(addr, &created, moderator_seat).await;
    let question = welcome["view"]["support_question"].clone();
    assert!(question.as_array().is_some_and(|q| !q.is_empty()), "{question}");
    let (_, power_welcome) = support::join(addr, &created, 0).await;
    let told = &power_welcome["view"]["support_question"];
    assert!(told.as_array().is_none_or(Vec::is_empty), "a power is not told the blocks: {told}");
    assert_eq!(power_welcome["view"]["clock"]["support_asked"], true);

    // A ruling that keeps out every block of a side is refused; the engine's answer (every
    // block brought up) is taken, and the Combat phase is fought.
    let whole_side = &question[0][0];
    // A block is named by its first unit.
    let withheld: Vec<Value> = whole_side.as_array().expect("blocks").iter().map(|b| b[0].clone()).collect();
    let r = moderator.order(json!({ "Rule": { "Support": { "withheld": withheld } } })).await.expect("an answer");
    assert_eq!(r["code"], "illegal", "{r}");
    assert!(r["text"].as_str().is_some_and(|t| t.contains("keeps at least one block")), "{r}");
    let ack = moderator.order(json!({ "Rule": "Default" })).await.expect("an answer");
    assert_eq!(kind(&ack), "ack", "{ack}");
    assert_ne!(ack["status"]["clock"]["active"], "moderator", "{ack}");
    assert!(ack["events"].to_string().contains("Engagement"), "the engagements are fought: {ack}");
    server.stop().await;
}
