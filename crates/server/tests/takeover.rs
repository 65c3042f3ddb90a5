//! Several server processes on one store serve the same games, each game by one process at a
//! time: a client of a game held elsewhere is piped to its holder, and when the holder is
//! killed (`kill -9`, mid-phase) another process takes the game over within seconds, with
//! every acknowledged order, and the clients resume where they were. Run on PostgreSQL where
//! `KRIEGSSPIEL_TEST_PG` names one (a database of its own is made for the test), and on SQLite
//! always.

mod support;

use serde_json::{Value, json};
use server::client::{self, Client, ClientError};
use server::protocol::ClientMsg;
use std::io::BufRead;
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::kind;

const SCENARIO: &str = "great_war/test_front.ron";
/// The lease the processes run on: how soon a hung one's games pass (a killed one's pass at once).
const LEASE_SECS: &str = "3";

/// A server process, killed when dropped.
struct Process {
    child: Child,
    addr: SocketAddr,
}

impl Process {
    fn start(db: &str) -> Process {
        let data = std::env::temp_dir().join(format!("ks-takeover-data-{}", std::process::id()));
        let mut child = Command::new(env!("CARGO_BIN_EXE_kriegsspiel-server"))
            .args(["--db", db, "--bind", "127.0.0.1:0", "--lease-secs", LEASE_SECS])
            .arg("--scenarios")
            .arg(support::scenarios())
            .arg("--data-dir")
            .arg(data)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server binary starts");
        let out = child.stdout.take().expect("its output");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let line = rx.recv_timeout(Duration::from_secs(60)).expect("the server says where it listens");
        let addr = line.rsplit("://").next().and_then(|a| a.trim().parse().ok()).expect("an address");
        Process { child, addr }
    }

    /// Stops (`SIGSTOP`) or wakes (`SIGCONT`) the process: a hung one keeps its connections.
    fn signal(&self, sig: &str) {
        let ok = Command::new("kill").arg(sig).arg(self.child.id().to_string()).status().expect("kill runs");
        assert!(ok.success());
    }

