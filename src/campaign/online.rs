//! A campaign played online (`crate::net`): a side's seat, its leader's or a general's, plays on
//! the campaign its side knows (`rules::view::Mirror`: the other side's standing intercept
//! orders are not in it, T-STRAT-2). Its battles are fought on the campaign's own log, each side
//! at its seats (T-STRAT-4): once both sides have chosen their forces the seat goes to the battle
//! scene, which plays the battle its side knows (light infantry hidden in forest is not in it,
//! T-TERR-2); each of its orders goes to the server as the campaign's `Fight`, and the map comes
//! back when the server's campaign has applied the result. The leader's table gives its generals
//! armies.

use super::CampaignNames;
use super::battle::CampaignBattle;
use super::files;
use crate::i18n::Tr;
use crate::net::command::Roster;
use crate::net::order_json as json;
use crate::net::rulings::{Question as RulingQuestion, Rulings, Ticked};
use crate::net::{Online, OnlineGame, Screens};
use crate::screens::{Mode, PlayView, Screen};
use crate::session::{GameEvents, Remote, Session};
use bevy::prelude::*;
use rules::Game;
use rules::campaign::{Campaign, CampaignScenario, Event, Order, Question, Ruling};
use rules::moderation::Asked;
use rules::tactical::{Battle, Side, UnitId};
use rules::texts::Msg;
use rules::view::Seen;
use std::sync::Arc;

pub(super) fn plugin(app: &mut App) {
    crate::net::plugin_for::<Campaign>(app);
    app.add_systems(Update, (fight, roster).chain().in_set(crate::AppSystems::Logic));
}

impl OnlineGame for Campaign {
    const KIND: &'static str = "campaign";

    /// A shipped campaign by its plain path under the scenarios folder (`campaign/linden.ron`).
    fn load_online(path: &str) -> Result<CampaignScenario, String> {
        files::load_scenario(&crate::net::scenario_file(path)?)
    }

    fn open(seen: Seen<Event>) -> Option<Event> {
        seen.event().cloned()
    }

    fn rulings(&self, tr: &Tr) -> Rulings {
        rulings_of(self, tr)
    }
}

