//! The leak check: every message a seat was sent, compared with what the engine's sight gives
//! that seat at that point of the game (its view, each order's events as it sees them, its
//! previews), the game replayed from its record; refusals carry a code and a line and nothing
//! else, and the seed is in no message before the reveal.
#![allow(dead_code)]

use rules::view::Viewer;
use serde_json::Value;
use server::table::Served;
use std::collections::{BTreeMap, BTreeSet};

/// A preview a seat asked for: its sequence number, the game's order count then, the order.
pub struct Asked {
    pub seq: u64,
    pub at: u64,
    pub order: Value,
}

fn keys(v: &Value) -> BTreeSet<String> {
    v.as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| s.to_string()).collect()
}

/// The engine's player whose sight `viewer` names (`None`: the umpire's).
fn viewer_of<G: Served>(game: &G, viewer: Option<&str>) -> Viewer<G::Player> {
    match viewer {
        None => Viewer::Umpire,
        Some(id) => {
            Viewer::Player(game.players().into_iter().find(|p| game.player_id(*p) == id).expect("a player of the game"))
        }
    }
}

/// Checks every message of `received` against the sight of `viewer`, the game being
/// `scenario` with `seed` and the order log `log` (as the record keeps it); the number of
/// messages checked against the engine.
pub fn check<G: Served>(
    scenario: &G::Scenario,
    seed: u64,
    log: &[String],
    received: &[String],
    viewer: Option<&str>,
    asked: &[Asked],
) -> usize {
    let messages: Vec<Value> = received.iter().map(|t| serde_json::from_str(t).expect("JSON")).collect();
    let at_of = |v: &Value| usize::try_from(v["at"].as_u64().expect("an order count")).expect("a count");
    let mut views_at: BTreeSet<usize> = BTreeSet::new();
    for m in &messages {
        match m["type"].as_str() {
            Some("welcome") if !m["view"].is_null() => {
                views_at.insert(at_of(m));
            }
            Some("view") => {
                views_at.insert(at_of(m));
            }
            _ => {}
        }
    }
    let mut previews_at: BTreeMap<usize, Vec<&Asked>> = BTreeMap::new();
    for a in asked {
        previews_at.entry(usize::try_from(a.at).expect("a count")).or_default().push(a);
    }
    let mut game = G::new(scenario, seed);
    let who = viewer_of(&game, viewer);
    let mut views: BTreeMap<usize, Value> = BTreeMap::new();
    let mut seen: BTreeMap<usize, Vec<Value>> = BTreeMap::new();
    let mut previews: BTreeMap<u64, Result<Value, String>> = BTreeMap::new();
    for k in 0..=log.len() {
        if views_at.contains(&k) {
            views.insert(k, game.view_json(who));
        }
        for a in previews_at.get(&k).into_iter().flatten() {
            let order: G::Order = serde_json::from_value(a.order.clone()).expect("an order");
            previews.insert(a.seq, game.preview_json(who, &order).map_err(|e| e.to_string()));
        }
        if let Some(body) = log.get(k) {
            let order: G::Order = rules::data::parse_ron("the record", body).expect("the record's order");
            let before = game.events().len();
            game.apply(order).expect("the record replays");
            seen.insert(k + 1, game.seen_json(who, &game.events()[before..]));
        }
    }
    let seed_text = seed.to_string();
    let mut checked = 0;
    let mut revealed = false;
    for (m, text) in messages.iter().zip(received) {
        assert!(revealed || !text.contains(&seed_text), "the seed before the reveal: {text}");
        match m["type"].as_str().unwrap_or("") {
            "welcome" => {
                if !m["view"].is_null() {
                    assert_eq!(m["view"], views[&at_of(m)], "the welcome's view as {viewer:?} sees it");
                    checked += 1;
                }
                // A page opened again: the orders before its view, each as the seat saw it then.
                for past in m["history"].as_array().into_iter().flatten() {
                    assert!(past["at"].as_u64() <= m["at"].as_u64(), "history after the view: {past}");
                    assert_eq!(past["events"], Value::from(seen[&at_of(past)].clone()), "history as {viewer:?}");
                    checked += 1;
                }
            }
            "view" => {
                assert_eq!(m["view"], views[&at_of(m)], "a fresh view as {viewer:?} sees it");
                checked += 1;
            }
            "events" => {
                assert_eq!(m["events"], Value::from(seen[&at_of(m)].clone()), "order {} as {viewer:?}", at_of(m));
                checked += 1;
            }
            "ack" if m["applied"] == true => {
                assert_eq!(m["events"], Value::from(seen[&at_of(m)].clone()), "order {} as {viewer:?}", at_of(m));
                checked += 1;
            }
            "ack" => assert_eq!(m["events"], Value::Array(Vec::new()), "{m}"),
            "preview" => {
                let seq = m["seq"].as_u64().expect("a seq");
                let expected = previews.get(&seq).expect("a preview the test asked for");
                assert_eq!(Ok(&m["preview"]), expected.as_ref(), "the preview as {viewer:?} sees it");
                checked += 1;
            }
            "refused" => {
                assert!(keys(m).is_subset(&set(&["type", "seq", "code", "text"])), "{m}");
                if let Some(Err(_)) = m["seq"].as_u64().and_then(|s| previews.get(&s)) {
                    checked += 1;
                }
            }
            "status" => assert_eq!(keys(m), set(&["type", "status"]), "{m}"),
            "mail" => {}
            "reveal" => {
                assert!(game.is_over(), "revealed before the end");
                revealed = true;
            }
            other => panic!("a message of an unknown kind `{other}`: {m}"),
        }
    }
    checked
}
