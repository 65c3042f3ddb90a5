//! The Great War's panels: the phase bar the player advances, the power panel (money, manpower,
//! ammunition, gas, research), the selection (its units' strength and morale, its orders), the
//! engine's preview of a fight before it is ordered, refusals with their reasons, the event log
//! with every die, labels of cities and seas on the map, the hot-seat hand-over, the result
//! screen and the replay viewer's bar.

use super::board::shown;
use super::command::UiCommand;
use super::counters::bars;
use super::geometry::hex_to_world;
use super::layers::Overlays;
use super::{GwNames, HoveredHex, Selected, Selection};
use crate::camera::BoardCamera;
use crate::hud::board::{RoomThisFrame, leave_room};
use crate::hud::frame::{self, Edge};
use crate::hud::log::{LogLine, LookAt};
use crate::hud::root;
use crate::hud::rules::RuleLinks;
use crate::i18n::Tr;
use crate::input::KeyBindings;
use crate::replay::ReplayView;
use crate::screens::{Menu, Mode, PlayView, Screen};
use crate::session::{Leave, Session};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use rules::Game;
use rules::strategic::campaign::Outcome;
use rules::strategic::preview::Preview;
use rules::strategic::purchase::Conversion;
use rules::strategic::tech::Tech;
use rules::strategic::{CombatResult, Ctx, Event, EventKind, GreatWar, HexAt, Order, Phase, Piece, PowerId};
use rules::view::{Seen, Viewer};

type GwSession = Session<GreatWar>;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PreviewCache>().add_systems(
        EguiPrimaryContextPass,
        (
            labels.run_if(in_state(Screen::Playing).or_else(in_state(Screen::Replay))),
            playing.run_if(in_state(Screen::Playing)),
            result.run_if(in_state(Screen::Result)),
            replay.run_if(in_state(Screen::Replay)),
        )
            .chain()
            .run_if(in_state(Mode::GreatWar))
            .after(crate::hud::PanelsBegin)
            .before(crate::hud::PanelsEnd),
    );
}

/// The preview of the order waiting for "yes", worked out once.
#[derive(Resource, Default)]
struct PreviewCache {
    key: Option<(usize, String)>,
    lines: Vec<String>,
    /// The first lines that warn of a neutral brought into the war (shown as warnings).
    alarms: usize,
}

/// The preview as lines for people: the engagements with every term, then each outcome with
/// its chance (S-COMBAT-8, S-ART-7, S-NAVAL-6…10 as the engine computes them).
pub fn preview_lines(tr: &Tr, ctx: &Ctx, preview: &Preview) -> Vec<String> {
    let mut lines: Vec<String> = preview.engagement_lines.iter().map(|l| tr.line(ctx, l)).collect();
    if !preview.engagements.is_empty() {
        // S-TURN-2: the order is previewed as things stand after it; the fight itself comes later.
        lines.push(tr.t("gw.preview.assumes"));
    }
    for o in preview.outcomes.iter().take(8) {
        let pips = if o.pips.is_empty() {
            String::new()
        } else {
            format!(" [{}]", o.pips.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(","))
        };
        let what = if o.effects.is_empty() {
            "—".to_string()
        } else {
            o.effects.iter().map(|e| tr.line(ctx, e)).collect::<Vec<_>>().join("; ")
        };
        lines.push(format!("{:5.1}%{pips}: {what}", o.chance * 100.0));
    }
    if preview.unexplored > 0.0 {
        lines.push(format!("…{:.2}%", preview.unexplored * 100.0));
    }
    lines
}

fn power_colour(ctx: &Ctx, p: PowerId) -> egui::Color32 {
    let id = ctx.scenario().powers.get(usize::from(p.0)).map_or("", |s| s.id.as_str());
    let c = super::art::power_colour(id, usize::from(p.0)).to_srgba();
    egui::Color32::from_rgb((c.red * 255.0) as u8, (c.green * 255.0) as u8, (c.blue * 255.0) as u8)
}

/// The engine's events as the shared log shows them: grouped by turn, a phase's start in bold,
/// a unit's line in its power's colour and with its hex (where the unit is now) to look at.
/// Only what `viewer` may see is shown, as the engine's sight says (`Ctx::seen`: an undetected
/// flotilla's course, a hidden reserve's moves, another power's purchases are left out).
pub(super) fn log_lines(tr: &Tr, ctx: &Ctx, viewer: Option<PowerId>, events: &[Event]) -> Vec<LogLine> {
    let size = super::geometry::HEX_H;
    let place = |at: HexAt| (hex_to_world(at), size);
    let moved_fleet = |e: &Event| match e.kind {
        EventKind::FleetMoved { fleet, .. } => ctx.navy.fleet(fleet),
        _ => None,
    };
    ctx.seen(Viewer::of(viewer), events)
        .iter()
        .filter_map(Seen::event)
        .map(|e| {
            let unit = e.kind.unit().and_then(|u| ctx.force(u));
            let at = match &e.kind {
                EventKind::Moved { to, .. } | EventKind::FleetMoved { to, .. } => Some(*to),
                EventKind::FortDamage { at, .. } | EventKind::CityDestroyed { at, .. } => Some(*at),
                _ => unit.and_then(|u| u.hex()),
            };
            let power = match &e.kind {
                EventKind::Phase { power, .. } => *power,
                EventKind::Supply { power, .. } => Some(*power),
                EventKind::Occupied { by, .. } => *by,
                _ => unit.map(|u| u.power).or_else(|| moved_fleet(e).map(|f| f.power)),
            };
            LogLine {
                turn: Some(e.turn),
                text: tr.line(ctx, &e.line),
                colour: power.map(|p| power_colour(ctx, p)),
                strong: matches!(e.kind, EventKind::Phase { .. }),
                place: at.map(place),
            }
        })
        .collect()
}

