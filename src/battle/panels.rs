//! The battle's panels: the top bar, the selected unit with its reaction orders and commands,
//! the event log, the preview of what a click would do, dialogs, the hot-seat hand-over, the
//! result screen and the replay viewer's bar and log.

use super::board::{CELL, cell_to_world};
use super::card::terrain_key;
use super::command::{Reaction, UiCommand};
use super::{BattleNames, HoveredCell, Selection};
use crate::hud::board::{RoomThisFrame, leave_room};
use crate::hud::log::{LogLine, LookAt};
use crate::hud::root;
use crate::hud::rules::RuleLinks;
use crate::i18n::{Lang, Tr};
use crate::replay::ReplayView;
use crate::rules_ref::RulesCommand;
use crate::saves;
use crate::screens::{Menu, Mode, PlayView, Screen};
use crate::session::{Leave, SaveToSlot, Seat, TurnTimer};
use crate::settings::Settings;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use rules::tactical::Battle;
use rules::tactical::components::{Phase, Status};
use rules::tactical::event::Event;
use rules::tactical::scenario::BattleKind;
use rules::tactical::{Cell, Ctx, Order, Side, UnitId};
use rules::view::Viewer;

type Session = crate::session::Session<Battle>;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LogView>().add_systems(
        EguiPrimaryContextPass,
        (
            battle.run_if(in_state(Screen::Playing)),
            result.run_if(in_state(Screen::Result)),
            replay.run_if(in_state(Screen::Replay)),
        )
            .run_if(in_state(Mode::Battle))
            .after(crate::hud::PanelsBegin)
            .before(crate::hud::PanelsEnd),
    );
}

/// The event log's state, and the preview worked out for the current pointer.
#[derive(Resource, Default)]
pub struct LogView {
    pub shown: bool,
    preview_key: Option<(usize, Option<UnitId>, Option<Cell>, Lang)>,
    preview: Vec<String>,
}

