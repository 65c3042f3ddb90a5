//! The campaign's panels: the top bar, the selected army (its units, intercept order, split and
//! merge), what is under the pointer (the hex, the path's cost, who could intercept, the battle
//! a march would start), the choice of the units that fight (the cut), the battle waiting to be
//! fought, the report of a battle (an auto-battle round by round), the hot-seat hand-over, the
//! result, the replay bar, and the campaign's bar over a battle of the campaign.

use super::battle::{CampaignBattle, running};
use super::board::side_colour;
use super::command::{BattleReport, CampaignCommand, ready_battle, route};
use super::labels::strength;
use super::{ArmySelection, CampaignNames, HoveredHex};
use crate::hud::root;
use crate::hud::rules::RuleLinks;
use crate::i18n::{Lang, Tr};
use crate::replay::ReplayView;
use crate::rules_ref::RulesCommand;
use crate::saves;
use crate::screens::{Menu, Mode, PlayView, Screen};
use crate::session::{Leave, Seat};
use crate::settings::Settings;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use rules::Game;
use rules::campaign::field::most_redoubts;
use rules::campaign::state::VictoryReason;
use rules::campaign::{ArmyId, Campaign, CampaignScenario, CampaignState, Event, Forces, HexAt, Order};
use rules::tactical::{Battle, Side, UnitId};

type Session = crate::session::Session<Campaign>;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PanelState>()
        .add_systems(
            EguiPrimaryContextPass,
            (
                campaign.run_if(in_state(Screen::Playing)),
                result.run_if(in_state(Screen::Result)),
                replay.run_if(in_state(Screen::Replay)),
            )
                .run_if(in_state(Mode::Campaign))
                .after(crate::hud::PanelsBegin)
                .before(crate::hud::PanelsEnd),
        )
        .add_systems(
            EguiPrimaryContextPass,
            battle_bar
                .run_if(in_state(Mode::Battle))
                .run_if(resource_exists::<CampaignBattle>)
                .after(crate::hud::PanelsBegin)
                .before(crate::hud::PanelsEnd),
        );
}

/// What the panels remember: the units ticked to split off or to field, the log shown, the
/// last save's message.
#[derive(Resource, Default)]
pub struct PanelState {
    split: Vec<UnitId>,
    /// The units ticked to fight, and the redoubts, for the battle being chosen for.
    fielded: Option<(u32, Side, Vec<UnitId>, u32)>,
    log: bool,
    saved: Option<String>,
}

fn colour(side: Side) -> egui::Color32 {
    let c = side_colour(side).to_srgba();
    egui::Color32::from_rgb((c.red * 255.0) as u8 + 30, (c.green * 255.0) as u8 + 30, (c.blue * 255.0) as u8 + 30)
}

fn name(tr: &Tr, en: &str, ru: &str) -> String {
    if tr.russian() && !ru.is_empty() { ru.to_string() } else { en.to_string() }
}

/// A unit's name and type in this language.
fn unit_line(tr: &Tr, scenario: &CampaignScenario, state: &CampaignState, id: UnitId) -> String {
    let Some(u) = state.unit(id) else { return format!("{}", id.0) };
    let kind = scenario.unit_type(&u.unit).map(|t| name(tr, &t.name, &t.name_ru)).unwrap_or_else(|| u.unit.clone());
    let full = scenario.unit_type(&u.unit).map_or(u.health, |t| t.health);
    format!("{} — {kind}, {}/{full}", u.name, u.health)
}

fn army_name(state: &CampaignState, id: ArmyId) -> String {
    state.army(id).map_or_else(|| id.to_string(), |a| a.name.clone())
}

/// An army's name, also once it is gone (from the scenario's list).
fn army_name_ever(scenario: &CampaignScenario, state: &CampaignState, id: ArmyId) -> String {
    match (state.army(id), scenario.armies.iter().find(|a| a.id == id.0)) {
        (Some(a), _) => a.name.clone(),
        (None, Some(spec)) => spec.name.clone(),
        (None, None) => id.to_string(),
    }
}