/// Names of what is selected, for the panel.
fn selection_name(tr: &Tr, ctx: &Ctx, s: Selected) -> String {
    match s {
        Selected::Piece(Piece::Unit(u)) => tr.unit(ctx, u),
        Selected::Piece(Piece::Corps(c)) | Selected::Army(c) => tr.formation(ctx, c),
        Selected::Fleet(f) => super::fleet(ctx, f).map_or_else(String::new, |f| f.name.clone()),
        Selected::Squadron(q) => super::sea_orders::squadron(ctx, q).map_or_else(String::new, |q| q.name.clone()),
    }
}

#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn playing(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    session: Option<Res<GwSession>>,
    selection: Res<Selection>,
    view: Res<State<PlayView>>,
    hovered: Res<HoveredHex>,
    mut cache: ResMut<PreviewCache>,
    mut menu: ResMut<NextState<Menu>>,
    mut out: MessageWriter<UiCommand>,
    mut land: super::land_panels::LandPanels,
    (hand, mut room, mut overlays, bindings, mut shown): (
        Res<super::sea_orders::SeaHand>,
        ResMut<RoomThisFrame>,
        ResMut<Overlays>,
        Res<KeyBindings>,
        ResMut<crate::room::PanelsShown>,
    ),
    (mut links, mut looks, mut leave, mut save): (
        RuleLinks,
        MessageWriter<LookAt>,
        MessageWriter<Leave>,
        MessageWriter<crate::session::SaveToSlot>,
    ),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(session) = session else { return Ok(()) };
    let gctx = session.ctx();
    let mut ui = root(ctx, "great_war");
    if *view.get() == PlayView::HandOver {
        egui::CentralPanel::default().frame(egui::Frame::new().fill(egui::Color32::from_rgb(28, 25, 22))).show(
            &mut ui,
            |ui| {
                ui.vertical_centered(|ui| {
                    ui.add_space(ui.available_height() / 3.0);
                    let power = gctx.active_power();
                    ui.label(
                        egui::RichText::new(tr.f("gw.handover.pass", &[("power", tr.power(&gctx, power))]))
                            .size(30.0)
                            .color(power_colour(&gctx, power)),
                    );
                    ui.add_space(20.0);
                    if ui.button(egui::RichText::new(tr.t("ui.handover.ready")).size(22.0)).clicked() {
                        out.write(UiCommand::Ready);
                    }
                });
            },
        );
        return Ok(());
    }
    let selected = selection.of(&session);
    let power = gctx.active_power();
    // The phase bar.
    egui::Panel::top("gw-top").show(&mut ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new(scenario_title(&tr, &gctx.scenario().name)).strong());
            ui.separator();
            let turn = &[("turn", gctx.clock.turn.to_string()), ("last", gctx.last_turn().to_string())];
            ui.label(tr.f("gw.turn_of", turn));
            if let Some(date) = gctx.date_of(gctx.clock.turn) {
                ui.label(egui::RichText::new(date_words(&tr, date)).strong());
            }
            ui.label(egui::RichText::new(tr.t("gw.goals")).underline()).on_hover_ui(|ui| {
                for line in goal_lines(&tr, &gctx, power) {
                    ui.label(line);
                }
            });
            ui.separator();
            for phase in [Phase::Preparation, Phase::Movement, Phase::Fire, Phase::Combat, Phase::Upkeep] {
                let now = gctx.clock.phase == phase;
                let text = egui::RichText::new(tr.t(phase.key()));
                ui.label(if now { text.strong().color(egui::Color32::YELLOW) } else { text.weak() });
                if phase != Phase::Upkeep {
                    ui.label("›");
                }
            }
            ui.separator();
            ui.label(egui::RichText::new(tr.power(&gctx, power)).strong().color(power_colour(&gctx, power)));
            let seat = session.seat(power);
            if seat != crate::session::Seat::Human {
                ui.label(tr.t("gw.ai_moves"));
            }
            let human = session.human_turn();
            if ui.add_enabled(human, egui::Button::new(tr.t("gw.end_phase"))).clicked() {
                out.write(UiCommand::EndPhase);
            }
            // Online, the server keeps the war (and gives its whole log when it is over): no
            // undo, no save of the seat's view.
            if session.remote.is_none() {
                if ui.add_enabled(session.can_undo(), egui::Button::new(tr.t("gw.undo"))).clicked() {
                    out.write(UiCommand::Undo);
                }
                // A save by hand, to one of the shell's slots (as in a battle); autosaves go on too.
                ui.menu_button(tr.t("ui.menu.save"), |ui| {
                    for slot in &crate::saves::SLOTS {
                        if ui.button(tr.t(&format!("ui.slot.{slot}"))).clicked() {
                            save.write(crate::session::SaveToSlot(slot.to_string()));
                            ui.close();
                        }
                    }
                    #[cfg(target_arch = "wasm32")]
                    if ui.button(tr.t("ui.menu.download")).clicked() {
                        crate::web::download(
                            "kriegsspiel-great-war.ron",
                            &crate::saves::saved_game_to_text(&session.saved_game()),
                        );
                        ui.close();
                    }
                });
            }
            if ui.button(tr.t("gw.saves")).clicked() {
                menu.set(Menu::Saves);
            }
            if let Some(notice) = &session.notice {
                ui.label(egui::RichText::new(notice).weak());
            }
            // Asked first, and autosaved before it is left (the shell's Leave).
            if ui.button(tr.t("gw.to_title")).clicked() {
                leave.write(Leave::Ask);
            }
        });
    });
    // The power panel and the selection.
    let sizes = crate::hud::frame::sizes(&ui);
    let hint = |action: &str| crate::hud::frame_hint(&tr, &bindings, action);
    let (left_hint, right_hint, log_hint) = (hint("ToggleLeftPanel"), hint("ToggleRightPanel"), hint("ToggleLog"));
    let shown = &mut *shown;
    frame::side(&mut ui, Edge::Left, "gw-left", &mut shown.left, sizes.left, &left_hint, |ui| {
        // A hex with many pieces under the pointer may run past the window's foot.
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            // The power of the one looking (online, the seat's; at one screen, the person's),
            // never another's treasury while it moves; the umpire's is the power to move.
            let mine = session.viewer().unwrap_or(power);
            power_panel(ui, &tr, &gctx, (mine, session.human_turn()), land.verdicts(&session, &gctx, &tr), &mut out);
            super::fleet_panel::squadron_list(ui, &tr, &gctx, mine, selected, &mut out);
            ui.separator();
            super::layers::toggles(ui, &tr, &bindings, &mut overlays);
            ui.separator();
            match selected {
                Some(s) => {
                    let judge = (land.verdicts(&session, &gctx, &tr), session.human_turn());
                    selection_panel(ui, &tr, &gctx, (s, selection.gas), judge, &mut out)
                }
                None => {
                    ui.label(tr.t("gw.select_hint"));
                }
            }
            land.left(ui, &tr, &gctx, &session, selected, &mut out, preview_lines);
            if let Some(r) = &session.refusal {
                ui.separator();
                ui.colored_label(egui::Color32::LIGHT_RED, tr.f("gw.refused", &[("why", tr.line(&gctx, r))]));
            }
            if let Some(h) = hovered.0 {
                ui.separator();
                hex_panel(ui, &tr, &gctx, h);
                super::fleet_panel::hex_fleets(ui, &tr, &gctx, session.viewer(), h);
            }
        });
    });
    // The event log.
    frame::side(&mut ui, Edge::Foot, "gw-log", &mut shown.log, sizes.log, &log_hint, |ui| {
        let events = session.events();
        let lines = log_lines(&tr, &gctx, session.viewer(), &events[events.len().saturating_sub(300)..]);
        crate::hud::log::log_column(ui, "gw-log", &tr, &lines, &mut links, &mut looks);
    });
    // The selected fleet, flotilla or squadron (or a coastal gun firing).
    let fleet_shown = super::fleet_panel::show(
        &mut ui,
        &tr,
        &gctx,
        session.viewer(),
        selected,
        &hand,
        &mut out,
        (&mut shown.right, sizes.right, right_hint.as_str()),
    );
    // The army panel, the economy and diplomacy (they give way to the fleet panel).
    if !fleet_shown {
        land.right(&mut ui, &tr, &gctx, &session, selected, &mut out, (&mut shown.right, sizes.right, &right_hint));
    }
    // The rest is the board's.
    leave_room(&ui, &mut room);
    // The order waiting for "yes", with the engine's preview.
    if let Some(order) = &session.confirm {
        let key = (session.game.orders().len(), format!("{}{order:?}", tr.lang.code()));
        if cache.key.as_ref() != Some(&key) {
            cache.lines = match session.game.preview(order) {
                Ok(p) => {
                    cache.alarms = p.enters_war.len();
                    let mut lines = warnings(&tr, &gctx, &p);
                    lines.extend(preview_lines(&tr, &gctx, &p));
                    lines
                }
                Err(e) => {
                    cache.alarms = 0;
                    vec![tr.line(&gctx, &e.line())]
                }
            };
            cache.key = Some(key);
        }
        egui::Window::new(tr.t("gw.preview.title"))
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_TOP, [0.0, 60.0])
            .show(ctx, |ui| {
                ui.label(egui::RichText::new(order_words(&tr, &gctx, order)).strong());
                for (i, line) in cache.lines.iter().enumerate() {
                    if i < cache.alarms {
                        // A neutral enters the war: not grey text among the odds (issue 27).
                        let text = egui::RichText::new(line).strong().color(egui::Color32::from_rgb(255, 170, 60));
                        ui.label(text);
                    } else {
                        ui.label(line);
                    }
                }
                ui.horizontal(|ui| {
                    if ui.button(tr.t("gw.preview.give")).clicked() {
                        out.write(UiCommand::Confirm);
                    }
                    if ui.button(tr.t("ui.no")).clicked() {
                        out.write(UiCommand::Cancel);
                    }
                });
            });
    }
    Ok(())
}

