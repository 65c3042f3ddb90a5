//! The Great War played online (`crate::net`): a power's seat, its leader's or a general's, plays
//! on the war its power knows (`rules::view::Mirror`), each view made on the static data of the
//! one before (the map of Europe is read once). Its table names the power's armies, the corps
//! outside an army and its fleets, for the leader to give its generals (S-ARMY-3).

use super::files;
use crate::net::command::Roster;
use crate::net::{Online, OnlineGame};
use crate::session::Session;
use bevy::prelude::*;
use rules::strategic::state::FormationKind;
use rules::strategic::{Event, GreatWar, PowerId, Scenario, WarView};
use rules::view::{Seen, ViewError};

pub(super) fn plugin(app: &mut App) {
    crate::net::plugin_for::<GreatWar>(app);
    app.add_systems(Update, roster.after(crate::AppSystems::Input));
}

impl OnlineGame for GreatWar {
    const KIND: &'static str = "great_war";

    /// A shipped scenario by its plain path under the scenarios folder (in the browser, one in
    /// the download or fetched already).
    fn load_online(path: &str) -> Result<Scenario, String> {
        if !crate::net::plain_scenario_path(path) {
            return Err(format!("`{path:.128}` is not a scenario's path"));
        }
        files::load_scenario(&format!("scenarios/{path}"))
    }

    fn open(seen: Seen<Event>) -> Option<Event> {
        seen.event().cloned()
    }

    /// The scenario's power ID, as the server names the power.
    fn player_id(&self, player: PowerId) -> String {
        self.scenario().powers.get(usize::from(player.0)).map_or_else(|| format!("power{}", player.0), |p| p.id.clone())
    }

    fn mirror(scenario: &Scenario, last: Option<&GreatWar>, view: &WarView) -> Result<GreatWar, ViewError> {
        match last.map(GreatWar::statics).filter(|s| s.scenario_hash == view.scenario) {
            Some(statics) => GreatWar::from_view_shared(statics, view),
            None => <GreatWar as rules::view::Mirror>::from_view(scenario, view),
        }
    }
}

/// The pieces of the seat's power its leader may give a general: its armies and the corps in no
/// army, and its fleets, by their names.
pub fn roster_of(game: &GreatWar, power: PowerId) -> Roster {
    let ctx = game.ctx();
    let in_army = |id| ctx.formations.iter().any(|a| a.kind == FormationKind::Army && a.corps.contains(&id));
    Roster {
        formations: ctx
            .formations
            .iter()
            .filter(|f| f.power == power && (f.kind == FormationKind::Army || !in_army(f.id)))
            .map(|f| (f.id.0, f.name.clone()))
            .collect(),
        fleets: ctx.navy.fleets.iter().filter(|f| f.power == power).map(|f| (f.id, f.name.clone())).collect(),
    }
}

fn roster(online: Option<Res<Online>>, session: Option<Res<Session<GreatWar>>>, mut roster: ResMut<Roster>) {
    let (Some(online), Some(session)) = (online, session) else { return };
    if online.kind != GreatWar::KIND || !session.is_changed() {
        return;
    }
    let Some(power) = session.remote.as_ref().and_then(|r| r.commands) else { return };
    let fresh = roster_of(&session.game, power);
    if *roster != fresh {
        *roster = fresh;
    }
}
