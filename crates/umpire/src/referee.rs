//! The referee's commands written once for every game: validating and replaying a save, playing a
//! scenario from a list of orders, previewing an order. A game plugs in how its scenario is
//! loaded and how its orders, state and previews are printed ([`Refereed`]).

use crate::Failure;
use rules::data::{DataError, parse_orders, read_text};
use rules::{Game, Save};
use serde::Serialize;
use std::path::Path;

/// What the referee needs of a game beyond the engine's [`Game`].
pub trait Refereed: Game<Preview: Serialize> {
    fn load_scenario(path: &Path) -> Result<Self::Scenario, DataError>;
    /// An order in words, for `order N (what it does): why`.
    fn describe(order: &Self::Order) -> String;
    /// The final state, as text or JSON (with the event log).
    fn print_state(&self, json: bool);
    /// A preview as text lines, after the `Preview of …` line.
    fn preview_lines(preview: &Self::Preview) -> Vec<String>;
}

/// Reads a RON list of a game's orders.
pub fn load_orders<G: Game>(path: &Path) -> Result<Vec<G::Order>, Failure> {
    let text = read_text(path)?;
    Ok(parse_orders(&path.to_string_lossy(), &text)?)
}

/// Applies orders in turn; the first refusal is the failure, naming the order.
pub fn apply_all<G: Refereed>(game: &mut G, orders: &[G::Order]) -> Result<(), Failure> {
    for (i, order) in orders.iter().enumerate() {
        game.apply(order.clone())
            .map_err(|e| Failure(format!("{}: {e}", crate::orders::label(i, &G::describe(order)))))?;
    }
    Ok(())
}

/// Reads and replays a save, checking every recorded hash.
fn load_save<G: Game>(label: &str, text: &str) -> Result<(Save<G>, G), Failure> {
    let save = Save::<G>::from_text(label, text)?;
    let game = G::replay(&save).map_err(|e| Failure(format!("{label}: {e}")))?;
    Ok((save, game))
}

/// `umpire validate` of a save: the summary line.
pub fn validate_save<G: Game>(label: &str, text: &str) -> Result<String, Failure> {
    let (save, game) = load_save::<G>(label, text)?;
    Ok(format!("{} orders replayed, hash {}", save.orders.len(), game.state_hash()))
}

/// `umpire replay`.
pub fn replay<G: Refereed>(path: &Path, text: &str, json: bool) -> Result<(), Failure> {
    let (_, game) = load_save::<G>(&path.to_string_lossy(), text)?;
    game.print_state(json);
    Ok(())
}

/// Writes a game's save to `out`.
pub fn write_save<G: Game>(game: &G, out: &Path) -> Result<(), Failure> {
    std::fs::write(out, game.save().to_text())
        .map_err(|e| Failure(format!("{}: cannot write the save: {e}", out.display())))
}

/// `umpire play` with the orders of a list (no AI).
pub fn play<G: Refereed>(
    scenario: &Path,
    seed: u64,
    orders: Option<&Path>,
    save: Option<&Path>,
    json: bool,
) -> Result<(), Failure> {
    let s = G::load_scenario(scenario)?;
    let orders = match orders {
        Some(path) => load_orders::<G>(path)?,
        None => Vec::new(),
    };
    let mut game = G::new(&s, seed);
    apply_all(&mut game, &orders)?;
    if let Some(out) = save {
        write_save(&game, out)?;
    }
    game.print_state(json);
    Ok(())
}

/// `umpire preview`: what the last order of a list would do, after applying the ones before it.
pub fn preview<G: Refereed>(scenario: &Path, orders: &Path, seed: u64, json: bool) -> Result<(), Failure> {
    let s = G::load_scenario(scenario)?;
    let mut list = load_orders::<G>(orders)?;
    let last = list.pop().ok_or_else(|| Failure(format!("{}: the order list is empty", orders.display())))?;
    let mut game = G::new(&s, seed);
    apply_all(&mut game, &list)?;
    let preview = game
        .preview(&last)
        .map_err(|e| Failure(format!("{}: {e}", crate::orders::label(list.len(), &G::describe(&last)))))?;
    if json {
        println!("{}", serde_json::to_string_pretty(&preview).unwrap_or_default());
    } else {
        println!("Preview of {last:?} ({})", G::describe(&last));
        for line in G::preview_lines(&preview) {
            println!("{line}");
        }
    }
    Ok(())
}
