//! The fleet panel: the selected fleet, flotilla or squadron (or a coastal gun in the Fire
//! phase) on the right of the board: its ships with their state, its stance, the mines of its sea
//! area, its cargo and where it lies or is based, and every order at sea or in the air it may be
//! given now. Buttons send the same commands a test sends (`UiCommand::Give`, `UiCommand::Sea`);
//! nothing here changes the rules state or computes what the engine computes (the odds of a fight
//! are shown by the engine's preview before the order is given).

use super::command::UiCommand;
use super::sea_orders::{self, Cargo, SeaCommand, SeaHand, SeaPick};
use super::{GwNames, Selected, fleet};
use crate::i18n::Tr;
use bevy::prelude::*;
use bevy_egui::egui;
use rules::strategic::naval::Detection;
use rules::strategic::naval::model::{Fleet, FleetId, ShipId, ShipType, Squadron};
use rules::strategic::query;
use rules::strategic::{Ctx, ForceId, HexAt, Order, Phase, Piece, PowerId};
use rules::view::Viewer;

/// Draws the fleet panel for the selection, if it is something at sea, in the air or a coastal gun
/// (and says whether it did), in the right column's frame.
#[allow(clippy::too_many_arguments)]
pub fn show(
    ui: &mut egui::Ui,
    tr: &Tr,
    ctx: &Ctx,
    viewer: Option<PowerId>,
    selected: Option<Selected>,
    hand: &SeaHand,
    out: &mut MessageWriter<UiCommand>,
    (open, width, hint): (&mut bool, f32, &str),
) -> bool {
    // Picks made for another selection do not count (they are dropped on the next command).
    let empty = SeaHand::default();
    let hand = if hand.made_for == selected { hand } else { &empty };
    let body: Box<dyn FnOnce(&mut egui::Ui)> = match selected {
        Some(Selected::Fleet(id)) => match fleet(ctx, id) {
            Some(f) => Box::new(move |ui| fleet_body(ui, tr, ctx, viewer, f, hand, out)),
            None => return false,
        },
        Some(Selected::Squadron(id)) => match sea_orders::squadron(ctx, id) {
            Some(s) => Box::new(move |ui| squadron_body(ui, tr, ctx, viewer, s, hand, out)),
            None => return false,
        },
        Some(Selected::Piece(Piece::Unit(unit)))
            if ctx.clock.phase == Phase::Fire && ctx.coastal_range(unit).is_some() =>
        {
            Box::new(move |ui| coastal_body(ui, tr, ctx, viewer, unit, out))
        }
        _ => return false,
    };
    crate::hud::frame::side(ui, crate::hud::frame::Edge::Right, "gw-fleet", open, width, hint, |ui| {
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, body);
    });
    true
}

/// The power's air squadrons, to select one (their bases carry no counter of their own).
pub fn squadron_list(
    ui: &mut egui::Ui,
    tr: &Tr,
    ctx: &Ctx,
    power: PowerId,
    selected: Option<Selected>,
    out: &mut MessageWriter<UiCommand>,
) {
    let own: Vec<&Squadron> =
        ctx.navy.squadrons.iter().filter(|s| s.power == power && s.aircraft > 0 && s.aboard.is_none()).collect();
    if own.is_empty() {
        return;
    }
    egui::CollapsingHeader::new(tr.f("gw.sea.squadrons", &[("n", own.len().to_string())]))
        .id_salt("gw-squadrons")
        .show(ui, |ui| {
            for s in own {
                let on = selected == Some(Selected::Squadron(s.id));
                let text = format!("{} · {}", s.name, tr.place(ctx, s.base));
                if ui.selectable_label(on, text).clicked() {
                    out.write(UiCommand::Select(Selected::Squadron(s.id)));
                }
            }
        });
}

/// The fleets `viewer` may see on a hex, for the hex panel under the pointer.
pub fn hex_fleets(ui: &mut egui::Ui, tr: &Tr, ctx: &Ctx, viewer: Option<PowerId>, at: HexAt) {
    for id in sea_orders::seen_fleets_at(ctx, viewer, at) {
        let Some(f) = fleet(ctx, id) else { continue };
        ui.label(format!(
            "• {} ({}) — {}",
            f.name,
            tr.power(ctx, f.power),
            tr.f("gw.sea.ships", &[("n", ctx.navy.afloat(id).len().to_string())])
        ));
        if let Some(why) = viewer.and_then(|v| detected_words(tr, ctx, v, id)) {
            ui.label(egui::RichText::new(format!("  {why}")).weak());
        }
    }
}