/// A date in the interface's language ("August 1914", «август 1914»).
pub fn date_words(tr: &Tr, date: rules::strategic::campaign::Date) -> String {
    tr.f(
        "gw.date",
        &[("month", tr.t(&format!("gw.month.{}", date.month.clamp(1, 12)))), ("year", date.year.to_string())],
    )
}

/// How the game is won, from the scenario's victory block, with the end date and the victory
/// points each side holds now (what a player looks for before planning a turn).
pub fn goal_lines(tr: &Tr, ctx: &Ctx, me: PowerId) -> Vec<String> {
    let last = ctx.last_turn();
    let end = ctx.date_of(last).map(|d| date_words(tr, d)).unwrap_or_default();
    let mut lines = vec![tr.f("gw.goals.end", &[("last", last.to_string()), ("date", end)])];
    let Some(v) = ctx.scenario().victory.as_ref() else {
        lines.push(tr.t("gw.goals.none"));
        return lines;
    };
    lines.push(tr.f("gw.goals.surrender", &[("share", v.surrender_share_percent.to_string())]));
    if v.exhaustion {
        lines.push(tr.t("gw.goals.exhaustion"));
    }
    lines.push(tr.t("gw.goals.win"));
    let points = ctx.victory_points();
    let mine = usize::from(ctx.alliance(me).min(1));
    lines
        .push(tr.f("gw.goals.points", &[("mine", points[mine].to_string()), ("theirs", points[1 - mine].to_string())]));
    lines.push(tr.t("gw.goals.rule"));
    lines
}

