//! The title screen's "Play online": the server's address (remembered), making a game on it
//! (a battle, who takes each side — a person by invite or the AI at a level — its clocks and a
//! moderator's seat) with each seat's link to copy and send, joining a seat by its invite (link or
//! code), and the games of this player's seats with whom each waits for.

use super::http::Call;
use super::{Conn, JoinOnline, Online, SeatLink};
use crate::catalog::Catalog;
use crate::hud::menus::{menu_window, scenario_name};
use crate::i18n::Tr;
use crate::screens::{Menu, Mode};
use crate::settings::{KnownSeat, Settings};
use ai::Level;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use wire::{CreateRequest, Created, GameInfo, Role, SeatRequest};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<OnlineForm>().add_systems(
        bevy_egui::EguiPrimaryContextPass,
        window.run_if(in_state(Menu::Online)).in_set(crate::hud::PanelsEnd),
    );
}

/// The address a server of this machine answers on by default (`kriegsspiel-server`).
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:7914";
/// UI limit: seat links a player's settings remember (the oldest are forgotten).
pub const REMEMBERED_SEATS: usize = 24;

/// Who takes the other side of a game made here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Other {
    /// A person, by the invite link sent to them.
    Friend,
    Ai(Level),
}

/// The phase deadlines offered (none: the game waits for each power), with their words.
const DEADLINES: &[(Option<u32>, &str)] = &[
    (None, "ui.online.deadline_none"),
    (Some(10), "ui.online.deadline_10m"),
    (Some(60), "ui.online.deadline_1h"),
    (Some(24 * 60), "ui.online.deadline_1d"),
    (Some(3 * 24 * 60), "ui.online.deadline_3d"),
];

/// How long a directive may wait with the moderator, as offered.
const DIRECTIVE_DELAYS: &[(u32, &str)] =
    &[(0, "ui.online.delay_none"), (60, "ui.online.deadline_1h"), (24 * 60, "ui.online.deadline_1d")];

/// UI limit: general seats of one power a game made here has.
pub const MAX_GENERALS: u8 = 4;

/// A player's ID as the server names it, from its name's string key (`side.red`, `gw.power.gb`).
fn player_id(label: &str) -> String {
    label.strip_prefix("side.").or_else(|| label.strip_prefix("gw.power.")).unwrap_or(label).to_string()
}

/// What the player typed and chose, and the lobby's answers.
#[derive(Resource)]
pub struct OnlineForm {
    pub server: String,
    pub invite: String,
    pub problem: Option<String>,
    /// The battle to make (its catalogue path), the side this player takes, the other's.
    pub scenario: String,
    pub side: usize,
    /// The other players' seats, unless one is set apart in `each` (by player index).
    pub other: Other,
    pub each: std::collections::BTreeMap<usize, Other>,
    pub clocks: bool,
    pub moderator: bool,
    /// A Great War: general seats of this player's power (S-ARMY-3), its leader giving them armies.
    pub generals: u8,
    /// A Great War: each phase's deadline (none: the game waits), and what its end does.
    pub phase_minutes: Option<u32>,
    pub on_expiry: wire::Expiry,
    /// How long a leader's directive waits with the moderator (T-STRAT-3), in minutes.
    pub directive_minutes: u32,
    making: Option<Call>,
    /// The game made last, with its seats' invites.
    pub made: Option<(String, Created)>,
    /// The games of the remembered seats, as the lobby answered.
    looking: Vec<(KnownSeat, SeatLink, Call)>,
    pub mine: Vec<(KnownSeat, SeatLink, Result<GameInfo, String>)>,
}

impl Default for OnlineForm {
    fn default() -> OnlineForm {
        OnlineForm {
            server: String::new(),
            invite: String::new(),
            problem: None,
            scenario: "scenarios/open_field.ron".into(),
            side: 0,
            other: Other::Friend,
            each: Default::default(),
            clocks: true,
            moderator: false,
            generals: 0,
            phase_minutes: None,
            on_expiry: wire::Expiry::Pass,
            directive_minutes: 0,
            making: None,
            made: None,
            looking: Vec::new(),
            mine: Vec::new(),
        }
    }
}