/// How the viewer has found an enemy flotilla shown to it (S-AIR-1, S-SUB-5 house rule).
pub fn detected_words(tr: &Tr, ctx: &Ctx, viewer: PowerId, flotilla: FleetId) -> Option<String> {
    Some(match ctx.detection(viewer, flotilla)? {
        Detection::Reconnaissance(q) => {
            let name = ctx.navy.squadrons.iter().find(|s| s.id == q).map_or_else(String::new, |s| s.name.clone());
            tr.f("gw.sea.found_by_air", &[("squadron", name)])
        }
        Detection::SameSeaArea(own) => {
            tr.f("gw.sea.found_in_area", &[("flotilla", fleet(ctx, own).map_or_else(String::new, |f| f.name.clone()))])
        }
    })
}

fn heading(ui: &mut egui::Ui, text: String) {
    ui.add_space(4.0);
    ui.label(egui::RichText::new(text).strong());
}

fn ship_type(tr: &Tr, kind: ShipType) -> String {
    tr.t(kind.key())
}

/// "Battleship No. 3 (Great Britain)" in the interface's language: the engine's own label.
pub fn ship_name(tr: &Tr, ctx: &Ctx, id: ShipId) -> String {
    tr.msg(&ctx.ship_label(id))
}

/// Where a fleet lies or a squadron is based: the port's or sea area's name.
fn place(tr: &Tr, ctx: &Ctx, at: HexAt) -> String {
    let map = ctx.map();
    let name = |n: &str, ru: &str| if tr.russian() && !ru.is_empty() { ru.to_string() } else { n.to_string() };
    if let Some(c) = map.city_at(at) {
        return tr.f("gw.sea.in_port", &[("port", name(&c.name, &c.name_ru))]);
    }
    // Off a port when one is near, else the sea area (the map's place of the hex, issue 27).
    let key = if map.sea_area_at(at).is_some() { "gw.sea.at_sea" } else { "gw.sea.at" };
    tr.f(key, &[("place", tr.place(ctx, at))])
}

