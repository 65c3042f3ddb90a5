//! What the online tests share: a server started in the test on a fresh SQLite store over the
//! shipped scenarios, a game made in its lobby, and frames of the apps until something holds.

use bevy::prelude::*;
use kriegsspiel::net::{JoinOnline, Online, SeatLink};
use serde_json::Value;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The shipped scenarios, as the server reads them.
pub fn scenarios() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios"))
}

/// A fresh store for each server of this test binary.
pub fn sqlite() -> String {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = super::data_dir().join(format!("server-{n}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    format!("sqlite:{}", dir.join("server.sqlite").display())
}

/// A runtime and a server on 127.0.0.1 (any port) serving the shipped scenarios.
pub fn server() -> (tokio::runtime::Runtime, server::Server) {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime");
    let server = rt
        .block_on(server::Server::start(&sqlite(), &scenarios(), SocketAddr::from(([127, 0, 0, 1], 0))))
        .expect("the server starts");
    (rt, server)
}

/// A game made in the lobby: its ID and the lobby's answer (its seats, with their tokens).
pub fn create(rt: &tokio::runtime::Runtime, addr: SocketAddr, body: &Value) -> (String, Value) {
    let (code, created) =
        rt.block_on(server::client::http(addr, "POST", "/api/games", Some(body))).expect("the lobby answers");
    assert_eq!(code, 200, "{created}");
    (created["game"].as_str().expect("a game").to_string(), created)
}

/// Seat `i`'s token in the lobby's answer.
pub fn token(created: &Value, i: usize) -> String {
    created["seats"][i]["token"].as_str().expect("a token").to_string()
}

/// The app joins a seat by its invite link.
pub fn join(app: &mut App, addr: SocketAddr, game: &str, token: &str) {
    let invite = SeatLink::parse(&format!("http://{addr}/?game={game}&seat={token}"), "").expect("the seat's link");
    app.world_mut().write_message(JoinOnline(invite));
}

pub fn online(app: &App) -> &Online {
    app.world().get_resource::<Online>().expect("online")
}

/// Frames of every app until `done` holds (at most `secs` seconds).
pub fn until_all(apps: &mut [App], secs: u64, what: &str, done: impl Fn(&[App]) -> bool) {
    let start = Instant::now();
    while !done(apps) {
        assert!(start.elapsed() < Duration::from_secs(secs), "never: {what}");
        for app in apps.iter_mut() {
            app.update();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The order count the server has.
pub fn orders_on_server(rt: &tokio::runtime::Runtime, addr: SocketAddr, game: &str) -> u64 {
    let (code, info) =
        rt.block_on(server::client::http(addr, "GET", &format!("/api/games/{game}"), None)).expect("the lobby");
    assert_eq!(code, 200, "{info}");
    info["status"]["clock"]["orders"].as_u64().expect("an order count")
}
