//! The land orders' panels: in the left column, the pick in hand (what the next click means,
//! the group being formed) and the selection's organisation orders; on the right, a column with
//! the army panel, the economy (purchases, gas, restoring dispersed units) and diplomacy (peace,
//! S-CITY-4). Buttons send [`LandCommand`]s and [`UiCommand`]s, as keys do; nothing here touches
//! rules state.

use super::army_panel::army_tab;
use super::command::UiCommand;
use super::land_orders::{GroupKind, LandCommand, LandPick, Pick, Tab, engaged_pieces, pick_key};
use super::{GwNames, HoveredHex, Selected};
use crate::i18n::Tr;
use crate::session::Session;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::egui;
use rules::strategic::naval::model::ShipType;
use rules::strategic::purchase::Recruit;
use rules::strategic::query::army_of;
use rules::strategic::{Ctx, GreatWar, HexAt, Order, Phase, Piece, PowerId, Preview};

type GwSession = Session<GreatWar>;

/// What the land panels need beyond the scene's panels.
#[derive(SystemParam)]
pub struct LandPanels<'w, 's> {
    pick: ResMut<'w, LandPick>,
    land: MessageWriter<'w, LandCommand>,
    hovered: Res<'w, HoveredHex>,
    aim: Local<'s, AimPreview>,
    verdicts: Local<'s, Verdicts>,
}

/// The engine's answers to the economy tab's buttons (`Ctx::would_take`), asked once for each
/// state of the game: a button is offered only when its order would be taken, and a refused one
/// says the engine's reason on hover (issue 27: buttons that refused when pressed).
#[derive(Default)]
pub struct Verdicts {
    key: Option<(usize, PowerId, crate::i18n::Lang)>,
    said: Vec<(Order, Result<(), String>)>,
    cylinder: Option<Result<(), String>>,
}

impl Verdicts {
    /// Forgets the answers when the game (`session`, in state `ctx`) or the asking power has
    /// moved on: the seat's power, or the power to move when the AI plays every power.
    fn follow(&mut self, session: &GwSession, ctx: &Ctx, tr: &Tr) {
        let power = session.viewer().unwrap_or_else(|| ctx.active_power());
        let key = (session.game.orders().len(), power, tr.lang);
        if self.key != Some(key) {
            self.key = Some(key);
            self.said.clear();
            self.cylinder = None;
        }
    }

    /// Whether a cylinder may be set now, somewhere (the engine's [`Ctx::cylinder_place`]).
    fn cylinder(&mut self, tr: &Tr, ctx: &Ctx) -> Result<(), String> {
        self.cylinder
            .get_or_insert_with(|| ctx.cylinder_place().map(|_| ()).map_err(|e| tr.line(ctx, &e.line())))
            .clone()
    }

    /// Whether the engine would take `order` (in words, its reason when not).
    pub fn of(&mut self, tr: &Tr, ctx: &Ctx, order: Order) -> Result<(), String> {
        if let Some((_, said)) = self.said.iter().find(|(o, _)| *o == order) {
            return said.clone();
        }
        let said = ctx.would_take(&order).map_err(|e| tr.line(ctx, &e.line()));
        self.said.push((order, said.clone()));
        said
    }

    /// A purchase, judged at the first hex it may be raised in (the player then picks the hex
    /// among those the board marks).
    fn purchase(&mut self, tr: &Tr, ctx: &Ctx, power: PowerId, unit: &Recruit) -> Result<(), String> {
        match ctx.recruit_places(power, unit).first() {
            Some(at) => self.of(tr, ctx, Order::Recruit { unit: unit.clone(), at: *at }),
            None => Err(tr.t("gw.economy.no_place")),
        }
    }
}