/// A unit's name, also once it is lost (from the scenario's list).
fn unit_name_ever(scenario: &CampaignScenario, state: &CampaignState, id: UnitId) -> String {
    if let Some(u) = state.unit(id) {
        return u.name.clone();
    }
    scenario
        .armies
        .iter()
        .flat_map(|a| &a.units)
        .find(|u| u.id == id)
        .and_then(|u| u.name.clone())
        .unwrap_or_else(|| id.0.to_string())
}

/// What happened, in this language.
pub fn event_text(tr: &Tr, scenario: &CampaignScenario, state: &CampaignState, e: &Event) -> String {
    let hex = |h: &HexAt| tr.hex(scenario, *h);
    let side = |s: &Side| tr.side_of(scenario, *s);
    let unit = |u: &UnitId| unit_name_ever(scenario, state, *u);
    let army = |a: &ArmyId| army_name_ever(scenario, state, *a);
    match e {
        Event::Moved { army: a, to, mp_left } => {
            tr.f("ev.campaign.moved", &[("army", army(a)), ("to", hex(to)), ("mp", mp_left.to_string())])
        }
        Event::Intercepted { army: a, at, target } => {
            tr.f("ev.campaign.intercepted", &[("army", army(a)), ("at", hex(at)), ("target", army(target))])
        }
        Event::InterceptOrder { army: a, on } => {
            tr.f(if *on { "ev.campaign.intercept_on" } else { "ev.campaign.intercept_off" }, &[("army", army(a))])
        }
        Event::Split { army: a, new, units } => {
            tr.f("ev.campaign.split", &[("army", army(a)), ("new", army(new)), ("units", units.to_string())])
        }
        Event::Merged { army: a, into } => tr.f("ev.campaign.merged", &[("army", army(a)), ("into", army(into))]),
        Event::BattleJoined { at, attacker, units } => tr.f(
            "ev.campaign.battle",
            &[
                ("at", hex(at)),
                ("attacker", side(attacker)),
                ("red", units[0].to_string()),
                ("blue", units[1].to_string()),
            ],
        ),
        Event::Cut { fielded, .. } => {
            tr.f("ev.campaign.cut", &[("red", fielded[0].to_string()), ("blue", fielded[1].to_string())])
        }
        Event::ForcesChosen { side: s, units, redoubts } => tr.f(
            "ev.campaign.forces",
            &[("side", side(s)), ("units", units.to_string()), ("redoubts", redoubts.to_string())],
        ),
        Event::RedoubtsBuilt { side: s, redoubts, mp_spent } => tr.f(
            "ev.campaign.redoubts",
            &[("side", side(s)), ("redoubts", redoubts.to_string()), ("mp", mp_spent.to_string())],
        ),
        Event::AutoRound { round, damage } => tr.f(
            "ev.campaign.round",
            &[("round", round.to_string()), ("red", damage[0].to_string()), ("blue", damage[1].to_string())],
        ),
        Event::AutoBattleWon { at, winner, rounds } => {
            tr.f("ev.campaign.auto_won", &[("side", side(winner)), ("at", hex(at)), ("rounds", rounds.to_string())])
        }
        Event::BattleWon { at, winner, turns, .. } => {
            tr.f("ev.campaign.won", &[("side", side(winner)), ("at", hex(at)), ("turns", turns.to_string())])
        }
        Event::LeftOutLoss { unit: u, lost, health } => tr.f(
            "ev.campaign.left_out",
            &[("unit", unit(u)), ("lost", lost.to_string()), ("health", health.to_string())],
        ),
        Event::Rejoined { unit: u, health } => {
            tr.f("ev.campaign.rejoined", &[("unit", unit(u)), ("health", health.to_string())])
        }
        Event::Replenished { unit: u, health } => {
            tr.f("ev.campaign.replenished", &[("unit", unit(u)), ("health", health.to_string())])
        }
        Event::UnitLost { unit: u } => tr.f("ev.campaign.lost", &[("unit", unit(u))]),
        Event::Captured { unit: u, by } => tr.f("ev.campaign.captured", &[("unit", unit(u)), ("side", side(by))]),
        Event::GunTaken { unit: u, by, army: a } => {
            tr.f("ev.campaign.gun", &[("unit", unit(u)), ("side", side(by)), ("army", army(a))])
        }
        Event::FellBack { army: a, to } => tr.f("ev.campaign.fell_back", &[("army", army(a)), ("to", hex(to))]),
        Event::ArmyGone { army: a } => tr.f("ev.campaign.gone", &[("army", army(a))]),
        Event::KeyHexTaken { at, by } => tr.f("ev.campaign.key", &[("at", hex(at)), ("side", side(by))]),
        Event::TurnEnded { turn, side: s } => {
            tr.f("ev.campaign.turn", &[("side", side(s)), ("turn", turn.to_string())])
        }
        Event::CampaignOver { winner, reason } => {
            tr.f("ev.campaign.over", &[("side", side(winner)), ("reason", tr.t(reason_key(*reason)))])
        }
        Event::Directive { side: s, text, .. } => format!("{}: {text}", side(s)),
        Event::Moderated { asks } => {
            let rules: Vec<&str> = asks.iter().map(|a| a.rule()).collect();
            tr.f("ev.campaign.moderated", &[("rules", rules.join(", "))])
        }
        Event::Asked { question } => tr.f("ev.campaign.asked", &[("rule", question.asked().rule().to_string())]),
        Event::Ruled { rule, .. } => tr.f("ev.campaign.ruled", &[("rule", rule.rule().to_string())]),
        Event::Fought { event, .. } => event.describe_with(&tr.texts, &|id| unit(&id)),
    }
}

