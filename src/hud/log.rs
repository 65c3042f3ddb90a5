//! The event log of every scene: a resizable column of readable width beside the board, the
//! events grouped by turn and coloured by the side they belong to; a click on "»" before an
//! event centres the board on the place where it happened and marks it ([`LookAt`]). A scene
//! turns its events into [`LogLine`]s (its words, its sides' colours, world positions); the
//! shell shows them and moves the board camera.

use super::board::BoardView;
use super::rules::RuleLinks;
use crate::i18n::Tr;
use bevy::prelude::*;
use bevy_egui::egui;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<LookAt>().add_systems(Update, look_at.in_set(crate::AppSystems::Visuals));
}

/// UI limit: the log's narrowest width (logical pixels): a line of the log in Russian keeps its
/// words whole at this width.
pub const LOG_MIN_WIDTH: f32 = 280.0;
/// UI limit: the log's widest width at the start (it starts at 30 % of a narrower window).
pub const LOG_WIDTH: f32 = 380.0;

/// One event, as the log shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    /// The turn it belongs to (`None`: the set-up).
    pub turn: Option<u32>,
    pub text: String,
    /// The colour of its side, if it belongs to one.
    pub colour: Option<egui::Color32>,
    /// A turn's start, the end of the battle: set in bold.
    pub strong: bool,
    /// Where it happened on the board (world position) and the size of the place (a cell).
    pub place: Option<(Vec2, f32)>,
}

/// Centre the board on a place and mark it.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct LookAt {
    pub at: Vec2,
    pub size: f32,
}

/// The log column: `lines` grouped by turn, the newest at the bottom (the last two turns open).
pub fn log_panel(
    ui: &mut egui::Ui,
    id: &'static str,
    tr: &Tr,
    lines: &[LogLine],
    links: &mut RuleLinks,
    looks: &mut MessageWriter<LookAt>,
) {
    egui::Panel::right(id)
        .resizable(true)
        .default_size((ui.available_width() * 0.3).clamp(LOG_MIN_WIDTH, LOG_WIDTH))
        .min_size(LOG_MIN_WIDTH)
        .max_size(ui.available_width() * 0.5)
        .show(ui, |ui| log_column(ui, id, tr, lines, links, looks));
}

/// The log's contents in a panel a scene places itself: its title, the hint, and `lines` grouped
/// by turn (the last two turns open); "»" before a line with a place centres the board on it.
pub fn log_column(
    ui: &mut egui::Ui,
    id: &'static str,
    tr: &Tr,
    lines: &[LogLine],
    links: &mut RuleLinks,
    looks: &mut MessageWriter<LookAt>,
) {
    ui.label(egui::RichText::new(tr.t("ui.log")).strong());
    ui.label(egui::RichText::new(tr.t("ui.log.hint")).small().weak());
    ui.separator();
    let mut look = None;
    egui::ScrollArea::vertical().stick_to_bottom(true).auto_shrink([false, false]).show(ui, |ui| {
        let turns = group_by_turn(lines);
        let last = turns.len();
        for (i, (turn, group)) in turns.into_iter().enumerate() {
            let title = turn.map_or_else(|| tr.t("ui.log.setup"), |t| tr.f("ui.log.turn", &[("turn", t.to_string())]));
            egui::CollapsingHeader::new(egui::RichText::new(title).strong())
                .id_salt((id, turn))
                .default_open(i + 2 >= last)
                .show(ui, |ui| {
                    for line in group {
                        if let Some(place) = show_line(ui, tr, line, links) {
                            look = Some(place);
                        }
                    }
                });
        }
    });
    if let Some((at, size)) = look {
        looks.write(LookAt { at, size });
    }
}

/// Lines in runs of one turn, in order.
pub fn group_by_turn(lines: &[LogLine]) -> Vec<(Option<u32>, Vec<&LogLine>)> {
    let mut groups: Vec<(Option<u32>, Vec<&LogLine>)> = Vec::new();
    for line in lines {
        match groups.last_mut() {
            Some((turn, group)) if *turn == line.turn => group.push(line),
            _ => groups.push((line.turn, vec![line])),
        }
    }
    groups
}

/// One line: "»" (when it has a place) and the text with its rule links, wrapped at words.
fn show_line(ui: &mut egui::Ui, tr: &Tr, line: &LogLine, links: &mut RuleLinks) -> Option<(Vec2, f32)> {
    let mut clicked = None;
    ui.horizontal_top(|ui| {
        let width = 22.0;
        match line.place {
            Some(place) => {
                if ui.add_sized([width, 18.0], egui::Button::new("»").frame(false)).clicked() {
                    clicked = Some(place);
                }
            }
            None => {
                ui.add_space(width + ui.spacing().item_spacing.x);
            }
        }
        ui.vertical(|ui| {
            ui.set_max_width(ui.available_width());
            let style = |t: &str| {
                let mut rich = egui::RichText::new(t);
                if let Some(c) = line.colour {
                    rich = rich.color(c);
                }
                if line.strong { rich.strong() } else { rich }
            };
            links.line(ui, &line.text, tr.lang, style);
        });
    });
    clicked
}

/// The place looked at: a frame around it on the board.
#[derive(Component)]
struct LookedAt;

