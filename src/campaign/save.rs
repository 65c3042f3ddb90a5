//! A campaign's save inside the envelope: the engine's `CampaignSave` to the byte (finished
//! battles travel inside it, as the `BattleResult` orders that carry their saves), plus the
//! battle being fought when the save was written: its orders (its scenario and seed follow from
//! the campaign's waiting battle), so a campaign saved mid-battle reopens in that battle.

use crate::saves::{self, SAVE_FORMAT, SavedGame, Seat};
use crate::screens::Mode;
use rules::campaign::CampaignSave;
use rules::data::{parse_ron, to_ron};
use rules::hash::StateHash;

/// The engine's save as written in an envelope, with the running battle if there is one (the
/// format is the engine's, [`rules::savefile`], which the referee reads too).
pub type SaveBody = rules::savefile::CampaignBody;
pub use rules::savefile::RunningBattle;

/// The save as written inside the envelope.
pub fn to_body(save: &CampaignSave, battle: Option<RunningBattle>) -> SaveBody {
    SaveBody::new(save, battle)
}

/// The save from the envelope (the running battle is read by [`running_battle`]).
pub fn from_body(name: &str, b: SaveBody) -> Result<CampaignSave, String> {
    b.to_save(name)
}

/// The envelope as the shell writes it (format 2), around a campaign's body.
type Envelope = rules::savefile::Envelope<Mode, Seat, SaveBody>;

/// The text of a campaign's save with the battle being fought (the shell's envelope, format 2).
pub fn text_with_battle(game: &SavedGame<CampaignSave>, battle: Option<RunningBattle>) -> String {
    to_ron(&Envelope {
        format: SAVE_FORMAT,
        mode: Mode::Campaign,
        game: game.game.clone(),
        seats: game.seats.clone(),
        save: to_body(&game.save, battle),
    })
}

/// The running battle a campaign save's text holds, with the campaign's final hash (a plain
/// engine save or an envelope without one gives `None`).
pub fn running_battle(name: &str, text: &str) -> Option<(StateHash, RunningBattle)> {
    let envelope: Envelope = parse_ron(name, text).ok()?;
    envelope.save.battle.map(|b| (envelope.save.final_hash, b))
}

/// Writes a campaign's save (with its running battle) to a slot.
pub fn save_slot(slot: &str, game: &SavedGame<CampaignSave>, battle: Option<RunningBattle>) -> Result<(), String> {
    let store = crate::storage::store().map_err(|e| crate::storage::describe(&e))?;
    store.write(slot, &text_with_battle(game, battle)).map_err(|e| crate::storage::describe(&e))
}

/// Writes the campaign's autosave of this campaign turn with the running battle in it.
pub fn autosave(game: &SavedGame<CampaignSave>, turn: u32, battle: Option<RunningBattle>) -> Result<(), String> {
    save_slot(&saves::autosave_key(&game.game, turn), game, battle)?;
    if let Ok(store) = crate::storage::store() {
        saves::prune_autosaves(&store, &game.game, saves::AUTOSAVE_TURNS, saves::AUTOSAVE_GAMES);
    }
    Ok(())
}