/// What a campaign leaves to its moderator (T-STRAT-5, T-STRAT-7, T-STRAT-9, T-AUTO-2,
/// T-AUTO-3), and the question it waits on in the reader's words, with the answers the rule
/// names: the engine's own (the campaign's `Ruling::Default`) and the others.
pub fn rulings_of(game: &Campaign, tr: &Tr) -> Rulings {
    let ctx = game.ctx();
    let state = &ctx.state;
    let scenario = ctx.scenario.as_ref();
    let side = |s: Side| tr.t(&format!("side.{}", s.name()));
    let unit =
        |id: UnitId| state.units.iter().find(|u| u.id == id).map_or_else(|| id.0.to_string(), |u| u.name.clone());
    let default = |words: String| (words, json(&Order::Rule(Ruling::Default)));
    let rule = |r: Ruling| json(&Order::Rule(r));
    let question = state.question.as_ref().map(|q| {
        let mut ticks = Vec::new();
        let mut with_ticks = None;
        let (text, answers) = match q {
            Question::Played { at, units, played, .. } => {
                let text = tr.f(
                    "ui.rulings.played_question",
                    &[("place", tr.hex(scenario, *at)), ("red", units[0].to_string()), ("blue", units[1].to_string())],
                );
                let grid = tr.t("ui.rulings.played_grid");
                let auto = tr.t("ui.rulings.played_auto");
                let engine =
                    tr.f("ui.rulings.engine", &[("answer", if *played { grid.clone() } else { auto.clone() })]);
                (text, vec![(grid, rule(Ruling::Played(true))), (auto, rule(Ruling::Played(false))), default(engine)])
            }
            Question::Cut { at, units, fielded, limit, .. } => {
                let text = tr.f(
                    "ui.rulings.cut_question",
                    &[
                        ("place", tr.hex(scenario, *at)),
                        ("red", units[0].to_string()),
                        ("blue", units[1].to_string()),
                        ("limit", limit.to_string()),
                    ],
                );
                let most = [units[0].min(*limit), units[1].min(*limit)];
                let field = |n: [usize; 2]| {
                    tr.f("ui.rulings.cut_field", &[("red", n[0].to_string()), ("blue", n[1].to_string())])
                };
                let engine = tr.f("ui.rulings.engine", &[("answer", field(*fielded))]);
                let mut answers = vec![default(engine)];
                if most != *fielded {
                    answers.push((field(most), rule(Ruling::Cut(most))));
                }
                (text, answers)
            }
            Question::AutoBattleEnd { at, rounds, winner, .. } => {
                let text = tr.f(
                    "ui.rulings.auto_end_question",
                    &[("place", tr.hex(scenario, *at)), ("rounds", rounds.len().to_string())],
                );
                let after = u32::try_from(rounds.len()).unwrap_or(u32::MAX);
                let won = |s: Side| tr.f("ui.rulings.auto_end_won", &[("side", side(s)), ("round", after.to_string())]);
                let engine = tr
                    .f("ui.rulings.engine", &[("answer", tr.f("ui.rulings.auto_end_by", &[("side", side(*winner))]))]);
                let mut answers = vec![default(engine)];
                answers
                    .extend(Side::BOTH.into_iter().map(|s| (won(s), rule(Ruling::AutoBattleEnd { after, winner: s }))));
                (text, answers)
            }
            Question::Surrender { at, winner, units, .. } => {
                let text = tr.f(
                    "ui.rulings.surrender_question",
                    &[("place", tr.hex(scenario, *at)), ("side", side(winner.other()))],
                );
                ticks = vec![(side(winner.other()), units.iter().map(|u| (u.0, unit(*u))).collect())];
                let destroy: Ticked = Arc::new(|ids: &[u32]| {
                    json(&Order::Rule(Ruling::Surrender { destroyed: ids.iter().map(|i| UnitId(*i)).collect() }))
                });
                with_ticks = Some((tr.t("ui.rulings.surrender_destroy"), destroy));
                (text, vec![default(tr.t("ui.rulings.surrender_all"))])
            }
            Question::LeftOut { at, units } => {
                let losses: Vec<String> = units.iter().map(|u| format!("{} −{}", unit(u.unit), u.loss)).collect();
                let text = tr.f(
                    "ui.rulings.left_out_question",
                    &[("place", tr.hex(scenario, *at)), ("losses", losses.join(", "))],
                );
                let none = rule(Ruling::LeftOut { losses: vec![0; units.len()] });
                (text, vec![default(tr.t("ui.rulings.left_out_engine")), (tr.t("ui.rulings.left_out_none"), none)])
            }
        };
        RulingQuestion { rule: q.asked().rule(), text, ticks, with_ticks, answers }
    });
    Rulings {
        kinds: Asked::CAMPAIGN.iter().map(|k| (*k, state.asks.contains(k))).collect(),
        set_asks: Some(|asks| json(&Order::Moderate { asks })),
        question,
    }
}

/// The battle's events among the campaign's (each `Fought`), in order.
fn fought(events: &[Event]) -> Vec<rules::tactical::Event> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Fought { event, .. } => Some(event.clone()),
            _ => None,
        })
        .collect()
}