impl OnlineForm {
    /// The lobby's request for the game chosen: this player's side (a battle's side, a Great War
    /// power), the other players' seats (the AI's, or persons'), this power's general seats
    /// (named `general` and a number), a moderator's seat if asked for.
    pub fn request(&self, players: &[String], general: &str) -> Result<CreateRequest, String> {
        let scenario = self.scenario.strip_prefix("scenarios/").ok_or("the server has the shipped scenarios only")?;
        let mut seats = Vec::new();
        for (i, p) in players.iter().enumerate() {
            let ai = match self.choice(i) {
                Some(Other::Ai(level)) => Some(level),
                _ => None,
            };
            seats.push(SeatRequest { role: Role::Player { player: p.clone() }, name: p.clone(), ai });
        }
        if let Some(mine) = players.get(self.side) {
            for n in 1..=self.generals.min(MAX_GENERALS) {
                let role = Role::General { player: mine.clone(), formations: Vec::new(), fleets: Vec::new() };
                seats.push(SeatRequest { role, name: format!("{general} {n}"), ai: None });
            }
        }
        if self.moderator {
            seats.push(SeatRequest { role: Role::Moderator, name: "moderator".into(), ai: None });
        }
        let settings = wire::Settings {
            battle_clock: self.clocks,
            phase_minutes: self.phase_minutes,
            on_expiry: self.on_expiry,
            directive_minutes: if self.moderator { self.directive_minutes } else { 0 },
        };
        settings.check()?;
        Ok(CreateRequest { scenario: scenario.to_string(), seats: Some(seats), settings: Some(settings) })
    }

    /// Who takes player `i`'s seat: none for this player's own; else its own choice, or the
    /// other players'.
    pub fn choice(&self, i: usize) -> Option<Other> {
        (i != self.side).then(|| self.each.get(&i).copied().unwrap_or(self.other))
    }

    /// Asks the lobby about each remembered seat's game.
    pub fn look_up(&mut self, remembered: &[KnownSeat]) {
        self.mine.clear();
        self.looking = remembered
            .iter()
            .filter_map(|k| SeatLink::parse(&k.link, "").ok().map(|l| (k.clone(), l)))
            .map(|(known, link)| {
                let call = Call::new(&link.server, "GET", &format!("/api/games/{}", link.game), None);
                (known, link, call)
            })
            .collect();
    }

    /// Takes the lobby's answers that have come.
    fn follow(&mut self) {
        if let Some(answer) = self.making.as_ref().and_then(Call::poll) {
            self.making = None;
            match answer.and_then(|(code, body)| lobby_answer::<Created>(code, &body)) {
                // The seats are remembered as they are played (a friend's link is theirs).
                Ok(created) => self.made = Some((self.server.clone(), created)),
                Err(e) => self.problem = Some(e),
            }
        }
        let mut still = Vec::new();
        for (known, link, call) in std::mem::take(&mut self.looking) {
            match call.poll() {
                Some(answer) => {
                    let info = answer.and_then(|(code, body)| lobby_answer::<GameInfo>(code, &body));
                    self.mine.push((known, link, info));
                }
                None => still.push((known, link, call)),
            }
        }
        self.looking = still;
    }
}

/// A lobby's answer: the value, or its refusal in its words.
fn lobby_answer<T: serde::de::DeserializeOwned>(code: u16, body: &str) -> Result<T, String> {
    if code != 200 {
        let said =
            serde_json::from_str::<serde_json::Value>(body).ok().and_then(|v| v["error"].as_str().map(String::from));
        return Err(said.unwrap_or_else(|| format!("the server answered {code}")));
    }
    serde_json::from_str(body).map_err(|e| format!("the server's answer: {e}"))
}