/// What the person giving the order must not miss, first: the neutrals it brings into the war,
/// and for each fight, which side the giver's is and what the result would do to it.
pub fn warnings(tr: &Tr, ctx: &Ctx, p: &Preview) -> Vec<String> {
    let mut lines: Vec<String> =
        p.enters_war.iter().map(|n| tr.f("gw.preview.enters_war", &[("power", tr.power(ctx, *n))])).collect();
    let me = ctx.active_power();
    let mine = usize::from(ctx.alliance(me));
    for e in &p.engagements {
        let key = match (e.stronger == mine, e.result) {
            (_, CombatResult::Stubborn | CombatResult::StubbornHeavy) => "gw.preview.you_stubborn",
            (true, _) => "gw.preview.you_win",
            (false, _) => "gw.preview.you_lose",
        };
        lines.push(tr.f(key, &[("result", tr.msg(&e.result.text()))]));
    }
    lines
}

/// An order in a few words.
fn order_words(tr: &Tr, ctx: &Ctx, order: &Order) -> String {
    match order {
        Order::Attack { target, .. } => tr.f("gw.order.attack", &[("hex", tr.place(ctx, *target))]),
        Order::Fire { target, gas, .. } => {
            tr.f(if *gas { "gw.order.gas" } else { "gw.order.fire" }, &[("hex", tr.place(ctx, *target))])
        }
        Order::Move { path, .. } | Order::MoveFleet { path, .. } => {
            tr.f("gw.order.move", &[("hex", path.last().map_or_else(String::new, |h| tr.place(ctx, *h)))])
        }
        Order::MoveArmy { army, .. } => {
            tr.f("gw.order.army", &[("army", ctx.formation(*army).map_or_else(String::new, |f| f.name.clone()))])
        }
        Order::Bombard { target, .. } => tr.f("gw.order.bombard", &[("hex", tr.place(ctx, *target))]),
        other => super::fleet_panel::order_words(tr, ctx, other)
            .or_else(|| super::land_panels::order_words(tr, ctx, other))
            .unwrap_or_else(|| format!("{other:?}")),
    }
}

