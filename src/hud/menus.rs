//! The shell's menus: title, set-up, loading, and the settings (with key rebinding) and saves
//! that open over any screen, a running game included, and return to it.

use super::root;
use crate::catalog::{Catalog, Chosen, Download, LoadProblem};
use crate::i18n::{Lang, Tr};
use crate::input::{ActionName, KeySlot, KnownActions, Rebinding, key_name};
use crate::saves::{self, OpenSave, SaveKinds, Seat};
use crate::screens::{Menu, Mode, SavesMenu, Screen};
use crate::settings::{AnimSpeed, Settings};
use crate::storage;
use ai::Level;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// What the set-up screen has chosen.
#[derive(Resource)]
pub struct SetupForm {
    /// The war the set-up screen offers (the title screen has one button per war).
    pub mode: Mode,
    pub scenario: usize,
    /// One seat per player of the chosen scenario.
    pub seats: Vec<Seat>,
    pub seed: String,
}

impl Default for SetupForm {
    fn default() -> Self {
        SetupForm {
            mode: Mode::Battle,
            scenario: 0,
            seats: vec![Seat::Human, Seat::Ai(Level::Veteran)],
            seed: "1".to_string(),
        }
    }
}

/// The saves menu's state: the file named, the last problem.
#[derive(Resource, Default)]
pub struct SettingsForm {
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub file: String,
    pub message: Option<String>,
}

impl SetupForm {
    /// Offers the scenarios of one war.
    pub fn choose_war(&mut self, mode: Mode) {
        if self.mode != mode {
            self.mode = mode;
            self.scenario = usize::MAX;
        }
    }
}

fn big_button(ui: &mut egui::Ui, text: String) -> bool {
    ui.add_sized([260.0, 36.0], egui::Button::new(egui::RichText::new(text).size(18.0))).clicked()
}

