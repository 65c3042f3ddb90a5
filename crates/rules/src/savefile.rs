//! The game's save files, as the app writes them and the referee (`umpire replay`) reads them:
//! an envelope ([`Envelope`], format [`ENVELOPE_FORMAT`]) naming the scene, the game and its seats
//! around the scene's save body. A battle's or the Great War's body is the engine's [`Save`] with
//! its scenario embedded, or, when the scenario is large (a theatre or the whole of Europe), with
//! the path of the shipped scenario file and its content hash instead; a campaign's body embeds
//! its scenario and may carry the orders of the battle being fought when it was written.
//!
//! The formats live here, beside the engine's saves, so that the app and the referee cannot read
//! one file two ways.

use crate::campaign::{Campaign, CampaignScenario};
use crate::game::{Game, Save};
use crate::hash::StateHash;
use crate::replay::Checkpoint;
use crate::strategic::GreatWar;
use crate::tactical::Battle;
use serde::{Deserialize, Serialize};

/// The version of the envelope the game writes. Format 1 (no `format` field, `seats` a pair)
/// held battles only.
pub const ENVELOPE_FORMAT: u32 = 2;

/// The scene a save belongs to, as its envelope names it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SceneKind {
    #[default]
    Battle,
    GreatWar,
    Campaign,
}

/// The envelope: the scene (`M`), the game's name (its autosaves share it), one seat per player
/// (`S`, the app's seats; a reader that has no use for them takes `serde::de::IgnoredAny`) and
/// the scene's body (`B`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename = "SavedGame", deny_unknown_fields)]
pub struct Envelope<M, S, B> {
    pub format: u32,
    pub mode: M,
    pub game: String,
    pub seats: Vec<S>,
    pub save: B,
}

/// Just an envelope's format and scene, to choose how to read the rest (format 1 has neither:
/// it reads as format 0 of a battle).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename = "SavedGame")]
pub struct Probe {
    #[serde(default)]
    pub format: u32,
    #[serde(default)]
    pub mode: SceneKind,
}

/// A body whose scenario is embedded or referenced, for a game `G`: the engine's save to the
/// byte when embedded.
macro_rules! referencing_body {
    ($(#[$doc:meta])* $name:ident, $ron:literal, $game:ty) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Serialize, Deserialize)]
        #[serde(rename = $ron, deny_unknown_fields)]
        pub struct $name {
            pub format: u32,
            pub scenario_hash: StateHash,
            pub seed: u64,
            pub orders: Vec<<$game as Game>::Order>,
            pub checkpoints: Vec<Checkpoint>,
            pub final_hash: StateHash,
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub scenario: Option<<$game as Game>::Scenario>,
            /// Where the scenario is, when it is not embedded (its hash is `scenario_hash`).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub scenario_path: Option<String>,
        }

        impl $name {
            /// The body of `save`: its scenario embedded, or referenced at `path` when given.
            pub fn new(save: &Save<$game>, path: Option<String>) -> Self {
                $name {
                    format: save.format,
                    scenario_hash: save.scenario_hash,
                    seed: save.seed,
                    orders: save.orders.clone(),
                    checkpoints: save.checkpoints.clone(),
                    final_hash: save.final_hash,
                    scenario: path.is_none().then(|| save.scenario.clone()),
                    scenario_path: path,
                }
            }

            /// The engine's save. A referenced scenario is loaded by `load(path)` and must have
            /// the recorded hash; `name` names the save in the errors.
            pub fn into_save(
                self,
                name: &str,
                load: impl FnOnce(&str) -> Result<<$game as Game>::Scenario, String>,
            ) -> Result<Save<$game>, String> {
                let scenario = match (self.scenario, self.scenario_path) {
                    (Some(s), _) => s,
                    (None, Some(path)) => {
                        let scenario = load(&path).map_err(|e| {
                            format!(
                                "{name}: the save is played on {path}, which cannot be loaded here ({e}), so the save cannot be opened"
                            )
                        })?;
                        let here = <$game as Game>::scenario_hash(&scenario);
                        if here != self.scenario_hash {
                            return Err(format!(
                                "{name}: the save is played on {path} with hash {}, but that scenario here has hash {here} (it was changed since), so the save cannot be opened",
                                self.scenario_hash
                            ));
                        }
                        scenario
                    }
                    (None, None) => return Err(format!("{name}: the save holds no scenario and names none")),
                };
                Ok(Save {
                    format: self.format,
                    scenario_hash: self.scenario_hash,
                    seed: self.seed,
                    orders: self.orders,
                    checkpoints: self.checkpoints,
                    final_hash: self.final_hash,
                    scenario,
                })
            }
        }
    };
}

referencing_body!(
    /// A battle's body (the engine's `SaveGame`).
    BattleBody,
    "SaveGame",
    Battle
);

referencing_body!(
    /// A Great War body (the engine's `GreatWarSave`).
    GreatWarBody,
    "GreatWarSave",
    GreatWar
);

/// A campaign's body: the engine's `CampaignSave` to the byte, with the battle in progress when
/// the save was written.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename = "CampaignSave", deny_unknown_fields)]
pub struct CampaignBody {
    pub format: u32,
    pub scenario_hash: StateHash,
    pub seed: u64,
    pub orders: Vec<<Campaign as Game>::Order>,
    pub checkpoints: Vec<Checkpoint>,
    pub final_hash: StateHash,
    pub scenario: CampaignScenario,
    /// The battle in progress when the save was written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battle: Option<RunningBattle>,
}

/// A battle of the campaign in progress: the orders given in it so far (its scenario and seed
/// follow from the campaign's waiting battle).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunningBattle {
    pub orders: Vec<<Battle as Game>::Order>,
}

impl CampaignBody {
    /// The body of `save` with the battle being fought, if any.
    pub fn new(save: &Save<Campaign>, battle: Option<RunningBattle>) -> Self {
        CampaignBody {
            format: save.format,
            scenario_hash: save.scenario_hash,
            seed: save.seed,
            orders: save.orders.clone(),
            checkpoints: save.checkpoints.clone(),
            final_hash: save.final_hash,
            scenario: save.scenario.clone(),
            battle,
        }
    }

    /// The engine's save (the running battle stays in the body); the embedded campaign must
    /// have the recorded hash.
    pub fn to_save(&self, name: &str) -> Result<Save<Campaign>, String> {
        if Campaign::scenario_hash(&self.scenario) != self.scenario_hash {
            return Err(format!("{name}: the campaign embedded in the save does not match its hash"));
        }
        Ok(Save {
            format: self.format,
            scenario_hash: self.scenario_hash,
            seed: self.seed,
            orders: self.orders.clone(),
            checkpoints: self.checkpoints.clone(),
            final_hash: self.final_hash,
            scenario: self.scenario.clone(),
        })
    }
}
