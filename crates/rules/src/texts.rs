//! String tables: every word the engine shows a person (events, previews, terms of sums) comes
//! from a table keyed like `"event.moved"`, so the game can speak Russian as well as English.
//! The English table is compiled in; `umpire` uses it.

use crate::data::{DataError, parse_ron};
use std::collections::BTreeMap;

/// A language's string table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Texts(BTreeMap<String, String>);

/// The shipped tables, compiled in (the browser build has no files).
pub const ENGLISH: &str = include_str!("../../../assets/i18n/en.ron");
pub const RUSSIAN: &str = include_str!("../../../assets/i18n/ru.ron");

impl Texts {
    pub fn parse(path: &str, text: &str) -> Result<Texts, DataError> {
        parse_ron(path, text).map(Texts)
    }

    /// The English table.
    pub fn english() -> Texts {
        Texts::parse("assets/i18n/en.ron", ENGLISH).expect("the compiled-in en.ron is checked by the tests")
    }

    /// The Russian table.
    pub fn russian() -> Texts {
        Texts::parse("assets/i18n/ru.ron", RUSSIAN).expect("the compiled-in ru.ron is checked by the tests")
    }

    /// The text of a key; a missing key shows as itself, so a gap is visible, never a crash.
    pub fn get<'a>(&'a self, key: &'a str) -> &'a str {
        self.0.get(key).map_or(key, String::as_str)
    }

    /// The text of a key with `{name}` placeholders filled in.
    pub fn fill(&self, key: &str, args: &[(&str, String)]) -> String {
        let mut out = self.get(key).to_string();
        for (name, value) in args {
            out = out.replace(&format!("{{{name}}}"), value);
        }
        out
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(String::as_str)
    }

    pub fn contains(&self, key: &str) -> bool {
        self.0.contains_key(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_tables_parse_and_have_the_same_keys() {
        let en = Texts::english();
        let ru = Texts::russian();
        let missing: Vec<&str> = en.keys().filter(|k| !ru.contains(k)).collect();
        let extra: Vec<&str> = ru.keys().filter(|k| !en.contains(k)).collect();
        assert!(missing.is_empty() && extra.is_empty(), "missing in ru: {missing:?}, only in ru: {extra:?}");
        assert_eq!(
            en.fill("event.turn_begins", &[("turn", "3".into()), ("round", "2".into()), ("side", "red".into())]),
            "Turn 3 (round 2): red moves"
        );
        assert_eq!(en.get("no.such.key"), "no.such.key");
    }
}
