//! T-STRAT-4 played apart: a campaign's battle is fought by its sides' seats, order by order
//! (`Fight`), on the battle's own clocks (T-SETUP-1, T-TURN-2); a seat handed to the AI fights
//! its own side of it; the battle's result comes with its last order; nobody reports it whole.

mod support;

use rules::campaign::{Campaign, CampaignScenario, Order};
use rules::game::Game;
use rules::tactical::Phase;
use serde_json::{Value, json};
use server::clock::ManualClock;
use server::protocol::{ClientMsg, ModAction};
use std::sync::Arc;
use support::{T0, kind};

/// The campaign as the record has it now.
async fn local(server: &server::Server, game: &str) -> Campaign {
    let rec = server.hub.store.games().await.expect("games").into_iter().find(|g| g.id == game).expect("the game");
    let scenario = CampaignScenario::load(&support::scenarios().join("campaign/linden.ron")).expect("Linden");
    let mut c = Campaign::new(&scenario, rec.seed);
    for o in server.hub.store.orders(game).await.expect("the record") {
        c.apply(rules::data::parse_ron("the record", &o.body).expect("an order")).expect("it replays");
    }
    c
}

fn left_ms(status: &Value) -> (String, i64) {
    let t = &status["timer"];
    (t["what"].as_str().unwrap_or("").to_string(), t["left_ms"].as_i64().unwrap_or(-1))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_campaigns_battle_is_fought_by_its_sides_seats_on_the_battles_clocks() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = support::start_on(&support::fresh_db("campaign-battle").await, clock.clone()).await;
    let addr = server.addr;
    let created = support::create(addr, "campaign/linden.ron", None).await;
    let game = support::game(&created);
    let (mut red, _) = support::join(addr, &created, 0).await;
    let (mut blue, _) = support::join(addr, &created, 1).await;
    let (mut moderator, _) = support::join(addr, &created, 2).await;

    // I Corps marches into the 1st Western Army at Lindenau: 12 v 13, a battle of 9 v 10.
    for order in
        [json!({ "Move": { "army": 1, "path": [[1, 1], [2, 1]] } }), json!({ "Move": { "army": 1, "path": [[3, 1]] } })]
    {
        let ack = red.order(order).await.expect("an answer");
        assert_eq!(kind(&ack), "ack", "{ack}");
    }
    for seat in [&mut red, &mut blue] {
        let c = local(&server, &game).await;
        let choose = serde_json::to_value(c.pass()).expect("JSON");
        assert!(choose.get("ChooseForces").is_some(), "{choose}");
        let ack = seat.order(choose).await.expect("an answer");
        assert_eq!(kind(&ack), "ack", "{ack}");
    }

    // Both have chosen: the battle waits for its first side, on T-SETUP-1's clock.
    let c = local(&server, &game).await;
    let fight = c.fight().expect("the battle stands");
    let (setup, turn) = (i64::from(fight.setup_seconds()) * 1000, i64::from(fight.turn_seconds()) * 1000);
    let first = if fight.clock.active == rules::tactical::Side::Red { "red" } else { "blue" };
    let s = support::status(addr, &game).await;
    assert_eq!(s["clock"]["active"], first, "{s}");
    assert_eq!(s["clock"]["phase"], "server.phase.battle", "{s}");
    assert_eq!(left_ms(&s), ("setup".to_string(), setup), "T-SETUP-1: {s}");
    let (mine, other) = if first == "red" { (&mut red, &mut blue) } else { (&mut blue, &mut red) };
    let r = other.order(json!({ "Fight": "EndSetup" })).await.expect("an answer");
    assert_eq!(r["code"], "not_your_turn", "the other side waits: {r}");
    // Nobody reports the battle whole, even a save the engine would take.
    let mut whole = rules::tactical::Battle::new(&c.battle_scenario().expect("its scenario"), 0);
    while !Game::is_over(&whole) {
        let pass = Game::pass(&whole);
        whole.apply(pass).expect("a pass");
    }
    let r = mine.order(serde_json::to_value(Order::BattleResult { save: Box::new(whole.save()) }).expect("JSON")).await;
    assert_eq!(r.expect("an answer")["code"], "not_yours");

    // The set-up clock runs out for both sides at once: the clock ends each side's set-up.
    clock.advance(setup - 1);
    assert!(!server.hub.tick(&game).await.expect("the game"), "a millisecond is left");
    clock.advance(1);
    let mut guard = 0;
    while server.hub.tick(&game).await.expect("the game") {
        guard += 1;
        assert!(guard < 10, "the set-up ends");
    }
    let c = local(&server, &game).await;
    assert_eq!(c.fight().map(|f| f.clock.phase), Some(Phase::Battle), "the battle has begun");
    let record = server.hub.store.orders(&game).await.expect("the record");
    assert!(record.iter().rev().take(2).all(|o| o.source == "clock" && o.body == "Fight(EndSetup)"), "{record:?}");
    let s = support::status(addr, &game).await;
    assert_eq!(left_ms(&s), ("turn".to_string(), turn), "T-TURN-2: {s}");

    // Blue is handed to the AI, which fights blue's side; red ends its turns, once by its clock.
    let seq = moderator.seq();
    let ack = moderator
        .ask(ClientMsg::Moderate { seq, action: ModAction::HandToAi { seat: 1, level: ai::Level::Greedy } })
        .await
        .expect("an answer");
    assert_eq!(ack["status"]["ai"], json!(["blue"]), "{ack}");
    // Every message holds the game's status: the seat follows its stream, newest first.
    let mut status = ack["status"].clone();
    let at = |status: &Value| status["clock"]["orders"].as_u64().unwrap_or(0);
    let mut timed_out = false;
    let mut guard = 0;
    while status["clock"]["phase"] == "server.phase.battle" {
        guard += 1;
        assert!(guard < 5_000, "the battle ends");
        if status["clock"]["active"] != "red" {
            let known = at(&status);
            let v = red.wait_for(|v| kind(v) == "events" && v["at"].as_u64() > Some(known)).await;
            status = v.expect("the AI plays blue")["status"].clone();
            continue;
        }
        if !timed_out {
            timed_out = true;
            clock.advance(turn);
            // The game's own task may see the time out first; either way the clock ends the turn.
            let _ = server.hub.tick(&game).await.expect("the game");
            let known = at(&status);
            let v = red.wait_for(|v| kind(v) == "events" && v["at"].as_u64() > Some(known)).await;
            status = v.expect("the clock's order")["status"].clone();
            let record = server.hub.store.orders(&game).await.expect("the record");
            let timed = record.get(usize::try_from(known).unwrap_or(usize::MAX)).expect("the order after");
            assert_eq!((timed.source.as_str(), timed.body.as_str()), ("clock", "Fight(EndTurn)"), "T-TURN-2");
            continue;
        }
        let ack = red.order(json!({ "Fight": "EndTurn" })).await.expect("an answer");
        assert_eq!(kind(&ack), "ack", "{ack}");
        status = ack["status"].clone();
    }
    let record = server.hub.store.orders(&game).await.expect("the record");
    let by_ai = record.iter().filter(|o| o.source == "ai" && o.body.starts_with("Fight(")).count();
    assert!(by_ai > 0, "the AI fought blue's side");
    let c = local(&server, &game).await;
    assert!(c.events().iter().any(|e| matches!(e, rules::campaign::Event::BattleWon { .. })), "the result came back");
    assert!(c.state().battles > 0 && c.state().battle.is_none());
    assert_eq!(status["clock"]["phase"], "server.phase.campaign", "{status}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_campaign_general_commands_the_armies_its_leader_assigns_and_their_battle() {
    let server = support::start_fresh("campaign-generals").await.0;
    let addr = server.addr;
    let seats = json!([
        { "role": "player", "player": "red", "name": "Napoleon" },
        { "role": "general", "player": "red", "formations": [1], "name": "Davout" },
        { "role": "player", "player": "blue", "name": "Barclay" },
        { "role": "moderator", "name": "umpire" },
    ]);
    let created = support::create(addr, "campaign/linden.ron", Some(seats)).await;
    let game = support::game(&created);
    let (mut napoleon, _) = support::join(addr, &created, 0).await;
    let (mut davout, _) = support::join(addr, &created, 1).await;
    let (mut barclay, _) = support::join(addr, &created, 2).await;
    let march = json!({ "Move": { "army": 1, "path": [[1, 1], [2, 1]] } });

    // I Corps is Davout's: the leader no longer moves it, and the general moves no other army.
    let r = napoleon.order(march.clone()).await.expect("an answer");
    assert_eq!(r["code"], "generals_piece", "{r}");
    let r = davout.order(json!({ "Intercept": { "army": 2, "on": true } })).await.expect("an answer");
    assert_eq!(r["code"], "not_assigned", "{r}");
    let r = davout.order(json!({ "Directive": { "text": "Hold." } })).await.expect("an answer");
    assert_eq!(r["code"], "leaders_order", "the directives are the leader's: {r}");
    let ack = napoleon.order(json!({ "Directive": { "to": 1, "text": "Take Lindenau." } })).await.expect("an answer");
    assert_eq!(kind(&ack), "ack", "{ack}");
    let ack = napoleon.order(json!({ "Intercept": { "army": 2, "on": true } })).await.expect("an answer");
    assert_eq!(kind(&ack), "ack", "the leader's own army: {ack}");
    for order in [march, json!({ "Move": { "army": 1, "path": [[3, 1]] } })] {
        let ack = davout.order(order).await.expect("an answer");
        assert_eq!(kind(&ack), "ack", "{ack}");
    }

    // The battle at Lindenau is Davout's to choose for and to fight.
    let c = local(&server, &game).await;
    let choose = serde_json::to_value(c.pass()).expect("JSON");
    let r = napoleon.order(choose.clone()).await.expect("an answer");
    assert_eq!(r["code"], "generals_piece", "{r}");
    let ack = davout.order(choose).await.expect("an answer");
    assert_eq!(kind(&ack), "ack", "{ack}");
    let c = local(&server, &game).await;
    let ack = barclay.order(serde_json::to_value(c.pass()).expect("JSON")).await.expect("an answer");
    assert_eq!(kind(&ack), "ack", "{ack}");
    let red = |s: &rules::tactical::Side| *s == rules::tactical::Side::Red;
    // Set-up first: each side ends its steps (any of its seats), then the battle's turns.
    for _ in 0..10 {
        let c = local(&server, &game).await;
        let f = c.fight().expect("the battle stands");
        if f.clock.phase == Phase::Battle {
            break;
        }
        if red(&f.clock.active) {
            // Both of red's seats end the step; it ends with the second.
            let ack = napoleon.order(json!({ "Fight": "EndSetup" })).await.expect("an answer");
            assert_eq!((kind(&ack), &ack["applied"]), ("ack", &json!(false)), "{ack}");
            let ack = davout.order(json!({ "Fight": "EndSetup" })).await.expect("an answer");
            assert_eq!((kind(&ack), &ack["applied"]), ("ack", &json!(true)), "{ack}");
        } else {
            let ack = barclay.order(json!({ "Fight": "EndSetup" })).await.expect("an answer");
            assert_eq!(kind(&ack), "ack", "{ack}");
        }
    }
    let c = local(&server, &game).await;
    let f = c.fight().expect("the battle");
    if !red(&f.clock.active) {
        let ack = barclay.order(json!({ "Fight": "EndTurn" })).await.expect("an answer");
        assert_eq!(kind(&ack), "ack", "{ack}");
    }
    let c = local(&server, &game).await;
    let f = c.fight().expect("the battle");
    let turn = f
        .units
        .iter()
        .filter(|u| red(&u.side) && u.status.on_field())
        .find_map(|u| {
            let facing = u.facing.opposite();
            let order = rules::tactical::Order::Turn { unit: u.id, facing };
            f.clone().apply(&order).is_ok().then_some(order)
        })
        .expect("a red unit that may turn");
    let turn = json!({ "Fight": serde_json::to_value(&turn).expect("JSON") });
    let r = napoleon.order(turn.clone()).await.expect("an answer");
    assert_eq!(r["code"], "generals_piece", "the general's units fight at his orders: {r}");
    let ack = davout.order(turn).await.expect("an answer");
    assert_eq!(kind(&ack), "ack", "{ack}");
    let r = napoleon.order(json!({ "Fight": "Retreat" })).await.expect("an answer");
    assert_eq!(r["code"], "generals_piece", "the battle's command is the general's: {r}");
    let ack = napoleon.order(json!({ "Fight": "EndTurn" })).await.expect("an answer");
    assert_eq!(ack["applied"], false, "the turn waits for the general too: {ack}");
    let ack = davout.order(json!({ "Fight": "EndTurn" })).await.expect("an answer");
    assert_eq!(ack["applied"], true, "each of the side's seats ended it: {ack}");
    assert_eq!(ack["status"]["clock"]["active"], "blue", "{ack}");
    server.stop().await;
}
