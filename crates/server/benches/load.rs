//! The server under load: concurrent AI-against-AI games played through real sockets on
//! 127.0.0.1 (50 battles and 5 Great War games of August 1914 by default), against the same
//! games played in-process, in one run.
//!
//! Each game has a driver: it plays a mirror of the game in-process (the same scenario and
//! seed, every player's AI seeing as that player), sends each order the AI gives through the
//! seat of the player it is for, and waits for the answer. The same mirrors played without a
//! server are the in-process baseline. Reported: orders a second, the time to acknowledge (p50,
//! p99, worst), the server's memory per game (the Europe map shared between games), and CPU
//! time, the server's run as ratios against the baseline.
//!
//! `cargo bench -p server --bench load -- [--battles N] [--great-war N] [--turns N]
//! [--db URL]` (default: a SQLite file in a temporary folder). Under `cargo test` it plays two
//! battles, as a smoke test.

use serde_json::{Value, json};
use server::client::{self, Client};
use server::protocol::ClientMsg;
use server::store::GameRecord;
use server::table::{Kind, Table};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const BATTLE: &str = "open_field.ron";
const GREAT_WAR: &str = "great_war/august_1914.ron";
/// The seeds of the games, from this on (`server::Options::seeds`).
const SEEDS: u64 = 1914;
/// The AI's budget for one step of its thinking.
const THINK: Duration = Duration::from_millis(50);
/// A game that has not ended by then is cut short (a bench, not a tournament).
const MOST_ORDERS: usize = 20_000;

struct Args {
    battles: usize,
    great_war: usize,
    turns: u32,
    db: Option<String>,
}

fn args() -> Args {
    let all: Vec<String> = std::env::args().collect();
    let benching = all.iter().any(|a| a == "--bench");
    let mut a =
        Args { battles: if benching { 50 } else { 2 }, great_war: if benching { 5 } else { 0 }, turns: 1, db: None };
    let mut it = all.iter().skip(1);
    while let Some(flag) = it.next() {
        let mut number = |what: &str| -> usize {
            it.next().and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("{what} takes a number"))
        };
        match flag.as_str() {
            "--battles" => a.battles = number("--battles"),
            "--great-war" => a.great_war = number("--great-war"),
            "--turns" => a.turns = u32::try_from(number("--turns")).unwrap_or(1),
            "--db" => a.db = it.next().cloned(),
            _ => {}
        }
    }
    a
}

fn scenarios() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios"))
}

/// Resident memory, in KiB (Linux; 0 elsewhere).
fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// The process's CPU time (user and system), in seconds (Linux; 0 elsewhere).
fn cpu_secs() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // After the command's name in brackets: state is field 3, utime and stime 14 and 15.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// A game to play: its kind, scenario and seed.
#[derive(Clone)]
struct Plan {
    kind: Kind,
    scenario: &'static str,
    seed: u64,
    turns: u32,
}

/// The game's mirror: every player's AI on a table of the same scenario and seed.
fn mirror(plan: &Plan, root: &Path) -> Box<dyn Table> {
    let path = root.join(plan.scenario);
    let hash = match plan.kind {
        Kind::Battle => server::table::shared::<rules::tactical::Battle>(&path).map(|(_, h)| h),
        Kind::GreatWar => server::table::shared::<rules::strategic::GreatWar>(&path).map(|(_, h)| h),
        Kind::Campaign => server::table::shared::<rules::campaign::Campaign>(&path).map(|(_, h)| h),
    }
    .expect("the scenario loads");
    let rec = GameRecord {
        id: String::new(),
        kind: plan.kind.name().to_string(),
        scenario: plan.scenario.to_string(),
        scenario_hash: hash,
        seed: plan.seed,
        seed_commit: String::new(),
        settings: String::new(),
        paused: false,
        over: false,
        created: 0,
    };
    let mut table = server::table::new_table(&rec, root).expect("a table");
    let level = if plan.kind == Kind::GreatWar { ai::Level::Marshal } else { ai::Level::Veteran };
    for p in table.players() {
        table.set_ai(&p, Some(level), plan.seed);
    }
    table
}

/// The mirror's next order (as the protocol's JSON) and whose it is; none once the game is over
/// or has played its turns.
fn next_order(table: &mut dyn Table, kind: Kind, first_turn: u32, turns: u32) -> Option<(String, Value)> {
    let face = table.clockface();
    if face.over || face.orders >= MOST_ORDERS || face.turn >= first_turn.saturating_add(turns) {
        return None;
    }
    let player = face.active?;
    loop {
        match table.ai_step(THINK) {
            Some(Ok(applied)) => return Some((player, order_json(kind, &applied.body))),
            Some(Err(r)) => panic!("the AI's order was refused: {}", r.code),
            None => {}
        }
    }
}