fn reason_key(reason: VictoryReason) -> &'static str {
    match reason {
        VictoryReason::AllKeyHexes => "ui.campaign.reason.key_hexes",
        VictoryReason::EnemyDestroyed => "ui.campaign.reason.destroyed",
        VictoryReason::TurnLimit => "ui.campaign.reason.turn_limit",
    }
}

#[allow(clippy::too_many_arguments)]
fn campaign(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    session: Option<Res<Session>>,
    selection: Res<ArmySelection>,
    hovered: Res<HoveredHex>,
    report: Res<BattleReport>,
    view: Res<State<PlayView>>,
    mut settings: ResMut<Settings>,
    mut state: ResMut<PanelState>,
    (mut leave, mut menu): (MessageWriter<Leave>, ResMut<NextState<Menu>>),
    mut out: MessageWriter<CampaignCommand>,
    mut links: RuleLinks,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Some(session) = session else { return Ok(()) };
    let game = &session.game;
    let scenario = game.scenario();
    let mut ui = root(ctx, "campaign");
    if *view.get() == PlayView::HandOver {
        egui::CentralPanel::default().frame(egui::Frame::new().fill(egui::Color32::from_rgb(28, 25, 22))).show(
            &mut ui,
            |ui| {
                ui.vertical_centered(|ui| {
                    ui.add_space(ui.available_height() / 3.0);
                    let side = game.active_player().unwrap_or(Side::Red);
                    ui.label(
                        egui::RichText::new(tr.f("ui.campaign.handover", &[("side", tr.side_of(scenario, side))]))
                            .size(30.0),
                    );
                    ui.add_space(20.0);
                    if ui.button(egui::RichText::new(tr.t("ui.handover.ready")).size(22.0)).clicked() {
                        out.write(CampaignCommand::Ready);
                    }
                });
            },
        );
        return Ok(());
    }
    let selected = selection.of(&session);
    top_bar(&mut ui, &tr, &session, &mut settings, &mut state, &mut leave, &mut menu, &mut out, &mut links);
    army_panel(&mut ui, &tr, &session, selected, &mut state, &mut out);
    info_panel(&mut ui, &tr, &session, selected, hovered.0, &state);
    battle_dialogs(ctx, &tr, &session, &mut state, &mut out);
    if let Some(events) = &report.0 {
        egui::Window::new(tr.t("ui.campaign.report"))
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -8.0])
            .show(ctx, |ui| {
                for e in events {
                    let text = event_text(&tr, scenario, game.state(), e);
                    if matches!(e, Event::AutoBattleWon { .. } | Event::BattleWon { .. }) {
                        ui.label(egui::RichText::new(text).strong());
                    } else {
                        ui.label(text);
                    }
                }
                if ui.button(tr.t("ui.ok")).clicked() {
                    out.write(CampaignCommand::Confirm);
                }
            });
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn top_bar(
    ui: &mut egui::Ui,
    tr: &Tr,
    session: &Session,
    settings: &mut Settings,
    state: &mut PanelState,
    leave: &mut MessageWriter<Leave>,
    menu: &mut NextState<Menu>,
    out: &mut MessageWriter<CampaignCommand>,
    links: &mut RuleLinks,
) {
    let game = &session.game;
    let scenario = game.scenario();
    egui::Panel::top("campaign-top").show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(name(tr, &scenario.name, &scenario.name_ru)).strong());
            ui.separator();
            ui.label(tr.f(
                "ui.campaign.turn",
                &[("turn", game.turn().to_string()), ("turns", scenario.victory.turns.to_string())],
            ));
            ui.separator();
            if let Some(o) = game.state().outcome {
                ui.colored_label(
                    colour(o.winner),
                    tr.f("ui.campaign.won", &[("side", tr.side_of(scenario, o.winner))]),
                );
            }
            if let Some(side) = game.active_player() {
                ui.colored_label(colour(side), tr.f("ui.campaign.to_move", &[("side", tr.side_of(scenario, side))]));
                if let Seat::Ai(level) = session.seat(side) {
                    ui.label(tr.f("ui.ai_thinking", &[("level", tr.t(&format!("ui.level.{}", level.name())))]));
                }
            }

            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                // Asked first, and autosaved before it is left (the shell's Leave).
                if ui.button(tr.t("ui.menu.quit")).clicked() {
                    leave.write(Leave::Ask);
                }
                if ui.button(tr.t("ui.title.settings")).clicked() {
                    menu.set(Menu::Settings);
                }
                if ui.button(tr.t("ui.title.load")).clicked() {
                    menu.set(Menu::Saves);
                }
                // Online, the server keeps the game (and gives its whole log when it is over).
                if session.remote.is_none() {
                    ui.menu_button(tr.t("ui.menu.save"), |ui| {
                        for slot in &saves::SLOTS {
                            if ui.button(tr.t(&format!("ui.slot.{slot}"))).clicked() {
                                state.saved = Some(match saves::save_slot(slot, &session.saved_game()) {
                                    Ok(()) => tr.f("ui.saved", &[("slot", tr.t(&format!("ui.slot.{slot}")))]),
                                    Err(e) => e,
                                });
                                ui.close();
                            }
                        }
                        #[cfg(target_arch = "wasm32")]
                        if ui.button(tr.t("ui.menu.download")).clicked() {
                            crate::web::download(
                                "kriegsspiel-campaign.ron",
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
                    state.log = !state.log;
                }
                if ui.button(tr.t("ui.menu.rules")).clicked() {
                    links.out.write(RulesCommand::Toggle);
                }
                let human = session.human_turn();
                if ui.add_enabled(session.can_undo(), egui::Button::new(tr.t("ui.campaign.undo"))).clicked() {
                    out.write(CampaignCommand::Undo);
                }
                if ui
                    .add_enabled(
                        human && game.state().battle.is_none(),
                        egui::Button::new(tr.t("ui.campaign.end_turn")),
                    )
                    .clicked()
                {
                    out.write(CampaignCommand::EndTurn);
                }
                if let Some(m) = &state.saved {
                    ui.label(m);
                }
            });
        });
    });
}

