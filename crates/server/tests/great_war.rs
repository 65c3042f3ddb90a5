//! Three seats of one Great War power (its leader and two generals) and the other alliance play
//! a whole turn through real sockets: a general orders only the armies it was given (S-ARMY-3),
//! the leader none of them, and a power's phase ends once every one of its seats is done.

mod support;

use rules::strategic::Order;
use serde_json::{Value, json};
use server::client::Client;
use server::protocol::ClientMsg;
use support::kind;

const SCENARIO: &str = "great_war/test_front.ron";

fn order(o: &Order) -> Value {
    serde_json::to_value(o).expect("an order as JSON")
}

fn army_move(army: u32, corps: u32) -> Order {
    support::army_move(SCENARIO, army, corps)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_leader_two_generals_and_the_other_alliance_play_a_turn() {
    let (server, _db) = support::start_fresh("great-war").await;
    let addr = server.addr;
    let seats = json!([
        { "role": "player", "player": "germany", "name": "Kaiser" },
        { "role": "general", "player": "germany", "name": "Moltke" },
        { "role": "general", "player": "germany", "name": "Kluck" },
        { "role": "player", "player": "france", "name": "Joffre" },
        { "role": "player", "player": "gb", "name": "French" },
        { "role": "moderator", "name": "umpire" },
    ]);
    let created = support::create(addr, SCENARIO, Some(seats)).await;
    let mut clients: Vec<Client> = Vec::new();
    for seat in 0..6 {
        clients.push(support::join(addr, &created, seat).await.0);
    }

    // The Kaiser gives the 5th Army (201) to Moltke; Kluck has nothing yet.
    let seq = clients[0].seq();
    let assigned = clients[0]
        .ask(ClientMsg::Assign { seq, seat: 1, formations: vec![201], fleets: vec![] })
        .await
        .expect("an answer");
    assert_eq!(kind(&assigned), "ack", "{assigned}");
    // Moltke and the Kaiser are told Moltke's command; France knows Moltke is there, never what
    // he holds, and is not told that it changed.
    let moltke = |seats: &Value| seats[1]["role"]["formations"].clone();
    for c in [0, 1, 5] {
        let told = clients[c].arrives_within(std::time::Duration::from_secs(5), |v| kind(v) == "seats").await;
        let told = told.unwrap_or_else(|| panic!("seat {c} is told the new command"));
        assert_eq!(moltke(&told["seats"]), json!([201]), "{told}");
    }
    assert!(clients[3].arrives_within(std::time::Duration::from_millis(300), |v| kind(v) == "seats").await.is_none());
    let (france_again, welcome) = support::join(addr, &created, 3).await;
    assert_eq!(moltke(&welcome["seats"]), json!([]), "{welcome}");
    assert_eq!(welcome["seats"][1]["role"]["role"], "general");
    france_again.close().await;
    // An army has one commander (S-ARMY-3): given to Kluck, the 5th is Moltke's no more; and back.
    for (to, moltke_holds, kluck_holds) in [(2u32, json!([]), json!([201])), (1, json!([201]), json!([]))] {
        let seq = clients[0].seq();
        let a = clients[0]
            .ask(ClientMsg::Assign { seq, seat: to, formations: vec![201], fleets: vec![] })
            .await
            .expect("an answer");
        assert_eq!(kind(&a), "ack", "{a}");
        let told = clients[5]
            .wait_for(|v| kind(v) == "seats" && v["seats"][to as usize]["role"]["formations"] == json!([201]))
            .await
            .expect("the moderator is told");
        assert_eq!(
            (moltke(&told["seats"]), told["seats"][2]["role"]["formations"].clone()),
            (moltke_holds, kluck_holds)
        );
    }
    // A general cannot assign.
    let seq = clients[1].seq();
    let a = clients[1]
        .ask(ClientMsg::Assign { seq, seat: 2, formations: vec![201], fleets: vec![] })
        .await
        .expect("an answer");
    assert_eq!(a["code"], "leader_only");

    let mut status = assigned["status"].clone();
    let start_turn = status["clock"]["turn"].as_u64().expect("a turn");
    let mut moved = false;
    let mut rounds = 0;
    while status["clock"]["turn"].as_u64() == Some(start_turn) {
        rounds += 1;
        assert!(rounds < 200, "the turn does not end: {status}");
        let active = status["clock"]["active"].as_str().unwrap_or("").to_string();
        if active == "germany" && status["clock"]["phase"] == "gw.phase.movement" && !moved {
            let m = order(&army_move(201, 101));
            // The 5th Army is Moltke's: not Kluck's, not the Kaiser's.
            let r = clients[2].order(m.clone()).await.expect("an answer");
            assert_eq!(r["code"], "not_assigned", "{r}");
            assert_eq!(r["text"], "this piece is not under this general's command");
            let r = clients[0].order(m.clone()).await.expect("an answer");
            assert_eq!(r["code"], "generals_piece", "{r}");
            // Nor may a general buy: that is the leader's.
            let r = clients[1].order(order(&Order::BuyAmmunition { amount: 1 })).await.expect("an answer");
            assert_eq!(r["code"], "leaders_order", "{r}");
            // France may not move Germany's corps, nor anything out of turn.
            let r = clients[3].order(m.clone()).await.expect("an answer");
            assert_eq!(r["code"], "not_your_turn", "{r}");
            let r = clients[1].order(m).await.expect("an answer");
            assert_eq!(kind(&r), "ack", "Moltke moves his army: {r}");
            assert_eq!(r["applied"], true);
            moved = true;
        }
        let seats: Vec<usize> = match active.as_str() {
            "germany" => vec![0, 1, 2],
            "france" => vec![3],
            _ => vec![4],
        };
        for (i, seat) in seats.iter().enumerate() {
            let r = clients[*seat].order(json!("EndPhase")).await.expect("an answer");
            assert_eq!(kind(&r), "ack", "{r}");
            // The power's phase ends only when its last seat is done.
            assert_eq!(r["applied"], i + 1 == seats.len(), "{r}");
            if i + 1 < seats.len() {
                let waiting: Vec<u64> =
                    r["status"]["waiting_for"].as_array().expect("a list").iter().filter_map(Value::as_u64).collect();
                assert_eq!(waiting.len(), seats.len() - i - 1, "the game waits for the others: {r}");
            }
            status = r["status"].clone();
        }
    }
    assert!(moved, "Germany had a Movement phase");
    let at = clients[0].at;
    // Every seat, the moderator included, has followed the whole turn.
    for c in &mut clients {
        c.wait_at(at).await.expect("each seat catches up");
    }
    server.stop().await;
}
