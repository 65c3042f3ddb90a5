//! The set-up screen's choices, headless: the war and scenario, who plays ("play as" one side,
//! one power or one alliance with every other seat the AI at one level; or seat by seat), the
//! seed, and the start. The screen (`hud::menus::setup`) sends a [`SetupClick`] for each of its
//! buttons, so two clicks from a scenario's page — "play as", "start" — start a game here, and a
//! test makes the same clicks. The chosen scenario's page ([`crate::catalog::ScenarioPage`]) is
//! read once per scenario and language ([`ScenarioPages`]).

use crate::catalog::{Catalog, CatalogEntry, CatalogSources, Chosen, ScenarioHeader, ScenarioPage};
use crate::i18n::{Lang, Tr};
use crate::saves::Seat;
use crate::screens::{Mode, Screen};
use ai::Level;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SetupForm>().init_resource::<ScenarioPages>().add_message::<SetupClick>().add_systems(
        Update,
        (follow_clicks, read_page).chain().in_set(crate::AppSystems::Logic).run_if(in_state(Screen::Setup)),
    );
}

/// Who the person at the screen plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayAs {
    /// One player of the scenario (a battle's side, a power), by seat.
    Player(usize),
    /// Every power of an alliance (the Great War).
    Alliance(u8),
    /// Each seat as chosen one by one ("seats…").
    Seats,
}

/// What the set-up screen has chosen.
#[derive(Resource, Debug, Clone)]
pub struct SetupForm {
    /// The war the set-up screen offers (the title screen has one button per war).
    pub mode: Mode,
    /// The chosen scenario, an index of the [`Catalog`].
    pub scenario: usize,
    pub play_as: PlayAs,
    /// The level of every AI seat "play as" fills.
    pub level: Level,
    /// One seat per player of the chosen scenario.
    pub seats: Vec<Seat>,
    pub seed: String,
}

impl Default for SetupForm {
    fn default() -> Self {
        SetupForm {
            mode: Mode::Battle,
            scenario: usize::MAX,
            play_as: PlayAs::Player(0),
            level: Level::Veteran,
            seats: vec![Seat::Human, Seat::Ai(Level::Veteran)],
            seed: "1".to_string(),
        }
    }
}

/// A button of the set-up screen.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub enum SetupClick {
    /// A scenario of the list (a [`Catalog`] index).
    Scenario(usize),
    PlayAs(PlayAs),
    /// The level of the AI on the other seats.
    Level(Level),
    /// One seat's choice (under "seats…"): the form plays seat by seat from then on.
    Seat(usize, Seat),
    Start,
    Back,
}

impl SetupForm {
    /// Offers the scenarios of one war.
    pub fn choose_war(&mut self, mode: Mode) {
        if self.mode != mode {
            self.mode = mode;
            self.scenario = usize::MAX;
        }
    }

