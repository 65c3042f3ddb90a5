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
    pub formations: Vec<(u32, String)>,
    pub fleets: Vec<(u32, String)>,
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
            ui.label(egui::RichText::new(tr.t("ui.command.heading")).strong());
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
            ui.label(egui::RichText::new(tr.t("ui.command.heading_leader")).strong());
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
