//! The title screen's "Play online": the server's address (remembered), a seat's invite (its
//! link or code) and where joining it stands.

use super::{Conn, Invite, JoinOnline, Online};
use crate::hud::menus::menu_window;
use crate::i18n::Tr;
use crate::screens::Menu;
use crate::settings::Settings;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<OnlineForm>().add_systems(
        bevy_egui::EguiPrimaryContextPass,
        window.run_if(in_state(Menu::Online)).in_set(crate::hud::PanelsEnd),
    );
}

/// The address a server of this machine answers on by default (`kriegsspiel-server`).
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:8080";

/// What the player typed.
#[derive(Resource, Default)]
pub struct OnlineForm {
    pub server: String,
    pub invite: String,
    pub problem: Option<String>,
}

fn window(
    mut contexts: EguiContexts,
    tr: Res<Tr>,
    settings: Res<Settings>,
    mut form: ResMut<OnlineForm>,
    online: Option<Res<Online>>,
    mut join: MessageWriter<JoinOnline>,
    mut menu: ResMut<NextState<Menu>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if form.server.is_empty() {
        form.server = if settings.server.is_empty() { DEFAULT_SERVER.to_string() } else { settings.server.clone() };
    }
    menu_window(ctx, tr.t("ui.online.heading")).show(ctx, |ui| {
        ui.label(tr.t("ui.online.intro"));
        ui.add_space(8.0);
        egui::Grid::new("online_form").num_columns(2).spacing([12.0, 8.0]).show(ui, |ui| {
            ui.label(tr.t("ui.online.server"));
            ui.add(egui::TextEdit::singleline(&mut form.server).desired_width(360.0));
            ui.end_row();
            ui.label(tr.t("ui.online.invite"));
            ui.add(
                egui::TextEdit::singleline(&mut form.invite)
                    .hint_text(tr.t("ui.online.invite_hint"))
                    .desired_width(360.0),
            );
            ui.end_row();
        });
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            let joining = online.as_ref().is_some_and(|o| matches!(o.conn, Conn::Connecting | Conn::Lost(_)));
            if ui.add_enabled(!joining, egui::Button::new(tr.t("ui.online.join"))).clicked() {
                match Invite::parse(&form.invite, &form.server) {
                    Ok(invite) => {
                        form.problem = None;
                        form.server = invite.server.clone();
                        join.write(JoinOnline(invite));
                    }
                    Err(e) => form.problem = Some(e),
                }
            }
            if ui.button(tr.t("ui.online.close")).clicked() {
                menu.set(Menu::None);
            }
        });
        if let Some(p) = &form.problem {
            ui.colored_label(egui::Color32::LIGHT_RED, p);
        }
        if let Some(o) = &online {
            let (text, colour) = match &o.conn {
                Conn::Connecting => (tr.t("ui.online.connecting"), egui::Color32::LIGHT_YELLOW),
                Conn::Live => (tr.t("ui.online.loading"), egui::Color32::LIGHT_GREEN),
                Conn::Lost(why) => (tr.f("ui.online.lost", &[("why", why.clone())]), egui::Color32::LIGHT_YELLOW),
                Conn::Failed(why) => (tr.f("ui.online.failed", &[("why", why.clone())]), egui::Color32::LIGHT_RED),
            };
            ui.colored_label(colour, text);
        }
        ui.add_space(12.0);
        ui.label(egui::RichText::new(tr.t("ui.online.host")).small().weak());
    });
    Ok(())
}
