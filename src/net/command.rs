//! A leader's command of its generals (S-ARMY-3: orders go to armies, and a general commands the
//! armies and fleets its leader gives it), in the seat's table: the leader ticks, for each of its
//! general seats, the armies (corps outside an army) and fleets that general holds, and the
//! server is told at once; a general reads what it holds. The scene names the pieces
//! ([`Roster`]); the server decides who may order what.

use super::Online;
use crate::i18n::Tr;
use bevy::prelude::*;
use bevy_egui::egui;
use std::collections::BTreeMap;
use wire::Role;

/// The pieces a seat's player may give its generals, as its scene names them (the Great War: its
/// armies and the corps outside an army, its fleets); empty where the game has none.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct Roster {
    /// The rule by which a leader gives its generals their command (S-ARMY-3, T-STRAT-3).
    pub rule: &'static str,
    pub formations: Vec<(u32, String)>,
    pub fleets: Vec<(u32, String)>,
}

impl Roster {
    /// The rule in brackets after the heading (none where the scene names none).
    fn rule_words(&self) -> String {
        if self.rule.is_empty() { String::new() } else { format!(" ({})", self.rule) }
    }
}

/// What holds a piece, for the seats (S-ARMY-3): a formation (its army, else its corps), a fleet,
/// or its player's leader (a unit in no formation, an air squadron).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holder {
    Formation(u32),
    Fleet(u32),
    Leader,
}

/// What this seat may order where generals share its player's pieces: a general the formations
/// and fleets it holds; a leader the rest (those its generals hold are theirs). Elsewhere (no
/// generals, or not online) every piece of the player.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct SeatCommand(pub Option<Holds>);

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holds {
    /// A general's seat (else its player's leader's).
    pub general: bool,
    /// A general's: what it holds; a leader's: what its generals hold.
    pub formations: Vec<u32>,
    pub fleets: Vec<u32>,
}

impl SeatCommand {
    /// Whether the seat may order a piece of this holder (the server decides; the board offers
    /// only what it would take).
    ///
    /// ```
    /// use kriegsspiel::net::command::{Holder, Holds, SeatCommand};
    ///
    /// let moltke = SeatCommand(Some(Holds { general: true, formations: vec![201], fleets: vec![] }));
    /// assert!(moltke.may_order(Holder::Formation(201)) && !moltke.may_order(Holder::Leader));
    /// let kaiser = SeatCommand(Some(Holds { general: false, formations: vec![201], fleets: vec![] }));
    /// assert!(!kaiser.may_order(Holder::Formation(201)) && kaiser.may_order(Holder::Formation(202)));
    /// assert!(SeatCommand(None).may_order(Holder::Fleet(3)));
    /// ```
    pub fn may_order(&self, holder: Holder) -> bool {
        let Some(h) = &self.0 else { return true };
        let listed = match holder {
            Holder::Formation(f) => h.formations.contains(&f),
            Holder::Fleet(f) => h.fleets.contains(&f),
            Holder::Leader => return !h.general,
        };
        listed == h.general
    }

    /// The seat's command as the server last told the seats.
    pub fn of(online: &Online) -> SeatCommand {
        let Some(me) = &online.seat else { return SeatCommand(None) };
        match &me.role {
            Role::General { formations, fleets, .. } => {
                SeatCommand(Some(Holds { general: true, formations: formations.clone(), fleets: fleets.clone() }))
            }
            Role::Player { .. } => {
                let generals = my_generals(online);
                if generals.is_empty() {
                    return SeatCommand(None);
                }
                let mut formations: Vec<u32> = generals.iter().flat_map(|g| g.2.iter().copied()).collect();
                let mut fleets: Vec<u32> = generals.iter().flat_map(|g| g.3.iter().copied()).collect();
                formations.sort_unstable();
                fleets.sort_unstable();
                SeatCommand(Some(Holds { general: false, formations, fleets }))
            }
            Role::Moderator | Role::Observer { .. } => SeatCommand(None),
        }
    }
}

/// Keeps [`SeatCommand`] as the server tells the seats (none once the seat is left).
pub(super) fn follow_command(online: Option<Res<Online>>, mut command: ResMut<SeatCommand>) {
    let fresh = online.as_deref().map_or(SeatCommand(None), SeatCommand::of);
    if *command != fresh {
        *command = fresh;
    }
}

/// What a leader ticked for its generals and the server has not yet told back: by general
/// seat, since the seats were last told (`Online::seats_told`; the server's word replaces them).
#[derive(Default, Debug, Clone, PartialEq, Eq)]
pub struct Drafts {
    told: u64,
    by_seat: BTreeMap<u32, (Vec<u32>, Vec<u32>)>,
}