/// A button offered when `verdict` is `Ok` and the player may act; otherwise greyed, with the
/// engine's reason on hover.
pub fn judged_button(
    ui: &mut egui::Ui,
    able: bool,
    text: impl Into<egui::WidgetText>,
    verdict: &Result<(), String>,
) -> bool {
    let button = ui.add_enabled(able && verdict.is_ok(), egui::Button::new(text));
    let button = match verdict {
        Err(why) if able => button.on_disabled_hover_text(why),
        _ => button,
    };
    button.clicked()
}

/// The engine's preview of the gas release aimed at the hex under the pointer, worked out once
/// per hex (S-CHEM-1: a d6 decides where the gas goes).
#[derive(Default)]
struct AimPreview {
    key: Option<(usize, HexAt, HexAt, crate::i18n::Lang)>,
    lines: Vec<String>,
}

impl LandPanels<'_, '_> {
    /// The engine's verdicts on the panels' buttons for the state `session` is in (`ctx`), as the
    /// seat's power asks them (the power to move when the AI plays every power); kept while
    /// neither moves on.
    pub fn verdicts(&mut self, session: &GwSession, ctx: &Ctx, tr: &Tr) -> &mut Verdicts {
        self.verdicts.follow(session, ctx, tr);
        &mut self.verdicts
    }

    /// The pick in hand and the selection's land orders, in the left column; `preview_lines`
    /// writes the engine's preview as the scene's preview window does.
    #[allow(clippy::too_many_arguments)]
    pub fn left(
        &mut self,
        ui: &mut egui::Ui,
        tr: &Tr,
        ctx: &Ctx,
        session: &GwSession,
        selected: Option<Selected>,
        give: &mut MessageWriter<UiCommand>,
        preview_lines: fn(&Tr, &Ctx, &Preview) -> Vec<String>,
    ) {
        if let Some(pick) = self.pick.of(session).cloned() {
            ui.separator();
            self.pick_ui(ui, tr, ctx, session, &pick, preview_lines);
        }
        let Some(s) = selected.filter(|_| session.human_turn()) else { return };
        ui.horizontal_wrapped(|ui| selection_orders(ui, tr, ctx, s, &mut self.land, give));
    }

    fn pick_ui(
        &mut self,
        ui: &mut egui::Ui,
        tr: &Tr,
        ctx: &Ctx,
        session: &GwSession,
        pick: &Pick,
        preview_lines: fn(&Tr, &Ctx, &Preview) -> Vec<String>,
    ) {
        ui.label(egui::RichText::new(tr.t(pick_key(pick))).color(egui::Color32::from_rgb(240, 210, 120)));
        match pick {
            Pick::Gather { kind, units, corps } => {
                for u in units {
                    ui.label(format!("• {}", ctx.name(*u)));
                }
                for c in corps {
                    ui.label(format!("• {}", ctx.formation(*c).map_or_else(String::new, |f| f.name.clone())));
                }
                if *kind != GroupKind::Battery {
                    ui.horizontal(|ui| {
                        ui.label(tr.t("gw.land.name"));
                        ui.add(egui::TextEdit::singleline(&mut self.pick.name).desired_width(150.0));
                    });
                }
                if ui.button(tr.t("gw.land.form")).clicked() {
                    self.land.write(LandCommand::Form);
                }
            }
            Pick::ReleaseGas { from } => {
                ui.label(tr.f("gw.land.release_from", &[("hex", tr.place(ctx, *from))]));
                if let Some(target) = self.hovered.0 {
                    let key = (session.game.orders().len(), *from, target, tr.lang);
                    if self.aim.key != Some(key) {
                        self.aim.lines = match session.game.preview(&Order::ReleaseGas { from: *from, target }) {
                            Ok(p) => preview_lines(tr, ctx, &p),
                            Err(e) => vec![tr.f("gw.refused", &[("why", tr.line(ctx, &e.line()))])],
                        };
                        self.aim.key = Some(key);
                    }
                    ui.label(egui::RichText::new(tr.f("gw.land.aim", &[("hex", tr.place(ctx, target))])).strong());
                    for line in &self.aim.lines {
                        ui.label(egui::RichText::new(line).size(12.5));
                    }
                }
            }
            _ => {}
        }
        if ui.button(tr.t("gw.land.cancel")).clicked() {
            self.land.write(LandCommand::Cancel);
        }
    }

