//! Issue 29: the game plays a side of a campaign online, through a server started in the test,
//! against a second seat over the server's own test client: the map's orders, the choice of
//! forces, and the battle fought in the battle scene on the campaign's own log (T-STRAT-4), each
//! of its orders the campaign's `Fight`, then back to the map with the result applied. The app's
//! campaign, and its battle, are red's view as the server has it (never more).

mod support;

use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use kriegsspiel::campaign::battle::CampaignBattle;
use kriegsspiel::net::Conn;
use kriegsspiel::screens::Mode;
use kriegsspiel::session::{GameEvents, PlayGame, Session};
use rules::Game;
use rules::campaign::{ArmyId, Campaign, Event, HexAt, Order};
use rules::tactical::{Battle, Order as BattleOrder, Side};
use rules::view::{Sight, Viewer};
use serde_json::json;
use server::client::Client;
use support::online::{create, join, online, orders_on_server, server, token, until_all};

fn campaign(app: &App) -> &Session<Campaign> {
    app.world().get_resource::<Session<Campaign>>().expect("the seat's campaign is on screen")
}

fn battle(app: &App) -> Option<&Session<Battle>> {
    app.world().get_resource::<Session<Battle>>()
}

fn mode(app: &App) -> Mode {
    *app.world().resource::<State<Mode>>().get()
}

fn until(app: &mut App, what: &str, done: impl Fn(&App) -> bool) {
    until_all(std::slice::from_mut(app), 30, what, |a| done(&a[0]));
}

/// An order given at the screen, through the scene's session as its board gives it.
fn give<G: PlayGame>(app: &mut App, order: G::Order) {
    app.world_mut()
        .run_system_once(move |mut s: ResMut<Session<G>>, mut events: MessageWriter<GameEvents<G>>| {
            let _ = s.apply(order.clone(), &mut events);
        })
        .expect("the system runs");
}

/// Whether the app has the server's last view and nothing on its way.
fn settled(app: &App, orders: u64) -> bool {
    let o = online(app);
    o.unanswered() == 0 && o.conn == Conn::Live && o.view_at == Some(orders)
}