fn army_panel(
    ui: &mut egui::Ui,
    tr: &Tr,
    session: &Session,
    selected: Option<ArmyId>,
    state: &mut PanelState,
    out: &mut MessageWriter<CampaignCommand>,
) {
    let game = &session.game;
    let scenario = game.scenario();
    let cstate = game.state();
    let human = session.human_turn() && cstate.battle.is_none();
    egui::Panel::left("campaign-army").default_size(260.0).show(ui, |ui| {
        let Some(a) = selected.and_then(|id| cstate.army(id)).cloned() else {
            state.split.clear();
            ui.label(egui::RichText::new(tr.t("ui.campaign.armies")).strong());
            let side = game.active_player();
            for a in cstate.armies.iter().filter(|a| Some(a.side) == side) {
                let (units, health) = strength(game, a);
                let text = tr.f(
                    "ui.campaign.army_line",
                    &[
                        ("army", a.name.clone()),
                        ("units", units.to_string()),
                        ("health", health.to_string()),
                        ("at", tr.hex(scenario, a.at)),
                    ],
                );
                if ui.selectable_label(false, text).clicked() && human {
                    out.write(CampaignCommand::SelectArmy(a.id));
                }
            }
            ui.add_space(8.0);
            ui.label(tr.t("ui.campaign.hint"));
            return;
        };
        state.split.retain(|u| a.units.contains(u));
        ui.label(egui::RichText::new(&a.name).size(17.0).strong());
        ui.colored_label(colour(a.side), tr.side_of(scenario, a.side));
        let (units, health) = strength(game, &a);
        ui.label(tr.f("ui.campaign.strength", &[("units", units.to_string()), ("health", health.to_string())]));
        ui.label(tr.f(
            "ui.campaign.mp",
            &[("mp", a.mp_left.to_string()), ("of", scenario.campaign_rules.movement_points.to_string())],
        ));
        let ground = scenario.map.ground(a.at).map(|g| tr.t(&format!("ground.{}", ground_key(g)))).unwrap_or_default();
        ui.label(tr.f("ui.campaign.at", &[("at", tr.hex(scenario, a.at)), ("ground", ground)]));
        let mut intercept = a.intercept;
        if ui.add_enabled(human, egui::Checkbox::new(&mut intercept, tr.t("ui.campaign.intercept"))).changed() {
            out.write(CampaignCommand::ToggleIntercept);
        }
        // T-STRAT-10: offered when the engine would take it (a standing army with special units
        // below full strength), with its reason on hover otherwise.
        let replenish = game.preview(&rules::campaign::Order::Replenish { army: a.id });
        let button = ui.add_enabled(human && replenish.is_ok(), egui::Button::new(tr.t("ui.campaign.replenish")));
        let button = match &replenish {
            Err(e) if human => button.on_disabled_hover_text(e.to_string()),
            _ => button,
        };
        if button.clicked() {
            out.write(CampaignCommand::Replenish);
        }
        ui.separator();
        ui.label(tr.t("ui.campaign.units_split"));
        egui::ScrollArea::vertical().max_height(300.0).show(ui, |ui| {
            for u in &a.units {
                let mut ticked = state.split.contains(u);
                if ui.checkbox(&mut ticked, unit_line(tr, scenario, cstate, *u)).changed() {
                    if ticked {
                        state.split.push(*u);
                    } else {
                        state.split.retain(|x| x != u);
                    }
                }
            }
        });
        ui.horizontal(|ui| {
            let can_split = human && !state.split.is_empty() && state.split.len() < a.units.len();
            if ui.add_enabled(can_split, egui::Button::new(tr.t("ui.campaign.split"))).clicked() {
                out.write(CampaignCommand::Split(std::mem::take(&mut state.split)));
            }
        });
        let others: Vec<ArmyId> = cstate.armies_at(a.at, a.side).into_iter().filter(|id| *id != a.id).collect();
        for other in others {
            if ui
                .add_enabled(human, egui::Button::new(tr.f("ui.campaign.merge", &[("army", army_name(cstate, other))])))
                .clicked()
            {
                out.write(CampaignCommand::Merge(Some(other)));
            }
        }
    });
}