/// Keeps a seat among the player's (newest first, each once; what is known of it kept).
pub fn remember(settings: &mut Settings, seat: KnownSeat) {
    let before = settings.seats.iter().position(|k| k.link == seat.link).map(|i| settings.seats.remove(i));
    let seat = match before {
        Some(old) if seat.seat.is_none() => KnownSeat { seat: old.seat, name: old.name, ..seat },
        _ => seat,
    };
    settings.seats.insert(0, seat);
    settings.seats.truncate(REMEMBERED_SEATS);
}

fn level_name(tr: &Tr, level: Level) -> String {
    tr.t(&format!("ui.level.{}", level.name()))
}

/// Who may take a seat, as offered.
const CHOICES: [Other; 4] =
    [Other::Friend, Other::Ai(Level::Recruit), Other::Ai(Level::Veteran), Other::Ai(Level::Marshal)];

fn choice_words(tr: &Tr, choice: Other) -> String {
    match choice {
        Other::Friend => tr.t("ui.online.friend"),
        Other::Ai(level) => tr.f("ui.seat.ai", &[("level", level_name(tr, level))]),
    }
}

#[allow(clippy::too_many_arguments)]
fn window(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    mut settings: ResMut<Settings>,
    mut form: ResMut<OnlineForm>,
    catalog: Option<Res<Catalog>>,
    online: Option<Res<Online>>,
    mut join: MessageWriter<JoinOnline>,
    mut menu: ResMut<NextState<Menu>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if form.server.is_empty() {
        form.server = if settings.server.is_empty() { DEFAULT_SERVER.to_string() } else { settings.server.clone() };
        let remembered = settings.seats.clone();
        form.look_up(&remembered);
    }
    form.follow();
    // The battles, the campaigns and the Great War's scenarios (a seat of a large one fetches its
    // files first).
    let mut battles: Vec<_> = catalog
        .iter()
        .flat_map(|c| c.entries.iter())
        .filter(|e| {
            matches!(e.mode, Mode::Battle | Mode::Campaign | Mode::GreatWar) && e.path.starts_with("scenarios/")
        })
        .cloned()
        .collect();
    // The battles, then the campaigns (their battles are the same), then the Great War.
    battles.sort_by_key(|e| match e.mode {
        Mode::Battle => 0,
        Mode::Campaign => 1,
        _ => 2,
    });
    menu_window(ctx, tr.t("ui.online.heading")).show(ctx, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.label(tr.t("ui.online.intro"));
            ui.add_space(6.0);
            ui.horizontal(|ui| {
                ui.label(tr.t("ui.online.server"));
                ui.add(egui::TextEdit::singleline(&mut form.server).desired_width(300.0));
            });
            ui.separator();
            // Join a seat.
            ui.heading(tr.t("ui.online.join_heading"));
            ui.horizontal(|ui| {
                ui.add(
                    egui::TextEdit::singleline(&mut form.invite)
                        .hint_text(tr.t("ui.online.invite_hint"))
                        .desired_width(380.0),
                );
                let joining = online.as_ref().is_some_and(|o| matches!(o.conn, Conn::Connecting | Conn::Lost(_)));
                if ui.add_enabled(!joining, egui::Button::new(tr.t("ui.online.join"))).clicked() {
                    match SeatLink::parse(&form.invite, &form.server) {
                        Ok(link) => {
                            form.problem = None;
                            remember(&mut settings, KnownSeat { link: link.link(), seat: None, name: String::new() });
                            join.write(JoinOnline(link));
                        }
                        Err(e) => form.problem = Some(e),
                    }
                }
            });
            if let Some(o) = &online {
                let (text, colour) = match &o.conn {
                    Conn::Connecting => (tr.t("ui.online.connecting"), egui::Color32::LIGHT_YELLOW),
                    Conn::Live => (tr.t("ui.online.loading"), egui::Color32::LIGHT_GREEN),
                    Conn::Lost(why) => (tr.f("ui.online.lost", &[("why", why.clone())]), egui::Color32::LIGHT_YELLOW),
                    Conn::Failed(why) => (tr.f("ui.online.failed", &[("why", why.clone())]), egui::Color32::LIGHT_RED),
                };
                ui.colored_label(colour, text);
            }
            ui.separator();
            // Make a game.
            ui.heading(tr.t("ui.online.make_heading"));
            let Some(entry) = battles.iter().find(|e| e.path == form.scenario).or(battles.first()).cloned() else {
                ui.label(tr.t("ui.online.no_battles"));
                return;
            };
            let players: Vec<String> = entry.header.players.iter().map(|p| player_id(&p.label)).collect();
            let war = entry.mode == Mode::GreatWar;
            let campaign = entry.mode == Mode::Campaign;
            // The scenario as found (the first, where the one remembered is no longer listed); a
            // choice in the list below takes its place from the next frame.
            form.scenario = entry.path.clone();
            egui::Grid::new("online_make").num_columns(2).spacing([12.0, 6.0]).show(ui, |ui| {
                ui.label(tr.t("ui.online.battle"));
                // A Great War's scenario or a campaign is said to be one (the list holds the
                // battles too).
                let named = |e: &crate::catalog::CatalogEntry| {
                    let name = scenario_name(&tr, e);
                    match e.mode {
                        Mode::GreatWar => tr.f("ui.online.great_war_named", &[("name", name)]),
                        Mode::Campaign => tr.f("ui.online.campaign_named", &[("name", name)]),
                        _ => name,
                    }
                };
                egui::ComboBox::from_id_salt("online_battle").selected_text(named(&entry)).show_ui(ui, |ui| {
                    for e in &battles {
                        if ui.selectable_label(e.path == entry.path, named(e)).clicked() {
                            form.scenario = e.path.clone();
                            form.side = 0;
                            form.each.clear();
                        }
                    }
                });
                ui.end_row();
                ui.label(tr.t("ui.online.you_play"));
                ui.horizontal(|ui| {
                    for (i, p) in entry.header.players.iter().enumerate() {
                        if ui.selectable_label(form.side == i, tr.t(&p.label)).clicked() {
                            form.side = i;
                        }
                    }
                });
                ui.end_row();
                ui.label(tr.t("ui.online.other_side"));
                ui.horizontal(|ui| {
                    for choice in CHOICES {
                        if ui.selectable_label(form.other == choice, choice_words(&tr, choice)).clicked() {
                            // The choice for all: the ones set apart follow it again.
                            form.other = choice;
                            form.each.clear();
                        }
                    }
                });
                ui.end_row();
                // More than one other player (a Great War's powers): each may be set apart.
                if players.len() > 2 {
                    ui.label("");
                    egui::CollapsingHeader::new(tr.t("ui.online.each_player")).id_salt("online_each").show(ui, |ui| {
                        egui::Grid::new("online_each_grid").num_columns(2).spacing([10.0, 2.0]).show(ui, |ui| {
                            for (i, p) in entry.header.players.iter().enumerate() {
                                let Some(now) = form.choice(i) else { continue };
                                ui.label(tr.t(&p.label));
                                egui::ComboBox::from_id_salt(("online_each", i))
                                    .selected_text(choice_words(&tr, now))
                                    .show_ui(ui, |ui| {
                                        for choice in CHOICES {
                                            if ui.selectable_label(now == choice, choice_words(&tr, choice)).clicked() {
                                                form.each.insert(i, choice);
                                            }
                                        }
                                    });
                                ui.end_row();
                            }
                        });
                    });
                    ui.end_row();
                }
                if war || campaign {
                    // A Great War's power (S-ARMY-3) or a campaign's side (T-STRAT-3).
                    ui.label(tr.t(if war { "ui.online.generals" } else { "ui.online.generals_side" }));
                    ui.horizontal(|ui| {
                        for n in 0..=MAX_GENERALS {
                            if ui.selectable_label(form.generals == n, n.to_string()).clicked() {
                                form.generals = n;
                            }
                        }
                    });
                    ui.end_row();
                    ui.label(tr.t("ui.online.deadline"));
                    ui.horizontal_wrapped(|ui| {
                        for (minutes, key) in DEADLINES {
                            if ui.selectable_label(form.phase_minutes == *minutes, tr.t(key)).clicked() {
                                form.phase_minutes = *minutes;
                            }
                        }
                    });
                    if form.phase_minutes.is_some() {
                        ui.end_row();
                        ui.label(tr.t("ui.online.on_expiry"));
                        ui.horizontal(|ui| {
                            let pass = wire::Expiry::Pass;
                            if ui.selectable_label(form.on_expiry == pass, tr.t("ui.online.expiry_pass")).clicked() {
                                form.on_expiry = pass;
                            }
                            let ai = wire::Expiry::Ai(Level::Veteran);
                            if ui.selectable_label(form.on_expiry == ai, tr.t("ui.online.expiry_ai")).clicked() {
                                form.on_expiry = ai;
                            }
                        });
                    }
                }
                // A battle's clocks, and a campaign's for its battles.
                if !war {
                    if campaign {
                        ui.end_row();
                    }
                    ui.label("");
                    ui.checkbox(&mut form.clocks, tr.t("ui.online.clocks"));
                }
                ui.end_row();
                ui.label("");
                ui.checkbox(&mut form.moderator, tr.t("ui.online.moderator"));
                ui.end_row();
                if form.moderator {
                    ui.label(tr.t("ui.online.directive_delay"));
                    ui.horizontal(|ui| {
                        for (minutes, key) in DIRECTIVE_DELAYS {
                            if ui.selectable_label(form.directive_minutes == *minutes, tr.t(key)).clicked() {
                                form.directive_minutes = *minutes;
                            }
                        }
                    });
                    ui.end_row();
                }
            });
            let making = form.making.is_some();
            if ui.add_enabled(!making, egui::Button::new(tr.t("ui.online.make"))).clicked() {
                if !(war || campaign) {
                    form.generals = 0;
                }
                let general = tr.t("ui.online.general_seat");
                let asked = form.request(&players, &general);
                match asked.and_then(|r| serde_json::to_string(&r).map_err(|e| e.to_string())) {
                    Ok(body) => {
                        form.problem = None;
                        form.made = None;
                        form.making = Some(Call::new(&form.server, "POST", "/api/games", Some(body)));
                    }
                    Err(e) => form.problem = Some(e),
                }
            }
            if making {
                ui.label(tr.t("ui.online.making"));
            }
            if let Some(p) = &form.problem {
                ui.colored_label(egui::Color32::LIGHT_RED, p);
            }
            if let Some((server, made)) = form.made.clone() {
                ui.label(tr.t("ui.online.made"));
                egui::Grid::new("online_made").num_columns(3).spacing([10.0, 4.0]).show(ui, |ui| {
                    for (i, seat) in made.seats.iter().enumerate() {
                        let link =
                            SeatLink { server: server.clone(), game: made.game.clone(), token: seat.token.clone() };
                        let ai = i < players.len() && matches!(form.choice(i), Some(Other::Ai(_)));
                        ui.label(seat_label(&tr, &seat.name, ai));
                        if ui.button(tr.t("ui.online.copy")).on_hover_text(link.link()).clicked() {
                            ui.ctx().copy_text(link.link());
                        }
                        if !ai && ui.button(tr.t("ui.online.play_seat")).clicked() {
                            join.write(JoinOnline(link));
                        }
                        ui.end_row();
                    }
                });
            }
            ui.separator();
            // The games of this player's seats.
            ui.horizontal(|ui| {
                ui.heading(tr.t("ui.online.mine_heading"));
                if ui.small_button(tr.t("ui.online.refresh")).clicked() {
                    let remembered = settings.seats.clone();
                    form.look_up(&remembered);
                }
            });
            if settings.seats.is_empty() {
                ui.label(egui::RichText::new(tr.t("ui.online.mine_none")).weak());
            }
            let mut open = None;
            for (known, link, info) in &form.mine {
                ui.horizontal(|ui| {
                    match info {
                        Ok(info) => {
                            let whose = whose_turn(&tr, info, known.seat);
                            let seat = seat_label(&tr, &known.name, false);
                            ui.label(format!("{} · {seat} · {whose}", info.scenario.trim_end_matches(".ron")));
                        }
                        Err(e) => {
                            ui.colored_label(egui::Color32::LIGHT_RED, format!("{} · {e}", link.game));
                        }
                    }
                    if info.is_ok() && ui.small_button(tr.t("ui.online.join")).clicked() {
                        open = Some(link.clone());
                    }
                });
            }
            if let Some(link) = open {
                join.write(JoinOnline(link));
            }
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if ui.button(tr.t("ui.online.close")).clicked() {
                    menu.set(Menu::None);
                }
                // The browser asks whether the game may notify only after a click.
                #[cfg(target_arch = "wasm32")]
                if !super::notify::browser::allowed() && ui.button(tr.t("ui.online.notify")).clicked() {
                    super::notify::browser::ask();
                }
            });
            ui.label(egui::RichText::new(tr.t("ui.online.host")).small().weak());
        });
    });
    Ok(())
}

