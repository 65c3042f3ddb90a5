//! Input helpers the Great War's headless app tests share: a press and release as a frame each,
//! a click on a hex, and what the session then holds. The app itself is `tests/support`'s.
#![allow(dead_code)]

use bevy::prelude::*;
use kriegsspiel::great_war::{HoveredHex, Selected, Selection};
use kriegsspiel::screens::PlayView;
use leafwing_input_manager::prelude::Buttonlike;
use rules::strategic::{GreatWar, HexAt};

pub type Session = kriegsspiel::session::Session<GreatWar>;

/// Presses an input for one frame, then releases it for the next.
pub fn press(app: &mut App, input: impl Buttonlike + Clone) {
    input.clone().press(app.world_mut());
    app.update();
    input.release(app.world_mut());
    app.update();
}

/// A left click on a hex (the board takes the hex under the pointer).
pub fn click(app: &mut App, at: HexAt) {
    app.world_mut().resource_mut::<HoveredHex>().0 = Some(at);
    press(app, MouseButton::Left);
}

pub fn session(app: &App) -> &Session {
    app.world().resource::<Session>()
}

pub fn selected(app: &App) -> Option<Selected> {
    app.world().resource::<Selection>().of(session(app))
}

/// The engine's reason for the last order refused.
pub fn refusal(app: &App) -> String {
    session(app).refusal.as_ref().map(rules::texts::Msg::english).unwrap_or_default()
}

pub fn handing_over(app: &App) -> bool {
    app.world().get_resource::<State<PlayView>>().is_some_and(|v| *v.get() == PlayView::HandOver)
}