fn ground_key(g: rules::campaign::Ground) -> &'static str {
    use rules::campaign::Ground;
    match g {
        Ground::Clear => "clear",
        Ground::Forest => "forest",
        Ground::Hills => "hills",
        Ground::Marsh => "marsh",
        Ground::Water => "water",
    }
}

fn info_panel(
    ui: &mut egui::Ui,
    tr: &Tr,
    session: &Session,
    selected: Option<ArmyId>,
    hovered: Option<HexAt>,
    state: &PanelState,
) {
    let game = &session.game;
    let scenario = game.scenario();
    let cstate = game.state();
    egui::Panel::right("campaign-info").default_size(320.0).show(ui, |ui| {
        let held = |s: Side| cstate.holders.iter().filter(|h| **h == s).count().to_string();
        ui.label(tr.f("ui.campaign.keys", &[("red", held(Side::Red)), ("blue", held(Side::Blue))]));
        ui.separator();
        if let Some(h) = hovered {
            ui.label(egui::RichText::new(tr.hex(scenario, h)).strong());
            let mut what = Vec::new();
            if let Some(g) = scenario.map.ground(h) {
                what.push(tr.t(&format!("ground.{}", ground_key(g))));
            }
            if scenario.map.has_village(h) {
                what.push(tr.t("ui.campaign.village"));
            }
            if scenario.map.has_fortress(h) {
                what.push(tr.t("ui.campaign.fortress"));
            }
            if let Some(i) = scenario.victory.key_hexes.iter().position(|k| k.at == h) {
                let holder = cstate.holders.get(i).copied().unwrap_or(Side::Red);
                what.push(tr.f("ui.campaign.key_hex", &[("side", tr.side_of(scenario, holder))]));
            }
            ui.label(what.join(", "));
            for a in cstate.armies.iter().filter(|a| a.at == h) {
                let (units, health) = strength(game, a);
                ui.colored_label(
                    colour(a.side),
                    tr.f(
                        "ui.campaign.army_here",
                        &[("army", a.name.clone()), ("units", units.to_string()), ("health", health.to_string())],
                    ),
                );
            }
            if let Some(id) = selected
                && session.human_turn()
                && cstate.battle.is_none()
            {
                march_preview(ui, tr, game, id, h);
            }
            ui.separator();
        }
        if let Some(why) = &session.refusal {
            ui.colored_label(egui::Color32::LIGHT_RED, tr.f("ui.preview.illegal", &[("why", tr.msg(why))]));
        }
        if state.log || hovered.is_none() {
            ui.label(egui::RichText::new(tr.t("ui.log")).strong());
            egui::ScrollArea::vertical().stick_to_bottom(true).show(ui, |ui| {
                let events = game.events();
                for e in &events[events.len().saturating_sub(60)..] {
                    ui.label(event_text(tr, scenario, cstate, e));
                }
            });
        }
    });
}