    /// The right column: the army panel, the economy and diplomacy. It gives way to the panel
    /// of a selection that is not a land piece (a fleet's), so that the board keeps its room.
    #[allow(clippy::too_many_arguments)]
    pub fn right(
        &mut self,
        ui: &mut egui::Ui,
        tr: &Tr,
        ctx: &Ctx,
        session: &GwSession,
        selected: Option<Selected>,
        give: &mut MessageWriter<UiCommand>,
        (open, width, hint): (&mut bool, f32, &str),
    ) {
        if !matches!(selected, None | Some(Selected::Piece(_) | Selected::Army(_))) {
            return;
        }
        // The seat's own power (its reserves and treasury are its own, S-ARMY-6, S-SUP-1); the
        // power to move when the AI plays every power.
        let power = session.viewer().unwrap_or_else(|| ctx.active_power());
        let human = session.human_turn();
        let verdicts = &mut *self.verdicts;
        verdicts.follow(session, ctx, tr);
        crate::hud::frame::side(ui, crate::hud::frame::Edge::Right, "gw-land", open, width, hint, |ui| {
            ui.horizontal(|ui| {
                for (tab, key) in
                    [(Tab::Army, "gw.tab.army"), (Tab::Economy, "gw.tab.economy"), (Tab::Diplomacy, "gw.tab.diplomacy")]
                {
                    ui.selectable_value(&mut self.pick.tab, tab, tr.t(key));
                }
            });
            ui.separator();
            egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| match self.pick.tab {
                Tab::Army => {
                    engaged_ui(ui, tr, ctx, power, human, &mut self.land, give);
                    army_tab(ui, tr, ctx, power, human, &mut self.land, give);
                }
                Tab::Economy => economy_tab(ui, tr, ctx, (power, human), verdicts, &mut self.land, give),
                Tab::Diplomacy => diplomacy_tab(ui, tr, ctx, power, human, &mut self.pick.cede, give),
            });
        });
    }
}

/// The selection's organisation orders (S-ARMY-2, S-ARMY-5, S-ARMY-6, S-ART-5) and retreat.
fn selection_orders(
    ui: &mut egui::Ui,
    tr: &Tr,
    ctx: &Ctx,
    s: Selected,
    land: &mut MessageWriter<LandCommand>,
    give: &mut MessageWriter<UiCommand>,
) {
    let power = ctx.active_power();
    let gather = super::land_orders::gather_from(ctx, s);
    match s {
        Selected::Piece(Piece::Unit(u)) => {
            let Some(f) = ctx.force(u) else { return };
            if f.kind.is_artillery() {
                if let Some(p) = gather {
                    start(ui, tr, land, "gw.land.form_battery", p);
                }
                start(ui, tr, land, "gw.land.attach_corps", Pick::Attach { unit: u, army: false });
                start(ui, tr, land, "gw.land.attach_army", Pick::Attach { unit: u, army: true });
            } else {
                if let Some(p) = gather {
                    start(ui, tr, land, "gw.land.form_corps", p);
                }
                start(ui, tr, land, "gw.land.join", Pick::JoinCorps(u));
                start(ui, tr, land, "gw.land.to_reserve", Pick::Reserve(u));
            }
        }
        Selected::Piece(Piece::Corps(c)) => {
            let units = ctx.formation(c).map(|f| f.units.clone()).unwrap_or_default();
            for u in units {
                if ui.button(tr.f("gw.land.detach", &[("unit", ctx.name(u))])).clicked() {
                    land.write(LandCommand::Start(Pick::DetachTo(u)));
                }
            }
            if army_of(ctx, Piece::Corps(c)).is_some() {
                if ui.button(tr.t("gw.land.leave_army")).clicked() {
                    give.write(UiCommand::Give(Order::Detach { piece: Piece::Corps(c), to: None }));
                }
            } else if let Some(p) = gather {
                start(ui, tr, land, "gw.land.form_army", p);
            }
        }
        _ => {}
    }
    if engaged_pieces(ctx, power).contains(&retreating(ctx, s)) && ui.button(tr.t("gw.land.retreat")).clicked() {
        land.write(LandCommand::Retreat);
    }
}

