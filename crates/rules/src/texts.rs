//! String tables: every word the engine shows a person (events, previews, terms of sums) comes
//! from a table keyed like `"event.moved"`, so the game can speak Russian as well as English.
//! The English table is compiled in; `umpire` uses it.

use crate::data::{DataError, parse_ron};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

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

    /// The English table, parsed once: the engine's own words (`Display` of events and refusals,
    /// `umpire`'s output) are rendered with it.
    pub fn english_ref() -> &'static Texts {
        static TABLE: OnceLock<Texts> = OnceLock::new();
        TABLE.get_or_init(Texts::english)
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

    /// A message in this language: its key's text with every `{name}` filled from its
    /// arguments, in one pass (a value that itself holds braces is never filled again).
    pub fn render(&self, msg: &Msg) -> String {
        self.render_in(msg, None)
    }

    /// A message in this language with its hexes named by their places (`places`: a town, near
    /// one, …), as a reader who knows the map reads them; a hex it cannot name keeps `(c, r)`.
    pub fn render_placed(&self, msg: &Msg, places: PlaceNamer) -> String {
        self.render_in(msg, Some(places))
    }

    fn render_in(&self, msg: &Msg, places: Option<PlaceNamer>) -> String {
        let template = self.get(&msg.key);
        let mut out = String::with_capacity(template.len() + 16);
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let close = after.find('}');
            let arg = close.and_then(|c| msg.args.iter().find(|(n, _)| n.as_ref() == &after[..c]));
            match (close, arg) {
                (Some(c), Some((_, value))) => {
                    self.render_arg(value, places, &mut out);
                    rest = &after[c + 1..];
                }
                _ => {
                    out.push('{');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }

    fn render_arg(&self, arg: &Arg, places: Option<PlaceNamer>, out: &mut String) {
        match arg {
            Arg::Hex(c, r) => match places.and_then(|p| p(*c, *r)) {
                Some(place) => out.push_str(&self.render_in(&place, None)),
                None => out.push_str(&format!("({c}, {r})")),
            },
            Arg::Text(t) => out.push_str(t),
            Arg::Name { key, text } => out.push_str(self.0.get(key).unwrap_or(text)),
            Arg::Local { text, ru } => {
                out.push_str(if self.get(LANG) == "ru" && !ru.is_empty() { ru } else { text });
            }
            Arg::Msg(m) => out.push_str(&self.render_in(m, places)),
            Arg::List(items, sep) => {
                for (i, m) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(sep);
                    }
                    out.push_str(&self.render_in(m, places));
                }
            }
        }
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.keys().map(String::as_str)
    }

    pub fn contains(&self, key: &str) -> bool {
        self.0.contains_key(key)
    }
}

/// A line for a person, kept as a key of the string tables and its values, so that each screen
/// shows it in its own language ([`Texts::render`]). `Display` gives the English.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Msg {
    pub key: Cow<'static, str>,
    pub args: Vec<(Cow<'static, str>, Arg)>,
}

/// One value of a message.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Arg {
    /// Shown as it is: a number, a hex, a name from the data files.
    Text(String),
    /// Words of the tables, rendered in the same language.
    Msg(Msg),
    /// Messages joined by a separator.
    List(Vec<Msg>, Cow<'static, str>),
    /// A name from the data files that the tables may translate under `key` (a power's
    /// `gw.power.ID`); shown as `text` where they do not.
    Name { key: String, text: String },
    /// A name from the data files with its Russian, where the data gives one (a province's or
    /// a sea area's `name_ru`): the Russian table shows `ru`, the others `text`.
    Local { text: String, ru: String },
    /// A hex of the map (column, row): shown as `(column, row)`, or by the place it lies at or
    /// near where the reader knows the map ([`Texts::render_placed`]).
    Hex(i32, i32),
}

/// Names a hex by its place on the map (a town, "near" one, a province), where it can.
pub type PlaceNamer<'a> = &'a dyn Fn(i32, i32) -> Option<Msg>;

/// The key of text that is shown as it is (names and other words that come from data files).
pub const PLAIN: &str = "text.plain";
/// The key of the table's language code (`en`, `ru`).
pub const LANG: &str = "lang";
/// The key of a lone name that the tables may translate ([`Msg::named`]).
pub const NAME: &str = "text.name";

impl Msg {
    pub fn new(key: &'static str) -> Msg {
        Msg { key: Cow::Borrowed(key), args: Vec::new() }
    }

    /// Text shown as it is in every language: a name or other words from the data files.
    pub fn plain(text: impl Into<String>) -> Msg {
        Msg::new(PLAIN).arg("text", text.into())
    }

    /// A name from the data files alone, translated where the tables know `key`.
    pub fn named(key: String, text: impl Into<String>) -> Msg {
        Msg::new(NAME).name("name", key, text)
    }