/// What a march to the hex would cost and risk, and the battle it would start (the engine's
/// preview, which does not know the enemy's secret intercept orders).
fn march_preview(ui: &mut egui::Ui, tr: &Tr, game: &Campaign, army: ArmyId, to: HexAt) {
    let cstate = game.state();
    let Some(a) = cstate.army(army) else { return };
    if a.at == to {
        return;
    }
    let Some(cost) = game.reach(army).into_iter().find(|(h, _)| *h == to).map(|(_, c)| c) else {
        ui.label(tr.t("ui.campaign.out_of_reach"));
        return;
    };
    let Some(path) = route(game, army, to) else { return };
    ui.label(
        tr.f("ui.campaign.march", &[("mp", cost.to_string()), ("left", a.mp_left.saturating_sub(cost).to_string())]),
    );
    let risk = game.interception_risk(a.side, &path);
    if !risk.is_empty() {
        let names: Vec<String> = risk.iter().map(|id| army_name(cstate, *id)).collect();
        ui.colored_label(egui::Color32::LIGHT_RED, tr.f("ui.campaign.risk", &[("armies", names.join(", "))]));
    }
    if let Ok(preview) = game.preview(&Order::Move { army, path })
        && let Some(b) = preview.battle
    {
        let text = if b.auto {
            let wins = b.attacker_wins.is_some_and(|p| p > 0.5);
            tr.f(
                if wins { "ui.campaign.auto_win" } else { "ui.campaign.auto_loss" },
                &[("red", b.units[0].to_string()), ("blue", b.units[1].to_string())],
            )
        } else {
            tr.f(
                "ui.campaign.grid_battle",
                &[
                    ("red", b.units[0].to_string()),
                    ("blue", b.units[1].to_string()),
                    ("red_f", b.fielded[0].to_string()),
                    ("blue_f", b.fielded[1].to_string()),
                ],
            )
        };
        ui.colored_label(egui::Color32::from_rgb(250, 215, 90), text);
    }
}