fn start(ui: &mut egui::Ui, tr: &Tr, land: &mut MessageWriter<LandCommand>, key: &str, pick: Pick) {
    if ui.button(tr.t(key)).clicked() {
        land.write(LandCommand::Start(pick));
    }
}

/// What retreats with a selection: a corps of an army retreats with the whole army (S-ARMY-7).
fn retreating(ctx: &Ctx, s: Selected) -> Selected {
    match s {
        Selected::Piece(p @ Piece::Corps(_)) => army_of(ctx, p).map_or(s, Selected::Army),
        _ => s,
    }
}

/// Engaged pieces in the Movement phase: the retreat the rules offer them (S-ARMY-15).
fn engaged_ui(
    ui: &mut egui::Ui,
    tr: &Tr,
    ctx: &Ctx,
    power: PowerId,
    human: bool,
    land: &mut MessageWriter<LandCommand>,
    give: &mut MessageWriter<UiCommand>,
) {
    let engaged = engaged_pieces(ctx, power);
    if engaged.is_empty() {
        return;
    }
    ui.label(egui::RichText::new(tr.t("gw.land.engaged")).strong().color(egui::Color32::from_rgb(240, 170, 90)));
    for s in engaged {
        let name = match s {
            Selected::Piece(Piece::Unit(u)) => ctx.name(u),
            Selected::Piece(Piece::Corps(c)) | Selected::Army(c) => {
                ctx.formation(c).map_or_else(String::new, |f| f.name.clone())
            }
            _ => continue,
        };
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("• {name}"));
            if ui.add_enabled(human, egui::Button::new(tr.t("gw.land.retreat"))).clicked() {
                give.write(UiCommand::Select(s));
                land.write(LandCommand::Start(Pick::Retreat(s)));
            }
        });
    }
    ui.separator();
}

/// What a power may buy, with its price (issue 12 purchases; S-LAND-5, S-LAND-6, S-LAND-8,
/// S-LAND-9, S-ART-1, S-NAVAL-1, S-AIR), as the rules file prices them.
pub fn purchases(tr: &Tr, ctx: &Ctx, power: PowerId) -> Vec<(String, Recruit)> {
    let Some(p) = ctx.scenario().rules.purchases.as_ref() else { return Vec::new() };
    let e = &ctx.scenario().rules.economy;
    let Some(spec) = ctx.scenario().powers.get(usize::from(power.0)) else { return Vec::new() };
    let price = |money: u32, men: u32| tr.f("gw.buy.price", &[("money", money.to_string()), ("men", men.to_string())]);
    let mut v: Vec<(String, Recruit)> = vec![
        (
            format!("{} — {}", tr.t("gw.buy.infantry1"), price(e.division, e.division_manpower)),
            Recruit::Infantry { class: 1, mountain: false, elite: false },
        ),
        (
            format!("{} — {}", tr.t("gw.buy.infantry2"), price(e.division, e.division_manpower)),
            Recruit::Infantry { class: 2, mountain: false, elite: false },
        ),
    ];
    if p.mountain_powers.contains(&spec.id) {
        v.push((
            format!("{} — {}", tr.t("gw.buy.mountain"), price(e.division + p.mountain_extra, e.division_manpower)),
            Recruit::Infantry { class: 1, mountain: true, elite: false },
        ));
    }
    v.push((
        format!("{} — {}", tr.t("gw.buy.elite"), price(e.division + p.elite_extra, e.division_manpower)),
        Recruit::Infantry { class: 1, mountain: false, elite: true },
    ));
    for class in [1, 2] {
        v.push((
            format!(
                "{} — {}",
                tr.f("gw.buy.cavalry", &[("class", class.to_string())]),
                price(p.cavalry.money, p.cavalry.manpower)
            ),
            Recruit::Cavalry { class },
        ));
    }
    for t in ctx.scenario().units.tanks.iter().filter(|t| t.countries.contains(&spec.id)) {
        v.push((format!("{} — {}", t.name, price(p.tank.money, p.tank.manpower)), Recruit::Tank(t.name.clone())));
    }
    for g in ctx.scenario().units.guns.iter().filter(|g| g.country == spec.id) {
        v.push((
            format!("{} — {}", g.name, price(p.artillery.money, p.artillery.manpower)),
            Recruit::Artillery(g.name.clone()),
        ));
    }
    v
}

