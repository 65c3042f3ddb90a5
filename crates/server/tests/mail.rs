//! The written record (T-STRAT-3): a leader's directives reach its generals through the
//! moderator, at once or after the game's delay (sooner when the moderator passes them on);
//! chat within an alliance and with the moderator. Everything is in the game's record, survives
//! a restart, and is in no other seat's stream.

mod support;

use serde_json::{Value, json};
use server::client::Client;
use server::clock::ManualClock;
use server::protocol::{ChatTo, ClientMsg, ModAction};
use std::sync::Arc;
use std::time::Duration;
use support::{T0, kind};

const SCENARIO: &str = "great_war/test_front.ron";
const KAISER: usize = 0;
const MOLTKE: usize = 1;
const KLUCK: usize = 2;
const FRANCE: usize = 3;
const GB: usize = 4;
const UMPIRE: usize = 5;
const WATCHER: usize = 6;

async fn ask(c: &mut Client, make: impl FnOnce(u64) -> ClientMsg) -> Value {
    let seq = c.seq();
    c.ask(make(seq)).await.expect("an answer")
}

async fn directive(c: &mut Client, to: Vec<u32>, text: &str) -> Value {
    ask(c, |seq| ClientMsg::Directive { seq, to, text: text.to_string() }).await
}

async fn chat(c: &mut Client, to: ChatTo, text: &str) -> Value {
    ask(c, |seq| ClientMsg::Chat { seq, to, text: text.to_string() }).await
}

async fn letter(c: &mut Client, text: &str) -> Value {
    c.wait_for(|v| kind(v) == "mail" && v["text"] == text).await.expect("the letter arrives")
}

