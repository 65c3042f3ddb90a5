//! The army panel: a power's armies with their corps and divisions, attached artillery and
//! off-map reserves (S-ARMY-2, S-ARMY-5, S-ARMY-6), supply (S-SUP-2, S-SUP-3, the S-SUP-4
//! priority) and the turns each unit has spent on the front line against its rotation period
//! (S-SUP-6); then corps in no army and independent units.

use super::command::UiCommand;
use super::land_orders::{LandCommand, Pick};
use super::{GwNames, Selected};
use crate::hud::card::{Card, pointer_card};
use crate::i18n::Tr;
use bevy::prelude::*;
use bevy_egui::egui;
use rules::strategic::state::{Force, ForceKind, FormationKind, Place};
use rules::strategic::upkeep::rotation_period;
use rules::strategic::{Ctx, ForceId, FormationId, Order, Phase, Piece, PowerId};

/// A unit's S-SUP-6 standing: Upkeeps in a row ended on the front line, and the period after
/// which each further one costs 1 Morale (2 independent, 3 in a corps, 4 in an army).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rotation {
    pub turns: u16,
    pub period: u16,
    /// Within [`FRONT_LINE_HEXES`](rules::strategic::upkeep::FRONT_LINE_HEXES) of an enemy land unit now.
    pub on_front: bool,
}

impl Rotation {
    /// The engine's count ([`rules::strategic::query::rotation`]); a unit it does not count (a
    /// gun) stands at its turns and period, never due.
    pub fn of(ctx: &Ctx, f: &Force) -> Rotation {
        match rules::strategic::query::rotation(ctx, f) {
            Some(r) => Rotation { turns: r.turns, period: r.period, on_front: r.on_front },
            None => Rotation { turns: f.front.turns, period: rotation_period(f), on_front: false },
        }
    }

    /// Ending the next Upkeep on the front line costs Morale: the unit wants relieving.
    pub fn due(self) -> bool {
        self.on_front && self.turns >= self.period
    }
}

/// One unit's line: Health, Morale, supply, front-line turns.
pub fn unit_line(tr: &Tr, ctx: &Ctx, f: &Force) -> (String, bool) {
    let health =
        tr.f("gw.army.health", &[("n", f.vitals.health.to_string()), ("max", f.vitals.max_health.to_string())]);
    let mut words = vec![format!("{} — {health}", tr.unit(ctx, f.id))];
    if let (Some(m), Some(mm)) = (f.vitals.morale, f.vitals.max_morale) {
        words.push(tr.f("gw.army.morale", &[("n", m.to_string()), ("max", mm.to_string())]));
    }
    if !f.supply.money {
        words.push(tr.t("gw.army.unpaid"));
    }
    if !f.supply.ammo {
        words.push(tr.t("gw.army.no_ammo"));
    }
    if f.front.encircled > 0 {
        words.push(tr.f("gw.army.encircled", &[("n", f.front.encircled.to_string())]));
    }
    let r = Rotation::of(ctx, f);
    if r.on_front || r.turns > 0 {
        words.push(tr.f("gw.army.front", &[("turns", r.turns.to_string()), ("period", r.period.to_string())]));
    }
    if r.due() {
        words.push(tr.t("gw.army.rotate"));
    }
    (words.join(" · "), r.due())
}

fn units_ui(ui: &mut egui::Ui, tr: &Tr, ctx: &Ctx, units: &[ForceId]) {
    for f in units.iter().filter_map(|u| ctx.force(*u)) {
        let (line, due) = unit_line(tr, ctx, f);
        let text = egui::RichText::new(format!("• {line}")).size(12.5);
        let shown = ui.label(if due { text.color(egui::Color32::from_rgb(240, 170, 90)) } else { text });
        if shown.hovered() {
            pointer_card(ui.ctx(), &unit_card(tr, ctx, f), 8);
        }
    }
}

/// Attached artillery (S-ARMY-5): each gun's line and, in its power's Fire phase, a button that
/// selects it to fire (a click on a hex in its range then fires it, after the preview).
fn guns_ui(ui: &mut egui::Ui, tr: &Tr, ctx: &Ctx, guns: &[ForceId], human: bool, give: &mut MessageWriter<UiCommand>) {
    let ready = guns.first().and_then(|g| ctx.force(*g)).map(|g| ctx.guns_ready(g.power)).unwrap_or_default();
    for f in guns.iter().filter_map(|u| ctx.force(*u)) {
        ui.horizontal_wrapped(|ui| {
            let (line, _) = unit_line(tr, ctx, f);
            let shown = ui.label(egui::RichText::new(format!("• {line}")).size(12.5));
            if shown.hovered() {
                pointer_card(ui.ctx(), &unit_card(tr, ctx, f), 8);
            }
            if human && ready.contains(&f.id) && ui.button(tr.t("gw.army.fire")).clicked() {
                give.write(UiCommand::Select(Selected::Piece(Piece::Unit(f.id))));
            }
        });
    }
}