fn cargo_name(ctx: &Ctx, cargo: Cargo) -> String {
    match cargo {
        Cargo::Unit(u) => ctx.name(u),
        Cargo::Squadron(q) => {
            ctx.navy.squadrons.iter().find(|s| s.id == q).map_or_else(String::new, |s| s.name.clone())
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn fleet_body(
    ui: &mut egui::Ui,
    tr: &Tr,
    ctx: &Ctx,
    viewer: Option<PowerId>,
    f: &Fleet,
    hand: &SeaHand,
    out: &mut MessageWriter<UiCommand>,
) {
    let id = f.id;
    let flotilla = ctx.navy.is_flotilla(id);
    let movement = ctx.clock.phase == Phase::Movement;
    let kind = tr.t(if flotilla { "gw.sea.flotilla" } else { "gw.sea.fleet" });
    ui.label(egui::RichText::new(format!("{} — {kind}", f.name)).strong().size(16.0));
    ui.label(place(tr, ctx, f.at));
    ui.label(tr.f("gw.sea.mp", &[("left", f.mp_left.to_string()), ("speed", ctx.navy.speed(id).to_string())]));
    // The stance (S-NAVAL-10, S-NAVAL-11, S-NAVAL-12), any phase.
    heading(ui, tr.t("gw.sea.stance"));
    ui.horizontal_wrapped(|ui| {
        let stance = |intercept, withdraw, transports_first| Order::FleetStance {
            fleet: id,
            intercept,
            withdraw,
            transports_first,
            // S-NAVAL-7: the targets named before are kept.
            targets: ctx.ship_targets(id),
        };
        let (i, w, t) = (f.intercept, f.withdraw, f.transports_first);
        if ui.selectable_label(i, tr.t("gw.fleet.intercept")).clicked() {
            out.write(UiCommand::Give(stance(!i, w, t)));
        }
        if ui.selectable_label(w, tr.t("gw.fleet.withdraw")).clicked() {
            out.write(UiCommand::Give(stance(i, !w, t)));
        }
        if ui.selectable_label(t, tr.t("gw.fleet.transports_first")).clicked() {
            out.write(UiCommand::Give(stance(i, w, !t)));
        }
    });
    // What it did this turn.
    let mut done = Vec::new();
    if f.bombarded {
        done.push(tr.t("gw.sea.bombarded"));
    }
    if f.laid_mine {
        done.push(tr.t("gw.sea.laid_mine"));
    }
    if f.sweeping {
        done.push(tr.t("gw.sea.sweeping"));
    }
    if let Some(lane) = f.patrol.and_then(|l| ctx.navy.lanes.get(l)) {
        done.push(tr.f("gw.sea.patrols", &[("lane", lane.id.clone())]));
    }
    if !done.is_empty() {
        ui.label(egui::RichText::new(done.join(" · ")).weak());
    }
    ships(ui, tr, ctx, id, movement, hand, out);
    mines(ui, tr, ctx, f.at);
    transports(ui, tr, ctx, f, movement, hand, out);
    if movement {
        heading(ui, tr.t("gw.sea.orders"));
        ui.horizontal_wrapped(|ui| {
            // Mines need a minelayer (S-MINE-1), sweeping a minesweeper (S-MINE-4).
            if ctx.navy.count(id, ShipType::Minelayer) > 0 && ui.button(tr.t("gw.fleet.mine")).clicked() {
                out.write(UiCommand::Give(Order::LayMine { fleet: id }));
            }
            if ctx.navy.count(id, ShipType::Minesweeper) > 0 && ui.button(tr.t("gw.fleet.sweep")).clicked() {
                out.write(UiCommand::Give(Order::Sweep { fleet: id }));
            }
            for other in query::merge_partners(ctx, Viewer::of(viewer), id) {
                let name = fleet(ctx, other).map_or_else(String::new, |o| o.name.clone());
                if ui.button(tr.f("gw.sea.merge", &[("fleet", name)])).clicked() {
                    out.write(UiCommand::Give(Order::MergeFleet { fleet: id, into: other }));
                }
            }
        });
    }
    if flotilla && movement {
        submarines(ui, tr, ctx, viewer, f, out);
    }
    if ctx.clock.phase == Phase::Fire && ctx.navy.count(id, ShipType::Battleship) > 0 {
        heading(ui, tr.t("gw.sea.bombard"));
        ui.label(egui::RichText::new(tr.t("gw.sea.bombard_hint")).weak());
    }
    if movement && !flotilla {
        ui.label(egui::RichText::new(tr.t("gw.sea.move_hint")).weak());
    }
}

/// The ships with their state; in the Movement phase, a choice of ships to split off.
fn ships(
    ui: &mut egui::Ui,
    tr: &Tr,
    ctx: &Ctx,
    id: u32,
    movement: bool,
    hand: &SeaHand,
    out: &mut MessageWriter<UiCommand>,
) {
    let afloat = ctx.navy.afloat(id);
    heading(ui, tr.f("gw.sea.ships", &[("n", afloat.len().to_string())]));
    let cargo = sea_orders::cargo(ctx, id);
    let split = movement && afloat.len() > 1;
    egui::Grid::new("gw-fleet-ships").num_columns(3).striped(true).show(ui, |ui| {
        for s in afloat.iter().filter_map(|s| ctx.navy.ship(*s)) {
            let n = ctx.navy.number(s.id).unwrap_or_default().to_string();
            let name = tr.f("gw.sea.ship_no", &[("kind", ship_type(tr, s.kind)), ("n", n)]);
            if split {
                let mut on = hand.ships.contains(&s.id);
                if ui.checkbox(&mut on, name).changed() {
                    out.write(UiCommand::Sea(SeaCommand::ToggleShip(s.id)));
                }
            } else {
                ui.label(name);
            }
            ui.label(
                s.kind.class().map_or_else(|| "—".to_string(), |c| tr.f("gw.sea.class", &[("class", c.to_string())])),
            );
            let mut state = Vec::new();
            if s.hits > 0 {
                state.push(tr.f("gw.sea.hits", &[("hits", s.hits.to_string())]));
            }
            if let Some((_, c)) = cargo.iter().find(|(ship, _)| *ship == s.id) {
                state.push(tr.f("gw.sea.carries", &[("what", cargo_name(ctx, *c))]));
            }
            ui.label(if state.is_empty() { tr.t("gw.sea.sound") } else { state.join(", ") });
            ui.end_row();
        }
    });
    if split {
        let name = fleet(ctx, id).map_or_else(String::new, |f| f.name.clone());
        let chosen = hand.ships.len();
        let button = egui::Button::new(tr.f("gw.sea.split", &[("n", chosen.to_string())]));
        if ui.add(button).clicked() {
            let new = tr.f("gw.sea.split_name", &[("fleet", name)]);
            out.write(UiCommand::Sea(SeaCommand::Split(new)));
        }
    }
}

/// The mines of every power in the fleet's sea area (S-MINE).
fn mines(ui: &mut egui::Ui, tr: &Tr, ctx: &Ctx, at: HexAt) {
    let Some(area) = ctx.map().cell(at).and_then(|c| c.sea_area.checked_sub(1)) else { return };
    let fields: Vec<_> = ctx.navy.mines.iter().filter(|m| m.area == area && m.mines > 0).collect();
    heading(ui, tr.t("gw.sea.mines"));
    if fields.is_empty() {
        ui.label(egui::RichText::new(tr.t("gw.sea.no_mines")).weak());
    }
    for m in fields {
        ui.label(tr.f(
            "gw.sea.minefield",
            &[("power", tr.power(ctx, m.power)), ("mines", m.mines.to_string()), ("swept", m.swept.to_string())],
        ));
    }
}

/// Cargo to land, and land units and squadrons that may embark (S-NAVAL-11).
fn transports(
    ui: &mut egui::Ui,
    tr: &Tr,
    ctx: &Ctx,
    f: &Fleet,
    movement: bool,
    hand: &SeaHand,
    out: &mut MessageWriter<UiCommand>,
) {
    let cargo = sea_orders::cargo(ctx, f.id);
    // Asked as the power to act: only its own fleet embarks anything.
    let asker = Viewer::Player(ctx.active_power());
    let units = query::embark_candidates(ctx, asker, f.id);
    let squadrons = query::squadron_embark_candidates(ctx, asker, f.id);
    if cargo.is_empty() && (!movement || units.is_empty() && squadrons.is_empty()) {
        return;
    }
    heading(ui, tr.t("gw.sea.transport"));
    for (_, c) in &cargo {
        ui.horizontal(|ui| {
            ui.label(cargo_name(ctx, *c));
            let pick = match c {
                Cargo::Unit(u) => SeaPick::Disembark(*u),
                Cargo::Squadron(q) => SeaPick::LandSquadron(*q),
            };
            if movement && ui.selectable_label(hand.pick == Some(pick), tr.t("gw.sea.land")).clicked() {
                out.write(UiCommand::Sea(SeaCommand::Pick(pick)));
            }
        });
    }
    if hand.pick.is_some() {
        ui.label(egui::RichText::new(tr.t("gw.sea.land_hint")).color(egui::Color32::YELLOW));
    }
    if !movement {
        return;
    }
    let price = ctx.scenario().rules.economy.transport.to_string();
    // S-NAVAL-11, S-NAVAL-2: a transport is bought for each; where none can be (no room in the
    // fleet, no money), the buttons are off and say why.
    let transport = ctx.transport_check(f.id);
    if let Err(why) = &transport {
        ui.label(egui::RichText::new(tr.line(ctx, &why.line())).color(egui::Color32::from_rgb(230, 170, 120)));
    }
    let embark = |ui: &mut egui::Ui, what: String| {
        ui.add_enabled(
            transport.is_ok(),
            egui::Button::new(tr.f("gw.sea.embark", &[("what", what), ("price", price.clone())])),
        )
        .clicked()
    };
    for u in units {
        if embark(ui, ctx.name(u)) {
            out.write(UiCommand::Give(Order::Embark { unit: u, fleet: f.id }));
        }
    }
    for q in squadrons {
        let name = sea_orders::squadron(ctx, q).map_or_else(String::new, |s| s.name.clone());
        if embark(ui, name) {
            out.write(UiCommand::Give(Order::EmbarkSquadron { squadron: q, fleet: f.id }));
        }
    }
}

/// A flotilla's targets and the sea lanes it may patrol (S-SUB, S-NAVAL-15).
fn submarines(
    ui: &mut egui::Ui,
    tr: &Tr,
    ctx: &Ctx,
    viewer: Option<PowerId>,
    f: &Fleet,
    out: &mut MessageWriter<UiCommand>,
) {
    heading(ui, tr.t("gw.sea.torpedo"));
    let targets = query::torpedo_targets(ctx, Viewer::of(viewer), f.id);
    if targets.is_empty() {
        ui.label(egui::RichText::new(tr.t("gw.sea.no_targets")).weak());
    }
    for t in targets {
        let Some(target) = fleet(ctx, t) else { continue };
        // S-SUB-5: boats against boats are duels, not the stealth test of S-SUB-2.
        let key = if ctx.navy.is_flotilla(t) { "gw.sea.duel" } else { "gw.sea.attack_fleet" };
        let text = tr.f(key, &[("fleet", target.name.clone()), ("ships", ctx.navy.afloat(t).len().to_string())]);
        if ui.button(text).clicked() {
            out.write(UiCommand::Sea(SeaCommand::Torpedo(t)));
        }
    }
    heading(ui, tr.t("gw.sea.lanes"));
    let area = ctx.map().cell(f.at).map_or(0, |c| c.sea_area);
    for (i, lane) in ctx.navy.lanes.iter().enumerate() {
        let area_name = ctx.map().sea_areas.get(usize::from(lane.area)).map_or_else(String::new, |a| {
            if tr.russian() && !a.name_ru.is_empty() { a.name_ru.clone() } else { a.name.clone() }
        });
        // The efficiency as the engine computes it now (S-NAVAL-15), of the lane's full value.
        let text = tr.f(
            "gw.sea.lane",
            &[
                ("lane", lane.id.clone()),
                ("area", area_name),
                ("owner", tr.power(ctx, lane.owner)),
                ("now", ctx.lane_efficiency(i).to_string()),
                ("full", lane.efficiency.to_string()),
            ],
        );
        ui.horizontal_wrapped(|ui| {
            ui.label(text);
            let here = area == lane.area + 1;
            let on = f.patrol == Some(i);
            if ui.add_enabled(here && !on, egui::Button::new(tr.t("gw.sea.patrol"))).clicked() {
                out.write(UiCommand::Give(Order::Patrol { flotilla: f.id, lane: i as u32 }));
            }
        });
    }
}

#[allow(clippy::too_many_arguments)]
fn squadron_body(
    ui: &mut egui::Ui,
    tr: &Tr,
    ctx: &Ctx,
    viewer: Option<PowerId>,
    s: &Squadron,
    hand: &SeaHand,
    out: &mut MessageWriter<UiCommand>,
) {
    let kind = tr.t(if s.recon { "gw.sea.recon_squadron" } else { "gw.sea.bomber_squadron" });
    ui.label(egui::RichText::new(format!("{} — {kind}", s.name)).strong().size(16.0));
    ui.label(tr.f("gw.sea.base", &[("place", place(tr, ctx, s.base))]));
    ui.label(tr.f(
        "gw.sea.squadron",
        &[("aircraft", s.aircraft.to_string()), ("radius", s.radius.to_string()), ("bombing", s.bombing.to_string())],
    ));
    if s.flew {
        ui.label(egui::RichText::new(tr.t("gw.sea.flew")).weak());
    }
    // S-ARMY-2: attached to a corps or army it flies from the formation's hexes; the engine
    // names the formations it may join now.
    let mine = viewer.is_none_or(|v| v == s.power) && ctx.active_power() == s.power;
    let movement = ctx.clock.phase == Phase::Movement;
    if let Some(fm) = s.attached {
        ui.horizontal_wrapped(|ui| {
            ui.label(tr.f("gw.sea.attached_to", &[("formation", tr.formation(ctx, fm))]));
            let order = Order::AttachSquadron { squadron: s.id, formation: None };
            if ui.add_enabled(mine && movement, egui::Button::new(tr.t("gw.sea.detach"))).clicked() {
                out.write(UiCommand::Give(order));
            }
        });
    } else if mine && movement {
        let to = query::squadron_attach_candidates(ctx, Viewer::of(viewer), s.id);
        if !to.is_empty() {
            heading(ui, tr.t("gw.sea.attach"));
        }
        for fm in to {
            if ui.button(tr.f("gw.sea.attach_to", &[("formation", tr.formation(ctx, fm))])).clicked() {
                out.write(UiCommand::Give(Order::AttachSquadron { squadron: s.id, formation: Some(fm) }));
            }
        }
    }
    if ctx.clock.phase != Phase::Fire {
        ui.label(egui::RichText::new(tr.t("gw.sea.fly_hint")).weak());
        return;
    }
    if s.recon {
        if ui.button(tr.f("gw.sea.reconnaissance", &[("radius", s.radius.to_string())])).clicked() {
            out.write(UiCommand::Sea(SeaCommand::Reconnaissance));
        }
        return;
    }
    let wing = query::wing_candidates(ctx, Viewer::of(viewer), s.id);
    if !wing.is_empty() {
        heading(ui, tr.t("gw.sea.wing"));
        for w in wing {
            let Some(other) = sea_orders::squadron(ctx, w) else { continue };
            let mut on = hand.wing.contains(&w);
            let text =
                tr.f("gw.sea.wing_member", &[("name", other.name.clone()), ("bombing", other.bombing.to_string())]);
            if ui.checkbox(&mut on, text).changed() {
                out.write(UiCommand::Sea(SeaCommand::ToggleWing(w)));
            }
        }
    }
    heading(ui, tr.t("gw.sea.bomb"));
    // The targets of the bombing as the wing now stands (S-AIR-2: range and summed bombing).
    let targets = query::bomb_targets(ctx, Viewer::of(viewer), &sea_orders::bombers(hand, s.id));
    if targets.is_empty() {
        ui.label(egui::RichText::new(tr.t("gw.sea.no_targets")).weak());
    }
    for ship in targets {
        if ui.button(ship_name(tr, ctx, ship)).clicked() {
            out.write(UiCommand::Sea(SeaCommand::Bomb(ship)));
        }
    }
}

fn coastal_body(
    ui: &mut egui::Ui,
    tr: &Tr,
    ctx: &Ctx,
    viewer: Option<PowerId>,
    unit: ForceId,
    out: &mut MessageWriter<UiCommand>,
) {
    let Some((_, range)) = ctx.coastal_range(unit) else { return };
    ui.label(egui::RichText::new(ctx.name(unit)).strong().size(16.0));
    heading(ui, tr.f("gw.sea.coastal", &[("range", range.to_string())]));
    let targets = query::coastal_targets(ctx, Viewer::of(viewer), unit);
    if targets.is_empty() {
        ui.label(egui::RichText::new(tr.t("gw.sea.no_targets")).weak());
    }
    for ship in targets {
        if ui.button(ship_name(tr, ctx, ship)).clicked() {
            out.write(UiCommand::Sea(SeaCommand::CoastalFire(ship)));
        }
    }
}

/// The sea and air orders in a few words, for the preview window.
pub fn order_words(tr: &Tr, ctx: &Ctx, order: &Order) -> Option<String> {
    let fleet_name = |id: u32| ctx.navy.fleet(id).map_or_else(|| id.to_string(), |f| f.name.clone());
    let squadron_name =
        |id: u32| ctx.navy.squadrons.iter().find(|s| s.id == id).map_or_else(|| id.to_string(), |s| s.name.clone());
    Some(match order {
        Order::SubmarineAttack { flotilla, target } => {
            let key = if ctx.navy.is_flotilla(*target) { "gw.order.duel" } else { "gw.order.torpedo" };
            tr.f(key, &[("flotilla", fleet_name(*flotilla)), ("fleet", fleet_name(*target))])
        }
        Order::Bomb { squadrons, ship } => tr.f(
            "gw.order.bomb",
            &[
                ("squadrons", squadrons.iter().map(|s| squadron_name(*s)).collect::<Vec<_>>().join(", ")),
                ("ship", ship_name(tr, ctx, *ship)),
            ],
        ),
        Order::CoastalFire { unit, ship } => {
            tr.f("gw.order.coastal", &[("unit", ctx.name(*unit)), ("ship", ship_name(tr, ctx, *ship))])
        }
        Order::Reconnaissance { squadron } => tr.f("gw.order.recon", &[("squadron", squadron_name(*squadron))]),
        _ => return None,
    })
}
