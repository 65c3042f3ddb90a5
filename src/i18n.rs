//! The language of the interface. Every word on screen comes from the string tables in
//! `assets/i18n/` (shared with the engine's event log); Russian is a first-class language.

use bevy::prelude::*;
use rules::texts::{Msg, Texts};
use serde::{Deserialize, Serialize};

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(Tr::new(Lang::default()));
}

/// A language of the interface.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    #[default]
    English,
    Russian,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::English, Lang::Russian];

    /// The language's own name for itself.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::English => "English",
            Lang::Russian => "Русский",
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::English => "en",
            Lang::Russian => "ru",
        }
    }

    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code().eq_ignore_ascii_case(code))
    }
}

/// The current string table.
#[derive(Resource, Clone, Debug)]
pub struct Tr {
    pub lang: Lang,
    pub texts: Texts,
}

impl Tr {
    pub fn new(lang: Lang) -> Tr {
        let texts = match lang {
            Lang::English => Texts::english(),
            Lang::Russian => Texts::russian(),
        };
        Tr { lang, texts }
    }

    /// The text of a key.
    pub fn t(&self, key: &str) -> String {
        self.texts.get(key).to_string()
    }

    /// The text of a key with `{name}` placeholders filled in.
    pub fn f(&self, key: &str, args: &[(&str, String)]) -> String {
        self.texts.fill(key, args)
    }

    /// A message of the engine or the interface, in this language.
    pub fn msg(&self, msg: &Msg) -> String {
        self.texts.render(msg)
    }

    pub fn russian(&self) -> bool {
        self.lang == Lang::Russian
    }
}