/// A land order in a few words, for the window that asks "yes" under its preview.
pub fn order_words(tr: &Tr, ctx: &Ctx, order: &Order) -> Option<String> {
    let hex = |h: &HexAt| tr.place(ctx, *h);
    Some(match order {
        Order::ReleaseGas { from, target } => tr.f("gw.order.release", &[("from", hex(from)), ("hex", hex(target))]),
        Order::CommitReserve { unit, to } => {
            tr.f("gw.order.commit", &[("unit", tr.unit(ctx, *unit)), ("hex", hex(to))])
        }
        Order::Retreat { moves } => tr
            .f("gw.order.retreat", &[("hex", moves.first().and_then(|(_, p)| p.last()).map_or_else(String::new, hex))]),
        _ => return None,
    })
}

/// Ships and squadrons for sale, with their price in money (S-NAVAL-1, S-AIR).
pub fn naval_purchases(tr: &Tr, ctx: &Ctx) -> Vec<(String, Recruit)> {
    let Some(p) = ctx.scenario().rules.purchases.as_ref() else { return Vec::new() };
    let price = |money: u32| tr.f("gw.buy.price_money", &[("money", money.to_string())]);
    let mut v: Vec<(String, Recruit)> = p
        .ships
        .iter()
        .map(|(kind, money)| (format!("{} — {}", ship_name(tr, *kind), price(*money)), Recruit::Ship(*kind)))
        .collect();
    for a in &ctx.scenario().aviation.squadrons {
        v.push((format!("{} — {}", a.name, price(p.squadron)), Recruit::Squadron(a.name.clone())));
    }
    v
}

fn ship_name(tr: &Tr, kind: ShipType) -> String {
    tr.t(&format!("gw.buy.ship.{}", format!("{kind:?}").to_lowercase()))
}

