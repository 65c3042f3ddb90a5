//! The Great War played online (`crate::net`): a power's seat, its leader's or a general's, plays
//! on the war its power knows (`rules::view::Mirror`), each view made on the static data of the
//! one before (the map of Europe is read once). Its table names the power's armies, the corps
//! outside an army and its fleets, for the leader to give its generals (S-ARMY-3).

use super::{GwNames, files};
use crate::i18n::Tr;
use crate::net::command::Roster;
use crate::net::order_json as json;
use crate::net::rulings::{Question, Rulings};
use crate::net::{Online, OnlineGame};
use crate::session::Session;
use bevy::prelude::*;
use rules::moderation::Asked;
use rules::strategic::order::Ruling;
use rules::strategic::state::FormationKind;
use rules::strategic::{Event, ForceId, GreatWar, Order, PowerId, Scenario, WarView};
use rules::view::{Seen, ViewError};
use std::sync::Arc;

pub(super) fn plugin(app: &mut App) {
    crate::net::plugin_for::<GreatWar>(app);
    app.add_systems(Update, roster.after(crate::AppSystems::Input));
    #[cfg(target_arch = "wasm32")]
    app.add_systems(Update, fetch_for_seat.in_set(crate::AppSystems::Input));
}

/// In the browser, a seat of a large scenario (August 1914) waits for its files: the page fetches
/// them (as it does when the scenario is chosen at one screen) and keeps them; a fetch that fails
/// says why and the seat is not played.
#[cfg(target_arch = "wasm32")]
fn fetch_for_seat(online: Option<ResMut<Online>>, mut asked: Local<Option<String>>) {
    let Some(mut online) = online else { return };
    if online.kind != GreatWar::KIND {
        return;
    }
    let Ok(path) = crate::net::scenario_file(&online.scenario) else { return };
    let missing = files::missing(&path);
    if missing.is_empty() {
        return;
    }
    if asked.as_deref() != Some(path.as_str()) {
        *asked = Some(path.clone());
        if !crate::web::start_fetch(&missing) {
            online.fail(format!("the page cannot fetch {path}'s files"));
        }
        return;
    }
    if let Some(e) = crate::web::take_fetch_error() {
        online.fail(format!("{path}: {e}"));
        return;
    }
    for (p, text) in crate::web::take_fetched(&missing).unwrap_or_default() {
        files::keep_downloaded(&p, text);
    }
}

impl OnlineGame for GreatWar {
    const KIND: &'static str = "great_war";

    /// A shipped scenario by its plain path under the scenarios folder (in the browser, one in
    /// the download or fetched already).
    fn load_online(path: &str) -> Result<Scenario, String> {
        files::load_scenario(&crate::net::scenario_file(path)?)
    }

    /// In the browser, a large scenario's files come first (see `fetch_for_seat`).
    fn ready(path: &str) -> bool {
        crate::net::scenario_file(path).map_or(true, |f| files::missing(&f).is_empty())
    }

    fn open(seen: Seen<Event>) -> Option<Event> {
        seen.event().cloned()
    }

    fn rulings(&self, tr: &Tr) -> Rulings {
        rulings_of(self, tr)
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
pub fn roster_of(game: &GreatWar, power: PowerId, tr: &Tr) -> Roster {
    let ctx = game.ctx();
    let in_army = |id| ctx.formations.iter().any(|a| a.kind == FormationKind::Army && a.corps.contains(&id));
    Roster {
        rule: "S-ARMY-3",
        formations: ctx
            .formations
            .iter()
            .filter(|f| f.power == power && (f.kind == FormationKind::Army || !in_army(f.id)))
            .map(|f| (f.id.0, tr.formation(&ctx, f.id)))
            .collect(),
        fleets: ctx.navy.fleets.iter().filter(|f| f.power == power).map(|f| (f.id, f.name.clone())).collect(),
    }
}

fn roster(
    online: Option<Res<Online>>,
    session: Option<Res<Session<GreatWar>>>,
    tr: Res<Tr>,
    mut roster: ResMut<Roster>,
) {
    let (Some(online), Some(session)) = (online, session) else { return };
    if online.kind != GreatWar::KIND || !(session.is_changed() || tr.is_changed()) {
        return;
    }
    let Some(power) = session.remote.as_ref().and_then(|r| r.commands) else { return };
    let fresh = roster_of(&session.game, power, &tr);
    if *roster != fresh {
        *roster = fresh;
    }
}

/// What the Great War leaves to its moderator (S-COMBAT-3: which blocks in reach are brought up
/// to support each engagement), and the question while the Combat phase waits for the ruling:
/// each engagement's sides with their blocks (an army, or the units on one hex), named by
/// their units; a block ticked is kept out.
pub fn rulings_of(game: &GreatWar, tr: &Tr) -> Rulings {
    let ctx = game.ctx();
    let question = ctx.clock.support_asked.then(|| {
        let ticks = ctx
            .support_question()
            .iter()
            .enumerate()
            .flat_map(|(n, sides)| {
                let ctx = &ctx;
                sides.iter().map(move |blocks| {
                    // The side's powers, in the order of play (an alliance's blocks may be of two).
                    let mut powers: Vec<PowerId> =
                        blocks.iter().flatten().filter_map(|u| ctx.force(*u)).map(|f| f.power).collect();
                    powers.sort();
                    powers.dedup();
                    let names: Vec<String> = powers.iter().map(|p| tr.power(ctx, *p)).collect();
                    let group =
                        tr.f("ui.rulings.engagement_side", &[("n", (n + 1).to_string()), ("power", names.join(", "))]);
                    let pieces = blocks
                        .iter()
                        .filter_map(|b| {
                            let names: Vec<String> = b.iter().map(|u| tr.unit(ctx, *u)).collect();
                            Some((b.first()?.0, names.join(", ")))
                        })
                        .collect();
                    (group, pieces)
                })
            })
            .collect();
        let withhold: crate::net::rulings::Ticked = Arc::new(|ids: &[u32]| {
            json(&Order::Rule(Ruling::Support { withheld: ids.iter().map(|i| ForceId(*i)).collect() }))
        });
        Question {
            rule: Asked::Support.rule(),
            text: tr.t("ui.rulings.support_question"),
            ticks,
            with_ticks: Some((tr.t("ui.rulings.support_withhold"), withhold)),
            answers: vec![(tr.t("ui.rulings.support_default"), json(&Order::Rule(Ruling::Default)))],
        }
    });
    Rulings {
        kinds: vec![(Asked::Support, ctx.clock.ask_support)],
        set_asks: Some(|asks| json(&Order::Moderate { asks })),
        question,
    }
}
