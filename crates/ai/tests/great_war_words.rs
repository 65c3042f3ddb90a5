//! Every line the Great War engine shows a person (its events, its refusals, its previews) is
//! worded in keys of both string tables, so the game speaks Russian as well as English: played
//! games of every theatre scenario are searched for words outside the tables.

use ai::Level;
use ai::great_war::game::{GwSetup, play};
use rules::strategic::{GreatWar, Order, Scenario};
use rules::texts::{Arg, Msg, PLAIN, Texts};
use std::collections::BTreeSet;
use web_time::Duration;

fn load(name: &str) -> Scenario {
    let path = rules::testing::repo_path(&format!("scenarios/great_war/{name}"));
    Scenario::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// What is wrong with a message: plain words, or a key one of the tables lacks.
fn faults(m: &Msg, en: &Texts, ru: &Texts, out: &mut BTreeSet<String>) {
    if m.key == PLAIN {
        out.insert(format!("plain words: {}", m.english()));
    } else if !en.contains(&m.key) || !ru.contains(&m.key) {
        out.insert(format!("no key {}", m.key));
    }
    for (_, a) in &m.args {
        match a {
            Arg::Msg(inner) => faults(inner, en, ru, out),
            Arg::List(items, _) => items.iter().for_each(|i| faults(i, en, ru, out)),
            Arg::Text(_) | Arg::Name { .. } | Arg::Local { .. } | Arg::Hex(..) => {}
        }
    }
}

/// Plays `turns` turns of `level` for every power and checks every event, and the refusal or the
/// preview of every order given again one order later (most are refused then: spent points, a
/// wrong phase, a hex now taken).
fn check(name: &str, level: Level, seed: u64, turns: u32, out: &mut BTreeSet<String>) -> usize {
    let (en, ru) = (Texts::english(), Texts::russian());
    let s = load(name);
    let setup = GwSetup {
        seed,
        players: vec![Some(level); s.powers.len()],
        max_turns: Some(turns),
        orders: Vec::new(),
        slice: Duration::from_secs(60),
    };
    let r = play(&s, &setup).expect("plays");
    let mut lines = 0;
    for e in r.game.events() {
        faults(&e.line, &en, &ru, out);
        lines += 1;
    }
    let orders: Vec<Order> = r.game.orders().to_vec();
    let mut game = GreatWar::new(&s, seed);
    for (i, order) in orders.iter().enumerate() {
        if i > 0 && i % 3 == 0 {
            match game.preview(&orders[i - 1]) {
                Err(e) => faults(&e.line(), &en, &ru, out),
                Ok(p) => {
                    for m in p.engagement_lines.iter().chain(p.outcomes.iter().flat_map(|o| o.lines.iter())) {
                        faults(m, &en, &ru, out);
                    }
                }
            }
            lines += 1;
        }
        game.apply(order.clone()).expect("the game's own order");
    }
    lines
}

#[test]
fn every_great_war_line_a_person_reads_is_in_both_tables() {
    let mut faults = BTreeSet::new();
    let mut lines = 0;
    for (name, turns) in [
        ("test_front.ron", 3),
        ("north_sea_1916.ron", 3),
        ("east_prussia_1914.ron", 2),
        ("frontiers_marne_1914.ron", 2),
    ] {
        lines += check(name, Level::Marshal, 1, turns, &mut faults);
        lines += check(name, Level::Random, 2, turns, &mut faults);
    }
    assert!(lines > 1000, "only {lines} lines were read");
    assert!(faults.is_empty(), "{} faults:\n{}", faults.len(), faults.into_iter().collect::<Vec<_>>().join("\n"));
}

/// Every key the engine and the Great War scene name in their sources is in both tables, with
/// the same `{values}` in each, and the Russian is Russian.
#[test]
fn every_great_war_key_in_the_sources_is_in_both_tables_with_the_same_values() {
    let (en, ru) = (Texts::english(), Texts::russian());
    let root = rules::testing::repo_path("");
    let files = rules::testing::files_under(&["crates/rules/src/strategic", "src/great_war"], "rs");
    let mut missing = BTreeSet::new();
    let mut keys = BTreeSet::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable");
        for piece in text.split('"').skip(1).step_by(2) {
            let keyish = (piece.starts_with("gwe.") || piece.starts_with("gw."))
                && piece.len() > 4
                && !piece.ends_with('.')
                && piece.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.');
            if keyish {
                keys.insert(piece.to_string());
                if !en.contains(piece) || !ru.contains(piece) {
                    missing.insert(format!("{}: {piece}", f.strip_prefix(&root).unwrap_or(f).display()));
                }
            }
        }
    }
    assert!(keys.len() > 300, "only {} keys found: the scan is broken", keys.len());
    assert!(missing.is_empty(), "keys missing from a table:\n{}", missing.into_iter().collect::<Vec<_>>().join("\n"));
    let values = |t: &str| -> BTreeSet<String> {
        t.split('{').skip(1).filter_map(|p| p.split_once('}').map(|(v, _)| v.to_string())).collect()
    };
    let mut wrong = Vec::new();
    for key in en.keys().filter(|k| k.starts_with("gwe.") || k.starts_with("gw.err.")) {
        let (e, r) = (en.get(key), ru.get(key));
        if values(e) != values(r) {
            wrong.push(format!("{key}: values {:?} against {:?}", values(e), values(r)));
        }
        // Words outside the `{values}`: a lowercase word of four letters or more.
        let words_en = e
            .split('{')
            .map(|p| p.split_once('}').map_or(p, |(_, rest)| rest))
            .any(|p| p.split(|c: char| !c.is_alphabetic()).any(|w| w.len() > 3 && w.chars().any(char::is_lowercase)));
        if words_en && !r.chars().any(|c| ('а'..='я').contains(&c.to_lowercase().next().unwrap_or(c))) {
            wrong.push(format!("{key}: not Russian: {r}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
