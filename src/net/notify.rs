//! Telling the player, when they look elsewhere, that the game wants them: the window's title
//! (natively; the tab's in the browser) says when it is this seat's move and how many letters
//! came unread, and in the browser a notification says so too, once the player allowed them (the
//! browser asks only after a click: the Play online window's button).

use super::Online;
use crate::i18n::Tr;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Update, title.in_set(crate::AppSystems::Visuals));
}

/// The game's own name, the title when nothing waits for the player.
pub const NAME: &str = "Kriegsspiel";

/// The title for where the seat stands.
pub fn title_for(online: Option<&Online>, tr: &Tr) -> String {
    let Some(online) = online else { return NAME.to_string() };
    let mut title = if online.waits_for_me() {
        format!("● {} — {NAME}", tr.t("ui.online.your_turn"))
    } else {
        NAME.to_string()
    };
    if online.unread > 0 {
        title = format!("({}) {title}", online.unread);
    }
    title
}

fn title(
    online: Option<Res<Online>>,
    tr: Res<Tr>,
    mut windows: Query<&mut Window, With<PrimaryWindow>>,
    mut last: Local<Option<String>>,
) {
    let now = title_for(online.as_deref(), &tr);
    if last.as_ref() == Some(&now) {
        return;
    }
    let before = last.replace(now.clone());
    for mut w in &mut windows {
        w.title = now.clone();
    }
    #[cfg(target_arch = "wasm32")]
    browser::tell(&now, before.as_deref(), online.as_deref(), &tr);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = before;
}

#[cfg(target_arch = "wasm32")]
pub mod browser {
    use super::Online;
    use crate::i18n::Tr;
    use web_sys::{Notification, NotificationPermission};

    /// Asks the browser to let the game notify (after the player's click).
    pub fn ask() {
        if Notification::permission() == NotificationPermission::Default {
            let _ = Notification::request_permission();
        }
    }

    /// Whether the player allowed notifications.
    pub fn allowed() -> bool {
        Notification::permission() == NotificationPermission::Granted
    }

    /// The tab's title, and a notification when the seat's move or a letter has just come.
    pub fn tell(title: &str, before: Option<&str>, online: Option<&Online>, tr: &Tr) {
        if let Some(d) = web_sys::window().and_then(|w| w.document()) {
            d.set_title(title);
        }
        let Some(online) = online else { return };
        let was_mine = before.is_some_and(|b| b.contains('●'));
        let text = if online.waits_for_me() && !was_mine {
            Some(tr.t("ui.online.your_turn"))
        } else {
            online.letters.last().filter(|_| online.unread > 0).map(|l| l.text.chars().take(120).collect())
        };
        if let Some(text) = text.filter(|_| allowed()) {
            let _ = Notification::new(&format!("{} — {text}", super::NAME));
        }
    }
}
