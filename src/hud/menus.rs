//! The menus: title, battle set-up, settings (with key rebinding), saves, result, replays.

use super::root;
use crate::i18n::{Lang, Tr};
use crate::input::{Action, key_name};
use crate::replay::{OpenReplay, ReplayView};
use crate::screens::Screen;
use crate::session::{LoadBattle, Seat, Session, StartBattle};
use crate::settings::{AnimSpeed, Settings};
use crate::storage::{self, Catalog};
use ai::Level;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use rules::tactical::Side;

/// What the set-up screen has chosen.
#[derive(Resource)]
pub struct SetupForm {
    pub scenario: usize,
    pub seats: [Seat; 2],
    pub seed: String,
}

impl Default for SetupForm {
    fn default() -> Self {
        SetupForm { scenario: 0, seats: [Seat::Human, Seat::Ai(Level::Veteran)], seed: "1".to_string() }
    }
}

/// The settings screen's state: which action waits for a key, and whether the saves screen
/// loads games or opens replays.
#[derive(Resource, Default)]
pub struct SettingsForm {
    pub capturing: Option<Action>,
    pub replay_mode: bool,
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub file: String,
    pub message: Option<String>,
}

fn big_button(ui: &mut egui::Ui, text: String) -> bool {
    ui.add_sized([260.0, 36.0], egui::Button::new(egui::RichText::new(text).size(18.0))).clicked()
}

pub fn title(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    mut screen: ResMut<NextState<Screen>>,
    mut form: ResMut<SettingsForm>,
    mut load: MessageWriter<LoadBattle>,
    mut exit: MessageWriter<AppExit>,
    notices: Option<Res<storage::Notices>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut ui = root(ctx, "title");
    egui::CentralPanel::default().show(&mut ui, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(60.0);
            ui.label(egui::RichText::new("KRIEGSSPIEL").size(54.0).strong());
            ui.label(egui::RichText::new(tr.t("ui.title.subtitle")).size(18.0).italics());
            ui.add_space(40.0);
            if big_button(ui, tr.t("ui.title.new")) {
                screen.set(Screen::Setup);
            }
            for notice in notices.iter().flat_map(|n| n.0.iter()) {
                ui.colored_label(egui::Color32::LIGHT_RED, notice);
            }
            if let Some(game) = storage::latest_autosave()
                && big_button(ui, tr.t("ui.title.continue"))
            {
                load.write(LoadBattle(game));
            }
            if big_button(ui, tr.t("ui.title.load")) {
                form.replay_mode = false;
                screen.set(Screen::Saves);
            }
            if big_button(ui, tr.t("ui.title.replays")) {
                form.replay_mode = true;
                screen.set(Screen::Saves);
            }
            if big_button(ui, tr.t("ui.title.settings")) {
                screen.set(Screen::Settings);
            }
            #[cfg(not(target_arch = "wasm32"))]
            if big_button(ui, tr.t("ui.title.quit")) {
                exit.write(AppExit::Success);
            }
            #[cfg(target_arch = "wasm32")]
            let _ = &mut exit;
        });
    });
    Ok(())
}

fn seat_name(tr: &Tr, seat: Seat) -> String {
    match seat {
        Seat::Human => tr.t("ui.seat.human"),
        Seat::Ai(level) => tr.f("ui.seat.ai", &[("level", tr.t(&format!("ui.level.{}", level.name())))]),
    }
}

pub fn setup(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    catalog: Res<Catalog>,
    mut form: ResMut<SetupForm>,
    mut screen: ResMut<NextState<Screen>>,
    mut start: MessageWriter<StartBattle>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut ui = root(ctx, "setup");
    egui::CentralPanel::default().show(&mut ui, |ui| {
        ui.heading(tr.t("ui.setup.heading"));
        ui.separator();
        ui.columns(2, |cols| {
            cols[0].label(egui::RichText::new(tr.t("ui.setup.battles")).strong());
            for (i, (_, s)) in catalog.entries.iter().enumerate() {
                let name = if tr.russian() && !s.name_ru.is_empty() { &s.name_ru } else { &s.name };
                if cols[0].selectable_label(form.scenario == i, name).clicked() {
                    form.scenario = i;
                }
            }
            for p in &catalog.problems {
                cols[0].colored_label(egui::Color32::LIGHT_RED, p);
            }
            if let Some((_, s)) = catalog.entries.get(form.scenario) {
                let ui = &mut cols[1];
                ui.label(
                    egui::RichText::new(if tr.russian() && !s.name_ru.is_empty() { &s.name_ru } else { &s.name })
                        .size(20.0),
                );
                ui.label(&s.description);
                ui.label(tr.f(
                    "ui.setup.size",
                    &[
                        ("red", s.units_of(Side::Red).count().to_string()),
                        ("blue", s.units_of(Side::Blue).count().to_string()),
                        ("w", s.map.width.to_string()),
                        ("h", s.map.height.to_string()),
                    ],
                ));
                ui.add_space(12.0);
                for side in Side::BOTH {
                    let spec = s.side(side);
                    let army = if tr.russian() && !spec.name_ru.is_empty() { &spec.name_ru } else { &spec.name };
                    let role = if side == s.attacker { tr.t("ui.setup.attacker") } else { tr.t("ui.setup.defender") };
                    ui.horizontal(|ui| {
                        ui.label(format!("{} — {army} ({role}):", tr.side(side)));
                        let seat = &mut form.seats[side.index()];
                        egui::ComboBox::from_id_salt(format!("seat-{}", side.name()))
                            .selected_text(seat_name(&tr, *seat))
                            .show_ui(ui, |ui| {
                                ui.selectable_value(seat, Seat::Human, seat_name(&tr, Seat::Human));
                                for level in [Level::Recruit, Level::Veteran, Level::Marshal] {
                                    ui.selectable_value(seat, Seat::Ai(level), seat_name(&tr, Seat::Ai(level)));
                                }
                            });
                    });
                }
                ui.horizontal(|ui| {
                    ui.label(tr.t("ui.setup.seed"));
                    ui.text_edit_singleline(&mut form.seed);
                });
                ui.add_space(12.0);
                ui.horizontal(|ui| {
                    if ui.button(egui::RichText::new(tr.t("ui.setup.start")).size(18.0)).clicked() {
                        let seed = form.seed.trim().parse().unwrap_or(1);
                        start.write(StartBattle { scenario: s.clone(), seed, seats: form.seats });
                    }
                    if ui.button(tr.t("ui.back")).clicked() {
                        screen.set(Screen::Title);
                    }
                });
            }
        });
    });
    Ok(())
}