#[test]
fn a_campaign_and_its_battle_are_played_online_from_the_game_against_a_second_seat() {
    let (rt, server) = server();
    let addr = server.addr;
    let body = json!({ "scenario": "campaign/linden.ron", "settings": { "battle_clock": false } });
    let (game, created) = create(&rt, addr, &body);
    assert_eq!(
        (created["seats"][0]["name"].as_str(), created["seats"][1]["name"].as_str()),
        (Some("red"), Some("blue"))
    );
    let mut app = support::app();
    join(&mut app, addr, &game, &token(&created, 0));
    until(&mut app, "the seat's campaign is on screen", |a| a.world().get_resource::<Session<Campaign>>().is_some());
    let (mut blue, _) = rt.block_on(Client::join(addr, &game, &token(&created, 1), None)).expect("blue joins");
    assert_eq!(campaign(&app).viewer(), Some(Side::Red));
    assert!(campaign(&app).game.orders().is_empty(), "the app holds a view, not the game's log");

    // Red marches I Corps on Lindenau (the key hex Blue's 1st Western Army holds): a battle.
    until(&mut app, "red moves", |a| campaign(a).human_turn());
    let lindenau = HexAt::new(3, 1);
    let path = kriegsspiel::campaign::command::route(&campaign(&app).game, ArmyId(1), lindenau).expect("a road");
    give::<Campaign>(&mut app, Order::Move { army: ArmyId(1), path });
    let mut given = 1;
    until(&mut app, "the march's view", |a| settled(a, given));
    assert_eq!(orders_on_server(&rt, addr, &game), 1);
    let b = campaign(&app).game.state().battle.clone().expect("a battle at Lindenau");
    assert_eq!(b.at, lindenau);

    // Each side chooses its forces (the default), red at the screen, blue over its client.
    while campaign(&app).game.state().battle.as_ref().is_some_and(|b| b.chooser().is_some()) {
        let order = campaign(&app).game.pass();
        assert!(matches!(order, Order::ChooseForces(_)), "{order:?}");
        if campaign(&app).game.active_player() == Some(Side::Red) {
            until(&mut app, "red chooses", |a| campaign(a).human_turn());
            give::<Campaign>(&mut app, order);
        } else {
            let ack = rt.block_on(blue.order(serde_json::to_value(order).expect("JSON"))).expect("blue's answer");
            assert_eq!(ack["type"], "ack", "{ack}");
        }
        given += 1;
        until(&mut app, "the choice's view", |a| settled(a, given));
    }

    // Both have chosen: the seat is on the battlefield, playing the battle red knows.
    until(&mut app, "the battle scene", |a| mode(a) == Mode::Battle && battle(a).is_some());
    let number = app.world().resource::<CampaignBattle>().number;
    assert_eq!(number, b.number);
    let fought = battle(&app).expect("the battle");
    assert_eq!(fought.viewer(), Some(Side::Red));
    assert_eq!(
        Some(fought.game.view(Viewer::Player(Side::Red))),
        campaign(&app).game.view(Viewer::Player(Side::Red)).fight,
        "the battle on screen is the campaign view's"
    );

    // Both sides pass the battle to its round limit (T-TURN-4): red from the battle scene, blue
    // from its client, each of blue's orders the campaign's `Fight`. Red's first order is one
    // the battle refuses: it comes back as the battle's refusal, and changes nothing.
    let mut red_orders = 0;
    let mut refused = false;
    let mut guard = 0;
    while mode(&app) == Mode::Battle {
        guard += 1;
        assert!(guard < 400, "the battle ends");
        let Some(s) = battle(&app) else { break };
        let pass = s.game.pass();
        if s.game.active_player() == Some(Side::Red) {
            until(&mut app, "red's move in the battle", |a| {
                battle(a).is_none_or(|s| s.human_turn()) || mode(a) != Mode::Battle
            });
            if battle(&app).is_none() {
                break;
            }
            if !refused {
                let wrong = if pass == BattleOrder::EndSetup { BattleOrder::EndTurn } else { BattleOrder::EndSetup };
                give::<Battle>(&mut app, wrong);
                until(&mut app, "the refusal", |a| {
                    battle(a).is_some_and(|s| s.refusal.is_some()) && online(a).unanswered() == 0
                });
                assert_eq!(orders_on_server(&rt, addr, &game), given, "a refused order is not applied");
                refused = true;
            }
            give::<Battle>(&mut app, pass);
            red_orders += 1;
        } else {
            let order = serde_json::to_value(Order::Fight(pass)).expect("JSON");
            let ack = rt.block_on(blue.order(order)).expect("blue's answer");
            assert_eq!(ack["type"], "ack", "{ack}");
        }
        given += 1;
        until(&mut app, "the battle order's view", |a| settled(a, given) || mode(a) == Mode::Campaign);
        assert_eq!(orders_on_server(&rt, addr, &game), given, "each order is applied once");
    }
    assert!(refused && red_orders > 5, "red fought its battle from the battle scene ({red_orders} orders)");

    // Back on the map, the result applied; the report of the battle is shown.
    until(&mut app, "back on the map", |a| mode(a) == Mode::Campaign && battle(a).is_none());
    let state = campaign(&app).game.state();
    assert!(state.battle.is_none() && state.battles == 1, "{:?}", state.battle);
    assert!(!app.world().contains_resource::<CampaignBattle>());
    let log = campaign(&app).events();
    assert!(log.iter().any(|e| matches!(e, Event::BattleWon { .. })), "the seat's log tells the result");
    assert!(log.iter().any(|e| matches!(e, Event::Fought { .. })), "and the battle's events");
    let report = app.world().resource::<kriegsspiel::campaign::command::BattleReport>().0.clone();
    assert!(report.is_some_and(|r| r.iter().any(|e| matches!(e, Event::BattleWon { .. }))), "the report is shown");

    // The app's campaign is red's view as the server has it now.
    let (check, welcome) = rt.block_on(Client::join(addr, &game, &token(&created, 0), None)).expect("red again");
    let ours = serde_json::to_value(campaign(&app).game.view(Viewer::Player(Side::Red))).expect("JSON");
    assert_eq!(ours, welcome["view"], "the app's campaign is red's view");
    rt.block_on(check.close());
    rt.block_on(blue.close());
    drop(server);
}