/// A unit's card (the shell's unit card): its kind and power, Health, Morale, movement left,
/// supply and front-line turns.
pub fn unit_card(tr: &Tr, ctx: &Ctx, f: &Force) -> Card {
    let kind = match f.kind {
        ForceKind::Infantry { class, mountain, elite, .. } => {
            let key = if mountain {
                "gw.card.mountain"
            } else if elite {
                "gw.card.elite"
            } else {
                "gw.card.infantry"
            };
            tr.f(key, &[("class", class.to_string())])
        }
        ForceKind::Cavalry { class, .. } => tr.f("gw.card.cavalry", &[("class", class.to_string())]),
        ForceKind::Tank { tank } => {
            ctx.scenario().units.tanks.get(usize::from(tank)).map_or_else(String::new, |t| t.name.clone())
        }
        ForceKind::Artillery { gun } => {
            ctx.scenario().units.guns.get(usize::from(gun)).map_or_else(String::new, |g| g.name.clone())
        }
    };
    let c = super::art::power_colour(
        ctx.scenario().powers.get(usize::from(f.power.0)).map_or("", |p| p.id.as_str()),
        usize::from(f.power.0),
    )
    .to_srgba();
    let r = Rotation::of(ctx, f);
    let mut rows = vec![(tr.t("gw.card.health"), format!("{}/{}", f.vitals.health, f.vitals.max_health))];
    if let (Some(m), Some(mm)) = (f.vitals.morale, f.vitals.max_morale) {
        rows.push((tr.t("gw.card.morale"), format!("{m}/{mm}")));
    }
    rows.push((tr.t("gw.card.mp"), f.activity.mp_left.to_string()));
    let supply = match (f.supply.money, f.supply.ammo) {
        (true, true) => tr.t("gw.card.supplied"),
        (false, _) => tr.t("gw.army.unpaid"),
        (true, false) => tr.t("gw.army.no_ammo"),
    };
    rows.push((tr.t("gw.card.supply"), format!("{supply} (S-SUP-2, S-SUP-3)")));
    rows.push((
        tr.t("gw.card.front"),
        tr.f("gw.card.front_turns", &[("turns", r.turns.to_string()), ("period", r.period.to_string())]),
    ));
    let mut notes = Vec::new();
    if r.due() {
        notes.push(tr.t("gw.army.rotate"));
    }
    Card {
        title: tr.unit(ctx, f.id),
        subtitle: format!("{kind} · {}", tr.power(ctx, f.power)),
        colour: [(c.red * 255.0) as u8, (c.green * 255.0) as u8, (c.blue * 255.0) as u8],
        rows,
        notes,
    }
}

/// Units placed with a formation: attached artillery or reserves of it (or of its corps).
fn placed_with(ctx: &Ctx, ids: &[FormationId], reserve: bool) -> Vec<ForceId> {
    ctx.forces
        .iter()
        .filter(|f| match f.place {
            Place::Reserve(x) => reserve && ids.contains(&x),
            Place::Attached(x) => !reserve && ids.contains(&x),
            _ => false,
        })
        .map(|f| f.id)
        .collect()
}