    /// Adds a value shown as it is (numbers, hexes, names).
    pub fn arg(mut self, name: &'static str, value: impl fmt::Display) -> Msg {
        self.args.push((Cow::Borrowed(name), Arg::Text(value.to_string())));
        self
    }

    /// Adds a name from the data files that the tables may translate under `key`.
    pub fn name(mut self, name: &'static str, key: String, text: impl Into<String>) -> Msg {
        self.args.push((Cow::Borrowed(name), Arg::Name { key, text: text.into() }));
        self
    }

    /// Adds a name from the data files and its Russian (empty where the data gives none).
    pub fn local(mut self, name: &'static str, text: impl Into<String>, ru: impl Into<String>) -> Msg {
        self.args.push((Cow::Borrowed(name), Arg::Local { text: text.into(), ru: ru.into() }));
        self
    }

    /// Adds a hex of the map: `(column, row)`, or its place for a reader who knows the map.
    pub fn hex(mut self, name: &'static str, at: impl Into<(i32, i32)>) -> Msg {
        let (c, r) = at.into();
        self.args.push((Cow::Borrowed(name), Arg::Hex(c, r)));
        self
    }

    /// Adds a value that is itself words of the tables.
    pub fn msg(mut self, name: &'static str, value: Msg) -> Msg {
        self.args.push((Cow::Borrowed(name), Arg::Msg(value)));
        self
    }

    /// Adds messages joined by `sep`.
    pub fn list(mut self, name: &'static str, items: Vec<Msg>, sep: &'static str) -> Msg {
        self.args.push((Cow::Borrowed(name), Arg::List(items, Cow::Borrowed(sep))));
        self
    }

    /// The English text.
    pub fn english(&self) -> String {
        Texts::english_ref().render(self)
    }

    /// Whether this message, or one inside it, is plain text rather than words of the tables.
    pub fn has_plain(&self) -> bool {
        self.key == PLAIN
            || self.args.iter().any(|(_, a)| match a {
                Arg::Text(_) | Arg::Name { .. } | Arg::Local { .. } | Arg::Hex(..) => false,
                Arg::Msg(m) => m.has_plain(),
                Arg::List(items, _) => items.iter().any(Msg::has_plain),
            })
    }
}

impl fmt::Display for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.english())
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

    #[test]
    fn a_message_renders_in_each_language_with_its_values_filled_once() {
        let mut en = Texts::default();
        en.0.insert("a".into(), "{who} has {n} {what}; {gone} stays".into());
        en.0.insert("b".into(), "guns".into());
        en.0.insert("c".into(), "{x} and {x}".into());
        let mut ru = Texts::default();
        ru.0.insert("a".into(), "у {who} {n} {what}".into());
        ru.0.insert("b".into(), "орудий".into());
        let m = Msg::new("a").arg("who", "{n}").arg("n", 3).msg("what", Msg::new("b"));
        assert_eq!(en.render(&m), "{n} has 3 guns; {gone} stays");
        assert_eq!(ru.render(&m), "у {n} 3 орудий");
        let l = Msg::new("c").list("x", vec![Msg::plain("A"), Msg::plain("B")], ", ");
        en.0.insert(PLAIN.into(), "{text}".into());
        assert_eq!(en.render(&l), "A, B and A, B");
        assert!(l.has_plain() && !m.has_plain());
        assert_eq!(en.render(&Msg::new("missing")), "missing");
        ru.0.insert("gw.power.x".into(), "Икс".into());
        let named = Msg::new("b2").name("p", "gw.power.x".into(), "Ex");
        ru.0.insert("b2".into(), "{p}!".into());
        en.0.insert("b2".into(), "{p}!".into());
        assert_eq!((ru.render(&named), en.render(&named)), ("Икс!".to_string(), "Ex!".to_string()));
        ru.0.insert(LANG.into(), "ru".into());
        let place = Msg::new("b2").local("p", "Flanders", "Фландрия");
        let unnamed = Msg::new("b2").local("p", "Flanders", "");
        assert_eq!((ru.render(&place), en.render(&place)), ("Фландрия!".to_string(), "Flanders!".to_string()));
        assert_eq!(ru.render(&unnamed), "Flanders!", "no Russian in the data: the name as it is");
        // A hex: its coordinates, or its place where the reader knows the map.
        let at = Msg::new("b2").hex("p", (3, 4));
        en.0.insert("near".into(), "near {town}".into());
        let liege = |c: i32, r: i32| (c == 3 && r == 4).then(|| Msg::new("near").local("town", "Liège", "Льеж"));
        assert_eq!(en.render(&at), "(3, 4)!");
        assert_eq!(en.render_placed(&at, &liege), "near Liège!");
        let elsewhere = Msg::new("b2").hex("p", (5, 4));
        assert_eq!(en.render_placed(&elsewhere, &liege), "(5, 4)!", "a hex with no place keeps its coordinates");
    }
}