pub fn settings(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    mut settings: ResMut<Settings>,
    mut form: ResMut<SettingsForm>,
    mut screen: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut ui = root(ctx, "settings");
    egui::CentralPanel::default().show(&mut ui, |ui| {
        ui.heading(tr.t("ui.settings.heading"));
        ui.separator();
        ui.horizontal(|ui| {
            ui.label(tr.t("ui.settings.language"));
            for lang in Lang::ALL {
                if ui.selectable_label(settings.lang == lang, lang.native_name()).clicked() && settings.lang != lang {
                    settings.lang = lang;
                }
            }
        });
        let mut timer = settings.turn_timer;
        if ui.checkbox(&mut timer, tr.t("ui.settings.timer")).changed() {
            settings.turn_timer = timer;
        }
        ui.horizontal(|ui| {
            ui.label(tr.t("ui.settings.animation"));
            for speed in AnimSpeed::ALL {
                if ui.selectable_label(settings.anim == speed, tr.t(speed.key())).clicked() && settings.anim != speed {
                    settings.anim = speed;
                }
            }
        });
        ui.add_space(8.0);
        ui.label(egui::RichText::new(tr.t("ui.settings.keys")).strong());
        egui::ScrollArea::vertical().max_height(380.0).show(ui, |ui| {
            egui::Grid::new("bindings").striped(true).show(ui, |ui| {
                for action in Action::KEYED {
                    ui.label(tr.t(&action.key()));
                    let keys = settings
                        .bindings
                        .iter()
                        .find(|b| b.action == action)
                        .map(|b| b.keys.clone())
                        .unwrap_or_default();
                    let mut text: Vec<String> = keys.iter().map(|k| key_name(*k)).collect();
                    match action {
                        Action::Select => text.push(tr.t("ui.key.mouse_left")),
                        Action::Cancel => text.push(tr.t("ui.key.mouse_right")),
                        _ => {}
                    }
                    ui.label(text.join(", "));
                    if form.capturing == Some(action) {
                        ui.label(tr.t("ui.settings.press_key"));
                    } else if ui.button(tr.t("ui.settings.change")).clicked() {
                        form.capturing = Some(action);
                    }
                    ui.end_row();
                }
            });
        });
        ui.horizontal(|ui| {
            if ui.button(tr.t("ui.settings.reset_keys")).clicked() {
                settings.bindings = crate::input::default_bindings();
            }
            if ui.button(tr.t("ui.back")).clicked() {
                form.capturing = None;
                screen.set(Screen::Title);
            }
        });
    });
    Ok(())
}

/// While an action waits for a key: the next key pressed becomes its binding.
pub fn capture_rebinding(
    keys: Res<ButtonInput<KeyCode>>,
    mut form: ResMut<SettingsForm>,
    mut settings: ResMut<Settings>,
) {
    let Some(action) = form.capturing else { return };
    if let Some(key) = keys.get_just_pressed().next() {
        if let Some(b) = settings.bindings.iter_mut().find(|b| b.action == action) {
            b.keys = vec![*key];
        } else {
            settings.bindings.push(crate::input::Binding { action, keys: vec![*key] });
        }
        form.capturing = None;
    }
}