/// The choice of the units that fight (T-STRAT-5/6, redoubts T-STRAT-8) for the person whose
/// turn it is, and the battle waiting to be fought.
fn battle_dialogs(
    ctx: &egui::Context,
    tr: &Tr,
    session: &Session,
    state: &mut PanelState,
    out: &mut MessageWriter<CampaignCommand>,
) {
    let game = &session.game;
    let scenario = game.scenario();
    let cstate = game.state();
    let Some(b) = &cstate.battle else {
        state.fielded = None;
        return;
    };
    if let Some(side) = b.chooser() {
        // A person at this screen chooses for its side (online, the seat that commands it).
        let theirs = session.remote.as_ref().is_some_and(|r| r.commands != Some(side));
        if session.seat(side) != Seat::Human || theirs {
            return;
        }
        let mine = cstate.units_at(b.at, side);
        let wanted = b.fielded[side.index()];
        let most = most_redoubts(scenario, b, side);
        if state.fielded.as_ref().is_none_or(|(n, s, _, _)| *n != b.number || *s != side) {
            state.fielded = Some((b.number, side, mine.iter().copied().take(wanted).collect(), most));
        }
        let Some((_, _, ticked, redoubts)) = &mut state.fielded else { return };
        egui::Window::new(tr.f("ui.campaign.cut_title", &[("at", tr.hex(scenario, b.at))]))
            .collapsible(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.colored_label(colour(side), tr.side_of(scenario, side));
                ui.label(tr.f(
                    "ui.campaign.cut",
                    &[
                        ("wanted", wanted.to_string()),
                        ("of", mine.len().to_string()),
                        ("ticked", ticked.len().to_string()),
                    ],
                ));
                if b.bring_up == Some(side) {
                    ui.label(tr.t("ui.campaign.bring_up"));
                }
                egui::ScrollArea::vertical().max_height(320.0).show(ui, |ui| {
                    for u in &mine {
                        let mut on = ticked.contains(u);
                        if ui.checkbox(&mut on, unit_line(tr, scenario, cstate, *u)).changed() {
                            if on {
                                ticked.push(*u);
                            } else {
                                ticked.retain(|x| x != u);
                            }
                        }
                    }
                });
                ui.add(egui::Slider::new(redoubts, 0..=most).text(tr.t("ui.campaign.redoubts")));
                ui.horizontal(|ui| {
                    if ui.add_enabled(ticked.len() == wanted, egui::Button::new(tr.t("ui.campaign.field"))).clicked() {
                        let mut units: Vec<UnitId> = mine.iter().copied().filter(|u| ticked.contains(u)).collect();
                        units.truncate(wanted);
                        out.write(CampaignCommand::ChooseForces(Forces { units, redoubts: *redoubts, retreat: None }));
                    }
                    if ui.button(tr.t("ui.campaign.defaults")).clicked() {
                        out.write(CampaignCommand::Confirm);
                    }
                });
            });
        return;
    }
    // Online, the seat goes to the battlefield by itself (`super::online`).
    if ready_battle(game).is_some() && session.seats.contains(&Seat::Human) && session.remote.is_none() {
        egui::Window::new(tr.f("ui.campaign.battle_at", &[("at", tr.hex(scenario, b.at))]))
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.label(tr.f(
                    "ui.campaign.battle_sides",
                    &[
                        ("attacker", tr.side_of(scenario, b.attacker)),
                        ("red", b.fielded[0].to_string()),
                        ("blue", b.fielded[1].to_string()),
                    ],
                ));
                if ui.button(egui::RichText::new(tr.t("ui.campaign.fight")).size(18.0)).clicked() {
                    out.write(CampaignCommand::Fight);
                }
            });
    }
}