/// The seat's battle follows the campaign's view: entered once the view holds a battle fought
/// (both sides have chosen), each later view made into its game, its orders sent as the
/// campaign's `Fight` and the server's answers (events, refusals, whom it waits for) given to it;
/// left for the map once the campaign's view holds no battle (its result applied).
#[allow(clippy::too_many_arguments)]
fn fight(
    mut commands: Commands,
    online: Option<ResMut<Online>>,
    campaign: Option<ResMut<Session<Campaign>>>,
    battle: Option<ResMut<Session<Battle>>>,
    marker: Option<Res<CampaignBattle>>,
    mut happened: MessageReader<GameEvents<Campaign>>,
    mut events: MessageWriter<GameEvents<Battle>>,
    state: Res<State<Mode>>,
    (mut screen, mut mode, mut view): Screens,
    mut followed: Local<u64>,
) {
    let (Some(mut online), Some(mut campaign)) = (online, campaign) else {
        happened.clear();
        return;
    };
    if online.kind != Campaign::KIND || campaign.remote.is_none() {
        happened.clear();
        return;
    }
    let number = campaign.game.state().battle.as_ref().map(|b| b.number);
    let in_battle = marker.is_some() && *state.get() == Mode::Battle;
    let Some(mut battle) = battle.filter(|b| b.remote.is_some() && in_battle) else {
        happened.clear();
        // To the battlefield once the battle stands (a seat joining mid-battle too).
        if *state.get() == Mode::Campaign
            && let Some(number) = number
            && let Some(game) = campaign.game.fight_game()
        {
            let Some(r) = campaign.remote.as_ref() else { return };
            let name = format!("{}-battle-{number}", campaign.name);
            let mut remote = Remote::new(r.viewer, r.commands);
            // The battle's log: what the campaign's log holds of it (a seat joining mid-battle).
            let log = campaign.events();
            let start = log.iter().rposition(|e| matches!(e, Event::BattleJoined { .. })).unwrap_or(0);
            remote.keep(&fought(&log[start..]));
            remote.waited_for = r.waited_for;
            remote.at = r.at;
            *followed = r.at;
            commands.insert_resource(Session::online(game, name, remote));
            commands.insert_resource(CampaignBattle { number });
            mode.set(Mode::Battle);
            screen.set(Screen::Playing);
            view.set(PlayView::Playing);
        }
        return;
    };
    // The battle's events as this seat was sent them, for its log and board.
    for GameEvents(all) in happened.read() {
        let theirs = fought(all);
        if !theirs.is_empty() {
            if let Some(r) = battle.remote.as_mut() {
                r.keep(&theirs);
            }
            events.write(GameEvents(theirs));
        }
    }
    // A new view of the campaign (the server's order count moved on): the battle's with it.
    let (waited, at) = campaign.remote.as_ref().map_or((false, 0), |r| (r.waited_for, r.at));
    if at != *followed {
        *followed = at;
        match campaign.game.fight_game().filter(|_| marker.as_ref().is_some_and(|m| Some(m.number) == number)) {
            Some(game) => battle.follow_view(game),
            None => {
                // The result is applied: back to the map, its report shown there.
                commands.remove_resource::<Session<Battle>>();
                commands.remove_resource::<CampaignBattle>();
                mode.set(Mode::Campaign);
                screen.set(Screen::Playing);
                view.set(PlayView::Playing);
                return;
            }
        }
    }
    // A refusal of a battle's order comes to the campaign's session: the battle shows it.
    // (Each written only when it is there or differs, so that the sessions are not marked
    // changed every frame.)
    if campaign.refusal.is_some() {
        battle.refusal = campaign.refusal.take();
    }
    if battle.remote.as_ref().is_some_and(|r| !r.outbox.is_empty()) {
        let outbox = battle.remote.as_mut().map(|r| std::mem::take(&mut r.outbox)).unwrap_or_default();
        for order in outbox {
            match serde_json::to_value(Order::Fight(order)) {
                Ok(v) => online.order(v),
                Err(e) => battle.refusal = Some(Msg::plain(e.to_string())),
            }
        }
    }
    let now = (online.unanswered(), waited, at);
    if battle.remote.as_ref().is_some_and(|r| (r.unanswered, r.waited_for, r.at) != now)
        && let Some(r) = battle.remote.as_mut()
    {
        (r.unanswered, r.waited_for, r.at) = now;
    }
}

/// The armies of a side, for its leader to give its generals (T-STRAT-3: a general commands
/// the armies its leader gives it).
pub fn roster_of(game: &Campaign, side: Side) -> Roster {
    Roster {
        rule: "T-STRAT-3",
        formations: game.state().armies.iter().filter(|a| a.side == side).map(|a| (a.id.0, a.name.clone())).collect(),
        fleets: Vec::new(),
    }
}