fn power_panel(
    ui: &mut egui::Ui,
    tr: &Tr,
    ctx: &Ctx,
    (power, human): (PowerId, bool),
    verdicts: &mut super::land_panels::Verdicts,
    out: &mut MessageWriter<UiCommand>,
) {
    let Some(p) = ctx.powers.get(usize::from(power.0)) else { return };
    ui.label(egui::RichText::new(tr.power(ctx, power)).strong().size(17.0).color(power_colour(ctx, power)));
    // One row each, wrapping: a grid's first column as wide as its longest label ("Химические
    // снаряды / баллоны") pushed the values out of the fixed-width panel.
    let rows = [
        ("gw.power.money", p.money.to_string()),
        ("gw.power.ammo", p.ammo.to_string()),
        ("gw.power.manpower", format!("{} / {}", p.manpower[0], p.manpower[1])),
        ("gw.power.gas", format!("{} / {}", p.chem_shells, p.cylinders)),
    ];
    for (key, value) in rows {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("{}:", tr.t(key)));
            ui.label(egui::RichText::new(value).strong());
        });
    }
    ui.horizontal_wrapped(|ui| {
        for (tech, has, key) in [
            (Tech::Tanks, p.techs.tanks, "gw.tech.tanks"),
            (Tech::Gas, p.techs.gas, "gw.tech.gas"),
            (Tech::Infantry, p.techs.infantry, "gw.tech.infantry"),
        ] {
            if has {
                ui.label(egui::RichText::new(format!("+ {}", tr.t(key))).weak());
                continue;
            }
            // Offered only when the engine would take it; otherwise its reason on hover.
            let check = ctx.check_research(tech);
            let button =
                ui.add_enabled(human && check.is_ok(), egui::Button::new(tr.f("gw.research", &[("tech", tr.t(key))])));
            let button = match &check {
                Err(e) if human => button.on_disabled_hover_text(tr.msg(&e.line())),
                _ => button,
            };
            if button.clicked() {
                out.write(UiCommand::Give(Order::Research { tech }));
            }
        }
        // Offered when the engine would take it (the treasury), else its reason on hover.
        let order = Order::BuyAmmunition { amount: 10 };
        let verdict = if human { verdicts.of(tr, ctx, order.clone()) } else { Ok(()) };
        if super::land_panels::judged_button(ui, human, tr.t("gw.buy_ammo"), &verdict) {
            out.write(UiCommand::Give(order));
        }
    });
}

/// The selection's card and its own orders; each order's button is offered only when the engine
/// would take it, greyed with its reason otherwise (issue 27: a coastal battery was offered
/// "Upgrade" and "To mountain infantry").
fn selection_panel(
    ui: &mut egui::Ui,
    tr: &Tr,
    ctx: &Ctx,
    (s, gas): (Selected, bool),
    (verdicts, human): (&mut super::land_panels::Verdicts, bool),
    out: &mut MessageWriter<UiCommand>,
) {
    use super::land_panels::judged_button;
    // The orders pressed for, given once the card is drawn.
    let mut pressed: Vec<Order> = Vec::new();
    let mut judged = |ui: &mut egui::Ui, key: &str, order: Order| {
        let verdict = if human { verdicts.of(tr, ctx, order.clone()) } else { Ok(()) };
        if judged_button(ui, human, tr.t(key), &verdict) {
            pressed.push(order);
        }
    };
    ui.label(egui::RichText::new(selection_name(tr, ctx, s)).strong().size(16.0));
    match s {
        Selected::Piece(piece) => {
            let units = ctx.piece_units(piece).map(|(_, u)| u).unwrap_or_default();
            let (strength, morale) = bars(ctx, &units);
            ui.label(tr.f(
                "gw.sel.piece",
                &[
                    ("mp", ctx.group_mp(&units).to_string()),
                    ("strength", format!("{:.0}", strength * 100.0)),
                    ("morale", morale.map_or("—".to_string(), |m| format!("{:.0}", m * 100.0))),
                ],
            ));
            for u in units.iter().filter_map(|u| ctx.force(*u)) {
                let morale =
                    u.vitals.morale.map_or(String::new(), |m| format!(", M {m}/{}", u.vitals.max_morale.unwrap_or(0)));
                ui.label(format!("• {} — H {}/{}{morale}", tr.unit(ctx, u.id), u.vitals.health, u.vitals.max_health));
            }
            ui.horizontal_wrapped(|ui| {
                if rules::strategic::query::army_of(ctx, piece).is_some() && ui.button(tr.t("gw.whole_army")).clicked()
                {
                    out.write(UiCommand::WholeArmy);
                }
                judged(ui, "gw.fortify", Order::Fortify { piece });
                if ui.selectable_label(gas, tr.t("gw.gas_shells")).clicked() {
                    out.write(UiCommand::ToggleGas);
                }
                if let Piece::Unit(unit) = piece {
                    judged(ui, "gw.upgrade", Order::Upgrade { unit });
                    judged(ui, "gw.repair", Order::Repair { unit });
                    // S-LAND-5, S-LAND-6: a regular class-1 division converted.
                    for (key, to) in
                        [("gw.convert_mountain", Conversion::Mountain), ("gw.convert_elite", Conversion::Elite)]
                    {
                        judged(ui, key, Order::Convert { unit, to });
                    }
                }
            });
        }
        Selected::Army(a) => {
            let units = ctx.formation_units(a);
            let (strength, morale) = bars(ctx, &units);
            ui.label(tr.f(
                "gw.sel.army",
                &[
                    ("corps", ctx.formation(a).map_or(0, |f| f.corps.len()).to_string()),
                    ("strength", format!("{:.0}", strength * 100.0)),
                    ("morale", morale.map_or("—".to_string(), |m| format!("{:.0}", m * 100.0))),
                ],
            ));
        }
        Selected::Fleet(id) => {
            let Some(f) = super::fleet(ctx, id) else { return };
            ui.label(
                tr.f(
                    "gw.sel.fleet",
                    &[("mp", f.mp_left.to_string()), ("ships", ctx.navy.afloat(id).len().to_string())],
                ),
            );
            // Its ships and orders are in the fleet panel (`fleet_panel`).
        }
        Selected::Squadron(q) => {
            let Some(q) = super::sea_orders::squadron(ctx, q) else { return };
            ui.label(tr.f("gw.sel.squadron", &[("aircraft", q.aircraft.to_string()), ("base", tr.place(ctx, q.base))]));
        }
    }
    for order in pressed {
        out.write(UiCommand::Give(order));
    }
    if ui.button(tr.t("gw.deselect")).clicked() {
        out.write(UiCommand::Deselect);
    }
}