#[allow(clippy::too_many_arguments)]
pub fn battle(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    session: Option<Res<Session>>,
    selection: Res<Selection>,
    view: Res<State<PlayView>>,
    hovered: Res<HoveredCell>,
    timer: Res<TurnTimer>,
    mut settings: ResMut<Settings>,
    mut log: ResMut<LogView>,
    mut menu: ResMut<NextState<Menu>>,
    (mut leave, mut save): (MessageWriter<Leave>, MessageWriter<SaveToSlot>),
    mut out: MessageWriter<UiCommand>,
    (mut links, mut looks, mut room): (RuleLinks, MessageWriter<LookAt>, ResMut<RoomThisFrame>),
    mut legend: MessageWriter<crate::help::LegendCommand>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(session) = session else { return Ok(()) };
    let bctx = session.ctx();
    let selected = selection.of(&session);
    let mut ui = root(ctx, "battle");
    if *view.get() == PlayView::HandOver {
        egui::CentralPanel::default().frame(egui::Frame::new().fill(egui::Color32::from_rgb(28, 25, 22))).show(
            &mut ui,
            |ui| {
                ui.vertical_centered(|ui| {
                    ui.add_space(ui.available_height() / 3.0);
                    let side = bctx.clock.active;
                    ui.label(
                        egui::RichText::new(
                            tr.f("ui.handover.pass", &[("army", tr.army(&bctx, side)), ("side", tr.side(side))]),
                        )
                        .size(30.0),
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
    let mut nav = Nav { leave: &mut leave, save: &mut save, menu: &mut menu };
    top_bar(&mut ui, &tr, &session, &bctx, &timer, &mut settings, &mut log, &mut nav, &mut links, &mut legend);
    unit_panel(&mut ui, &tr, &session, selected, &bctx, &mut out, &mut links);
    let viewer = session.viewer();
    let events = session.events();
    let from = if log.shown { 0 } else { events.len().saturating_sub(300) };
    let lines = log_lines(&tr, &bctx, &events[from..], viewer);
    crate::hud::log::log_panel(&mut ui, "battle-log", &tr, &lines, &mut links, &mut looks);
    hover_panel(&mut ui, &tr, &session, selected, &bctx, hovered.0, &mut log, &mut links);
    // The rest is the board's.
    leave_room(&ui, &mut room);
    if let Some(key) = session.confirm_key() {
        match crate::hud::question(ctx, &tr, &tr.t(key)) {
            Some(true) => {
                out.write(UiCommand::Confirm);
            }
            Some(false) => {
                out.write(UiCommand::Cancel);
            }
            None => {}
        }
    }
    Ok(())
}

/// Where the top bar's buttons lead: the title screen (asked first), a save, or a menu over
/// the battle.
struct Nav<'a, 'b, 'w> {
    leave: &'a mut MessageWriter<'w, Leave>,
    save: &'a mut MessageWriter<'w, SaveToSlot>,
    menu: &'b mut NextState<Menu>,
}

#[allow(clippy::too_many_arguments)]
fn top_bar(
    ui: &mut egui::Ui,
    tr: &Tr,
    session: &Session,
    bctx: &Ctx,
    timer: &TurnTimer,
    settings: &mut Settings,
    log: &mut LogView,
    nav: &mut Nav,
    links: &mut RuleLinks,
    legend: &mut MessageWriter<crate::help::LegendCommand>,
) {
    egui::Panel::top("battle-top").show(ui, |ui| {
        // The buttons first; the battle's name and turn shrink (cut short) in a narrow window.
        egui::Sides::new().shrink_left().truncate().show(
            ui,
            |ui| {
                let scenario = &bctx.statics.scenario;
                ui.label(
                    egui::RichText::new(if tr.russian() && !scenario.name_ru.is_empty() {
                        &scenario.name_ru
                    } else {
                        &scenario.name
                    })
                    .strong(),
                );
                ui.separator();
                let clock = bctx.clock;
                let phase = match clock.phase {
                    Phase::Redoubts => tr.t("ui.phase.redoubts"),
                    Phase::Deployment => tr.t("ui.phase.deployment"),
                    Phase::Battle => tr.f(
                        "ui.phase.turn",
                        &[
                            ("turn", clock.turn.to_string()),
                            ("round", clock.round.to_string()),
                            ("limit", bctx.rules().round_limit.to_string()),
                        ],
                    ),
                    Phase::Over => tr.t("ui.phase.over"),
                };
                ui.label(phase);
                ui.separator();
                let side = clock.active;
                let colour = match side {
                    Side::Red => egui::Color32::from_rgb(220, 90, 80),
                    Side::Blue => egui::Color32::from_rgb(110, 150, 240),
                };
                ui.colored_label(colour, tr.f("ui.to_move", &[("army", tr.army(bctx, side)), ("side", tr.side(side))]));
                if let Seat::Ai(level) = session.seat(side) {
                    ui.label(tr.f("ui.ai_thinking", &[("level", tr.t(&format!("ui.level.{}", level.name())))]));
                }
                if let Some(left) = timer.remaining {
                    ui.colored_label(
                        if left < 5.0 { egui::Color32::LIGHT_RED } else { egui::Color32::LIGHT_GRAY },
                        format!("{:.0} s", left.max(0.0)),
                    );
                }
            },
            |ui| {
                if ui.button(tr.t("ui.menu.quit")).clicked() {
                    nav.leave.write(Leave::Ask);
                }
                if ui.button(tr.t("ui.title.settings")).clicked() {
                    nav.menu.set(Menu::Settings);
                }
                if ui.button(tr.t("ui.title.load")).clicked() {
                    nav.menu.set(Menu::Saves);
                }
                // Online, the server keeps the game (and gives its whole log when it is over).
                let here = session.remote.is_none();
                if here {
                    ui.menu_button(tr.t("ui.menu.save"), |ui| {
                        for slot in &saves::SLOTS {
                            if ui.button(tr.t(&format!("ui.slot.{slot}"))).clicked() {
                                nav.save.write(SaveToSlot(slot.to_string()));
                                ui.close();
                            }
                        }
                        #[cfg(target_arch = "wasm32")]
                        if ui.button(tr.t("ui.menu.download")).clicked() {
                            crate::web::download(
                                "kriegsspiel-save.ron",
                                &saves::saved_game_to_text(&session.saved_game()),
                            );
                            ui.close();
                        }
                    });
                }
                let other = if settings.lang == Lang::English { Lang::Russian } else { Lang::English };
                if ui.button(other.native_name()).clicked() {
                    settings.lang = other;
                }
                if ui.button(tr.t("ui.menu.log")).clicked() {
                    log.shown = !log.shown;
                }
                if ui.button(tr.t("ui.menu.rules")).clicked() {
                    links.out.write(RulesCommand::Toggle);
                }
                if ui.button(tr.t("ui.menu.legend")).clicked() {
                    legend.write(crate::help::LegendCommand::Toggle);
                }
                if let Some(m) = &session.notice {
                    ui.label(m);
                }
            },
        );
    });
}

fn type_name(tr: &Tr, bctx: &Ctx, id: UnitId) -> String {
    bctx.unit(id).map_or_else(String::new, |u| {
        let t = bctx.ty(u);
        if tr.russian() && !t.name_ru.is_empty() { t.name_ru.clone() } else { t.name.clone() }
    })
}

fn unit_panel(
    ui: &mut egui::Ui,
    tr: &Tr,
    session: &Session,
    selected: Option<UnitId>,
    bctx: &Ctx,
    out: &mut MessageWriter<UiCommand>,
    links: &mut RuleLinks,
) {
    let human = session.human_turn();
    let side = bctx.clock.active;
    let width = (ui.available_width() * 0.22).clamp(200.0, 250.0);
    egui::Panel::left("battle-unit").resizable(true).default_size(width).min_size(200.0).show(ui, |ui| {
        if let Some(u) = selected.and_then(|id| bctx.unit(id)).cloned() {
            // The unit's card: every value the rules keep for it.
            if let Some(card) = super::card::unit_card(tr, bctx, u.id) {
                egui::ScrollArea::vertical()
                    .id_salt("unit-card")
                    .max_height(ui.available_height() * 0.6)
                    .show(ui, |ui| crate::hud::card::card_ui(ui, &card, links, tr.lang));
            }
            if human && u.side == side {
                ui.separator();
                ui.label(egui::RichText::new(tr.t("ui.reactions")).strong());
                for (mut on, key, which) in [
                    (u.reactions.counter_volley, "ui.reaction.counter_volley", Reaction::CounterVolley),
                    (u.reactions.counter_charge, "ui.reaction.counter_charge", Reaction::CounterCharge),
                    (u.reactions.intercept, "ui.reaction.intercept", Reaction::Intercept),
                ] {
                    if ui.checkbox(&mut on, tr.t(key)).changed() {
                        out.write(UiCommand::Toggle(which));
                    }
                }
                if bctx.clock.phase == Phase::Battle && u.status == Status::Active {
                    ui.horizontal(|ui| {
                        if ui.button(tr.t("ui.cmd.turn_left")).clicked() {
                            out.write(UiCommand::TurnLeft);
                        }
                        if ui.button(tr.t("ui.cmd.turn_right")).clicked() {
                            out.write(UiCommand::TurnRight);
                        }
                    });
                    if bctx.check_skirmish(u.id, u.skirmish.is_none()).is_ok()
                        && ui.button(tr.t("ui.cmd.skirmish")).clicked()
                    {
                        out.write(UiCommand::Skirmish);
                    }
                    if bctx.check_reform(u.id).is_ok() && ui.button(tr.t("ui.cmd.reform")).clicked() {
                        out.write(UiCommand::Reform);
                    }
                }
            }
        } else {
            ui.label(tr.t(if human { "ui.unit.none" } else { "ui.unit.none_ai" }));
        }
        ui.separator();
        if human && bctx.clock.phase == Phase::Deployment {
            ui.label(egui::RichText::new(tr.t("ui.deploy.to_place")).strong());
            for u in bctx.units.iter().filter(|u| u.side == side && u.status == Status::Undeployed) {
                if ui
                    .selectable_label(
                        selected == Some(u.id),
                        format!("{} ({})", tr.unit(bctx, u.id), type_name(tr, bctx, u.id)),
                    )
                    .clicked()
                {
                    out.write(UiCommand::SelectUnit(u.id));
                }
            }
            ui.label(tr.t("ui.deploy.hint"));
        }
        if human && bctx.clock.phase == Phase::Redoubts {
            ui.label(tr.f("ui.redoubts.left", &[("n", bctx.sides.redoubts_left[side.index()].to_string())]));
        }
        if human {
            ui.separator();
            let end = match bctx.clock.phase {
                Phase::Battle => "ui.cmd.end_turn",
                _ => "ui.cmd.end_setup",
            };
            if ui.button(egui::RichText::new(tr.t(end)).size(17.0)).clicked() {
                out.write(UiCommand::EndTurn);
            }
            if ui.add_enabled(session.can_undo(), egui::Button::new(tr.t("ui.cmd.undo"))).clicked() {
                out.write(UiCommand::Undo);
            }
            if bctx.clock.phase == Phase::Battle {
                if bctx.sides.retreating[side.index()] {
                    ui.label(tr.t("ui.retreat.hint"));
                }
                if bctx.check_retreat().is_ok() && ui.button(tr.t("ui.cmd.retreat")).clicked() {
                    out.write(UiCommand::Ask(Order::Retreat));
                }
                if bctx.statics.scenario.kind == BattleKind::Fortress
                    && bctx.check_capitulate().is_ok()
                    && ui.button(tr.t("ui.cmd.capitulate")).clicked()
                {
                    out.write(UiCommand::Ask(Order::Capitulate));
                }
            }
        }
        if let Some(r) = session.refusal.as_ref().map(|r| tr.msg(r))
            && !r.is_empty()
        {
            ui.separator();
            ui.colored_label(egui::Color32::LIGHT_RED, r);
        }
    });
}

/// Movement points left of this turn's speed: +1 in a retreat (T-END-2), −1 for cavalry in
/// forest (T-TERR-1); never "3 of 2".
pub fn movement_points(bctx: &Ctx, u: &rules::tactical::state::UnitState) -> (i32, i32) {
    let speed = bctx.speed(u, false);
    ((speed - u.activity.mp_spent).max(0), speed)
}

/// The colour of a side's lines in the log (readable on the dark panel).
fn side_text_colour(side: Side) -> egui::Color32 {
    match side {
        Side::Red => egui::Color32::from_rgb(240, 150, 135),
        Side::Blue => egui::Color32::from_rgb(150, 180, 245),
    }
}

/// The log's lines: each event with its turn, its side's colour and the cell where it happened
/// (units are followed through the log, so a unit's event is placed where it stood then).
pub fn log_lines(tr: &Tr, bctx: &Ctx, events: &[Event], viewer: Option<Side>) -> Vec<LogLine> {
    let grid = &bctx.grid;
    let mut at: std::collections::BTreeMap<UnitId, Cell> =
        bctx.statics.scenario.units.iter().filter_map(|u| u.at.map(|cell| (u.id, cell))).collect();
    let mut turn = None;
    let mut lines = Vec::with_capacity(events.len());
    // What `viewer` may read, as the engine's sight says (T-TERR-2: a hidden unit's moves).
    let mut readable = bctx.seen(Viewer::of(viewer), events).into_iter();
    for e in events {
        if let Event::TurnBegins { turn: t, .. } = e {
            turn = Some(*t);
        }
        let cell_of = |at: &std::collections::BTreeMap<UnitId, Cell>, id: &UnitId| {
            at.get(id).copied().or_else(|| bctx.unit(*id).map(|u| u.cell))
        };
        let (place, side) = match e {
            Event::RedoubtPlaced { side, cell } => (Some(*cell), Some(*side)),
            Event::Deployed { unit, cell, .. } => {
                at.insert(*unit, *cell);
                (Some(*cell), None)
            }
            Event::Moved { unit, path, .. } | Event::Intercept { unit, path, .. } => {
                if let Some(last) = path.last() {
                    at.insert(*unit, *last);
                }
                (cell_of(&at, unit), None)
            }
            Event::FellBack { unit, to } => {
                at.insert(*unit, *to);
                (Some(*to), None)
            }
            Event::Ambushed { at: cell, .. } => (Some(*cell), None),
            Event::Fired { target, firer, .. } => (cell_of(&at, target), bctx.unit(*firer).map(|u| u.side)),
            Event::MeleeExchange { units, .. } => (units.first().and_then(|u| cell_of(&at, u)), None),
            Event::HqNamed { side, .. }
            | Event::FormationFormed { side, .. }
            | Event::SetupDone { side }
            | Event::TurnBegins { side, .. }
            | Event::GeneralTest { side, .. }
            | Event::HqCaptured { side }
            | Event::RetreatOrdered { side }
            | Event::Capitulation { side }
            | Event::TurnEnded { side, .. } => (None, Some(*side)),
            Event::BattleEnded { winner, .. } => (None, Some(*winner)),
            Event::BattleBegins | Event::GeneralMoved { .. } => (None, None),
            // Any other event is placed where the unit it is about stands (the engine's
            // `Event::unit`).
            other => (other.unit().and_then(|u| cell_of(&at, &u)), None),
        };
        if readable.next().is_none_or(|seen| seen.is_hidden()) {
            continue;
        }
        let unit_side = e.unit().and_then(|u| bctx.unit(u)).map(|u| u.side);
        let strong = matches!(
            e,
            Event::TurnBegins { .. } | Event::BattleEnded { .. } | Event::GeneralTest { .. } | Event::HqCaptured { .. }
        );
        lines.push(LogLine {
            turn,
            text: e.describe_with(&tr.texts, &|id| tr.unit(bctx, id)),
            colour: side.or(unit_side).map(side_text_colour),
            strong,
            place: place.map(|c| (cell_to_world(grid, c), CELL)),
        });
    }
    lines
}

#[allow(clippy::too_many_arguments)]
fn hover_panel(
    ui: &mut egui::Ui,
    tr: &Tr,
    session: &Session,
    selected: Option<UnitId>,
    bctx: &Ctx,
    hovered: Option<Cell>,
    log: &mut LogView,
    links: &mut RuleLinks,
) {
    // A fixed height: the board's room (and its fit) does not change as the pointer moves.
    egui::Panel::bottom("battle-hover").exact_size(96.0).show(ui, |ui| {
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
            let Some(cell) = hovered else {
                ui.label(tr.t("ui.hover.hint"));
                return;
            };
            let terrain = bctx.terrain(cell).map(|t| tr.t(&format!("terrain.{}", terrain_key(t)))).unwrap_or_default();
            let viewer = session.viewer();
            let here = bctx.at(cell).filter(|u| viewer.is_none_or(|v| bctx.visible_to(u, v)));
            let mut line = format!("{cell}: {terrain}");
            if let Some(u) = here {
                line.push_str(&format!(
                    " — {} ({}, {}/{})",
                    tr.unit(bctx, u.id),
                    type_name(tr, bctx, u.id),
                    u.health.current,
                    u.health.max
                ));
            }
            ui.label(line);
            // What a click would do, with the engine's preview.
            let key = (session.game.orders().len(), selected, hovered, tr.lang);
            if log.preview_key != Some(key) {
                log.preview_key = Some(key);
                log.preview = preview_lines(tr, session, selected, bctx, cell);
            }
            for l in &log.preview {
                links.line(ui, l, tr.lang, crate::hud::rules::plain);
            }
        });
    });
}

fn preview_lines(tr: &Tr, session: &Session, selected: Option<UnitId>, bctx: &Ctx, cell: Cell) -> Vec<String> {
    if !session.human_turn() || bctx.clock.phase != Phase::Battle {
        return Vec::new();
    }
    let side = bctx.clock.active;
    let Some(u) = selected.and_then(|id| bctx.unit(id)).filter(|u| u.side == side && u.status.on_field()) else {
        return Vec::new();
    };
    let mut move_line = None;
    let order = if let Some(enemy) = bctx.at(cell).filter(|e| e.side != side && bctx.visible_to(e, side)) {
        Order::Fire { unit: u.id, target: enemy.id }
    } else if let Some(r) = bctx.reachable(u.id).into_iter().find(|r| r.cell == cell) {
        let left = bctx.speed(u, false) - u.activity.mp_spent - r.cost;
        move_line = Some(tr.f(
            "ui.preview.move_cost",
            &[("cost", r.cost.to_string()), ("left", left.max(0).to_string()), ("steps", r.path.len().to_string())],
        ));
        Order::Move { unit: u.id, path: r.path, exit: false }
    } else {
        return Vec::new();
    };
    let preview = match session.game.preview(&order) {
        Ok(p) => {
            let mut lines =
                vec![tr.t(if matches!(order, Order::Fire { .. }) { "ui.preview.fire" } else { "ui.preview.move" })];
            // A plain move throws no die: what it costs is what the preview has to say.
            lines.extend(move_line);
            lines.extend(p.lines_with(&tr.texts, &|id| tr.unit(bctx, id)));
            Ok(lines)
        }
        Err(e) => Err(e.to_string()),
    };
    // A move into contact says how the melee goes; a refused fire says why not.
    super::melee::explain(tr, bctx, &order, preview)
}

fn result(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    session: Option<Res<Session>>,
    mut screen: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut ui = root(ctx, "result");
    egui::CentralPanel::default().show(&mut ui, |ui| {
        let Some(session) = session else {
            if ui.button(tr.t("ui.back")).clicked() {
                screen.set(Screen::Title);
            }
            return;
        };
        let bctx = session.ctx();
        let Some(r) = session.game.result() else { return };
        ui.vertical_centered(|ui| {
            ui.add_space(20.0);
            ui.label(
                egui::RichText::new(
                    tr.f("ui.result.winner", &[("army", tr.army(&bctx, r.winner)), ("side", tr.side(r.winner))]),
                )
                .size(30.0)
                .strong(),
            );
            ui.label(tr.t(&format!("ui.result.reason.{}", r.reason.key())));
            ui.label(tr.f("ui.result.rounds", &[("rounds", r.rounds.to_string()), ("turns", r.turns.to_string())]));
        });
        ui.add_space(16.0);
        egui::Grid::new("result").striped(true).num_columns(3).show(ui, |ui| {
            ui.label("");
            for side in Side::BOTH {
                ui.label(egui::RichText::new(format!("{} ({})", tr.army(&bctx, side), tr.side(side))).strong());
            }
            ui.end_row();
            let row = |s: &rules::tactical::result::SideResult| {
                [
                    s.units as i32,
                    s.on_field as i32,
                    s.health_lost,
                    s.dispersed as i32,
                    s.destroyed as i32,
                    s.captured as i32,
                    s.retreated as i32,
                    s.guns_lost.len() as i32,
                ]
            };
            let keys = [
                "ui.result.units",
                "ui.result.on_field",
                "ui.result.health_lost",
                "ui.result.dispersed",
                "ui.result.destroyed",
                "ui.result.captured",
                "ui.result.retreated",
                "ui.result.guns_lost",
            ];
            let values = [row(&r.sides[0]), row(&r.sides[1])];
            for (i, key) in keys.iter().enumerate() {
                ui.label(tr.t(key));
                for v in &values {
                    ui.label(v[i].to_string());
                }
                ui.end_row();
            }
        });
        ui.add_space(12.0);
        ui.label(egui::RichText::new(tr.t("ui.result.generals")).strong());
        if r.generals.is_empty() {
            ui.label(tr.t("ui.result.no_generals"));
        }
        for g in &r.generals {
            ui.label(format!("{} — {}: {}", tr.side(g.side), g.formation, tr.t(&format!("fate.{}", g.fate.key()))));
        }
        ui.add_space(16.0);
        if ui.button(egui::RichText::new(tr.t("ui.result.back")).size(18.0)).clicked() {
            screen.set(Screen::Title);
        }
    });
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn replay(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    view: Option<ResMut<ReplayView<Battle>>>,
    pick: Res<super::tooltip::ReplayPick>,
    mut links: RuleLinks,
    mut screen: ResMut<NextState<Screen>>,
    mut room: ResMut<RoomThisFrame>,
    mut error: Local<Option<String>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut ui = root(ctx, "replay");
    let Some(mut view) = view else { return Ok(()) };
    egui::Panel::top("replay-bar").show(&mut ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new(&view.save.scenario.name).strong());
            let clock = view.game.clock();
            ui.label(tr.f(
                "ui.replay.at",
                &[
                    ("stop", (view.at + 1).to_string()),
                    ("stops", view.stops.len().to_string()),
                    ("turn", clock.turn.to_string()),
                    ("round", clock.round.to_string()),
                ],
            ));
            ui.label(
                tr.f("ui.replay.order", &[("n", view.orders.to_string()), ("of", view.save.orders.len().to_string())]),
            );
            let last = view.stops.len() - 1;
            let step = |ui: &mut egui::Ui, text: String, hint: String| ui.button(text).on_hover_text(hint).clicked();
            let mut result = None;
            if step(ui, "|<".into(), tr.t("ui.replay.start")) {
                result = Some(view.go(0));
            }
            if step(ui, tr.t("ui.replay.back"), tr.t("ui.replay.back_hint")) {
                result = Some(view.step_turn(false));
            }
            if step(ui, tr.t("ui.replay.order_back"), tr.t("ui.replay.order_back_hint")) {
                result = Some(view.step_order(false));
            }
            if step(ui, tr.t("ui.replay.order_forward"), tr.t("ui.replay.order_forward_hint")) {
                result = Some(view.step_order(true));
            }
            if step(ui, tr.t("ui.replay.forward"), tr.t("ui.replay.forward_hint")) {
                result = Some(view.step_turn(true));
            }
            if step(ui, ">|".into(), tr.t("ui.replay.end")) {
                result = Some(view.go(last));
            }
            if let Some(r) = result {
                *error = r.err();
            }
            if let Some(e) = error.as_ref() {
                ui.colored_label(egui::Color32::LIGHT_RED, e);
            }
            if ui.button(tr.t("ui.back")).clicked() {
                screen.set(Screen::Title);
            }
        });
    });
    let bctx = view.game.ctx();
    egui::Panel::left("replay-card").default_size(260.0).show(&mut ui, |ui| {
        match pick.0.and_then(|id| super::card::unit_card(&tr, &bctx, id)) {
            Some(card) => {
                egui::ScrollArea::vertical()
                    .show(ui, |ui| crate::hud::card::card_ui(ui, &card, &mut links, tr.lang))
                    .inner
            }
            None => {
                ui.label(tr.t("ui.replay.pick"));
            }
        }
    });
    egui::Panel::right("replay-log").default_size(360.0).show(&mut ui, |ui| {
        ui.label(egui::RichText::new(tr.t("ui.log")).strong());
        egui::ScrollArea::vertical().stick_to_bottom(true).show(ui, |ui| {
            // What the last order did stands out.
            for (i, e) in view.game.events().iter().enumerate() {
                let last = i >= view.last_events && view.orders > 0;
                links.line(ui, &e.describe_with(&tr.texts, &|id| tr.unit(&bctx, id)), tr.lang, |t| {
                    let rich = egui::RichText::new(t);
                    if last { rich.color(egui::Color32::from_rgb(255, 214, 120)) } else { rich }
                });
            }
        });
    });
    leave_room(&ui, &mut room);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::tactical::Dir;
    use rules::testing::Field;

    /// T-TERR-2 in the log: red's jägers moving inside their forest are not in blue's log (the
    /// engine's sight decides, `Ctx::seen`), are in red's and the umpire's; red's line regiment's
    /// move in the open is in all three.
    #[test]
    fn t_terr_2_the_log_shows_a_hidden_units_move_to_its_own_side_only() {
        use rules::tactical::Terrain;
        let mut battle = Field::new(8, 8)
            .terrain(&[(1, 6), (1, 7), (0, 6)], Terrain::DenseForest)
            .unit(4242, Side::Red, "light_infantry", (1, 6), Dir::North)
            .unit(11, Side::Red, "line_infantry", (4, 3), Dir::South)
            .unit(21, Side::Blue, "line_infantry", (3, 2), Dir::North)
            .battle(5);
        battle.apply(Order::Move { unit: UnitId(4242), path: vec![Cell::new(1, 7)], exit: false }).expect("legal");
        battle.apply(Order::Move { unit: UnitId(11), path: vec![Cell::new(4, 4)], exit: false }).expect("legal");
        let ctx = battle.ctx();
        assert!(ctx.unit(UnitId(4242)).is_some_and(|u| u.concealed), "still hidden");
        let tr = Tr::new(Lang::English);
        let moves = |viewer: Option<Side>| -> Vec<String> {
            log_lines(&tr, &ctx, battle.events(), viewer)
                .into_iter()
                .map(|l| l.text)
                .filter(|t| t.contains(" moves to "))
                .collect()
        };
        let (red, blue, umpire) = (moves(Some(Side::Red)), moves(Some(Side::Blue)), moves(None));
        assert_eq!((red.len(), blue.len(), umpire.len()), (2, 1, 2), "red {red:?}, blue {blue:?}");
        assert!(blue.iter().all(|t| !t.contains("(1, 7)") && !t.contains("(1,7)")), "{blue:?}");
    }

    /// T-END-2: a retreating army's infantry (Speed 2) has 3 MP of 3, not "3 of 2".
    #[test]
    fn t_end_2_a_retreating_unit_shows_its_mp_of_the_retreat_speed() {
        let mut battle = Field::new(10, 10)
            .unit(1, Side::Red, "line_infantry", (2, 2), Dir::South)
            .unit(9, Side::Blue, "line_infantry", (8, 8), Dir::North)
            .battle(1);
        let mp = |b: &Battle| {
            let ctx = b.ctx();
            movement_points(&ctx, ctx.unit(UnitId(1)).expect("on the field"))
        };
        assert_eq!(mp(&battle), (2, 2));
        battle.apply(Order::Retreat).expect("legal");
        assert_eq!(mp(&battle), (3, 3));
        battle.apply(Order::Move { unit: UnitId(1), path: vec![Cell::new(2, 1)], exit: false }).expect("legal");
        assert_eq!(mp(&battle), (2, 3));
    }
}