/// The army tab of the right panel.
pub fn army_tab(
    ui: &mut egui::Ui,
    tr: &Tr,
    ctx: &Ctx,
    power: PowerId,
    human: bool,
    land: &mut MessageWriter<LandCommand>,
    give: &mut MessageWriter<UiCommand>,
) {
    let Some(p) = ctx.powers.get(usize::from(power.0)) else { return };
    let movement = ctx.clock.phase == Phase::Movement;
    let armies: Vec<_> =
        ctx.formations.iter().filter(|f| f.power == power && f.kind == FormationKind::Army).cloned().collect();
    if armies.is_empty() {
        ui.label(egui::RichText::new(tr.t("gw.army.none")).weak());
    }
    for army in &armies {
        // A header does not wrap (egui lays it out on one line and widens the panel by it), so
        // it names the army short ("1. Armee"), and the full name with its general follows.
        let full = tr.formation(ctx, army.id);
        let short = full.split(" (").next().unwrap_or(&full).to_string();
        let head = if army.engaged { tr.f("gw.army.engaged", &[("name", short.clone())]) } else { short.clone() };
        egui::CollapsingHeader::new(egui::RichText::new(head).strong())
            .id_salt(("gw-army", army.id.0))
            .default_open(true)
            .show(ui, |ui| {
                if full != short {
                    ui.label(egui::RichText::new(&full).weak());
                }
                ui.horizontal_wrapped(|ui| {
                    if ui.button(tr.t("gw.army.select")).clicked() {
                        give.write(UiCommand::Select(Selected::Army(army.id)));
                    }
                    // S-SUP-4: the armies left without money first when the treasury is short.
                    let mut last = p.supply_last.contains(&army.id);
                    if ui.add_enabled(human, egui::Checkbox::new(&mut last, tr.t("gw.army.pay_last"))).changed() {
                        let mut list: Vec<FormationId> =
                            p.supply_last.iter().copied().filter(|a| *a != army.id).collect();
                        if last {
                            list.push(army.id);
                        }
                        give.write(UiCommand::Give(Order::SupplyPriority { last: list }));
                    }
                });
                for c in &army.corps {
                    corps_ui(ui, tr, ctx, *c, human, give);
                }
                let attached = placed_with(ctx, &[army.id], false);
                if !attached.is_empty() {
                    ui.label(egui::RichText::new(tr.t("gw.army.attached")).italics());
                    guns_ui(ui, tr, ctx, &attached, human, give);
                }
                // S-ARMY-2: its air squadrons (and its corps'), each selected for its orders.
                let air = rules::strategic::query::attached_squadrons(ctx, army.id);
                if !air.is_empty() {
                    ui.label(egui::RichText::new(tr.t("gw.army.squadrons")).italics());
                    for id in air {
                        let Some(s) = ctx.navy.squadrons.iter().find(|s| s.id == id) else { continue };
                        let text =
                            tr.f("gw.army.squadron", &[("name", s.name.clone()), ("aircraft", s.aircraft.to_string())]);
                        if ui.button(text).clicked() {
                            give.write(UiCommand::Select(Selected::Squadron(id)));
                        }
                    }
                }
                let reserves = placed_with(ctx, &[army.id], true);
                ui.label(egui::RichText::new(tr.f("gw.army.reserves", &[("n", reserves.len().to_string())])).italics());
                for u in reserves {
                    ui.horizontal_wrapped(|ui| {
                        ui.label(format!("• {}", tr.unit(ctx, u)));
                        // S-ARMY-8: a reserve comes onto a free hex next to its army.
                        if ui.add_enabled(human && movement, egui::Button::new(tr.t("gw.army.commit"))).clicked() {
                            land.write(LandCommand::Start(Pick::Commit(u)));
                        }
                    });
                }
            });
    }
    let free_corps: Vec<FormationId> = ctx
        .formations
        .iter()
        .filter(|f| f.power == power && f.kind == FormationKind::Corps)
        .filter(|f| !armies.iter().any(|a| a.corps.contains(&f.id)))
        .map(|f| f.id)
        .collect();
    if !free_corps.is_empty() {
        ui.separator();
        ui.label(egui::RichText::new(tr.t("gw.army.free_corps")).strong());
        for c in free_corps {
            corps_ui(ui, tr, ctx, c, human, give);
        }
    }
    let independent: Vec<ForceId> = ctx
        .forces
        .iter()
        .filter(|f| f.power == power && f.on_map() && f.member.corps.is_none() && f.member.army.is_none())
        .map(|f| f.id)
        .collect();
    if !independent.is_empty() {
        ui.separator();
        ui.label(egui::RichText::new(tr.t("gw.army.independent")).strong());
        units_ui(ui, tr, ctx, &independent);
    }
}

fn corps_ui(
    ui: &mut egui::Ui,
    tr: &Tr,
    ctx: &Ctx,
    corps: FormationId,
    human: bool,
    give: &mut MessageWriter<UiCommand>,
) {
    let Some(c) = ctx.formation(corps) else { return };
    let at = ctx.piece_hex(Piece::Corps(corps)).map_or_else(String::new, |h| format!(" — {}", tr.place(ctx, h)));
    ui.label(egui::RichText::new(format!("{}{at}", tr.formation(ctx, c.id))).strong().size(13.5));
    units_ui(ui, tr, ctx, &c.units);
    let attached = placed_with(ctx, &[corps], false);
    if !attached.is_empty() {
        ui.label(egui::RichText::new(tr.t("gw.army.attached")).italics());
        guns_ui(ui, tr, ctx, &attached, human, give);
    }
}
