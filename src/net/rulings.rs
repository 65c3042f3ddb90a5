//! The moderator's decisions at its table (`rules::moderation`): which of the decisions the
//! rules leave to a moderator this game asks for (an order of the log, the moderator's alone),
//! and, when the game waits for a ruling, the question with its answers. The scene puts its
//! game's decisions and question in words ([`Rulings`]); the table shows them and sends the
//! orders; the server and the engine decide whether they stand.

use super::Online;
use crate::i18n::Tr;
use bevy::prelude::*;
use bevy_egui::egui;
use rules::moderation::Asked;
use serde_json::Value;
use std::sync::Arc;

/// An answer made of the pieces the moderator ticked (S-COMBAT-3: the blocks kept out).
pub type Ticked = Arc<dyn Fn(&[u32]) -> Value + Send + Sync>;

/// Pieces to tick, in named groups (an engagement's side): each by ID and name.
pub type Ticks = Vec<(String, Vec<(u32, String)>)>;

/// The question a game waits on, in the scene's words.
#[derive(Clone)]
pub struct Question {
    /// The rule that leaves it to the moderator (`S-COMBAT-3`).
    pub rule: &'static str,
    pub text: String,
    /// Pieces to tick, by ID and name, in groups (an engagement's side).
    pub ticks: Ticks,
    /// The answer made of the ticks: its button's words and its order.
    pub with_ticks: Option<(String, Ticked)>,
    /// Answers of one click: their words and their orders.
    pub answers: Vec<(String, Value)>,
}

impl Question {
    /// What tells two questions apart (their answers' orders are made of the same facts).
    fn key(&self) -> (&str, &str, &Ticks, Vec<&String>) {
        (self.rule, &self.text, &self.ticks, self.answers.iter().map(|(w, _)| w).collect())
    }
}

impl std::fmt::Debug for Question {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Question")
            .field("rule", &self.rule)
            .field("text", &self.text)
            .field("ticks", &self.ticks)
            .finish()
    }
}

/// The moderator's decisions of the game on screen.
#[derive(Resource, Default, Debug, Clone)]
pub struct Rulings {
    /// The decisions this kind of game may leave to its moderator, and whether it does.
    pub kinds: Vec<(Asked, bool)>,
    /// The order that sets which decisions are asked for.
    pub set_asks: Option<fn(Vec<Asked>) -> Value>,
    pub question: Option<Question>,
}

impl Rulings {
    /// Whether `other` says the same (so that the table's ticks stay while it does).
    pub fn same_as(&self, other: &Rulings) -> bool {
        self.kinds == other.kinds
            && self.question.as_ref().map(Question::key) == other.question.as_ref().map(Question::key)
    }
}

/// The moderator asks for a decision or leaves it to the engine: the game's order of it, with
/// every other decision as it stands.
pub fn ask(online: &mut Online, rulings: &Rulings, kind: Asked, on: bool) {
    let Some(make) = rulings.set_asks else { return };
    let mut asks: Vec<Asked> = rulings.kinds.iter().filter(|(k, set)| *set && *k != kind).map(|(k, _)| *k).collect();
    if on {
        asks.push(kind);
    }
    online.refused = None;
    online.order(make(rules::moderation::normalized(&asks)));
}

/// The moderator's ruling: the order of the answer chosen.
pub fn rule(online: &mut Online, order: Value) {
    online.refused = None;
    online.order(order);
}

/// The table's section, at the moderator's seat.
pub fn section(ui: &mut egui::Ui, tr: &Tr, online: &mut Online, rulings: &Rulings, ticked: &mut Vec<u32>) {
    if rulings.kinds.is_empty() {
        return;
    }
    ui.label(egui::RichText::new(tr.t("ui.rulings.heading")).strong());
    ui.horizontal_wrapped(|ui| {
        for (kind, set) in &rulings.kinds {
            let mut on = *set;
            let words = tr.f("ui.rulings.ask", &[("rule", kind.rule().to_string())]);
            if ui.checkbox(&mut on, words).on_hover_text(tr.t(&format!("ui.rulings.kind.{kind:?}"))).changed() {
                ask(online, rulings, *kind, on);
            }
        }
    });
    let Some(q) = &rulings.question else { return };
    ui.colored_label(egui::Color32::YELLOW, format!("{} · {}", q.rule, q.text));
    for (group, pieces) in &q.ticks {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("{group}:"));
            for (id, name) in pieces {
                let mut on = ticked.contains(id);
                if ui.checkbox(&mut on, name).changed() {
                    ticked.retain(|x| x != id);
                    if on {
                        ticked.push(*id);
                        ticked.sort_unstable();
                    }
                }
            }
        });
    }
    ui.horizontal_wrapped(|ui| {
        if let Some((words, make)) = &q.with_ticks
            && ui.add_enabled(!ticked.is_empty(), egui::Button::new(words)).clicked()
        {
            rule(online, make(ticked));
            ticked.clear();
        }
        for (words, order) in &q.answers {
            if ui.button(words).clicked() {
                rule(online, order.clone());
                ticked.clear();
            }
        }
    });
}

/// The moderator's seat: its table's decisions, as the game on screen stands (the game's
/// [`super::OnlineGame::rulings`]).
pub(super) fn follow<G: super::OnlineGame>(
    online: Option<Res<Online>>,
    session: Option<Res<crate::session::Session<G>>>,
    tr: Res<Tr>,
    mut rulings: ResMut<Rulings>,
) {
    let (Some(online), Some(session)) = (online, session) else { return };
    let moderator = online.seat.as_ref().is_some_and(|s| s.role == wire::Role::Moderator);
    if online.kind != G::KIND || !moderator || !(session.is_changed() || tr.is_changed()) {
        return;
    }
    let fresh = session.game.rulings(&tr);
    if !rulings.same_as(&fresh) {
        *rulings = fresh;
    }
}
