//! The game's own save files (`SavedGame(..)`, the envelope of [`rules::savefile`]): the referee
//! takes out the engine's save of the scene it holds, with a scenario referenced by path loaded
//! from that path (relative to the current folder, as the game's shipped files are named) and
//! checked against its recorded hash, so that `umpire replay` and `umpire validate` check any
//! save the game writes, autosaves included, of all three scenes.

use crate::Failure;
use rules::Save;
use rules::data::{DataError, parse_ron};
use rules::savefile::{BattleBody, CampaignBody, Envelope, GreatWarBody, Probe, SceneKind};
use serde::de::{DeserializeOwned, IgnoredAny};
use std::path::Path;

/// The envelope of format 1 (a battle only): its seats and the engine's save.
#[derive(serde::Deserialize)]
#[serde(rename = "SavedGame", deny_unknown_fields)]
struct FormatOne {
    #[allow(dead_code)]
    seats: IgnoredAny,
    save: Save<rules::tactical::Battle>,
}

/// The engine's save a game save holds, as text the referee reads like any engine save.
pub enum Inner {
    Battle(String),
    GreatWar(String),
    Campaign(String),
}

impl Inner {
    /// The scene, as the referee names it.
    pub fn scene(&self) -> &'static str {
        match self {
            Inner::Battle(_) => "battle",
            Inner::GreatWar(_) => "Great War",
            Inner::Campaign(_) => "campaign",
        }
    }
}

fn envelope<B: DeserializeOwned>(label: &str, text: &str) -> Result<B, Failure> {
    let file: Envelope<IgnoredAny, IgnoredAny, B> = parse_ron(label, text)?;
    Ok(file.save)
}

fn loaded<G: crate::referee::Refereed>(path: &str) -> Result<G::Scenario, String> {
    G::load_scenario(Path::new(path)).map_err(|e: DataError| e.to_string())
}

/// Reads a game save's envelope and gives the engine's save inside it.
pub fn inner(label: &str, text: &str) -> Result<Inner, Failure> {
    let probe: Probe = parse_ron(label, text)?;
    let failed = |e: String| Failure(e);
    match (probe.format, probe.mode) {
        (0, _) => {
            let file: FormatOne = parse_ron(label, text)?;
            Ok(Inner::Battle(file.save.to_text()))
        }
        (rules::savefile::ENVELOPE_FORMAT, SceneKind::Battle) => {
            let body: BattleBody = envelope(label, text)?;
            let save = body.into_save(label, loaded::<rules::tactical::Battle>).map_err(failed)?;
            Ok(Inner::Battle(save.to_text()))
        }
        (rules::savefile::ENVELOPE_FORMAT, SceneKind::GreatWar) => {
            let body: GreatWarBody = envelope(label, text)?;
            let save = body.into_save(label, loaded::<rules::strategic::GreatWar>).map_err(failed)?;
            Ok(Inner::GreatWar(save.to_text()))
        }
        (rules::savefile::ENVELOPE_FORMAT, SceneKind::Campaign) => {
            let body: CampaignBody = envelope(label, text)?;
            let save = body.to_save(label).map_err(failed)?;
            Ok(Inner::Campaign(save.to_text()))
        }
        (format, _) => Err(Failure(format!(
            "{label}: the save has format {format}, the referee reads formats 1 to {} (was it made by a newer version?)",
            rules::savefile::ENVELOPE_FORMAT
        ))),
    }
}