/// A seat's name in the reader's language, and whether the AI takes it.
fn seat_label(tr: &Tr, name: &str, ai: bool) -> String {
    let named = super::seat_words(tr, name);
    if ai { format!("{named} ({})", tr.t("ui.online.ai_seat")) } else { named }
}

/// Whom a game waits for, in a few words (`mine`: this player's seat in it).
fn whose_turn(tr: &Tr, info: &GameInfo, mine: Option<u32>) -> String {
    let s = &info.status;
    if s.clock.over {
        return tr.t("ui.online.over");
    }
    if mine.is_some_and(|m| s.waiting_for.contains(&m)) {
        return tr.t("ui.online.your_turn");
    }
    let names: Vec<String> = s
        .waiting_for
        .iter()
        .filter_map(|n| info.seats.iter().find(|seat| seat.seat == *n))
        .map(|seat| seat_label(tr, &seat.name, false))
        .collect();
    if names.is_empty() { tr.t("ui.online.ai_moves") } else { tr.f("ui.online.waiting", &[("who", names.join(", "))]) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(i: usize) -> KnownSeat {
        KnownSeat { link: format!("http://h:1/?game=a{i}&seat=00"), seat: None, name: String::new() }
    }

    /// A seat joined again moves to the top and keeps what was known of it; the list keeps the
    /// newest REMEMBERED_SEATS.
    #[test]
    fn remembered_seats_are_each_kept_once_newest_first_and_capped() {
        let mut s = Settings::default();
        remember(&mut s, KnownSeat { seat: Some(2), name: "blue".into(), ..known(0) });
        remember(&mut s, known(1));
        remember(&mut s, known(0));
        assert_eq!(s.seats.len(), 2);
        assert_eq!((s.seats[0].seat, s.seats[0].name.as_str()), (Some(2), "blue"), "what was known stays");
        for i in 0..REMEMBERED_SEATS + 5 {
            remember(&mut s, known(100 + i));
        }
        assert_eq!(s.seats.len(), REMEMBERED_SEATS);
        assert_eq!(s.seats[0], known(100 + REMEMBERED_SEATS + 4));
    }

    /// The lobby's request: the player's side a person's, the other the AI's at its level (or a
    /// friend's), a moderator's seat when asked, the rules' clocks as chosen; a file outside the
    /// shipped scenarios is refused.
    #[test]
    fn the_game_asked_for_is_the_one_chosen() {
        let players = vec!["red".to_string(), "blue".to_string()];
        let form = OnlineForm {
            side: 1,
            other: Other::Ai(Level::Marshal),
            moderator: true,
            clocks: false,
            ..OnlineForm::default()
        };
        let r = form.request(&players, "general").expect("a request");
        assert_eq!(r.scenario, "open_field.ron");
        let seats = r.seats.expect("seats");
        assert_eq!(seats.len(), 3);
        assert_eq!((seats[0].ai, seats[1].ai), (Some(Level::Marshal), None), "the other side is the AI's");
        assert_eq!(seats[2].role, Role::Moderator);
        assert!(!r.settings.expect("settings").battle_clock);
        let json = serde_json::to_value(&seats[0]).expect("JSON");
        assert_eq!(json, serde_json::json!({ "role": "player", "player": "red", "name": "red", "ai": "Marshal" }));
        let friend = OnlineForm::default().request(&players, "general").expect("a request");
        assert!(friend.seats.expect("seats").iter().all(|s| s.ai.is_none()));
        let modded = OnlineForm { scenario: "mods/x.ron".into(), ..OnlineForm::default() };
        assert!(modded.request(&players, "general").is_err());
    }

    /// A Great War made here: the power chosen is a person's, the others the AI's, and its two
    /// general seats serve it (S-ARMY-3), named as asked; the players' IDs are the scenario's.
    #[test]
    fn a_great_war_asked_for_has_the_generals_chosen() {
        let players: Vec<String> =
            ["gw.power.germany", "gw.power.france", "gw.power.gb"].iter().map(|l| player_id(l)).collect();
        assert_eq!(players, ["germany", "france", "gb"]);
        let form = OnlineForm {
            scenario: "scenarios/great_war/test_front.ron".into(),
            side: 1,
            other: Other::Ai(Level::Recruit),
            generals: 2,
            ..OnlineForm::default()
        };
        let r = form.request(&players, "General").expect("a request");
        assert_eq!(r.scenario, "great_war/test_front.ron");
        let seats = r.seats.expect("seats");
        assert_eq!(seats.len(), 5);
        assert_eq!(seats.iter().map(|s| s.ai.is_some()).collect::<Vec<_>>(), [true, false, true, false, false]);
        let general = Role::General { player: "france".into(), formations: Vec::new(), fleets: Vec::new() };
        assert_eq!((&seats[3].role, seats[3].name.as_str()), (&general, "General 1"));
        assert_eq!(seats[4].name, "General 2");
        let timed = OnlineForm {
            phase_minutes: Some(60),
            on_expiry: wire::Expiry::Ai(Level::Veteran),
            moderator: true,
            directive_minutes: 24 * 60,
            ..OnlineForm { scenario: form.scenario.clone(), ..OnlineForm::default() }
        };
        let settings = timed.request(&players, "g").expect("a request").settings.expect("settings");
        assert_eq!((settings.phase_minutes, settings.on_expiry), (Some(60), wire::Expiry::Ai(Level::Veteran)));
        assert_eq!(settings.directive_minutes, 24 * 60);
        let no_moderator = OnlineForm { moderator: false, ..timed };
        let settings = no_moderator.request(&players, "g").expect("a request").settings.expect("settings");
        assert_eq!(settings.directive_minutes, 0, "no moderator, no delay");
        // Britain set apart as a friend's: France still the AI's; one's own seat never is.
        let mut apart = OnlineForm {
            scenario: form.scenario.clone(),
            side: 1,
            other: Other::Ai(Level::Recruit),
            ..OnlineForm::default()
        };
        apart.each.insert(2, Other::Friend);
        apart.each.insert(1, Other::Ai(Level::Marshal));
        let seats = apart.request(&players, "g").expect("a request").seats.expect("seats");
        assert_eq!(seats.iter().map(|s| s.ai).collect::<Vec<_>>(), [Some(Level::Recruit), None, None]);
        let many = OnlineForm { generals: 200, ..form };
        assert_eq!(
            many.request(&players, "g").expect("a request").seats.expect("seats").len(),
            3 + usize::from(MAX_GENERALS)
        );
    }
}