#[allow(clippy::too_many_arguments)]
pub fn saves(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    mut form: ResMut<SettingsForm>,
    mut screen: ResMut<NextState<Screen>>,
    mut load: MessageWriter<LoadBattle>,
    mut replay: MessageWriter<OpenReplay>,
    mut listed: Local<(u32, Vec<storage::SlotInfo>)>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut ui = root(ctx, "saves");
    // The saves are read twice a second, not every frame.
    if listed.0.is_multiple_of(30) {
        listed.1 = storage::list_slots();
    }
    listed.0 = listed.0.wrapping_add(1);
    let mut refresh = false;
    let replay_mode = form.replay_mode;
    egui::CentralPanel::default().show(&mut ui, |ui| {
        ui.heading(tr.t(if replay_mode { "ui.saves.replays" } else { "ui.saves.heading" }));
        ui.separator();
        let slots = &listed.1;
        if slots.is_empty() {
            ui.label(tr.t("ui.saves.none"));
        }
        // A save found unreadable is set aside at once: its sentence stays on screen.
        if let Some(problem) = slots.iter().find_map(|s| s.problem.clone()) {
            form.message = Some(problem);
        }
        let mut open = |game: storage::SavedGame, form: &mut SettingsForm| {
            if replay_mode {
                replay.write(OpenReplay(game.save));
            } else {
                load.write(LoadBattle(game));
            }
            form.message = None;
        };
        egui::Grid::new("slots").striped(true).show(ui, |ui| {
            for slot in slots {
                ui.label(if slot.is_auto() {
                    tr.t("ui.slot.autosave")
                } else {
                    tr.t(&format!("ui.slot.{}", slot.slot))
                });
                if let Some(problem) = &slot.problem {
                    ui.colored_label(egui::Color32::LIGHT_RED, problem);
                    ui.label("");
                } else if slot.scenario.is_empty() {
                    ui.label("");
                    ui.label("");
                } else {
                    ui.label(&slot.scenario);
                    ui.label(
                        tr.f("ui.saves.turn", &[("turn", slot.turn.to_string()), ("orders", slot.orders.to_string())]),
                    );
                    if ui.button(tr.t(if replay_mode { "ui.saves.watch" } else { "ui.saves.load" })).clicked() {
                        match storage::load_slot(&slot.slot) {
                            Ok(game) => open(game, &mut form),
                            Err(e) => form.message = Some(e),
                        }
                    }
                }
                if slot.backup && ui.button(tr.t("ui.saves.restore")).clicked() {
                    form.message = storage::restore_backup(&slot.slot).err();
                    refresh = true;
                }
                ui.end_row();
            }
        });
        ui.add_space(10.0);
        ui.label(tr.t("ui.saves.from_file"));
        #[cfg(not(target_arch = "wasm32"))]
        ui.horizontal(|ui| {
            ui.text_edit_singleline(&mut form.file);
            if ui.button(tr.t("ui.saves.open_file")).clicked() {
                let path = form.file.trim().to_string();
                let read = std::fs::read_to_string(&path)
                    .map_err(|e| format!("{path}: {e}"))
                    .and_then(|text| storage::saved_game_from_text(&path, &text));
                match read {
                    Ok(game) => open(game, &mut form),
                    Err(e) => form.message = Some(e),
                }
            }
        });
        #[cfg(target_arch = "wasm32")]
        {
            if ui.button(tr.t("ui.saves.choose_file")).clicked() {
                crate::web::pick_file();
            }
            if let Some(text) = crate::web::take_picked_file() {
                match storage::saved_game_from_text("save.ron", &text) {
                    Ok(game) => open(game, &mut form),
                    Err(e) => form.message = Some(e),
                }
            }
        }
        if let Some(m) = &form.message {
            ui.colored_label(egui::Color32::LIGHT_RED, m);
        }
        if ui.button(tr.t("ui.back")).clicked() {
            form.message = None;
            screen.set(Screen::Title);
        }
    });
    if refresh {
        listed.0 = 0;
    }
    Ok(())
}

pub fn result(
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
        let Some(r) = session.battle.result() else { return };
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

pub fn replay(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    view: Option<ResMut<ReplayView>>,
    mut screen: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut ui = root(ctx, "replay");
    let Some(mut view) = view else { return Ok(()) };
    egui::Panel::top("replay-bar").show(&mut ui, |ui| {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(&view.save.scenario.name).strong());
            let clock = view.battle.clock();
            ui.label(tr.f(
                "ui.replay.at",
                &[
                    ("stop", (view.at + 1).to_string()),
                    ("stops", view.stops.len().to_string()),
                    ("turn", clock.turn.to_string()),
                    ("round", clock.round.to_string()),
                ],
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
                ui.colored_label(egui::Color32::LIGHT_RED, e.to_string());
            }
            if ui.button(tr.t("ui.back")).clicked() {
                screen.set(Screen::Title);
            }
        });
    });
    let bctx = view.battle.ctx();
    egui::Panel::right("replay-log").default_size(360.0).show(&mut ui, |ui| {
        ui.label(egui::RichText::new(tr.t("ui.log")).strong());
        egui::ScrollArea::vertical().stick_to_bottom(true).show(ui, |ui| {
            for e in view.battle.events() {
                ui.label(e.describe_with(&tr.texts, &|id| tr.unit(&bctx, id)));
            }
        });
    });
    Ok(())
}