fn hex_panel(ui: &mut egui::Ui, tr: &Tr, ctx: &Ctx, at: HexAt) {
    let map = ctx.map();
    let Some(cell) = map.cell(at) else { return };
    // Issue 27: the place, not the hex's coordinates.
    let place = tr.place(ctx, at);
    let mut words = vec![place.clone(), tr.t(&format!("gw.terrain.{}", cell.terrain.key()))];
    if let Some(a) = map.sea_area_at(at) {
        let sea = if tr.russian() && !a.name_ru.is_empty() { a.name_ru.clone() } else { a.name.clone() };
        if sea != place {
            words.push(sea);
        }
    }
    let fort = ctx.hex_state(at).fort;
    if fort > 0 {
        words.push(tr.f("gw.fort", &[("level", fort.to_string())]));
    }
    ui.label(words.join(" · "));
    for u in ctx.at(at).iter().filter_map(|u| ctx.force(*u)) {
        ui.label(
            egui::RichText::new(format!("{} ({})", tr.unit(ctx, u.id), tr.power(ctx, u.power)))
                .color(power_colour(ctx, u.power)),
        );
    }
}

/// City and sea names on the map, where the zoom leaves room for them.
fn labels(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    session: Option<Res<GwSession>>,
    replay: Option<Res<ReplayView<GreatWar>>>,
    view: Res<State<PlayView>>,
    cameras: Query<(&Camera, &GlobalTransform, &Projection), With<BoardCamera>>,
    (seas, room): (Res<super::layers::SeaPlaces>, Res<crate::hud::board::BoardRoom>),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // The board's room (last frame's) in points: a name half under a panel is left out.
    let board = crate::hud::board::room_in_points(&room, ctx);
    if *view.get() == PlayView::HandOver && session.is_some() {
        return Ok(());
    }
    let Some(game) = shown(session.as_deref(), replay.as_deref()) else { return Ok(()) };
    let Ok((camera, tf, Projection::Orthographic(ortho))) = cameras.single() else { return Ok(()) };
    let painter = ctx.layer_painter(egui::LayerId::background());
    let map = &game.scenario().map;
    let on_screen = |at: HexAt| camera.world_to_viewport(tf, hex_to_world(at).extend(0.0)).ok();
    let name = |n: &str, ru: &str| if tr.russian() && !ru.is_empty() { ru.to_string() } else { n.to_string() };
    // Seas by name from middle zoom, cities close up (at most a few hundred labels a frame).
    if ortho.scale > 0.8 {
        // The largest seas first; a name that would cover one already written is left out.
        let mut seas_by_size: Vec<_> = map.sea_areas.iter().zip(&seas.areas).collect();
        seas_by_size.sort_by_key(|(_, place)| std::cmp::Reverse(place.hexes.len()));
        let mut taken: Vec<egui::Rect> = Vec::new();
        for (a, place) in seas_by_size {
            let Some(p) = place.label.and_then(on_screen) else { continue };
            let galley = painter.layout_no_wrap(
                name(&a.name, &a.name_ru),
                egui::FontId::proportional(15.0),
                egui::Color32::from_rgb(200, 220, 245),
            );
            let rect = egui::Align2::CENTER_CENTER.anchor_size(egui::pos2(p.x, p.y), galley.size());
            if !board.contains_rect(rect) || taken.iter().any(|t| t.intersects(rect.expand(4.0))) {
                continue;
            }
            taken.push(rect);
            painter.galley(rect.min, galley, egui::Color32::from_rgb(200, 220, 245));
        }
    }
    if ortho.scale < 2.0 {
        let size = egui::vec2(ctx.content_rect().width(), ctx.content_rect().height());
        let mut shown_labels = 0;
        for c in &map.cities {
            let Some(at) = c.hexes.first().copied() else { continue };
            let Some(p) = on_screen(at) else { continue };
            if p.x < 0.0 || p.y < 0.0 || p.x > size.x || p.y > size.y || shown_labels > 300 {
                continue;
            }
            shown_labels += 1;
            // Under the hex, clear of its counters, on a light plate that reads over any terrain.
            let below = egui::pos2(p.x, p.y + super::geometry::HEX_H * 0.5 / ortho.scale.max(0.1));
            let galley = painter.layout_no_wrap(
                name(&c.name, &c.name_ru),
                egui::FontId::proportional(12.0),
                egui::Color32::from_rgb(30, 25, 20),
            );
            let rect = egui::Align2::CENTER_TOP.anchor_size(below, galley.size()).expand2(egui::vec2(3.0, 1.0));
            if !board.contains_rect(rect) {
                continue;
            }
            painter.rect_filled(rect, 2.0, egui::Color32::from_rgba_unmultiplied(240, 234, 218, 190));
            painter.galley(rect.min + egui::vec2(3.0, 1.0), galley, egui::Color32::from_rgb(30, 25, 20));
        }
    }
    Ok(())
}

