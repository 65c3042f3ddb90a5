//! The shell's menus: title, set-up, loading, and the settings (with key rebinding) and saves
//! that open over any screen, a running game included, and return to it.

use super::root;
use crate::catalog::{Catalog, Download, LoadProblem};
use crate::i18n::{Lang, Tr};
use crate::input::{ActionName, KeySlot, KnownActions, Rebinding, key_name};
use crate::saves::{self, OpenSave, SaveKinds, Seat};
use crate::screens::{Menu, Mode, SavesMenu, Screen};
use crate::settings::{AnimSpeed, Settings};
use crate::setup::{PlayAs, ScenarioPages, SetupClick, SetupForm};
use crate::storage;
use ai::Level;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

/// The saves menu's state: the file named, the last problem.
#[derive(Resource, Default)]
pub struct SettingsForm {
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub file: String,
    pub message: Option<String>,
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
    (mut tutorial, mut gw_tutorial): (
        MessageWriter<crate::help::StartTutorial>,
        MessageWriter<crate::help::StartGwTutorial>,
    ),
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
            if big_button(ui, tr.t("ui.title.new_campaign")) {
                setup.choose_war(Mode::Campaign);
                screen.set(Screen::Setup);
            }
            if big_button(ui, tr.t("ui.title.online")) {
                menu.set(Menu::Online);
            }
            if big_button(ui, tr.t("ui.title.tutorial")) {
                tutorial.write(crate::help::StartTutorial);
            }
            if big_button(ui, tr.t("ui.title.tutorial_great_war")) {
                gw_tutorial.write(crate::help::StartGwTutorial);
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

/// A scenario's name in the reader's language: the file's Russian name, else the string table's
/// `scenario.STEM` (the Great War's files have no Russian name), else the file's.
pub fn scenario_name(tr: &Tr, entry: &crate::catalog::CatalogEntry) -> String {
    let h = &entry.header;
    if tr.russian() && !h.name_ru.is_empty() {
        return h.name_ru.clone();
    }
    let stem = std::path::Path::new(&entry.path).file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let key = format!("scenario.{stem}");
    let named = tr.t(&key);
    if named != key { named } else { h.name.clone() }
}

/// What "play as" says of a choice.
fn play_as_name(tr: &Tr, header: &crate::catalog::ScenarioHeader, choice: PlayAs) -> String {
    let player = |i: usize| {
        let Some(p) = header.players.get(i) else { return String::new() };
        let label = tr.t(&p.label);
        let army = if tr.russian() && !p.army_ru.is_empty() { &p.army_ru } else { &p.army };
        // A Great War power is its own army: its name is said once, in the reader's language.
        if p.alliance.is_some() || army.is_empty() || *army == label { label } else { format!("{army} ({label})") }
    };
    match choice {
        PlayAs::Player(i) => player(i),
        PlayAs::Alliance(a) => {
            let leader = header.players.iter().position(|p| p.alliance == Some(a)).map(player).unwrap_or_default();
            tr.f("ui.setup.alliance", &[("leader", leader)])
        }
        PlayAs::Seats => tr.t("ui.setup.seats"),
    }
}

/// The set-up screen: the war's scenarios on the left; on the right the chosen one's page (its
/// map, sides, length, objectives and victory), "play as" with the AI's level for the other
/// seats, the start, and each seat under "seats…". Every button is a [`SetupClick`].
#[allow(clippy::too_many_arguments)]
pub fn setup(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    catalog: Res<Catalog>,
    problem: Res<LoadProblem>,
    mut form: ResMut<SetupForm>,
    pages: Res<ScenarioPages>,
    mut clicks: MessageWriter<SetupClick>,
    mut thumb: Local<Option<(String, egui::TextureHandle)>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut ui = root(ctx, "setup");
    let entry = form.entry(&catalog).cloned();
    egui::CentralPanel::default().show(&mut ui, |ui| {
        let heading = match form.mode {
            Mode::Battle => "ui.setup.heading",
            Mode::GreatWar => "ui.setup.heading_great_war",
            Mode::Campaign => "ui.setup.heading_campaign",
        };
        ui.heading(tr.t(heading));
        ui.separator();
        egui::Panel::left("setup-list").resizable(false).exact_size(240.0).show(ui, |ui| {
            let list = match form.mode {
                Mode::Battle => "ui.setup.battles",
                Mode::GreatWar => "ui.setup.scenarios_great_war",
                Mode::Campaign => "ui.setup.campaigns",
            };
            ui.label(egui::RichText::new(tr.t(list)).strong());
            for (i, e) in catalog.entries.iter().enumerate().filter(|(_, e)| e.mode == form.mode) {
                if ui.selectable_label(form.scenario == i, scenario_name(&tr, e)).clicked() {
                    clicks.write(SetupClick::Scenario(i));
                }
            }
            for p in catalog.problems.iter().chain(&problem.0) {
                ui.colored_label(egui::Color32::LIGHT_RED, p);
            }
            ui.add_space(12.0);
            if ui.button(tr.t("ui.back")).clicked() {
                clicks.write(SetupClick::Back);
            }
        });
        let Some(entry) = entry else { return };
        let h = &entry.header;
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.label(egui::RichText::new(scenario_name(&tr, &entry)).size(22.0));
            if !h.description.is_empty() {
                ui.label(&h.description);
            }
            if let Some((key, args)) = &h.size {
                let args: Vec<(&str, String)> = args.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
                ui.label(egui::RichText::new(tr.f(key, &args)).weak());
            }
            ui.add_space(8.0);
            // Play as: one click, then the start.
            ui.label(egui::RichText::new(tr.t("ui.setup.play_as")).strong());
            ui.horizontal_wrapped(|ui| {
                for choice in SetupForm::choices(h) {
                    if ui.selectable_label(form.play_as == choice, play_as_name(&tr, h, choice)).clicked() {
                        clicks.write(SetupClick::PlayAs(choice));
                    }
                }
            });
            ui.horizontal(|ui| {
                ui.label(tr.t("ui.setup.others"));
                for level in [Level::Recruit, Level::Veteran, Level::Marshal] {
                    let name = tr.t(&format!("ui.level.{}", level.name()));
                    if ui.selectable_label(form.level == level, name).clicked() {
                        clicks.write(SetupClick::Level(level));
                    }
                }
            });
            ui.add_space(6.0);
            let start = match entry.mode {
                Mode::GreatWar => "ui.setup.start_great_war",
                Mode::Campaign => "ui.setup.start_campaign",
                Mode::Battle => "ui.setup.start",
            };
            // Enter starts too, unless a text field (the seed) has the keys.
            let enter = !ui.ctx().egui_wants_keyboard_input() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let button =
                ui.button(egui::RichText::new(tr.t(start)).size(18.0)).on_hover_text(tr.t("ui.setup.start_key"));
            if button.clicked() || enter {
                clicks.write(SetupClick::Start);
            }
            ui.add_space(8.0);
            egui::CollapsingHeader::new(tr.t("ui.setup.seats")).id_salt("seats").show(ui, |ui| {
                for (i, player) in h.players.iter().enumerate() {
                    let Some(seat) = form.seats.get(i).copied() else { continue };
                    ui.horizontal(|ui| {
                        let role = player.role.as_deref().map(|r| format!(" ({})", tr.t(r))).unwrap_or_default();
                        ui.label(format!("{}{role}:", play_as_name(&tr, h, PlayAs::Player(i))));
                        egui::ComboBox::from_id_salt(format!("seat-{i}")).selected_text(seat_name(&tr, seat)).show_ui(
                            ui,
                            |ui| {
                                let mut pick = |ui: &mut egui::Ui, s: Seat| {
                                    if ui.selectable_label(seat == s, seat_name(&tr, s)).clicked() {
                                        clicks.write(SetupClick::Seat(i, s));
                                    }
                                };
                                pick(ui, Seat::Human);
                                for level in [Level::Recruit, Level::Veteran, Level::Marshal] {
                                    pick(ui, Seat::Ai(level));
                                }
                            },
                        );
                    });
                }
                ui.horizontal(|ui| {
                    ui.label(tr.t("ui.setup.seed"));
                    ui.add(egui::TextEdit::singleline(&mut form.seed).desired_width(120.0));
                });
            });
            ui.separator();
            page(ui, &tr, &entry.path, pages.get(&entry.path, tr.lang), &mut thumb);
        });
    });
    Ok(())
}

