//! What the server's tests share: a server on a random free port of 127.0.0.1 with a fresh
//! store (SQLite in a temporary folder, or PostgreSQL where `KRIEGSSPIEL_TEST_PG` names one).
#![allow(dead_code)]

pub mod leak;

use serde_json::{Value, json};
use server::Server;
use server::client::{self, Client};
use std::net::SocketAddr;
use std::path::PathBuf;

pub fn scenarios() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenarios"))
}

/// A fresh, empty SQLite store in a folder of its own.
pub fn sqlite_url(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("ks-server-{name}-{}-{}", std::process::id(), unique()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    format!("sqlite:{}", dir.join("server.sqlite").display())
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    u64::try_from(t % 1_000_000_007).unwrap_or(0) * 1000 + N.fetch_add(1, Ordering::Relaxed)
}

pub async fn start(db: &str) -> Server {
    Server::start(db, &scenarios(), SocketAddr::from(([127, 0, 0, 1], 0))).await.expect("the server starts")
}

/// A fresh, empty store: SQLite, or a PostgreSQL database of its own where
/// `KRIEGSSPIEL_TEST_SERVER_PG` names a server's database to start from (`.ci/run` runs the
/// server's suite both ways).
pub async fn fresh_db(name: &str) -> String {
    match std::env::var("KRIEGSSPIEL_TEST_SERVER_PG") {
        Ok(base) => fresh_pg(&base, name).await.0,
        Err(_) => sqlite_url(name),
    }
}

/// A server on a fresh store ([`fresh_db`]), and the store's URL.
pub async fn start_fresh(name: &str) -> (Server, String) {
    let db = fresh_db(name).await;
    (start(&db).await, db)
}

/// Makes a game; the lobby's answer.
pub async fn create(addr: SocketAddr, scenario: &str, seats: Option<Value>) -> Value {
    let mut body = json!({ "scenario": scenario });
    if let Some(s) = seats {
        body["seats"] = s;
    }
    let (status, answer) = client::http(addr, "POST", "/api/games", Some(&body)).await.expect("the lobby answers");
    assert_eq!(status, 200, "{answer}");
    answer
}

pub fn token(created: &Value, seat: usize) -> String {
    created["seats"][seat]["token"].as_str().expect("a token").to_string()
}

pub fn game(created: &Value) -> String {
    created["game"].as_str().expect("a game ID").to_string()
}

pub async fn join(addr: SocketAddr, created: &Value, seat: usize) -> (Client, Value) {
    Client::join(addr, &game(created), &token(created, seat), None).await.expect("the seat joins")
}

pub fn kind(v: &Value) -> &str {
    v["type"].as_str().unwrap_or("")
}

/// A time the tests' clocks start at (2026-01-01, in milliseconds since the epoch).
pub const T0: i64 = 1_767_225_600_000;

/// A server on a clock the test moves.
pub async fn start_on(db: &str, clock: std::sync::Arc<server::clock::ManualClock>) -> Server {
    let options = server::Options { clock, ..server::Options::default() };
    Server::start_with(db, &scenarios(), SocketAddr::from(([127, 0, 0, 1], 0)), options)
        .await
        .expect("the server starts")
}

/// A game's status, from the lobby.
pub async fn status(addr: SocketAddr, game: &str) -> Value {
    let (code, info) = client::http(addr, "GET", &format!("/api/games/{game}"), None).await.expect("answers");
    assert_eq!(code, 200, "{info}");
    info["status"].clone()
}

/// A database of its own on the PostgreSQL `base` names (its URL, and its name): a test of
/// several processes must not restore every other test's games.
pub async fn fresh_pg(base: &str, what: &str) -> (String, String) {
    use sqlx::Connection;
    let what: String = what.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    let name = format!("ks_{what}_{}_{}", std::process::id(), unique());
    let mut conn = sqlx::PgConnection::connect(base).await.expect("PostgreSQL answers");
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut conn)
        .await
        .expect("a database is made");
    let url = match base.rsplit_once('/') {
        Some((server, _)) => format!("{server}/{name}"),
        None => panic!("a PostgreSQL URL names its database: {base}"),
    };
    (url, name)
}

/// A PostgreSQL database of the test's own (its URL and its name), where `KRIEGSSPIEL_TEST_PG`
/// names a server's database to start from; none (the test is skipped, and says so) where not.
pub async fn own_pg(what: &str) -> Option<(String, String)> {
    let Ok(base) = std::env::var("KRIEGSSPIEL_TEST_PG") else {
        eprintln!("KRIEGSSPIEL_TEST_PG is not set: the PostgreSQL test `{what}` is skipped");
        return None;
    };
    Some(fresh_pg(&base, what).await)
}

/// Drops a database [`own_pg`] made.
pub async fn drop_own_pg(name: &str) {
    if let Ok(base) = std::env::var("KRIEGSSPIEL_TEST_PG") {
        drop_pg(&base, name).await;
    }
}

pub async fn drop_pg(base: &str, name: &str) {
    use sqlx::Connection;
    if let Ok(mut conn) = sqlx::PgConnection::connect(base).await {
        let _ = sqlx::raw_sql(sqlx::AssertSqlSafe(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")))
            .execute(&mut conn)
            .await;
    }
}

/// A one-hex move of a corps of `army`, ordered to the army (S-ARMY-3), that the engine takes in
/// the opening Movement phase of a Great War scenario (found on a copy of the game: whether a
/// move is legal does not depend on the dice).
pub fn army_move(scenario: &str, army: u32, corps: u32) -> rules::strategic::Order {
    use rules::Game;
    use rules::strategic::{FormationId, GreatWar, HexAt, Order, Scenario};
    let scenario = Scenario::load(&scenarios().join(scenario)).expect("the scenario");
    let mut game = GreatWar::new(&scenario, 1);
    while game.clock().phase != rules::strategic::Phase::Movement {
        let pass = game.pass();
        game.apply(pass).expect("a pass");
    }
    let ctx = game.ctx();
    let at = ctx
        .forces
        .iter()
        .find(|f| f.member.corps == Some(FormationId(corps)))
        .and_then(|f| match f.place {
            rules::strategic::state::Place::Map(h) => Some(h),
            _ => None,
        })
        .expect("the corps stands on the map");
    let moving = |h: HexAt| Order::MoveArmy { army: FormationId(army), moves: vec![(FormationId(corps), vec![h])] };
    let to = at.neighbours().into_iter().find(|h| ai::great_war::legal(&ctx, &moving(*h))).expect("a hex to move to");
    moving(to)
}