fn order_json(kind: Kind, body: &str) -> Value {
    fn json_of<O: serde::de::DeserializeOwned + serde::Serialize>(body: &str) -> Value {
        let order: O = rules::data::parse_ron("the log", body).expect("the log's order reads");
        serde_json::to_value(order).expect("an order as JSON")
    }
    match kind {
        Kind::Battle => json_of::<rules::tactical::Order>(body),
        Kind::GreatWar => json_of::<rules::strategic::Order>(body),
        Kind::Campaign => json_of::<rules::campaign::Order>(body),
    }
}

/// The baseline: every game played in-process, on as many threads as the machine has cores.
fn in_process(plans: &[Plan], root: &Path) -> (usize, Duration, f64) {
    let (began, cpu) = (Instant::now(), cpu_secs());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let orders = std::sync::atomic::AtomicUsize::new(0);
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..cores {
            s.spawn(|| {
                while let Some(plan) = plans.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
                    let mut table = mirror(plan, root);
                    let first = table.clockface().turn;
                    while next_order(table.as_mut(), plan.kind, first, plan.turns).is_some() {}
                    orders.fetch_add(table.clockface().orders, std::sync::atomic::Ordering::Relaxed);
                }
            });
        }
    });
    (orders.into_inner(), began.elapsed(), cpu_secs() - cpu)
}

/// A game made in the lobby, its seed checked against its commitment.
async fn create(addr: SocketAddr, plan: &Plan) -> Value {
    let (code, created) = client::http(addr, "POST", "/api/games", Some(&json!({ "scenario": plan.scenario })))
        .await
        .expect("the lobby answers");
    assert_eq!(code, 200, "{created}");
    let game = created["game"].as_str().expect("a game");
    assert_eq!(
        server::seats::seed_commit(game, plan.seed),
        created["seed_commit"].as_str().unwrap_or(""),
        "the mirror's seed is the game's"
    );
    created
}

/// Plays one game through its seats' sockets; the times each order took to be acknowledged.
async fn drive(addr: SocketAddr, plan: Plan, created: Value, root: PathBuf) -> (usize, Vec<Duration>) {
    let game = created["game"].as_str().expect("a game").to_string();
    let players: Vec<String> =
        created["players"].as_array().expect("players").iter().filter_map(|p| p.as_str().map(String::from)).collect();
    let mut seats: Vec<Client> = Vec::new();
    for i in 0..players.len() {
        let token = created["seats"][i]["token"].as_str().expect("a token");
        seats.push(Client::join(addr, &game, token, None).await.expect("the seat joins").0);
    }
    let mut table = {
        let (plan, root) = (plan.clone(), root.clone());
        tokio::task::spawn_blocking(move || mirror(&plan, &root)).await.expect("a mirror")
    };
    let first = table.clockface().turn;
    let mut acks = Vec::new();
    loop {
        let kind = plan.kind;
        let turns = plan.turns;
        let (t, next) = tokio::task::spawn_blocking(move || {
            let next = next_order(table.as_mut(), kind, first, turns);
            (table, next)
        })
        .await
        .expect("the mirror thinks");
        table = t;
        let Some((player, order)) = next else { break };
        let i = players.iter().position(|p| *p == player).expect("a seat for the player");
        let seat = &mut seats[i];
        let seq = seat.seq();
        loop {
            let sent = Instant::now();
            let r = seat.ask(ClientMsg::Order { seq, order: order.clone() }).await.expect("an answer");
            match r["type"].as_str() {
                Some("ack") => {
                    acks.push(sent.elapsed());
                    assert_eq!(r["applied"], true, "{r}");
                    break;
                }
                // A client as fast as an AI meets the seat's rate limit: it waits and asks again.
                Some("refused") if r["code"] == "rate_limited" => tokio::time::sleep(Duration::from_millis(50)).await,
                _ => panic!("{game}: the server refused the mirror's order {order}: {r}"),
            }
        }
        seat.forget();
    }
    for s in seats {
        s.close().await;
    }
    (table.clockface().orders, acks)
}

/// The Great War games among those made.
fn made_ids(plans: &[Plan], games: &[String]) -> Vec<String> {
    plans.iter().zip(games).filter(|(p, _)| p.kind == Kind::GreatWar).map(|(_, g)| g.clone()).collect()
}