/// The scenario's page: its map's picture beside its sides and length, then the rest.
fn page(
    ui: &mut egui::Ui,
    tr: &Tr,
    path: &str,
    page: Option<&Result<crate::catalog::ScenarioPage, String>>,
    thumb: &mut Option<(String, egui::TextureHandle)>,
) {
    let page = match page {
        None => {
            ui.label(egui::RichText::new(tr.t("ui.loading")).weak());
            return;
        }
        Some(Err(why)) => {
            ui.label(egui::RichText::new(why).weak());
            return;
        }
        Some(Ok(page)) => page,
    };
    if let Some(t) = &page.thumbnail
        && thumb.as_ref().is_none_or(|(p, _)| p != path)
    {
        let image = egui::ColorImage::from_rgba_unmultiplied([t.width as usize, t.height as usize], &t.rgba);
        *thumb = Some((path.to_string(), ui.ctx().load_texture("scenario-map", image, egui::TextureOptions::NEAREST)));
    }
    let section = |ui: &mut egui::Ui, (key, lines): &(String, Vec<String>)| {
        ui.label(egui::RichText::new(tr.t(key)).strong());
        for line in lines {
            ui.label(line);
        }
        ui.add_space(4.0);
    };
    ui.horizontal_top(|ui| {
        if let Some((_, texture)) = thumb.as_ref().filter(|(p, _)| p == path && page.thumbnail.is_some()) {
            ui.add(egui::Image::new(texture).fit_to_exact_size(texture.size_vec2()));
        }
        ui.vertical(|ui| {
            for s in page.sections.iter().take(2) {
                section(ui, s);
            }
        });
    });
    for s in page.sections.iter().skip(2) {
        section(ui, s);
    }
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
pub(crate) fn menu_window(ctx: &egui::Context, title: String) -> egui::Window<'static> {
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