#[allow(clippy::too_many_arguments)]
pub fn title(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    (mut screen, mut menu): (ResMut<NextState<Screen>>, ResMut<NextState<Menu>>),
    open_menu: Res<State<Menu>>,
    mut form: ResMut<SavesMenu>,
    mut setup: ResMut<SetupForm>,
    kinds: Res<SaveKinds>,
    mut load: MessageWriter<OpenSave>,
    mut exit: MessageWriter<AppExit>,
    notices: Option<Res<storage::Notices>>,
    mut tutorial: MessageWriter<crate::help::StartTutorial>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // A menu open over the title screen takes its place.
    if *open_menu.get() != Menu::None {
        return Ok(());
    }
    let mut ui = root(ctx, "title");
    egui::CentralPanel::default().show(&mut ui, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(60.0);
            ui.label(egui::RichText::new("KRIEGSSPIEL").size(54.0).strong());
            ui.label(egui::RichText::new(tr.t("ui.title.subtitle")).size(18.0).italics());
            ui.add_space(40.0);
            if big_button(ui, tr.t("ui.title.new")) {
                setup.choose_war(Mode::Battle);
                screen.set(Screen::Setup);
            }
            if big_button(ui, tr.t("ui.title.new_great_war")) {
                setup.choose_war(Mode::GreatWar);
                screen.set(Screen::Setup);
            }
            if big_button(ui, tr.t("ui.title.tutorial")) {
                tutorial.write(crate::help::StartTutorial);
            }
            for notice in notices.iter().flat_map(|n| n.0.iter()) {
                ui.colored_label(egui::Color32::LIGHT_RED, notice);
            }
            if let Some(open) = saves::latest_autosave(&kinds)
                && big_button(ui, tr.t("ui.title.continue"))
            {
                load.write(open);
            }
            if big_button(ui, tr.t("ui.title.load")) {
                form.replay = false;
                menu.set(Menu::Saves);
            }
            if big_button(ui, tr.t("ui.title.replays")) {
                form.replay = true;
                menu.set(Menu::Saves);
            }
            if big_button(ui, tr.t("ui.title.settings")) {
                menu.set(Menu::Settings);
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
    problem: Res<LoadProblem>,
    mut form: ResMut<SetupForm>,
    mut commands: Commands,
    mut screen: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut ui = root(ctx, "setup");
    let name = |n: &str, ru: &str| if tr.russian() && !ru.is_empty() { ru.to_string() } else { n.to_string() };
    egui::CentralPanel::default().show(&mut ui, |ui| {
        let great_war = form.mode == Mode::GreatWar;
        ui.heading(tr.t(if great_war { "ui.setup.heading_great_war" } else { "ui.setup.heading" }));
        ui.separator();
        // The first scenario of the war in hand is chosen when none of it is.
        if catalog.entries.get(form.scenario).is_none_or(|e| e.mode != form.mode) {
            form.scenario = catalog.entries.iter().position(|e| e.mode == form.mode).unwrap_or(usize::MAX);
        }
        ui.columns(2, |cols| {
            cols[0].label(
                egui::RichText::new(tr.t(if great_war { "ui.setup.scenarios_great_war" } else { "ui.setup.battles" }))
                    .strong(),
            );
            let war = form.mode;
            for (i, e) in catalog.entries.iter().enumerate().filter(|(_, e)| e.mode == war) {
                if cols[0].selectable_label(form.scenario == i, name(&e.header.name, &e.header.name_ru)).clicked() {
                    form.scenario = i;
                }
            }
            for p in catalog.problems.iter().chain(&problem.0) {
                cols[0].colored_label(egui::Color32::LIGHT_RED, p);
            }
            if let Some(entry) = catalog.entries.get(form.scenario) {
                let h = &entry.header;
                let ui = &mut cols[1];
                ui.label(egui::RichText::new(name(&h.name, &h.name_ru)).size(20.0));
                ui.label(&h.description);
                if let Some((key, args)) = &h.size {
                    let args: Vec<(&str, String)> = args.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
                    ui.label(tr.f(key, &args));
                }
                ui.add_space(12.0);
                form.seats.resize(h.players.len(), Seat::Ai(Level::Veteran));
                for (i, player) in h.players.iter().enumerate() {
                    let army = name(&player.army, &player.army_ru);
                    let role = player.role.as_deref().map(|r| format!(" ({})", tr.t(r))).unwrap_or_default();
                    ui.horizontal(|ui| {
                        // A Great War power is its own army: its name is said once.
                        let label = tr.t(&player.label);
                        if army.is_empty() || army == label {
                            ui.label(format!("{label}{role}:"));
                        } else {
                            ui.label(format!("{label} — {army}{role}:"));
                        }
                        let seat = &mut form.seats[i];
                        egui::ComboBox::from_id_salt(format!("seat-{i}")).selected_text(seat_name(&tr, *seat)).show_ui(
                            ui,
                            |ui| {
                                ui.selectable_value(seat, Seat::Human, seat_name(&tr, Seat::Human));
                                for level in [Level::Recruit, Level::Veteran, Level::Marshal] {
                                    ui.selectable_value(seat, Seat::Ai(level), seat_name(&tr, Seat::Ai(level)));
                                }
                            },
                        );
                    });
                }
                ui.horizontal(|ui| {
                    ui.label(tr.t("ui.setup.seed"));
                    ui.text_edit_singleline(&mut form.seed);
                });
                ui.add_space(12.0);
                ui.horizontal(|ui| {
                    let start =
                        if entry.mode == Mode::GreatWar { "ui.setup.start_great_war" } else { "ui.setup.start" };
                    if ui.button(egui::RichText::new(tr.t(start)).size(18.0)).clicked() {
                        let seed = form.seed.trim().parse().unwrap_or(1);
                        commands.insert_resource(Chosen {
                            mode: entry.mode,
                            path: entry.path.clone(),
                            seed,
                            seats: form.seats.clone(),
                            seat_names: Vec::new(),
                        });
                        screen.set(Screen::Loading);
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

/// The chosen scenario is being read by its scene.
pub fn loading(mut contexts: EguiContexts, tr: Res<Tr>, download: Option<Res<Download>>) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut ui = root(ctx, "loading");
    egui::CentralPanel::default().show(&mut ui, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(ui.available_height() / 3.0);
            ui.label(egui::RichText::new(tr.t("ui.loading")).size(24.0));
            // The browser fetching a large map: how much has come.
            if let Some(d) = download {
                ui.add_space(12.0);
                let mb = |b: u64| format!("{:.1}", b as f64 / 1_048_576.0);
                let done = if d.total > 0 { (d.received as f32 / d.total as f32).min(1.0) } else { 0.0 };
                ui.add(egui::ProgressBar::new(done).desired_width(320.0));
                ui.label(tr.f("ui.download", &[("got", mb(d.received)), ("of", mb(d.total))]));
            }
        });
    });
    Ok(())
}

/// A menu's window over the screen.
fn menu_window(ctx: &egui::Context, title: String) -> egui::Window<'static> {
    // At most 720×560, and always inside a smaller window (its frame and title bar included).
    let screen = ctx.content_rect().size();
    let size = egui::vec2((screen.x - 40.0).clamp(300.0, 720.0), (screen.y - 90.0).clamp(240.0, 560.0));
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .fixed_size(size)
}

pub fn settings(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    known: Res<KnownActions>,
    mut settings: ResMut<Settings>,
    mut rebinding: ResMut<Rebinding>,
    mut menu: ResMut<NextState<Menu>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    menu_window(ctx, tr.t("ui.settings.heading")).show(ctx, |ui| {
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
        ui.label(egui::RichText::new(tr.t("ui.settings.key_hint")).small());
        if let Some(notice) = &rebinding.notice {
            ui.colored_label(egui::Color32::from_rgb(240, 200, 110), notice);
        }
        egui::ScrollArea::vertical().max_height((ui.available_height() - 40.0).max(80.0)).show(ui, |ui| {
            egui::Grid::new("bindings").striped(true).show(ui, |ui| {
                for action in &known.0 {
                    ui.label(tr.t(&format!("action.{}", action.name)));
                    let keys = settings
                        .bindings
                        .iter()
                        .find(|b| b.action == action.name)
                        .map(|b| b.keys.clone())
                        .unwrap_or_default();
                    let mouse = action.mouse_label;
                    let action = ActionName(action.name);
                    // Every key of the action is its own button: a new key replaces that one
                    // only, and "+ key" adds one.
                    ui.horizontal(|ui| {
                        let slots = (0..keys.len()).map(Some).chain((keys.len() < 3).then_some(None));
                        for replaces in slots {
                            let slot = KeySlot { action, replaces };
                            let text = if rebinding.waiting == Some(slot) {
                                tr.t("ui.settings.press_key")
                            } else {
                                replaces.map_or_else(|| tr.t("ui.settings.add_key"), |i| key_name(keys[i]))
                            };
                            if ui.button(text).clicked() {
                                rebinding.waiting = Some(slot);
                                rebinding.notice = None;
                            }
                        }
                        if let Some(mouse) = mouse {
                            ui.label(tr.t(mouse));
                        }
                    });
                    ui.end_row();
                }
            });
        });
        ui.horizontal(|ui| {
            if ui.button(tr.t("ui.settings.reset_keys")).clicked() {
                settings.bindings = known.defaults();
            }
            if ui.button(tr.t("ui.back")).clicked() {
                *rebinding = Rebinding::default();
                menu.set(Menu::None);
            }
        });
    });
    Ok(())
}

#[allow(clippy::too_many_arguments)]
pub fn saves(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    kinds: Res<SaveKinds>,
    saves_menu: Res<SavesMenu>,
    mut form: ResMut<SettingsForm>,
    mut menu: ResMut<NextState<Menu>>,
    mut opens: MessageWriter<OpenSave>,
    mut listed: Local<(u32, Vec<saves::SlotInfo>)>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // The saves are read twice a second, not every frame.
    if listed.0.is_multiple_of(30) {
        listed.1 = saves::list_slots(&kinds);
    }
    listed.0 = listed.0.wrapping_add(1);
    let mut refresh = false;
    let replay_mode = saves_menu.replay;
    menu_window(ctx, tr.t(if replay_mode { "ui.saves.replays" } else { "ui.saves.heading" })).show(ctx, |ui| {
        let slots = &listed.1;
        if slots.is_empty() {
            ui.label(tr.t("ui.saves.none"));
        }
        // A save found unreadable is set aside at once: its sentence stays on screen.
        if let Some(problem) = slots.iter().find_map(|s| s.problem.clone()) {
            form.message = Some(problem);
        }
        let mut open = |opened: Result<OpenSave, String>, form: &mut SettingsForm| match opened {
            Ok(open) => {
                opens.write(open);
                form.message = None;
            }
            Err(e) => form.message = Some(e),
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
                        open(saves::open_slot(&kinds, &slot.slot, replay_mode), &mut form);
                    }
                }
                if slot.backup && ui.button(tr.t("ui.saves.restore")).clicked() {
                    form.message = saves::restore_backup(&slot.slot).err();
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
                    .and_then(|text| saves::open_text(&kinds, &path, text, replay_mode));
                open(read, &mut form);
            }
        });
        #[cfg(target_arch = "wasm32")]
        {
            if ui.button(tr.t("ui.saves.choose_file")).clicked() {
                crate::web::pick_file();
            }
            if let Some(text) = crate::web::take_picked_file() {
                open(saves::open_text(&kinds, "save.ron", text, replay_mode), &mut form);
            }
        }
        if let Some(m) = &form.message {
            ui.colored_label(egui::Color32::LIGHT_RED, m);
        }
        if ui.button(tr.t("ui.back")).clicked() {
            form.message = None;
            menu.set(Menu::None);
        }
    });
    if refresh {
        listed.0 = 0;
    }
    Ok(())
}

/// The saves menu's last problem goes when it closes.
pub fn forget_message(mut form: ResMut<SettingsForm>) {
    form.message = None;
}