fn economy_tab(
    ui: &mut egui::Ui,
    tr: &Tr,
    ctx: &Ctx,
    (power, human): (PowerId, bool),
    verdicts: &mut Verdicts,
    land: &mut MessageWriter<LandCommand>,
    give: &mut MessageWriter<UiCommand>,
) {
    let Some(p) = ctx.powers.get(usize::from(power.0)) else { return };
    let movement = ctx.clock.phase == Phase::Movement;
    let able = human && movement;
    ui.label(tr.f("gw.economy.treasury", &[("money", p.money.to_string()), ("ammo", p.ammo.to_string())]));
    ui.label(tr.f("gw.economy.manpower", &[("one", p.manpower[0].to_string()), ("two", p.manpower[1].to_string())]));
    // S-CHEM-1, S-CHEM-3: gas bought, cylinders placed and released.
    egui::CollapsingHeader::new(egui::RichText::new(tr.t("gw.economy.gas")).strong())
        .id_salt("gw-gas")
        .default_open(true)
        .show(ui, |ui| {
            ui.label(tr.f(
                "gw.economy.gas_stock",
                &[("shells", p.chem_shells.to_string()), ("cylinders", p.cylinders.to_string())],
            ));
            let prices = ctx.scenario().rules.purchases.as_ref().map_or((0, 0), |b| (b.gas_shell, b.cylinder));
            ui.horizontal_wrapped(|ui| {
                let shells = tr.f("gw.economy.buy_shells", &[("price", (prices.0 * 5).to_string())]);
                let order = Order::BuyGas { shells: 5, cylinders: 0 };
                if judged_button(ui, able, shells, &verdicts.of(tr, ctx, order.clone())) {
                    give.write(UiCommand::Give(order));
                }
                let cylinder = tr.f("gw.economy.buy_cylinder", &[("price", prices.1.to_string())]);
                let order = Order::BuyGas { shells: 0, cylinders: 1 };
                if judged_button(ui, able, cylinder, &verdicts.of(tr, ctx, order.clone())) {
                    give.write(UiCommand::Give(order));
                }
                // S-CHEM-1: a cylinder is set, and released, in the Preparation phase, on a hex
                // the engine takes (judged at the first of the power's own hexes it would take).
                let preparation = ctx.clock.phase == Phase::Preparation;
                let place = if human && preparation { verdicts.cylinder(tr, ctx) } else { Ok(()) };
                if judged_button(ui, human && preparation, tr.t("gw.economy.place_cylinder"), &place) {
                    land.write(LandCommand::Start(Pick::Cylinder));
                }
            });
            let preparation = ctx.clock.phase == Phase::Preparation;
            for (at, _) in ctx.hexes.iter().filter(|(_, s)| s.cylinder == Some(power)) {
                ui.horizontal(|ui| {
                    ui.label(tr.f("gw.economy.cylinder_at", &[("hex", tr.place(ctx, *at))]));
                    if ui.add_enabled(human && preparation, egui::Button::new(tr.t("gw.economy.release"))).clicked() {
                        land.write(LandCommand::Start(Pick::ReleaseGas { from: *at }));
                    }
                });
            }
        });
    // S-LOSS-1: dispersed units come back at the nearest own city.
    let dispersed: Vec<_> = ctx
        .forces
        .iter()
        .filter(|f| f.power == power && f.place == rules::strategic::state::Place::Dispersed)
        .map(|f| f.id)
        .collect();
    egui::CollapsingHeader::new(egui::RichText::new(tr.t("gw.economy.restore")).strong())
        .id_salt("gw-restore")
        .default_open(!dispersed.is_empty())
        .show(ui, |ui| {
            let e = &ctx.scenario().rules.economy;
            ui.label(
                egui::RichText::new(tr.f(
                    "gw.economy.restore_price",
                    &[("money", (e.division / 2).to_string()), ("men", (e.division_manpower / 2).to_string())],
                ))
                .small()
                .weak(),
            );
            if dispersed.is_empty() {
                ui.label(egui::RichText::new(tr.t("gw.economy.none_dispersed")).weak());
            }
            for u in dispersed {
                ui.horizontal_wrapped(|ui| {
                    ui.label(ctx.name(u));
                    for class in [1u8, 2] {
                        let text = tr.f("gw.economy.restore_class", &[("class", class.to_string())]);
                        let order = Order::Restore { unit: u, class };
                        if judged_button(ui, able, text, &verdicts.of(tr, ctx, order.clone())) {
                            give.write(UiCommand::Give(order));
                        }
                    }
                });
            }
        });
    egui::CollapsingHeader::new(egui::RichText::new(tr.t("gw.economy.purchases")).strong())
        .id_salt("gw-buy")
        .default_open(movement)
        .show(ui, |ui| {
            ui.label(egui::RichText::new(tr.t("gw.economy.purchases_hint")).small().weak());
            buy_buttons(ui, (tr, ctx, power, able), purchases(tr, ctx, power), verdicts, land);
        });
    egui::CollapsingHeader::new(egui::RichText::new(tr.t("gw.economy.naval_purchases")).strong())
        .id_salt("gw-buy-naval")
        .show(ui, |ui| buy_buttons(ui, (tr, ctx, power, able), naval_purchases(tr, ctx), verdicts, land));
}