/// Who won, by the scenario's victory conditions (S-CITY-4 surrender, or victory points).
fn outcome_text(tr: &Tr, ctx: &Ctx) -> String {
    let side = |a: u8| {
        let powers = ctx.scenario().powers.iter().enumerate().filter(|(_, p)| p.alliance == a);
        powers.map(|(i, _)| tr.power(ctx, PowerId(i as u8))).collect::<Vec<_>>().join(", ")
    };
    match ctx.outcome() {
        None => tr.t("gw.result.no_victory"),
        Some(Outcome::Surrender { winner }) => tr.f("gw.result.surrender", &[("side", side(winner))]),
        Some(Outcome::Points { winner: Some(w), points }) => tr.f(
            "gw.result.points",
            &[
                ("side", side(w)),
                ("won", points[usize::from(w.min(1))].to_string()),
                ("lost", points[1 - usize::from(w.min(1))].to_string()),
            ],
        ),
        Some(Outcome::Points { winner: None, points }) => {
            tr.f("gw.result.draw", &[("a", points[0].to_string()), ("b", points[1].to_string())])
        }
    }
}

fn result(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    session: Option<Res<GwSession>>,
    mut screen: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut ui = root(ctx, "gw-result");
    egui::CentralPanel::default().show(&mut ui, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(20.0);
            ui.label(egui::RichText::new(tr.t("gw.result.over")).size(30.0).strong());
            if let Some(s) = &session {
                ui.label(tr.f("gw.turn", &[("turn", s.game.turn().to_string())]));
                ui.add_space(8.0);
                ui.label(egui::RichText::new(outcome_text(&tr, &s.ctx())).size(20.0));
            }
        });
        if let Some(s) = &session {
            egui::ScrollArea::vertical().max_height(400.0).stick_to_bottom(true).show(ui, |ui| {
                for e in s.events().iter().rev().take(40).rev() {
                    ui.label(tr.msg(&e.line));
                }
            });
        }
        if ui.button(egui::RichText::new(tr.t("ui.result.back")).size(18.0)).clicked() {
            screen.set(Screen::Title);
        }
    });
    Ok(())
}

fn replay(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    view: Option<ResMut<ReplayView<GreatWar>>>,
    mut screen: ResMut<NextState<Screen>>,
    mut room: ResMut<RoomThisFrame>,
    (mut links, mut looks): (RuleLinks, MessageWriter<LookAt>),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut ui = root(ctx, "gw-replay");
    let Some(mut view) = view else { return Ok(()) };
    egui::Panel::top("gw-replay-bar").show(&mut ui, |ui| {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(&view.save.scenario.name).strong());
            let clock = view.game.clock();
            ui.label(format!(
                "{} / {} · {} · {}",
                view.at + 1,
                view.stops.len(),
                tr.f("gw.turn", &[("turn", clock.turn.to_string())]),
                tr.t(clock.phase.key())
            ));
            let last = view.stops.len() - 1;
            let at = view.at;
            let mut go = None;
            if ui.button("|<").clicked() {
                go = Some(0);
            }
            if ui.button(tr.t("ui.replay.back")).clicked() && at > 0 {
                go = Some(at - 1);
            }
            if ui.button(tr.t("ui.replay.forward")).clicked() && at < last {
                go = Some(at + 1);
            }
            if ui.button(">|").clicked() {
                go = Some(last);
            }
            if let Some(stop) = go
                && let Err(e) = view.go(stop)
            {
                ui.colored_label(egui::Color32::LIGHT_RED, e);
            }
            if ui.button(tr.t("ui.back")).clicked() {
                screen.set(Screen::Title);
            }
        });
    });
    let events = view.game.events();
    // The replay viewer shows everything, as the umpire saw it.
    let lines = log_lines(&tr, &view.game.ctx(), None, &events[events.len().saturating_sub(400)..]);
    crate::hud::log::log_panel(&mut ui, "gw-replay-log", &tr, &lines, &mut links, &mut looks);
    leave_room(&ui, &mut room);
    Ok(())
}