/// Centres every board camera on the place and frames it (until the next look or the next
/// click on the board).
fn look_at(
    mut commands: Commands,
    mut asked: MessageReader<LookAt>,
    mut cameras: Query<(&mut Transform, &mut BoardView)>,
    marks: Query<Entity, With<LookedAt>>,
    mouse: Option<Res<ButtonInput<MouseButton>>>,
    busy: Res<super::EguiBusy>,
    screen: Res<State<crate::screens::Screen>>,
) {
    let clicked_board = mouse.is_some_and(|m| m.just_pressed(MouseButton::Left)) && !busy.pointer;
    let Some(look) = asked.read().last().copied() else {
        if clicked_board || screen.is_changed() {
            marks.iter().for_each(|e| commands.entity(e).despawn());
        }
        return;
    };
    marks.iter().for_each(|e| commands.entity(e).despawn());
    for (mut tf, mut view) in &mut cameras {
        tf.translation.x = look.at.x;
        tf.translation.y = look.at.y;
        view.fitted = false;
    }
    let colour = Color::srgb(1.0, 0.85, 0.2);
    let (s, t) = (look.size, (look.size * 0.08).max(2.0));
    let frame = [
        (Vec2::new(0.0, s / 2.0), Vec2::new(s + t, t)),
        (Vec2::new(0.0, -s / 2.0), Vec2::new(s + t, t)),
        (Vec2::new(s / 2.0, 0.0), Vec2::new(t, s + t)),
        (Vec2::new(-s / 2.0, 0.0), Vec2::new(t, s + t)),
    ];
    for (offset, size) in frame {
        commands.spawn((
            Name::new("Looked-at place"),
            LookedAt,
            Sprite::from_color(colour, size),
            Transform::from_translation((look.at + offset).extend(5.0)),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A click on an event's "»" asks for its place ([`LookAt`]): the board camera is centred on
    /// it (and no longer fitted to the field), the place is framed by four marks, and a click
    /// on the board takes the marks away.
    #[test]
    fn looking_at_an_events_place_centres_the_board_and_marks_it() {
        use bevy::state::app::StatesPlugin;
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin))
            .init_state::<crate::screens::Screen>()
            .init_resource::<super::super::EguiBusy>()
            .init_resource::<ButtonInput<MouseButton>>()
            .add_message::<LookAt>()
            .add_systems(Update, look_at);
        let camera = app.world_mut().spawn((Transform::default(), BoardView { fitted: true })).id();
        app.update();
        app.world_mut().write_message(LookAt { at: Vec2::new(320.0, -48.0), size: 32.0 });
        app.update();
        let tf = app.world().get::<Transform>(camera).expect("the camera");
        assert_eq!((tf.translation.x, tf.translation.y), (320.0, -48.0));
        assert!(!app.world().get::<BoardView>(camera).expect("the camera").fitted);
        let marks = |app: &mut App| app.world_mut().query_filtered::<(), With<LookedAt>>().iter(app.world()).count();
        assert_eq!(marks(&mut app), 4, "the place is framed");
        app.update();
        assert_eq!(marks(&mut app), 4, "the marks stay until the next click on the board");
        app.world_mut().resource_mut::<ButtonInput<MouseButton>>().press(MouseButton::Left);
        app.update();
        assert_eq!(marks(&mut app), 0);
    }

    fn line(turn: Option<u32>, text: &str) -> LogLine {
        LogLine { turn, text: text.into(), colour: None, strong: false, place: None }
    }

    /// The rows of a text laid out in the panels' font at a width.
    fn rows(text: &str, width: f32) -> Vec<String> {
        let ctx = egui::Context::default();
        ctx.set_fonts(crate::hud::fonts());
        ctx.run_ui(egui::RawInput::default(), |_| {}).textures_delta.clear();
        let galley = ctx
            .fonts_mut(|f| f.layout(text.to_string(), egui::FontId::proportional(14.0), egui::Color32::WHITE, width));
        galley.rows.iter().map(|r| r.glyphs.iter().map(|g| g.chr).collect()).collect()
    }

    /// A Russian line of the log wraps between words at the log's narrowest width (its text
    /// column: the width less the panel's margins and the "»" column); in the old 90-pixel
    /// column its long words were cut.
    #[test]
    fn russian_log_lines_wrap_between_words() {
        let text = "Батарея де резерв выставлена автоматически в (8, 12), фронтом на север; \
                    Гренадеры второго полка контратакуют (T-FIRE-11)";
        let column = LOG_MIN_WIDTH - 16.0 - 30.0;
        let wide = rows(text, column);
        assert!(wide.len() > 1, "{wide:?}");
        for row in &wide[..wide.len() - 1] {
            assert!(row.ends_with(' '), "a row ends inside a word: {row:?} of {wide:?}");
        }
        let narrow = rows(text, 90.0);
        assert!(narrow[..narrow.len() - 1].iter().any(|r| !r.ends_with(' ')), "{narrow:?}");
    }

    /// The set-up, then each turn, in the order they came; a turn's lines stay together.
    #[test]
    fn events_are_grouped_by_turn() {
        let lines = [line(None, "a"), line(Some(1), "b"), line(Some(1), "c"), line(Some(2), "d")];
        let groups: Vec<(Option<u32>, Vec<&str>)> = group_by_turn(&lines)
            .into_iter()
            .map(|(t, g)| (t, g.into_iter().map(|l| l.text.as_str()).collect()))
            .collect();
        assert_eq!(groups, vec![(None, vec!["a"]), (Some(1), vec!["b", "c"]), (Some(2), vec!["d"])]);
    }
}