fn buy_buttons(
    ui: &mut egui::Ui,
    (tr, ctx, power, able): (&Tr, &Ctx, PowerId, bool),
    list: Vec<(String, Recruit)>,
    verdicts: &mut Verdicts,
    land: &mut MessageWriter<LandCommand>,
) {
    for (label, recruit) in list {
        let verdict = if able { verdicts.purchase(tr, ctx, power, &recruit) } else { Ok(()) };
        if judged_button(ui, able, egui::RichText::new(label).size(12.5), &verdict) {
            land.write(LandCommand::Start(Pick::Recruit(recruit)));
        }
    }
}

/// Provinces one of the two powers occupies of the other's, by id (what a peace may cede, S-CITY-4).
fn contested(ctx: &Ctx, a: PowerId, b: PowerId) -> Vec<(String, String)> {
    ctx.map()
        .provinces
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            let (owner, occ) = (ctx.province_owner(*i), ctx.provinces.get(*i).and_then(|p| p.occupier));
            (owner == Some(a) && occ == Some(b)) || (owner == Some(b) && occ == Some(a))
        })
        .map(|(_, p)| (p.id.clone(), p.name.clone()))
        .collect()
}

fn diplomacy_tab(
    ui: &mut egui::Ui,
    tr: &Tr,
    ctx: &Ctx,
    me: PowerId,
    human: bool,
    cede: &mut Vec<String>,
    give: &mut MessageWriter<UiCommand>,
) {
    let mine = ctx.powers.get(usize::from(me.0)).and_then(|p| p.offer.clone());
    for (i, spec) in ctx.scenario().powers.iter().enumerate() {
        let Ok(i) = u8::try_from(i) else { break };
        let them = PowerId(i);
        if them == me {
            continue;
        }
        let Some(state) = ctx.powers.get(usize::from(i)) else { continue };
        let status = if state.out {
            "gw.diplomacy.out"
        } else if state.neutral {
            "gw.diplomacy.neutral"
        } else if !ctx.hostile(me, them) {
            "gw.diplomacy.ally"
        } else if ctx.at_war(me, them) {
            "gw.diplomacy.war"
        } else {
            "gw.diplomacy.peace"
        };
        ui.label(egui::RichText::new(format!("{} — {}", tr.power(ctx, them), tr.t(status))).strong());
        if !(ctx.hostile(me, them) && ctx.at_war(me, them)) {
            continue;
        }
        if let Some(offer) = state.offer.as_ref().filter(|o| o.to == me) {
            let text =
                tr.f("gw.diplomacy.accept", &[("power", tr.power(ctx, them)), ("n", offer.cede.len().to_string())]);
            if ui.add_enabled(human, egui::Button::new(text)).clicked() {
                give.write(UiCommand::Give(Order::AcceptPeace { from: spec.id.clone() }));
            }
        }
        let provinces = contested(ctx, me, them);
        for (id, name) in &provinces {
            let mut on = cede.contains(id);
            if ui.checkbox(&mut on, tr.f("gw.diplomacy.cede", &[("province", name.clone())])).changed() {
                cede.retain(|c| c != id);
                if on {
                    cede.push(id.clone());
                }
            }
        }
        if mine.as_ref().is_some_and(|o| o.to == them) {
            ui.label(egui::RichText::new(tr.t("gw.diplomacy.offered")).weak());
        }
        if ui.add_enabled(human, egui::Button::new(tr.t("gw.diplomacy.offer"))).clicked() {
            let list: Vec<String> = cede.iter().filter(|c| provinces.iter().any(|(p, _)| p == *c)).cloned().collect();
            give.write(UiCommand::Give(Order::OfferPeace { to: spec.id.clone(), cede: list }));
        }
        ui.add_space(4.0);
    }
}