/// A shipped scenario's name in the reader's language: the string table's `scenario.STEM` whose
/// English is the file's name (the Great War's files have no Russian name), else the name.
pub fn scenario_title(tr: &Tr, name: &str) -> String {
    let english = rules::texts::Texts::english_ref();
    super::files::scenario_paths()
        .iter()
        .filter_map(|p| std::path::Path::new(p).file_stem().and_then(|s| s.to_str()))
        .map(|stem| format!("scenario.{stem}"))
        .find(|key| english.get(key) == name)
        .map_or_else(|| name.to_string(), |key| tr.t(&key))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::strategic::ForceId;

    /// The result screen names the winner by the scenario's victory points: East Prussia with
    /// every power passing ends 9 to 2 for alliance 0 (Russia); the test front has no victory block.
    #[test]
    fn the_result_names_the_winner_by_the_scenarios_victory_conditions() {
        let tr = Tr::new(crate::i18n::Lang::English);
        let play_out = |path: &str| {
            let scenario = super::super::files::load_scenario(path).expect("shipped");
            let mut game = GreatWar::new(&scenario, 1);
            for _ in 0..10_000 {
                if game.ctx().clock.phase == Phase::Over {
                    break;
                }
                game.apply(Order::EndPhase).expect("a phase ends");
            }
            game
        };
        let prussia = play_out("scenarios/great_war/east_prussia_1914.ron");
        let ctx = prussia.ctx();
        let text = outcome_text(&tr, &ctx);
        assert_eq!(ctx.outcome(), Some(Outcome::Points { winner: Some(0), points: [9, 2] }));
        assert_eq!(text, "Victory for Russia on victory points, 9 to 2.");
        let front = play_out("scenarios/great_war/test_front.ron");
        assert_eq!(outcome_text(&tr, &front.ctx()), tr.t("gw.result.no_victory"));
    }

    /// The log keeps an undetected enemy flotilla's course from a watching enemy, as the board
    /// does (S-SUB-5 house rule): a British flotilla sailing in the Northern North Sea, where no
    /// German boat lies, is in Britain's log and the umpire's, not in Germany's.
    #[test]
    fn the_log_hides_an_undetected_flotillas_course_from_the_enemy() {
        use rules::strategic::naval::model::ShipType;
        use rules::strategic::scenario::FleetSpec;
        let (germany, gb) = (PowerId(0), PowerId(1));
        let mut scenario =
            super::super::files::load_scenario("tests/fixtures/great_war/sea_orders.ron").expect("the fixture");
        scenario.fleets.push(FleetSpec {
            id: 20,
            power: "gb".into(),
            name: "E-Flotilla".into(),
            at: HexAt::new(8, 7),
            ships: vec![(ShipType::Submarine, 2)],
            historical: false,
            intercept: false,
            withdraw: false,
        });
        let mut game = GreatWar::new(&scenario, 7);
        while !(game.ctx().clock.phase == Phase::Movement && PowerId(game.ctx().clock.active) == gb) {
            game.apply(Order::EndPhase).expect("a phase ends");
        }
        game.apply(Order::MoveFleet { fleet: 20, path: vec![HexAt::new(7, 7)] }).expect("the flotilla sails");
        let ctx = game.ctx();
        assert_eq!(ctx.detection(germany, 20), None, "no German boat in its sea area");
        let sailed = |viewer: Option<PowerId>| {
            log_lines(&Tr::new(crate::i18n::Lang::English), &ctx, viewer, game.events())
                .iter()
                .any(|l| l.text.starts_with("E-Flotilla sails to"))
        };
        assert!(game.events().iter().any(|e| matches!(e.kind, EventKind::FleetMoved { fleet: 20, .. })));
        assert!(!sailed(Some(germany)), "hidden from Germany");
        assert!(sailed(Some(gb)), "its own side sees it");
        assert!(sailed(None), "the umpire sees all");
    }

    /// The shared log's lines for the Great War: a phase's start in bold, a move in its power's
    /// colour with the hex it ended on to look at, in its turn.
    #[test]
    fn the_great_wars_events_become_the_shared_logs_lines() {
        let scenario = super::super::files::load_scenario("scenarios/great_war/test_front.ron").expect("shipped");
        let mut game = GreatWar::new(&scenario, 1);
        for _ in 0..3 {
            game.apply(Order::EndPhase).expect("the preparation ends");
        }
        let (unit, to) = (ForceId(7), HexAt::new(13, 3));
        game.apply(Order::Move { piece: Piece::Unit(unit), path: vec![HexAt::new(15, 3), HexAt::new(14, 3), to] })
            .expect("the 4th Cavalry Division moves, as in the scripted game");
        let ctx = game.ctx();
        let lines = log_lines(&Tr::new(crate::i18n::Lang::English), &ctx, None, game.events());
        assert_eq!(lines.len(), game.events().len());
        let phase = lines.iter().find(|l| l.strong).expect("a phase's start is in the log");
        assert_eq!(phase.turn, Some(game.clock().turn), "the scenario's own turn");
        let moved = game
            .events()
            .iter()
            .position(|e| matches!(e.kind, EventKind::Moved { unit: u, .. } if u == unit))
            .expect("the move is logged");
        let line = &lines[moved];
        assert_eq!(line.place, Some((hex_to_world(to), super::super::geometry::HEX_H)));
        assert_eq!(line.colour, Some(power_colour(&ctx, PowerId(0))));
        assert!(!line.strong);
    }
}
