//! A battle's side split by formation (issue 28: "battle and campaign seats: a side, optionally
//! split by formation"): the commander keeps the side's command and what no general holds; a
//! general orders its formations' units (T-CMD-1's divisions and brigades) and no other; the
//! commander hands it another formation mid-battle; each set-up step and turn waits for both.

mod support;

use rules::tactical::scenario::Scenario;
use rules::tactical::{Battle, Order, Phase, Side, UnitId};
use serde_json::{Value, json};
use server::client::Client;
use server::protocol::ClientMsg;
use support::kind;

/// The battle as the record has it now.
async fn local(server: &server::Server, game: &str) -> Battle {
    let rec = server.hub.store.games().await.expect("games").into_iter().find(|g| g.id == game).expect("the game");
    let scenario = Scenario::load(&support::scenarios().join("open_field.ron")).expect("the open field");
    let mut b = Battle::new(&scenario, rec.seed);
    for o in server.hub.store.orders(game).await.expect("the record") {
        b.apply(rules::data::parse_ron("the record", &o.body).expect("an order")).expect("it replays");
    }
    b
}

/// A legal order of the side to move about `unit`, of the kind `pick` takes.
fn legal_for(b: &Battle, unit: u32, pick: impl Fn(&Order) -> bool) -> Value {
    let order = b
        .ctx()
        .legal_orders()
        .into_iter()
        .find(|o| o.unit() == Some(UnitId(unit)) && pick(o))
        .unwrap_or_else(|| panic!("a legal order for unit {unit}"));
    serde_json::to_value(&order).expect("JSON")
}

async fn refused(c: &mut Client, order: Value) -> String {
    let r = c.order(order.clone()).await.expect("an answer");
    assert_eq!(kind(&r), "refused", "{order}: {r}");
    r["code"].as_str().unwrap_or("").to_string()
}

async fn applied(c: &mut Client, order: Value) -> Value {
    let ack = c.order(order.clone()).await.expect("an answer");
    assert_eq!(kind(&ack), "ack", "{order}: {ack}");
    ack
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_battle_side_split_by_formation_between_its_commander_and_a_general() {
    let server = support::start_fresh("battle-generals").await.0;
    let addr = server.addr;
    // Red's formations in the open field: 0 the 1st Division (units 1–6), 1 the Cavalry
    // Brigade (7, 8), 2 the Artillery Brigade (9, 10). Uxbridge has the cavalry.
    let seats = json!([
        { "role": "player", "player": "red", "name": "Wellington" },
        { "role": "general", "player": "red", "formations": [1], "name": "Uxbridge" },
        { "role": "player", "player": "blue", "name": "Ney" },
        { "role": "moderator", "name": "umpire" },
    ]);
    let created = support::create(addr, "open_field.ron", Some(seats)).await;
    let game = support::game(&created);
    let (mut wellington, _) = support::join(addr, &created, 0).await;
    let (mut uxbridge, _) = support::join(addr, &created, 1).await;
    let (mut ney, _) = support::join(addr, &created, 2).await;
    let deploy = |o: &Order| matches!(o, Order::Deploy { .. });
    let mut checked_setup = false;
    for _ in 0..10 {
        let b = local(&server, &game).await;
        let clock = b.clock();
        if clock.phase == Phase::Battle {
            break;
        }
        if clock.active == Side::Blue {
            applied(&mut ney, json!("EndSetup")).await;
            continue;
        }
        if clock.phase == Phase::Deployment && !checked_setup {
            checked_setup = true;
            // The cavalry deploys at Uxbridge's orders, the rest at Wellington's.
            assert_eq!(refused(&mut wellington, legal_for(&b, 7, deploy)).await, "generals_piece");
            assert_eq!(refused(&mut uxbridge, legal_for(&b, 1, deploy)).await, "not_assigned");
            assert_eq!(refused(&mut uxbridge, legal_for(&b, 9, deploy)).await, "not_assigned");
            applied(&mut uxbridge, legal_for(&b, 7, deploy)).await;
            let b = local(&server, &game).await;
            applied(&mut wellington, legal_for(&b, 1, deploy)).await;
            // The side's command is its commander's: the HQ and the formations' make-up.
            let hq = json!({ "DesignateHq": { "unit": 8 } });
            assert_eq!(refused(&mut uxbridge, hq).await, "leaders_order");
            let form = json!({ "FormFormation": { "name": "Horse", "units": [7, 8], "general": 7 } });
            assert_eq!(refused(&mut uxbridge, form).await, "leaders_order");
        }
        // The step ends when both of red's seats have ended it.
        let ack = applied(&mut wellington, json!("EndSetup")).await;
        assert_eq!(ack["applied"], false, "the step waits for Uxbridge: {ack}");
        let ack = applied(&mut uxbridge, json!("EndSetup")).await;
        assert_eq!(ack["applied"], true, "{ack}");
    }
    assert!(checked_setup, "red deployed");
    let b = local(&server, &game).await;
    assert_eq!(b.clock().phase, Phase::Battle);
    if b.clock().active == Side::Blue {
        applied(&mut ney, json!("EndTurn")).await;
    }
    let b = local(&server, &game).await;
    assert_eq!(b.clock().active, Side::Red);
    let turn = |o: &Order| matches!(o, Order::Turn { .. });
    assert_eq!(refused(&mut wellington, legal_for(&b, 8, turn)).await, "generals_piece");
    assert_eq!(refused(&mut uxbridge, legal_for(&b, 10, turn)).await, "not_assigned");
    assert_eq!(refused(&mut uxbridge, json!("Retreat")).await, "leaders_order");
    applied(&mut uxbridge, legal_for(&b, 8, turn)).await;

    // Wellington hands Uxbridge the artillery too: it is his from the next order on, and no
    // longer Wellington's.
    let seq = wellington.seq();
    let a = wellington
        .ask(ClientMsg::Assign { seq, seat: 1, formations: vec![1, 2], fleets: vec![] })
        .await
        .expect("an answer");
    assert_eq!(kind(&a), "ack", "{a}");
    let seq = uxbridge.seq();
    let a =
        uxbridge.ask(ClientMsg::Assign { seq, seat: 1, formations: vec![0], fleets: vec![] }).await.expect("an answer");
    assert_eq!(a["code"], "leader_only", "a general hands out nothing: {a}");
    let seq = wellington.seq();
    let a = wellington
        .ask(ClientMsg::Assign { seq, seat: 1, formations: vec![1], fleets: vec![4] })
        .await
        .expect("an answer");
    assert_eq!(a["code"], "bad_seat", "a battle has no fleets: {a}");
    let b = local(&server, &game).await;
    assert_eq!(refused(&mut wellington, legal_for(&b, 10, turn)).await, "generals_piece");
    applied(&mut uxbridge, legal_for(&b, 10, turn)).await;
    let ack = applied(&mut uxbridge, json!("EndTurn")).await;
    assert_eq!(ack["applied"], false, "the turn waits for Wellington: {ack}");
    let ack = applied(&mut wellington, json!("EndTurn")).await;
    assert_eq!(ack["applied"], true, "{ack}");
    assert_eq!(ack["status"]["clock"]["active"], "blue", "{ack}");
    server.stop().await;
}