/// Whether a letter arrives within a while (others are kept).
async fn quiet(c: &mut Client) -> bool {
    c.arrives_within(Duration::from_millis(300), |v| kind(v) == "mail").await.is_none()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn directives_go_through_the_moderator_and_chat_stays_within_its_seats() {
    let clock = Arc::new(ManualClock::new(T0));
    let db = support::fresh_db("mail").await;
    let server = support::start_on(&db, clock.clone()).await;
    let seats = json!([
        { "role": "player", "player": "germany", "name": "Kaiser" },
        { "role": "general", "player": "germany", "name": "Moltke" },
        { "role": "general", "player": "germany", "name": "Kluck" },
        { "role": "player", "player": "france", "name": "Joffre" },
        { "role": "player", "player": "gb", "name": "French" },
        { "role": "moderator", "name": "umpire" },
        { "role": "observer", "player": "germany", "name": "watcher" },
    ]);
    let body = json!({ "scenario": SCENARIO, "seats": seats, "settings": { "directive_minutes": 30 } });
    let (code, created) = server::client::http(server.addr, "POST", "/api/games", Some(&body)).await.expect("answers");
    assert_eq!(code, 200, "{created}");
    let game = support::game(&created);
    let mut c: Vec<Client> = Vec::new();
    for seat in 0..7 {
        c.push(support::join(server.addr, &created, seat).await.0);
    }

    // The Kaiser's directive to Moltke: the moderator (and the Kaiser) have it at once, with
    // the time it goes on; Moltke has it 30 minutes later, not a millisecond sooner.
    let ack = directive(&mut c[KAISER], vec![1], "DIRECTIVE-ALPHA: hold the Meuse").await;
    assert_eq!(kind(&ack), "ack", "{ack}");
    let held = letter(&mut c[UMPIRE], "DIRECTIVE-ALPHA: hold the Meuse").await;
    assert_eq!(held["deliver_ms"], T0 + 1_800_000, "{held}");
    assert_eq!(
        (held["kind"].clone(), held["from"].clone(), held["to"].clone()),
        (json!("directive"), json!(0), json!([1]))
    );
    letter(&mut c[KAISER], "DIRECTIVE-ALPHA: hold the Meuse").await;
    clock.advance(1_799_999);
    assert!(quiet(&mut c[MOLTKE]).await, "29 min 59.999 s: still with the moderator");
    clock.advance(1);
    let got = letter(&mut c[MOLTKE], "DIRECTIVE-ALPHA: hold the Meuse").await;
    assert_eq!(got["sent_ms"], T0);

    // A second one to Kluck, passed on by the moderator at once.
    let ack = directive(&mut c[KAISER], vec![2], "DIRECTIVE-BRAVO: wheel on Paris").await;
    assert_eq!(kind(&ack), "ack", "{ack}");
    let held = letter(&mut c[UMPIRE], "DIRECTIVE-BRAVO: wheel on Paris").await;
    let entry = held["entry"].as_u64().expect("its place");
    assert!(quiet(&mut c[KLUCK]).await);
    let ack =
        ask(&mut c[UMPIRE], |seq| ClientMsg::Moderate { seq, action: ModAction::PassOn { directive: entry } }).await;
    assert_eq!(kind(&ack), "ack", "{ack}");
    letter(&mut c[KLUCK], "DIRECTIVE-BRAVO: wheel on Paris").await;
    let again =
        ask(&mut c[UMPIRE], |seq| ClientMsg::Moderate { seq, action: ModAction::PassOn { directive: entry } }).await;
    assert_eq!(again["code"], "not_held", "passed on already");

    // Who may write what, to whom.
    let r = directive(&mut c[MOLTKE], vec![2], "DIRECTIVE-X").await;
    assert_eq!(r["code"], "leader_only");
    let r = directive(&mut c[KAISER], vec![3], "DIRECTIVE-Y").await;
    assert_eq!(r["code"], "bad_seat", "France's leader is not the Kaiser's general: {r}");
    let r = directive(&mut c[FRANCE], vec![1], "DIRECTIVE-Z").await;
    assert_eq!(r["code"], "bad_seat", "nor is Moltke Joffre's: {r}");
    let r = directive(&mut c[KAISER], vec![], "DIRECTIVE-W").await;
    assert_eq!(r["code"], "bad_seat");
    let r = directive(&mut c[KAISER], vec![1], "   ").await;
    assert_eq!(r["code"], "bad_text");
    let r = directive(&mut c[KAISER], vec![1], &"я".repeat(2001)).await;
    assert_eq!(r["code"], "bad_text", "2,001 characters");
    let ack = directive(&mut c[KAISER], vec![1], &"я".repeat(2000)).await;
    assert_eq!(kind(&ack), "ack", "2,000 characters");
    let r = chat(&mut c[WATCHER], ChatTo::Alliance, "CHAT-WATCHER").await;
    assert_eq!(r["code"], "no_alliance");
    let r = chat(&mut c[FRANCE], ChatTo::Seat(4), "CHAT-FORGED").await;
    assert_eq!(r["code"], "moderator_only");

    // Chat: within an alliance, with the moderator, from the moderator to one seat.
    assert_eq!(kind(&chat(&mut c[FRANCE], ChatTo::Alliance, "CHAT-ENTENTE").await), "ack");
    letter(&mut c[GB], "CHAT-ENTENTE").await;
    letter(&mut c[UMPIRE], "CHAT-ENTENTE").await;
    assert_eq!(kind(&chat(&mut c[KLUCK], ChatTo::Alliance, "CHAT-CENTRAL").await), "ack");
    letter(&mut c[KAISER], "CHAT-CENTRAL").await;
    letter(&mut c[MOLTKE], "CHAT-CENTRAL").await;
    assert_eq!(kind(&chat(&mut c[GB], ChatTo::Moderator, "CHAT-TO-UMPIRE").await), "ack");
    letter(&mut c[UMPIRE], "CHAT-TO-UMPIRE").await;
    assert_eq!(kind(&chat(&mut c[UMPIRE], ChatTo::Seat(3), "CHAT-TO-JOFFRE").await), "ack");
    letter(&mut c[FRANCE], "CHAT-TO-JOFFRE").await;
    // A repeated message is answered again and recorded once.
    let seq = c[GB].seq();
    let msg = ClientMsg::Chat { seq, to: ChatTo::Alliance, text: "CHAT-ONCE".to_string() };
    let first = c[GB].ask(msg.clone()).await.expect("an answer");
    let second = c[GB].ask(msg).await.expect("an answer");
    assert_eq!((kind(&first), kind(&second)), ("ack", "ack"));
    letter(&mut c[FRANCE], "CHAT-ONCE").await;

    // Every seat's stream holds its own letters and no other's.
    let audience: &[(&str, &[usize])] = &[
        ("DIRECTIVE-ALPHA", &[KAISER, MOLTKE, UMPIRE]),
        ("DIRECTIVE-BRAVO", &[KAISER, KLUCK, UMPIRE]),
        ("CHAT-ENTENTE", &[FRANCE, GB, UMPIRE]),
        ("CHAT-CENTRAL", &[KAISER, MOLTKE, KLUCK, UMPIRE]),
        ("CHAT-TO-UMPIRE", &[GB, UMPIRE]),
        ("CHAT-TO-JOFFRE", &[FRANCE, UMPIRE]),
        ("CHAT-ONCE", &[FRANCE, GB, UMPIRE]),
    ];
    for client in &mut c {
        client.quiet_for(Duration::from_millis(200)).await;
    }
    for (text, seats) in audience {
        for (seat, client) in c.iter().enumerate() {
            let n = client.received.iter().filter(|m| m.contains(text)).count();
            let want = usize::from(seats.contains(&seat));
            assert_eq!(n, want, "{text} in seat {seat}'s stream");
        }
    }
    for text in ["DIRECTIVE-X", "DIRECTIVE-Y", "DIRECTIVE-Z", "DIRECTIVE-W", "CHAT-WATCHER", "CHAT-FORGED"] {
        assert!(c.iter().all(|cl| cl.received.iter().all(|m| !m.contains(text))), "{text} was refused");
    }
    let record = server.hub.store.mail(&game).await.expect("the record");
    // Two directives, their passing on, the long one, five chat lines.
    assert_eq!(record.len(), 9, "{record:?}");

    // Moltke resumes after the last letter he was sent: nothing twice; a fresh connection,
    // after a restart, has his letters again from the record, and only his.
    let last = c[MOLTKE]
        .received
        .iter()
        .filter_map(|m| serde_json::from_str::<Value>(m).ok())
        .filter(|v| kind(v) == "mail")
        .filter_map(|v| v["n"].as_u64())
        .max()
        .expect("Moltke had letters");
    let token = support::token(&created, MOLTKE);
    let mut back = Client::open(server.addr, &game).await.expect("connects");
    back.send(&ClientMsg::Hello {
        token: token.clone(),
        last: None,
        lang: Default::default(),
        mail: Some(last),
        views: false,
        history: false,
    })
    .await
    .expect("hello");
    back.wait_for(|v| kind(v) == "welcome").await.expect("welcome");
    assert!(quiet(&mut back).await, "nothing twice");
    server.stop().await;
    // The long directive, held 30 minutes, has reached Moltke by the time he comes back.
    clock.advance(1_800_000);
    let server = support::start_on(&db, clock.clone()).await;
    let (fresh, _) = support::join(server.addr, &created, MOLTKE).await;
    let mut fresh = fresh;
    letter(&mut fresh, "DIRECTIVE-ALPHA: hold the Meuse").await;
    letter(&mut fresh, "CHAT-CENTRAL").await;
    fresh.quiet_for(Duration::from_millis(200)).await;
    let mails = fresh.received.iter().filter(|m| m.contains("\"mail\"")).count();
    assert_eq!(mails, 3, "the two directives for Moltke and the alliance's line");
    assert!(fresh.received.iter().all(|m| !m.contains("BRAVO") && !m.contains("ENTENTE")));
    server.stop().await;
}