    /// `kill -9`: no goodbye, no lease let go.
    fn kill(&mut self) {
        self.child.kill().expect("killed");
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A one-hex move of a corps of Germany's 5th Army in the opening Movement phase.
fn army_move() -> Value {
    serde_json::to_value(support::army_move(SCENARIO, 201, 101)).expect("JSON")
}

/// Joins, trying again while the game is between processes (a refused or closed connection).
async fn rejoin(addr: SocketAddr, game: &str, token: &str, last: u64) -> (Client, Value, Duration) {
    let began = Instant::now();
    loop {
        match Client::join(addr, game, token, Some(last)).await {
            Ok((c, welcome)) if kind(&welcome) == "welcome" => return (c, welcome, began.elapsed()),
            Ok((_, refused)) => assert_eq!(refused["code"], "unavailable", "{refused}"),
            Err(ClientError::Closed | ClientError::Ws(_) | ClientError::Io(_)) => {}
            Err(e) => panic!("rejoining: {e}"),
        }
        assert!(began.elapsed() < Duration::from_secs(30), "the game is not served again");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn takeover(db: &str) {
    let mut a = Process::start(db);
    let b = Process::start(db);
    let created = support::create(a.addr, SCENARIO, None).await;
    assert_eq!(created["players"], json!(["germany", "france", "gb"]));
    let game = support::game(&created);
    // Germany at the process that holds the game; France and Britain at the other, piped.
    let (mut germany, welcome) = support::join(a.addr, &created, 0).await;
    let (mut france, fwelcome) = support::join(b.addr, &created, 1).await;
    let (mut britain, _) = support::join(b.addr, &created, 2).await;
    assert!(fwelcome["view"].is_object(), "a piped seat gets its view: {fwelcome}");
    // The lobby answers for the game at either process.
    let (code, info) = client::http(b.addr, "GET", &format!("/api/games/{game}"), None).await.expect("answers");
    assert_eq!(code, 200, "{info}");
    assert_eq!(info["game"], game.as_str());
    // A question another process passed on is not passed on again (no loop between processes).
    let passed = [(server::forward::FORWARDED, "1")];
    let (code, _) =
        client::http_with(b.addr, "GET", &format!("/api/games/{game}"), "", &passed).await.expect("answers");
    assert_eq!(code, 503, "answered by the holder or not at all");

    // To Germany's Movement phase, each power passing through its seat.
    let mut status = welcome["status"].clone();
    while !(status["clock"]["active"] == "germany" && status["clock"]["phase"] == "gw.phase.movement") {
        let c = match status["clock"]["active"].as_str() {
            Some("germany") => &mut germany,
            Some("france") => &mut france,
            _ => &mut britain,
        };
        let r = c.order(json!("EndPhase")).await.expect("an answer");
        assert_eq!(kind(&r), "ack", "{r}");
        status = r["status"].clone();
    }
    // Mid-phase: Germany moves, and is answered; the holder is killed before Germany is done.
    let moving = army_move();
    let seq = germany.seq();
    let moved = germany.ask(ClientMsg::Order { seq, order: moving.clone() }).await.expect("an answer");
    assert_eq!(kind(&moved), "ack", "{moved}");
    let acked = moved["at"].as_u64().expect("where the game is");
    france.wait_at(acked).await.expect("France, piped, has followed");
    let france_at = france.at;
    a.kill();

    // Each seat comes back at the process left, from where it was.
    let (mut germany, welcome, took) = rejoin(b.addr, &game, &support::token(&created, 0), acked).await;
    eprintln!("{db}: the game was served again {took:?} after its holder was killed");
    assert!(took < Duration::from_secs(10), "taken over within seconds, not {took:?}");
    assert_eq!(welcome["at"], acked, "resumed, every acknowledged order there: {welcome}");
    assert!(welcome["view"].is_null(), "nothing missed, so no fresh view: {welcome}");
    assert_eq!(welcome["status"]["clock"]["orders"], acked);
    assert_eq!(welcome["status"]["clock"]["active"], "germany", "still Germany's Movement phase");
    // The move's answer was lost with the process: asked again, it is answered again from the
    // record, and not applied twice.
    let again = germany.ask(ClientMsg::Order { seq, order: moving }).await.expect("an answer");
    assert_eq!(kind(&again), "ack", "{again}");
    assert_eq!((again["at"].as_u64(), again["applied"].as_bool()), (Some(acked), Some(true)));
    assert_eq!(again["events"], moved["events"], "the same answer");
    let (mut france, fwelcome, _) = rejoin(b.addr, &game, &support::token(&created, 1), france_at).await;
    assert_eq!(fwelcome["at"], france_at);
    germany.set_seq(seq + 1);
    let done = germany.order(json!("EndPhase")).await.expect("an answer");
    assert_eq!(kind(&done), "ack", "{done}");
    assert_eq!(done["at"].as_u64(), Some(acked + 1));
    france.wait_at(acked + 1).await.expect("France follows the game at its new holder");
    let (code, info) = client::http(b.addr, "GET", &format!("/api/games/{game}"), None).await.expect("answers");
    assert_eq!(code, 200);
    assert_eq!(info["status"]["clock"]["orders"], acked + 1);
    drop(britain);
}

/// A holder that hangs keeps its connections and its session, so nobody can tell it is gone:
/// its games pass once its lease runs out, and when it wakes it may write nothing more. (On
/// PostgreSQL only: a process of a SQLite store that hangs in a write holds the file's lock,
/// and every other process waits for it.)
async fn hung(db: &str) {
    let a = Process::start(db);
    let b = Process::start(db);
    let created = support::create(a.addr, SCENARIO, None).await;
    let game = support::game(&created);
    let (mut germany_at_a, welcome) = support::join(a.addr, &created, 0).await;
    assert_eq!(welcome["status"]["clock"]["active"], "germany", "{welcome}");
    a.signal("-STOP");
    let began = Instant::now();
    let (mut germany, welcome, took) = rejoin(b.addr, &game, &support::token(&created, 0), 0).await;
    eprintln!("{db}: a hung holder's game was served again after {took:?}");
    // Renewed every second on a lease of 3: it ran out 2 to 3 s after the last renewal.
    assert!(took >= Duration::from_secs(1), "not at once: only once the lease ran out: {took:?}");
    assert!(took < Duration::from_secs(12), "once it ran out: {took:?}");
    assert_eq!(welcome["at"], 0);
    germany.set_seq(100);
    let r = germany.order(json!("EndPhase")).await.expect("an answer");
    assert_eq!(kind(&r), "ack", "{r}");
    assert_eq!(r["at"], 1);
    // Woken, the old holder finds its lease gone: an order sent to it is refused or its
    // connection moved on, and the record holds only the new holder's order.
    a.signal("-CONT");
    match germany_at_a.order(json!("EndPhase")).await {
        Ok(r) => assert_eq!(kind(&r), "refused", "the old holder must not take an order: {r}"),
        Err(e) => assert!(matches!(e, ClientError::Closed | ClientError::Ws(_)), "{e}"),
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (code, info) = client::http(b.addr, "GET", &format!("/api/games/{game}"), None).await.expect("answers");
    assert_eq!(code, 200, "{info}");
    assert_eq!(info["status"]["clock"]["orders"], 1, "one order, the new holder's: {info}");
    let (code, info) = client::http(a.addr, "GET", &format!("/api/games/{game}"), None).await.expect("answers");
    assert_eq!(code, 200, "the old holder forwards the lobby to the new: {info}");
    assert_eq!(info["status"]["clock"]["orders"], 1);
    assert!(began.elapsed() < Duration::from_secs(30));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_holder_loses_its_games_when_its_lease_runs_out_on_postgresql() {
    let Some((db, name)) = support::own_pg("hung").await else { return };
    hung(&db).await;
    support::drop_own_pg(&name).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_holder_is_taken_over_on_sqlite() {
    takeover(&support::sqlite_url("takeover")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_holder_is_taken_over_on_postgresql() {
    let Some((db, name)) = support::own_pg("takeover").await else { return };
    takeover(&db).await;
    support::drop_own_pg(&name).await;
}

/// A server stopped on purpose lets its games go and says so: another takes them at once, not
/// when a lease runs out (a minute here); on PostgreSQL before any client asks (the hand-over is
/// announced with NOTIFY to the processes that LISTEN).
async fn handed_over(db: &str, announced: bool) {
    let options = || server::Options { lease: Duration::from_secs(60), ..server::Options::default() };
    let any = SocketAddr::from(([127, 0, 0, 1], 0));
    let a = server::Server::start_with(db, &support::scenarios(), any, options()).await.expect("starts");
    let b = server::Server::start_with(db, &support::scenarios(), any, options()).await.expect("starts");
    let created = support::create(a.addr, SCENARIO, None).await;
    let game = support::game(&created);
    assert!(b.hub.room(&game).await.is_none(), "held by the first");
    let hub = b.hub.clone();
    let began = Instant::now();
    a.stop_gracefully().await.expect("stopped, its leases let go");
    if announced {
        while hub.room(&game).await.is_none() {
            assert!(began.elapsed() < Duration::from_secs(5), "the hand-over was not heard");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let (_, welcome, took) = rejoin(b.addr, &game, &support::token(&created, 0), 0).await;
    assert!(took < Duration::from_secs(2), "{took:?}");
    assert_eq!(kind(&welcome), "welcome");
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_stopped_on_purpose_hands_its_games_over_on_sqlite() {
    handed_over(&support::sqlite_url("handover"), false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_stopped_on_purpose_hands_its_games_over_on_postgresql() {
    let Some((db, name)) = support::own_pg("handover").await else { return };
    handed_over(&db, true).await;
    support::drop_own_pg(&name).await;
}