/// The general seats of the seat's player, with what each holds as the seat was last told.
pub fn my_generals(online: &Online) -> Vec<(u32, String, Vec<u32>, Vec<u32>)> {
    let player = online.seat.as_ref().and_then(|s| s.role.commands().map(str::to_string));
    online
        .seats
        .iter()
        .filter_map(|s| match &s.role {
            Role::General { player: p, formations, fleets } if Some(p) == player.as_ref() => {
                Some((s.seat, s.name.clone(), formations.clone(), fleets.clone()))
            }
            _ => None,
        })
        .collect()
}

fn toggle(list: &mut Vec<u32>, id: u32, on: bool) {
    list.retain(|x| *x != id);
    if on {
        list.push(id);
        list.sort_unstable();
    }
}

/// The table's section: a leader's ticks for each general, a general's command.
pub fn section(ui: &mut egui::Ui, tr: &Tr, online: &mut Online, roster: &Roster, drafts: &mut Drafts) {
    let Some(me) = online.seat.clone() else { return };
    let name_of = |list: &[(u32, String)], id: u32| {
        list.iter().find(|(i, _)| *i == id).map_or_else(|| format!("#{id}"), |(_, n)| n.clone())
    };
    match &me.role {
        Role::General { formations, fleets, .. } => {
            ui.label(egui::RichText::new(tr.f("ui.command.heading", &[("rule", roster.rule_words())])).strong());
            let mut held: Vec<String> = formations.iter().map(|f| name_of(&roster.formations, *f)).collect();
            held.extend(fleets.iter().map(|f| name_of(&roster.fleets, *f)));
            if held.is_empty() {
                ui.label(egui::RichText::new(tr.t("ui.command.nothing_yet")).weak());
            } else {
                ui.label(tr.f("ui.command.yours", &[("pieces", held.join(", "))]));
            }
        }
        Role::Player { .. } => {
            let generals = my_generals(online);
            if generals.is_empty() || (roster.formations.is_empty() && roster.fleets.is_empty()) {
                return;
            }
            ui.label(egui::RichText::new(tr.f("ui.command.heading_leader", &[("rule", roster.rule_words())])).strong());
            if drafts.told != online.seats_told {
                *drafts = Drafts { told: online.seats_told, by_seat: BTreeMap::new() };
            }
            let mut given = None;
            for (seat, name, formations, fleets) in &generals {
                let (mut f, mut s) =
                    drafts.by_seat.get(seat).cloned().unwrap_or_else(|| (formations.clone(), fleets.clone()));
                let mut changed = false;
                ui.horizontal_wrapped(|ui| {
                    ui.label(format!("{}:", super::seat_words(tr, name)));
                    for (id, label) in &roster.formations {
                        let mut on = f.contains(id);
                        if ui.checkbox(&mut on, label).changed() {
                            toggle(&mut f, *id, on);
                            changed = true;
                        }
                    }
                    for (id, label) in &roster.fleets {
                        let mut on = s.contains(id);
                        if ui.checkbox(&mut on, label).changed() {
                            toggle(&mut s, *id, on);
                            changed = true;
                        }
                    }
                });
                if changed {
                    given = Some((*seat, f, s));
                }
            }
            if let Some((seat, f, s)) = given {
                online.refused = None;
                online.assign(seat, f.clone(), s.clone());
                // An army has one commander (S-ARMY-3): the server takes what is given from
                // the other generals, and so do the ticks until it tells back.
                for (other, _, formations, fleets) in &generals {
                    if *other != seat {
                        let (of, os) =
                            drafts.by_seat.get(other).cloned().unwrap_or_else(|| (formations.clone(), fleets.clone()));
                        let kept = (
                            of.into_iter().filter(|x| !f.contains(x)).collect(),
                            os.into_iter().filter(|x| !s.contains(x)).collect(),
                        );
                        drafts.by_seat.insert(*other, kept);
                    }
                }
                drafts.by_seat.insert(seat, (f, s));
            }
        }
        Role::Moderator | Role::Observer { .. } => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tick_keeps_the_list_sorted_and_each_piece_once() {
        let mut list = vec![201];
        toggle(&mut list, 105, true);
        toggle(&mut list, 105, true);
        assert_eq!(list, vec![105, 201]);
        toggle(&mut list, 201, false);
        assert_eq!(list, vec![105]);
    }
}