fn roster(online: Option<Res<Online>>, session: Option<Res<Session<Campaign>>>, mut roster: ResMut<Roster>) {
    let (Some(online), Some(session)) = (online, session) else { return };
    if online.kind != Campaign::KIND || !session.is_changed() {
        return;
    }
    let Some(side) = session.remote.as_ref().and_then(|r| r.commands) else { return };
    let fresh = roster_of(&session.game, side);
    if *roster != fresh {
        *roster = fresh;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::view::{Mirror, Sight, Viewer};

    /// The seat's campaign is made from its view (a shipped campaign by its server path), and a
    /// path that climbs out of the scenarios folder is refused before any file is read.
    #[test]
    fn a_seat_plays_on_the_campaign_its_side_knows() {
        let scenario = Campaign::load_online("campaign/linden.ron").expect("the shipped campaign");
        assert!(Campaign::load_online("../campaign/linden.ron").is_err());
        let game = Campaign::new(&scenario, 11);
        let red = Viewer::Player(Side::Red);
        let view = game.view(red);
        let mirror = Campaign::mirror(&scenario, None, &view).expect("red's view");
        assert_eq!(mirror.view(red), view);
        let roster = roster_of(&mirror, Side::Red);
        assert_eq!(roster.formations.iter().map(|(id, _)| *id).collect::<Vec<_>>(), vec![1, 2], "red's two armies");
        assert_eq!(roster.formations[0].1, "I Corps");
        let _ = Campaign::from_view(&scenario, &view).expect("the same view");
    }

    /// T-STRAT-5 at the moderator's table: with the recount asked for, I Corps (12 units)
    /// marching on Lindenau (13) waits for the moderator's count; the table offers the engine's
    /// (9 v 10) and the most the limit allows, each the campaign's ruling, which the campaign
    /// takes. Nothing is asked before the moderator sets it.
    #[test]
    fn t_strat_5_the_moderators_table_offers_the_recount_of_a_battle_over_the_limit() {
        let tr = Tr::new(crate::i18n::Lang::English);
        let scenario = files::load_scenario("scenarios/campaign/linden.ron").expect("the shipped campaign");
        let mut game = Campaign::new(&scenario, 5);
        let before = rulings_of(&game, &tr);
        assert_eq!(before.kinds.len(), 5);
        assert!(before.kinds.iter().all(|(_, on)| !on) && before.question.is_none());
        let set = before.set_asks.expect("the order that sets the decisions");
        let order: Order = serde_json::from_value(set(vec![Asked::BattleCut])).expect("an order");
        game.apply(order).expect("the moderator's order");
        let army = rules::campaign::ArmyId(1);
        let path = super::super::command::route(&game, army, rules::campaign::HexAt::new(3, 1)).expect("a road");
        game.apply(Order::Move { army, path }).expect("the march");
        let asked = rulings_of(&game, &tr);
        assert!(asked.kinds.contains(&(Asked::BattleCut, true)));
        let q = asked.question.expect("the recount waits");
        assert_eq!(q.rule, "T-STRAT-5");
        assert!(q.text.contains("12 v 13") && q.text.contains("limit of 10"), "{}", q.text);
        let words: Vec<&str> = q.answers.iter().map(|(w, _)| w.as_str()).collect();
        assert_eq!(words, ["Red fields 9, blue 10 (the engine's answer)", "Red fields 10, blue 10"]);
        let mut most = game.clone();
        let order: Order = serde_json::from_value(q.answers[1].1.clone()).expect("an order");
        most.apply(order).expect("the most the limit allows");
        assert_eq!(most.state().battle.as_ref().map(|b| b.fielded), Some([10, 10]));
        let order: Order = serde_json::from_value(q.answers[0].1.clone()).expect("an order");
        game.apply(order).expect("the engine's count");
        assert_eq!(game.state().battle.as_ref().map(|b| b.fielded), Some([9, 10]));
        assert!(rulings_of(&game, &tr).question.is_none());
    }
}