/// Over a battle of the campaign: which campaign it belongs to, and saving the campaign with it.
fn battle_bar(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    campaign: Option<Res<Session>>,
    battle: Option<Res<crate::session::Session<Battle>>>,
    marker: Res<CampaignBattle>,
    mut state: ResMut<PanelState>,
    room: Res<crate::hud::board::BoardRoom>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let (Some(campaign), Some(battle)) = (campaign, battle) else { return Ok(()) };
    let scenario = campaign.game.scenario();
    // In the board's top corner, clear of the battle's panels: its foot holds the preview of
    // what a click would do (a fire's odds), which the box must not cover.
    let ppp = ctx.pixels_per_point();
    let mut corner =
        room.0.map_or(egui::pos2(8.0, 40.0), |r| egui::pos2(r.min.x as f32 / ppp + 8.0, r.min.y as f32 / ppp + 8.0));
    // Online, below the seat's bar (`net::bar`, at the top of the screen).
    let online = campaign.remote.is_some();
    if online {
        corner.y = corner.y.max(66.0);
    }
    egui::Window::new(tr.t("ui.campaign.in_battle"))
        .collapsible(true)
        .resizable(false)
        .pivot(egui::Align2::LEFT_TOP)
        .fixed_pos(corner)
        .show(ctx, |ui| {
            ui.label(tr.f(
                "ui.campaign.battle_of",
                &[
                    ("campaign", name(&tr, &scenario.name, &scenario.name_ru)),
                    ("number", marker.number.to_string()),
                    ("turn", campaign.game.turn().to_string()),
                ],
            ));
            // Online, the server keeps the campaign (and gives its whole log when it is over).
            if !online {
                ui.menu_button(tr.t("ui.campaign.save_campaign"), |ui| {
                    for slot in &saves::SLOTS {
                        if ui.button(tr.t(&format!("ui.slot.{slot}"))).clicked() {
                            let done = super::save::save_slot(slot, &campaign.saved_game(), Some(running(&battle)));
                            state.saved = Some(match done {
                                Ok(()) => tr.f("ui.saved", &[("slot", tr.t(&format!("ui.slot.{slot}")))]),
                                Err(e) => e,
                            });
                            ui.close();
                        }
                    }
                });
            }
            if let Some(m) = &state.saved {
                ui.label(m);
            }
        });
    Ok(())
}

fn result(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    session: Option<Res<Session>>,
    mut screen: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut ui = root(ctx, "campaign-result");
    egui::CentralPanel::default().show(&mut ui, |ui| {
        ui.vertical_centered(|ui| {
            ui.add_space(40.0);
            if let Some(session) = &session
                && let Some(o) = session.game.state().outcome
            {
                let scenario = session.game.scenario();
                ui.label(
                    egui::RichText::new(tr.f("ui.campaign.won", &[("side", tr.side_of(scenario, o.winner))]))
                        .size(30.0)
                        .strong(),
                );
                ui.label(tr.t(reason_key(o.reason)));
                ui.label(tr.f(
                    "ui.campaign.after",
                    &[("turn", o.turn.to_string()), ("battles", session.game.state().battles.to_string())],
                ));
            }
            ui.add_space(20.0);
            if ui.button(tr.t("ui.result.back")).clicked() {
                screen.set(Screen::Title);
            }
        });
    });
    Ok(())
}

fn replay(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    view: Option<ResMut<ReplayView<Campaign>>>,
    mut screen: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let mut ui = root(ctx, "campaign-replay");
    let Some(mut view) = view else { return Ok(()) };
    egui::Panel::top("campaign-replay-bar").show(&mut ui, |ui| {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new(&view.save.scenario.name).strong());
            ui.label(tr.f(
                "ui.campaign.replay_at",
                &[
                    ("stop", (view.at + 1).to_string()),
                    ("stops", view.stops.len().to_string()),
                    ("turn", view.game.turn().to_string()),
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
                ui.colored_label(egui::Color32::LIGHT_RED, e);
            }
            if ui.button(tr.t("ui.back")).clicked() {
                screen.set(Screen::Title);
            }
        });
    });
    let scenario = view.game.scenario().clone();
    egui::Panel::right("campaign-replay-log").default_size(340.0).show(&mut ui, |ui| {
        ui.label(egui::RichText::new(tr.t("ui.log")).strong());
        egui::ScrollArea::vertical().stick_to_bottom(true).show(ui, |ui| {
            for e in view.game.events() {
                ui.label(event_text(&tr, &scenario, view.game.state(), e));
            }
        });
    });
    Ok(())
}
