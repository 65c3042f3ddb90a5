//! A battle played online (`crate::net`): a side's seat plays on the battle its side knows
//! (`rules::view::Mirror`); the moderator's table offers what the battle leaves to a moderator
//! (T-FORT-7: the terms of a fortress's capitulation).

use crate::i18n::Tr;
use crate::net::OnlineGame;
use crate::net::order_json as json;
use crate::net::rulings::{Question, Rulings};
use bevy::prelude::*;
use rules::moderation::Asked;
use rules::tactical::{Battle, Order, Ruling, Scenario, Terms};

pub(super) fn plugin(app: &mut App) {
    crate::net::plugin_for::<Battle>(app);
}

impl OnlineGame for Battle {
    const KIND: &'static str = "battle";

    /// A shipped battle (or one in `scenarios/` natively) by its plain path under the folder:
    /// a server's path that climbs out of it or names a folder is refused.
    fn load_online(path: &str) -> Result<Scenario, String> {
        super::files::load_scenario(&crate::net::scenario_file(path)?)
    }

    fn open(seen: rules::view::Seen<rules::tactical::Event>) -> Option<rules::tactical::Event> {
        seen.event().cloned()
    }

    fn rulings(&self, tr: &Tr) -> Rulings {
        rulings_of(self, tr)
    }
}

/// What a battle leaves to its moderator (T-FORT-7), and the question while a capitulation
/// waits for its terms: the garrison taken prisoner (the engine's answer) or marching out.
pub fn rulings_of(game: &Battle, tr: &Tr) -> Rulings {
    let ctx = game.ctx();
    let question = ctx.sides.terms_asked.map(|side| Question {
        rule: Asked::Capitulation.rule(),
        text: tr.f("ui.rulings.terms_question", &[("side", tr.t(&format!("side.{}", side.name())))]),
        ticks: Vec::new(),
        with_ticks: None,
        answers: vec![
            (tr.t("ui.rulings.terms_captured"), json(&Order::Rule(Ruling::Terms(Terms::Captured)))),
            (tr.t("ui.rulings.terms_march_out"), json(&Order::Rule(Ruling::Terms(Terms::MarchOut)))),
        ],
    });
    Rulings {
        kinds: vec![(Asked::Capitulation, ctx.sides.ask_terms)],
        set_asks: Some(|asks| json(&Order::Moderate { asks })),
        question,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::Game;
    use rules::tactical::Side;

    /// T-FORT-7 at the moderator's table: Badajoz asks for nothing until the moderator sets it;
    /// then the defender's capitulation waits for the terms, offered as the two answers the rule
    /// names, each the battle's ruling order.
    #[test]
    fn t_fort_7_the_moderators_table_offers_the_terms_of_a_capitulation() {
        let tr = Tr::new(crate::i18n::Lang::English);
        let scenario = super::super::files::load_scenario("scenarios/badajoz.ron").expect("the shipped fortress");
        let mut game = Battle::new(&scenario, 3);
        let before = rulings_of(&game, &tr);
        assert_eq!(before.kinds, vec![(Asked::Capitulation, false)]);
        assert!(before.question.is_none());
        let set = before.set_asks.expect("the order that sets the decisions");
        let order: Order = serde_json::from_value(set(vec![Asked::Capitulation])).expect("an order");
        game.apply(order).expect("the moderator's order");
        assert_eq!(rulings_of(&game, &tr).kinds, vec![(Asked::Capitulation, true)]);
        let defender = if scenario.attacker == Side::Red { Side::Blue } else { Side::Red };
        for _ in 0..40 {
            if !crate::session::PlayGame::in_setup(&game) && game.active_player() == Some(defender) {
                break;
            }
            game.apply(game.pass()).expect("a pass");
        }
        game.apply(Order::Capitulate).expect("the capitulation");
        let q = rulings_of(&game, &tr).question.expect("the terms are asked");
        assert_eq!(q.rule, "T-FORT-7");
        let orders: Vec<Order> =
            q.answers.iter().map(|(_, o)| serde_json::from_value(o.clone()).expect("an order")).collect();
        assert_eq!(
            orders,
            vec![Order::Rule(Ruling::Terms(Terms::Captured)), Order::Rule(Ruling::Terms(Terms::MarchOut))]
        );
        game.apply(orders[1].clone()).expect("the ruling");
        assert!(rulings_of(&game, &tr).question.is_none() && game.is_over());
    }
}