/// How long the Great War games take to restore from the record: from their snapshots and the
/// rest of their logs, and from their whole logs.
async fn restoring(server: &server::Server, games: &[String], root: &Path) {
    let store = server.hub.store.clone();
    let (mut from_snapshot, mut from_log, mut tail, mut whole) = (Duration::ZERO, Duration::ZERO, 0, 0);
    for g in games {
        let rec = store.game(g).await.expect("the record").expect("the game");
        let orders = store.orders(g).await.expect("its log");
        let snapshot = store.snapshot(g).await.expect("its snapshot");
        let after = snapshot.as_ref().map_or(0, |(a, _)| usize::try_from(*a).unwrap_or(0));
        tail += orders.len() - after.min(orders.len());
        whole += orders.len();
        let began = Instant::now();
        let a = server::table::table_of_record(&rec, root, &orders, snapshot).expect("restored");
        from_snapshot += began.elapsed();
        let began = Instant::now();
        let b = server::table::table_of_record(&rec, root, &orders, None).expect("restored");
        from_log += began.elapsed();
        assert_eq!(a.state_hash(), b.state_hash(), "the same game either way");
    }
    if !games.is_empty() {
        println!(
            "restoring the {} Great War games: {:.3} s from their snapshots and {tail} orders after, {:.3} s from their whole logs of {whole} orders (ratio {:.3})",
            games.len(),
            from_snapshot.as_secs_f64(),
            from_log.as_secs_f64(),
            from_snapshot.as_secs_f64() / from_log.as_secs_f64().max(1e-9)
        );
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    let args = args();
    let root = scenarios();
    let mut plans: Vec<Plan> = Vec::new();
    for _ in 0..args.battles {
        plans.push(Plan { kind: Kind::Battle, scenario: BATTLE, seed: 0, turns: u32::MAX });
    }
    for _ in 0..args.great_war {
        plans.push(Plan { kind: Kind::GreatWar, scenario: GREAT_WAR, seed: 0, turns: args.turns });
    }
    for (n, p) in plans.iter_mut().enumerate() {
        p.seed = SEEDS + n as u64;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    let db = args.db.clone().unwrap_or_else(|| {
        let dir = std::env::temp_dir().join(format!("ks-load-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a folder");
        format!("sqlite:{}", dir.join("server.sqlite").display())
    });
    println!(
        "load: {} battles ({BATTLE}) and {} Great War games ({GREAT_WAR}, {} turn(s)), store {db}",
        args.battles, args.great_war, args.turns
    );

    // Over sockets first, while the process is fresh: the server's memory per game is what
    // making the games adds, before any mirror is loaded.
    let (orders, wall, cpu, mut acks, memory) = runtime.block_on(async {
        let options = server::Options { seeds: Some(SEEDS), ..server::Options::default() };
        let server = server::Server::start_with(&db, &root, SocketAddr::from(([127, 0, 0, 1], 0)), options)
            .await
            .expect("the server starts");
        let addr = server.addr;
        let mut made = Vec::new();
        let mut made_games = Vec::new();
        let mut memory = Vec::new();
        let before = rss_kib();
        let mut last = before;
        for p in &plans {
            let created = create(addr, p).await;
            made_games.push(created["game"].as_str().unwrap_or("").to_string());
            made.push(created);
            let now = rss_kib();
            memory.push((p.kind, now.saturating_sub(last)));
            last = now;
        }
        let (began, cpu) = (Instant::now(), cpu_secs());
        let drivers: Vec<_> =
            plans.iter().cloned().zip(made).map(|(p, c)| tokio::spawn(drive(addr, p, c, root.clone()))).collect();
        let mut orders = 0;
        let mut acks = Vec::new();
        for d in drivers {
            let (n, a) = d.await.expect("a driver");
            orders += n;
            acks.extend(a);
        }
        let out = (orders, began.elapsed(), cpu_secs() - cpu, acks, memory);
        restoring(&server, &made_ids(&plans, &made_games), &root).await;
        server.stop().await;
        out
    });
    let (base_orders, base_wall, base_cpu) = in_process(&plans, &root);
    assert_eq!(orders, base_orders, "the games over sockets are the games in-process");
    assert!(orders > 0, "the games were played");

    acks.sort();
    let rate = orders as f64 / wall.as_secs_f64();
    let base_rate = base_orders as f64 / base_wall.as_secs_f64();
    println!("orders: {orders} in all");
    println!("orders a second: {rate:.0} over sockets, {base_rate:.0} in-process (ratio {:.2})", rate / base_rate);
    println!(
        "wall time: {:.2} s over sockets, {:.2} s in-process (ratio {:.2})",
        wall.as_secs_f64(),
        base_wall.as_secs_f64(),
        wall.as_secs_f64() / base_wall.as_secs_f64()
    );
    println!(
        "CPU time: {cpu:.2} s over sockets (server, clients and mirrors), {base_cpu:.2} s in-process (ratio {:.2})",
        cpu / base_cpu.max(0.01)
    );
    println!(
        "time to acknowledge: p50 {:.2} ms, p99 {:.2} ms, worst {:.2} ms",
        percentile(&acks, 0.5).as_secs_f64() * 1e3,
        percentile(&acks, 0.99).as_secs_f64() * 1e3,
        acks.last().copied().unwrap_or_default().as_secs_f64() * 1e3
    );
    for kind in [Kind::Battle, Kind::GreatWar] {
        let of: Vec<u64> = memory.iter().filter(|(k, _)| *k == kind).map(|(_, m)| *m).collect();
        if let Some((first, rest)) = of.split_first() {
            let mean_rest = if rest.is_empty() { 0 } else { rest.iter().sum::<u64>() / rest.len() as u64 };
            println!(
                "server memory, {}: the first game {:.1} MiB (its scenario loaded), each further one {:.1} MiB",
                kind.name(),
                *first as f64 / 1024.0,
                mean_rest as f64 / 1024.0
            );
        }
    }
}