    /// The chosen scenario, if it is one of the war in hand (else the war's first).
    pub fn entry<'a>(&mut self, catalog: &'a Catalog) -> Option<&'a CatalogEntry> {
        if catalog.entries.get(self.scenario).is_none_or(|e| e.mode != self.mode) {
            self.scenario = catalog.entries.iter().position(|e| e.mode == self.mode).unwrap_or(usize::MAX);
            self.play_as = PlayAs::Player(0);
        }
        let entry = catalog.entries.get(self.scenario)?;
        self.fill_seats(&entry.header);
        Some(entry)
    }

    /// The seats "play as" gives: the person on the chosen player or alliance, the AI at the
    /// form's level on every other seat; seat by seat, the seats as chosen.
    pub fn fill_seats(&mut self, header: &ScenarioHeader) {
        let n = header.players.len();
        self.seats.resize(n, Seat::Ai(self.level));
        let human = |i: usize| match self.play_as {
            PlayAs::Player(p) => Some(i == p),
            PlayAs::Alliance(a) => Some(header.players.get(i).and_then(|p| p.alliance) == Some(a)),
            PlayAs::Seats => None,
        };
        for i in 0..n {
            if let Some(h) = human(i) {
                self.seats[i] = if h { Seat::Human } else { Seat::Ai(self.level) };
            }
        }
    }

    /// What "play as" offers for a scenario: each player, then each alliance of more than one
    /// power.
    pub fn choices(header: &ScenarioHeader) -> Vec<PlayAs> {
        let mut choices: Vec<PlayAs> = (0..header.players.len()).map(PlayAs::Player).collect();
        for a in [1u8, 0] {
            if header.players.iter().filter(|p| p.alliance == Some(a)).count() > 1 {
                choices.push(PlayAs::Alliance(a));
            }
        }
        choices
    }

    /// The game the form describes, for the loading screen.
    pub fn chosen(&self, entry: &CatalogEntry) -> Chosen {
        Chosen {
            mode: entry.mode,
            path: entry.path.clone(),
            seed: self.seed.trim().parse().unwrap_or(1),
            seats: self.seats.clone(),
            seat_names: Vec::new(),
        }
    }
}

fn follow_clicks(
    mut clicks: MessageReader<SetupClick>,
    mut form: ResMut<SetupForm>,
    catalog: Res<Catalog>,
    mut screen: ResMut<NextState<Screen>>,
    mut commands: Commands,
) {
    for click in clicks.read() {
        match click {
            SetupClick::Scenario(i) => {
                if catalog.entries.get(*i).is_some_and(|e| e.mode == form.mode) && form.scenario != *i {
                    form.scenario = *i;
                    form.play_as = PlayAs::Player(0);
                }
            }
            SetupClick::PlayAs(p) => form.play_as = *p,
            SetupClick::Level(l) => form.level = *l,
            SetupClick::Seat(i, seat) => {
                form.play_as = PlayAs::Seats;
                if let Some(s) = form.seats.get_mut(*i) {
                    *s = *seat;
                }
            }
            SetupClick::Start => {
                if let Some(entry) = form.entry(&catalog) {
                    commands.insert_resource(form.chosen(entry));
                    commands.insert_resource(OnePerson(matches!(form.play_as, PlayAs::Alliance(_))));
                    screen.set(Screen::Loading);
                }
            }
            SetupClick::Back => screen.set(Screen::Title),
        }
        if let Some(entry) = form.entry(&catalog).cloned() {
            form.fill_seats(&entry.header);
        }
    }
}

/// The game started from the set-up screen is one person's on every human seat (played as an
/// alliance): the session hands the screen over between none of them.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct OnePerson(pub bool);

/// The pages read so far, by scenario path and language (or why one cannot be read).
#[derive(Resource, Default)]
pub struct ScenarioPages(pub Vec<((String, Lang), Result<ScenarioPage, String>)>);

impl ScenarioPages {
    pub fn get(&self, path: &str, lang: Lang) -> Option<&Result<ScenarioPage, String>> {
        self.0.iter().find(|((p, l), _)| p == path && *l == lang).map(|(_, page)| page)
    }
}

/// UI limit: scenario pages kept (a page holds a thumbnail of at most 240 × 240 pixels).
const PAGES_KEPT: usize = 16;

/// Reads the chosen scenario's page once, in the reader's language.
fn read_page(
    mut form: ResMut<SetupForm>,
    catalog: Res<Catalog>,
    sources: Res<CatalogSources>,
    tr: Res<Tr>,
    mut pages: ResMut<ScenarioPages>,
) {
    let Some(entry) = form.entry(&catalog) else { return };
    if pages.get(&entry.path, tr.lang).is_some() {
        return;
    }
    let page = Catalog::page(&sources, entry.mode, &entry.path, &tr);
    if pages.0.len() >= PAGES_KEPT {
        pages.0.rotate_left(1);
        pages.0.pop();
    }
    pages.0.push(((entry.path.clone(), tr.lang), page));
}
