//! The rules reference for players and modders: every rule ID in the project's own words, in
//! English and Russian, with its numbers read from the data files and every house resolution
//! marked as such.
//!
//! The reference files (`assets/rules/{tactical,strategic}.{en,ru}.ron`) hold `{FILE.path}`
//! placeholders that name a value of a data file under `assets/data/` (`FILE` is its stem, `path`
//! a dotted path: struct fields and map keys by name, sequence and tuple elements by 0-based
//! index). They are resolved when the reference is built, so a changed data file changes the
//! reference. Everything is compiled in: the browser build has no files.
//!
//! ```
//! use rules::reference::{Lang, Reference, citations};
//! let reference = Reference::builtin().expect("the shipped reference resolves");
//! let cited = citations("hits on 4–6 (S-COMBAT-1/3)");
//! assert_eq!(cited.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["S-COMBAT-1", "S-COMBAT-3"]);
//! assert!(reference.entries(Lang::En).count() > 0);
//! ```

use crate::data::{DataError, parse_ron, place};
use crate::path;
use crate::texts::Texts;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::ops::Range;

/// The four shipped reference files, compiled in: (path, text).
pub const REFERENCE_FILES: [(&str, &str); 4] = [
    ("assets/rules/tactical.en.ron", include_str!("../../../assets/rules/tactical.en.ron")),
    ("assets/rules/tactical.ru.ron", include_str!("../../../assets/rules/tactical.ru.ron")),
    ("assets/rules/strategic.en.ron", include_str!("../../../assets/rules/strategic.en.ron")),
    ("assets/rules/strategic.ru.ron", include_str!("../../../assets/rules/strategic.ru.ron")),
];

/// The data files a placeholder may name, compiled in: (stem, path, text).
pub const DATA_FILES: [(&str, &str, &str); 6] = [
    ("napoleonic_rules", "assets/data/napoleonic_rules.ron", include_str!("../../../assets/data/napoleonic_rules.ron")),
    ("campaign_rules", "assets/data/campaign_rules.ron", include_str!("../../../assets/data/campaign_rules.ron")),
    ("napoleonic_units", "assets/data/napoleonic_units.ron", include_str!("../../../assets/data/napoleonic_units.ron")),
    ("great_war_rules", "assets/data/great_war_rules.ron", include_str!("../../../assets/data/great_war_rules.ron")),
    ("great_war_units", "assets/data/great_war_units.ron", include_str!("../../../assets/data/great_war_units.ron")),
    (
        "great_war_aviation",
        "assets/data/great_war_aviation.ron",
        include_str!("../../../assets/data/great_war_aviation.ron"),
    ),
];

/// The language of a reference file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    En,
    Ru,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ru];

    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ru => "ru",
        }
    }

    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code().eq_ignore_ascii_case(code))
    }

    /// The engine's string table of this language (labels of the reference).
    pub fn texts(self) -> Texts {
        match self {
            Lang::En => Texts::english(),
            Lang::Ru => Texts::russian(),
        }
    }
}

/// Which war a reference file describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The Napoleonic battle (rule IDs `T-…`).
    Tactical,
    /// The Great War (rule IDs `S-…`).
    Strategic,
}

impl Mode {
    pub const ALL: [Mode; 2] = [Mode::Tactical, Mode::Strategic];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Tactical => "tactical",
            Mode::Strategic => "strategic",
        }
    }

    pub fn from_name(name: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The first letter of its rule IDs.
    pub fn prefix(self) -> char {
        match self {
            Mode::Tactical => 'T',
            Mode::Strategic => 'S',
        }
    }

    /// The mode a rule ID belongs to.
    pub fn of_id(id: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| id.starts_with(m.prefix()) && id[1..].starts_with('-'))
    }
}

/// A reference file as written (the schema; unknown fields are refused).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "RulesReference")]
struct RulesFile {
    mode: String,
    language: String,
    entries: Vec<RawEntry>,
}

/// One rule as written in a reference file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    id: String,
    area: String,
    title: String,
    text: String,
    resolution: Option<String>,
    house: bool,
    sources: Vec<String>,
    see: Vec<String>,
}

/// A number or text taken from a data file into an entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DataValue {
    /// The placeholder without braces, e.g. `napoleonic_rules.hq_distance`.
    pub path: String,
    /// The data file it comes from, e.g. `assets/data/napoleonic_rules.ron`.
    pub file: String,
    /// The value as shown.
    pub value: String,
}

/// One rule of the reference, with its placeholders resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    pub id: String,
    pub mode: Mode,
    pub lang: Lang,
    /// The section heading (in the entry's language).
    pub area: String,
    pub title: String,
    /// The rule as the game applies it, with the numbers of the data files.
    pub text: String,
    /// How the engine settles what the source leaves open or to the moderator.
    pub resolution: Option<String>,
    /// The rule itself is a house rule, in no source.
    pub house: bool,
    /// Source tags (`001` for [001]).
    pub sources: Vec<String>,
    /// Related rule IDs.
    pub see: Vec<String>,
    /// Every data-file value the entry shows, in order of first use.
    pub values: Vec<DataValue>,
}

/// The entries of one reference file (one mode, one language), in the digest's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    pub mode: Mode,
    pub lang: Lang,
    pub path: String,
    pub entries: Vec<Entry>,
}

impl Book {
    /// The areas in order, each with its entries.
    pub fn areas(&self) -> Vec<(&str, Vec<&Entry>)> {
        let mut out: Vec<(&str, Vec<&Entry>)> = Vec::new();
        for e in &self.entries {
            match out.last_mut() {
                Some((area, list)) if *area == e.area => list.push(e),
                _ => out.push((&e.area, vec![e])),
            }
        }
        out
    }
}

/// The parsed data files that placeholders name.
#[derive(Clone, Debug, Default)]
pub struct DataFiles {
    files: BTreeMap<String, (String, ron::Value)>,
}

impl DataFiles {
    /// The shipped data files.
    pub fn builtin() -> Result<DataFiles, DataError> {
        DataFiles::parse(DATA_FILES.iter().map(|(stem, path, text)| (*stem, *path, *text)))
    }

    /// Data files from (stem, path, text).
    pub fn parse<'a>(files: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>) -> Result<DataFiles, DataError> {
        let mut out = DataFiles::default();
        for (stem, path, text) in files {
            let value: ron::Value = parse_ron(path, text)?;
            out.files.insert(stem.to_string(), (path.to_string(), value));
        }
        Ok(out)
    }

    /// The value at `FILE.path`, shown as text; or why there is none.
    pub fn lookup(&self, placeholder: &str) -> Result<DataValue, String> {
        let mut parts = placeholder.split('.');
        let stem = parts.next().unwrap_or_default();
        let Some((file, root)) = self.files.get(stem) else {
            let known: Vec<&str> = self.files.keys().map(String::as_str).collect();
            return Err(format!("`{stem}` is not a data file (known: {})", known.join(", ")));
        };
        let mut value = root;
        let mut walked = stem.to_string();
        for part in parts {
            value = step(value, part).ok_or_else(|| format!("{file} has no `{part}` in `{walked}`"))?;
            walked = format!("{walked}.{part}");
        }
        let shown = show(value).ok_or_else(|| {
            format!("`{placeholder}` in {file} is not a number or a text (a placeholder must name one value)")
        })?;
        Ok(DataValue { path: placeholder.to_string(), file: file.clone(), value: shown })
    }
}

fn step<'v>(value: &'v ron::Value, part: &str) -> Option<&'v ron::Value> {
    match value {
        ron::Value::Option(Some(inner)) => step(inner, part),
        ron::Value::Map(map) => map.get(&ron::Value::String(part.to_string())),
        ron::Value::Seq(items) => part.parse::<usize>().ok().and_then(|i| items.get(i)),
        _ => None,
    }
}

fn show(value: &ron::Value) -> Option<String> {
    match value {
        ron::Value::Option(Some(inner)) => show(inner),
        ron::Value::Number(n) => ron::to_string(&ron::Value::Number(*n)).ok(),
        ron::Value::String(s) => Some(s.clone()),
        ron::Value::Char(c) => Some(c.to_string()),
        _ => None,
    }
}

/// The whole reference: every book of both modes and both languages.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reference {
    books: Vec<Book>,
}

impl Reference {
    /// The shipped reference, resolved against the shipped data files.
    pub fn builtin() -> Result<Reference, DataError> {
        Reference::parse(&DataFiles::builtin()?, REFERENCE_FILES.iter().map(|(path, text)| (*path, *text)))
    }

    /// Parses reference files (path, text) and resolves them against `data`; checks that every
    /// "see" names an entry of the same language.
    pub fn parse<'a>(
        data: &DataFiles,
        files: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Reference, DataError> {
        let mut books = Vec::new();
        let mut texts = Vec::new();
        for (path, text) in files {
            books.push(parse_book(data, path, text)?);
            texts.push(text);
        }
        let reference = Reference { books };
        for (book, text) in reference.books.iter().zip(texts) {
            for (i, e) in book.entries.iter().enumerate() {
                for (j, see) in e.see.iter().enumerate() {
                    if reference.get(see, book.lang).is_none() {
                        let pos = place(text, &path!["entries", i, "see", j]);
                        return Err(DataError::at(
                            &book.path,
                            pos,
                            format!(
                                "{}: \"see\" names {see}, which has no entry in the {} reference",
                                e.id,
                                book.lang.code()
                            ),
                        ));
                    }
                }
            }
        }
        Ok(reference)
    }

    pub fn books(&self) -> &[Book] {
        &self.books
    }

    pub fn book(&self, mode: Mode, lang: Lang) -> Option<&Book> {
        self.books.iter().find(|b| b.mode == mode && b.lang == lang)
    }

    /// The entry of a rule ID in a language (IDs are matched ignoring ASCII case).
    pub fn get(&self, id: &str, lang: Lang) -> Option<&Entry> {
        let mode = Mode::of_id(&id.to_ascii_uppercase())?;
        self.book(mode, lang)?.entries.iter().find(|e| e.id.eq_ignore_ascii_case(id))
    }

    /// Every entry of a language: the battle's, then the Great War's.
    pub fn entries(&self, lang: Lang) -> impl Iterator<Item = &Entry> {
        Mode::ALL.into_iter().filter_map(move |m| self.book(m, lang)).flat_map(|b| b.entries.iter())
    }

    /// The entries of a language whose ID, area, title, text or resolution contain every word of
    /// `query` (ignoring case), in reference order.
    pub fn search(&self, query: &str, lang: Lang) -> Vec<&Entry> {
        let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
        self.entries(lang)
            .filter(|e| {
                let hay = format!(
                    "{} {} {} {} {}",
                    e.id,
                    e.area,
                    e.title,
                    e.text,
                    e.resolution.as_deref().unwrap_or_default()
                )
                .to_lowercase();
                words.iter().all(|w| hay.contains(w.as_str()))
            })
            .collect()
    }

    /// The whole reference of a language as Markdown (`docs/rules-reference.{en,ru}.md`).
    pub fn to_markdown(&self, lang: Lang) -> String {
        let texts = lang.texts();
        let mut out = format!("# {}\n\n", texts.get("rules.heading"));
        out.push_str(&texts.fill("rules.generated", &[("lang", lang.code().to_string())]));
        out.push_str("\n\n");
        for mode in Mode::ALL {
            let Some(book) = self.book(mode, lang) else { continue };
            out.push_str(&format!("## {}\n\n", texts.get(&format!("rules.mode.{}", mode.name()))));
            for (area, entries) in book.areas() {
                out.push_str(&format!("### {area}\n\n"));
                for e in entries {
                    e.push_markdown(&texts, &mut out);
                }
            }
        }
        while out.ends_with("\n\n") {
            out.pop();
        }
        out
    }
}

impl Entry {
    /// The entry as plain text, labelled in its own language.
    pub fn render(&self, texts: &Texts) -> String {
        let mut out = format!("{} — {}", self.id, self.title);
        if self.house {
            out.push_str(&format!(" [{}]", texts.get("rules.house_rule")));
        }
        out.push('\n');
        out.push_str(&format!("{} · {}\n\n", texts.get(&format!("rules.mode.{}", self.mode.name())), self.area));
        out.push_str(&self.text);
        out.push('\n');
        if let Some(r) = &self.resolution {
            out.push_str(&format!("\n{}: {r}\n", texts.get("rules.house_resolution")));
        }
        out.push('\n');
        out.push_str(&format!("{}: {}\n", texts.get("rules.sources"), self.sources_text(texts)));
        if !self.see.is_empty() {
            out.push_str(&format!("{}: {}\n", texts.get("rules.see_also"), self.see.join(", ")));
        }
        if !self.values.is_empty() {
            out.push_str(&format!("{}:\n", texts.get("rules.numbers")));
            for v in &self.values {
                out.push_str(&format!("  {} = {} ({})\n", v.path, v.value, v.file));
            }
        }
        out
    }

    /// "[000], [004]", or "house rule" when the entry has no source.
    pub fn sources_text(&self, texts: &Texts) -> String {
        if self.sources.is_empty() {
            texts.get("rules.no_source").to_string()
        } else {
            self.sources.iter().map(|s| format!("[{s}]")).collect::<Vec<_>>().join(", ")
        }
    }

    fn push_markdown(&self, texts: &Texts, out: &mut String) {
        out.push_str(&format!("<a id=\"{}\"></a>\n\n#### {} — {}", self.id, self.id, markdown_escape(&self.title)));
        if self.house {
            out.push_str(&format!(" *({})*", texts.get("rules.house_rule")));
        }
        out.push_str("\n\n");
        out.push_str(&markdown_escape(&self.text));
        out.push_str("\n\n");
        if let Some(r) = &self.resolution {
            out.push_str(&format!("**{}:** {}\n\n", texts.get("rules.house_resolution"), markdown_escape(r)));
        }
        let mut facts =
            vec![format!("{}: {}", texts.get("rules.sources"), self.sources_text(texts).replace('[', "\\["))];
        if !self.see.is_empty() {
            let links: Vec<String> = self.see.iter().map(|id| format!("[{id}](#{id})")).collect();
            facts.push(format!("{}: {}", texts.get("rules.see_also"), links.join(", ")));
        }
        if !self.values.is_empty() {
            let values: Vec<String> = self.values.iter().map(|v| format!("`{}` = {}", v.path, v.value)).collect();
            facts.push(format!("{}: {}", texts.get("rules.numbers"), values.join(", ")));
        }
        out.push_str(&facts.join(" · "));
        out.push_str("\n\n");
    }
}

/// Escapes the characters that Markdown would read as markup in running text.
fn markdown_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '*' | '_' | '`' | '[' | ']' | '<' | '>' | '#' | '|' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn parse_book(data: &DataFiles, path: &str, text: &str) -> Result<Book, DataError> {
    let file: RulesFile = parse_ron(path, text)?;
    let mode = Mode::from_name(&file.mode).ok_or_else(|| {
        DataError::at(
            path,
            place(text, &path!["mode"]),
            format!("mode \"{}\": expected \"tactical\" or \"strategic\"", file.mode),
        )
    })?;
    let lang = Lang::from_code(&file.language).filter(|l| l.code() == file.language).ok_or_else(|| {
        DataError::at(
            path,
            place(text, &path!["language"]),
            format!("language \"{}\": expected \"en\" or \"ru\"", file.language),
        )
    })?;
    let mut seen = BTreeSet::new();
    let mut entries = Vec::with_capacity(file.entries.len());
    for (i, raw) in file.entries.into_iter().enumerate() {
        // Where the entry is, looked up only for an error.
        let here = || place(text, &path!["entries", i, "id"]);
        let fail = |message: String| DataError::at(path, here(), format!("{}: {message}", raw.id));
        if !is_rule_id(&raw.id) || Mode::of_id(&raw.id) != Some(mode) {
            return Err(fail(format!("not a {} rule ID (expected {}-AREA-n)", mode.name(), mode.prefix())));
        }
        if !seen.insert(raw.id.clone()) {
            return Err(fail("the ID has a second entry".to_string()));
        }
        for (name, value) in [("area", &raw.area), ("title", &raw.title), ("text", &raw.text)] {
            if value.trim().is_empty() {
                return Err(fail(format!("`{name}` is empty")));
            }
        }
        if let Some(s) = raw.sources.iter().find(|s| s.len() != 3 || !s.bytes().all(|b| b.is_ascii_digit())) {
            return Err(fail(format!("source \"{s}\": expected a tag like \"001\"")));
        }
        if let Some(s) = raw.see.iter().find(|s| !is_rule_id(s)) {
            return Err(fail(format!("see \"{s}\": not a rule ID")));
        }
        let mut values = Vec::new();
        let mut fill = |name: &'static str, field: &str| {
            resolve(data, field, &mut values).map_err(|(placeholder, why)| {
                // The parser places the string; the placeholder is found inside it when nothing
                // before it is written with an escape or a line break.
                let start = place(text, &path!["entries", i, name]);
                let pos = placeholder
                    .and_then(|p| field.find(p.as_str()))
                    .map(|k| &field[..k])
                    .filter(|before| !before.contains(['"', '\\', '\n']))
                    .map_or(start, |before| crate::data::Pos { col: start.col + 1 + before.chars().count(), ..start });
                DataError::at(path, pos, format!("{}: {why}", raw.id))
            })
        };
        let title = fill("title", &raw.title)?;
        let body = fill("text", &raw.text)?;
        let resolution = raw.resolution.as_deref().map(|r| fill("resolution", r)).transpose()?;
        entries.push(Entry {
            id: raw.id,
            mode,
            lang,
            area: raw.area,
            title,
            text: body,
            resolution,
            house: raw.house,
            sources: raw.sources,
            see: raw.see,
            values,
        });
    }
    Ok(Book { mode, lang, path: path.to_string(), entries })
}

/// Replaces every `{FILE.path}` in `text` by its value; the error names the placeholder (as
/// written, with braces) when there is one.
fn resolve(data: &DataFiles, text: &str, values: &mut Vec<DataValue>) -> Result<String, (Option<String>, String)> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find(['{', '}']) {
        out.push_str(&rest[..open]);
        if rest[open..].starts_with('}') {
            return Err((None, "a `}` without its `{` (braces are only for placeholders)".to_string()));
        }
        let after = &rest[open + 1..];
        let close = after
            .find(['{', '}'])
            .filter(|&i| after[i..].starts_with('}'))
            .ok_or((None, "a `{` without its `}` (braces are only for placeholders)".to_string()))?;
        let placeholder = &after[..close];
        let value = data.lookup(placeholder).map_err(|why| (Some(format!("{{{placeholder}}}")), why))?;
        out.push_str(&value.value);
        if !values.iter().any(|v: &DataValue| v.path == value.path) {
            values.push(value);
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Whether `s` is a rule ID: `T-` or `S-`, an area of capital letters, `-`, a number.
pub fn is_rule_id(s: &str) -> bool {
    let mut parts = s.split('-');
    let (Some(mode), Some(area), Some(n), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    matches!(mode, "T" | "S")
        && !area.is_empty()
        && area.bytes().all(|b| b.is_ascii_uppercase())
        && !n.is_empty()
        && n.len() <= 4
        && n.bytes().all(|b| b.is_ascii_digit())
        && !n.starts_with('0')
}

/// A rule ID cited in a text, and the bytes that stand for it (for a link).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Citation {
    pub id: String,
    pub span: Range<usize>,
}

/// The rule IDs a text cites, in order: `(T-FIRE-3)`, `T-FIRE-1 / T-FIRE-9`, and the short forms
/// `S-COMBAT-1/3/8` (IDs 1, 3 and 8 of one area; the span of `/3` stands for S-COMBAT-3) and
/// `T-SKIRM-2…6` (2 to 6).
pub fn citations(text: &str) -> Vec<Citation> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let boundary = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'-');
        let Some((area_end, n_end)) = boundary.then(|| id_at(bytes, i)).flatten() else {
            i += 1;
            continue;
        };
        let stem = &text[i..=area_end]; // "S-COMBAT-"
        out.push(Citation { id: text[i..n_end].to_string(), span: i..n_end });
        let mut last: u32 = text[area_end + 1..n_end].parse().unwrap_or(0);
        let mut at = n_end;
        loop {
            let rest = &text[at..];
            if let Some(more) = rest.strip_prefix('/')
                && let Some(len) = number_len(more.as_bytes())
            {
                let end = at + 1 + len;
                last = text[at + 1..end].parse().unwrap_or(0);
                out.push(Citation { id: format!("{stem}{last}"), span: at..end });
                at = end;
                continue;
            }
            let dots = ["…", "..."].into_iter().find(|d| rest.starts_with(d));
            if let Some(d) = dots
                && let Some(len) = number_len(&rest.as_bytes()[d.len()..])
            {
                let end = at + d.len() + len;
                let to: u32 = text[at + d.len()..end].parse().unwrap_or(0);
                if to > last && to - last <= 50 {
                    for n in last + 1..=to {
                        out.push(Citation { id: format!("{stem}{n}"), span: at..end });
                    }
                    last = to;
                }
                at = end;
                continue;
            }
            break;
        }
        i = at.max(i + 1);
    }
    out
}

/// At `i`, a rule ID `X-AREA-n`: the index of the `-` before n and the end of n.
fn id_at(bytes: &[u8], i: usize) -> Option<(usize, usize)> {
    if !matches!(bytes.get(i), Some(b'T' | b'S')) || bytes.get(i + 1) != Some(&b'-') {
        return None;
    }
    let mut j = i + 2;
    while bytes.get(j).is_some_and(u8::is_ascii_uppercase) {
        j += 1;
    }
    if j == i + 2 || bytes.get(j) != Some(&b'-') {
        return None;
    }
    let len = number_len(&bytes[j + 1..])?;
    Some((j, j + 1 + len))
}

/// The length of the rule number at the start of `s`, if one is there and nothing alphanumeric
/// follows it.
fn number_len(s: &[u8]) -> Option<usize> {
    let len = s.iter().take_while(|b| b.is_ascii_digit()).count();
    let next = s.get(len);
    (len > 0 && len <= 4 && s.first() != Some(&b'0') && !next.is_some_and(u8::is_ascii_alphanumeric)).then_some(len)
}

/// A piece of a text for display: plain, or a link to a rule's entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment<'a> {
    Text(&'a str),
    Rule { shown: &'a str, id: String },
}

/// Cuts a text into plain pieces and rule links (each cited ID that `known` accepts), so a log
/// line can be shown with clickable IDs. A `T-SKIRM-2…6` range links to its first ID.
pub fn segments<'a>(text: &'a str, known: impl Fn(&str) -> bool) -> Vec<Segment<'a>> {
    let mut out = Vec::new();
    let mut at = 0;
    for c in citations(text) {
        if c.span.start < at || !known(&c.id) {
            continue;
        }
        if c.span.start > at {
            out.push(Segment::Text(&text[at..c.span.start]));
        }
        out.push(Segment::Rule { shown: &text[c.span.clone()], id: c.id });
        at = c.span.end;
    }
    if at < text.len() {
        out.push(Segment::Text(&text[at..]));
    }
    out
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data() -> DataFiles {
        DataFiles::builtin().unwrap_or_else(|e| panic!("{e}"))
    }

    fn ids(text: &str) -> Vec<String> {
        citations(text).into_iter().map(|c| c.id).collect()
    }

    #[test]
    fn citations_in_every_form() {
        assert_eq!(ids("dispersed (T-MELEE-8)"), ["T-MELEE-8"]);
        assert_eq!(ids("T-FIRE-1 / T-FIRE-9: no second shot"), ["T-FIRE-1", "T-FIRE-9"]);
        assert_eq!(ids("S-COMBAT-1/3/8, how a battle is grouped"), ["S-COMBAT-1", "S-COMBAT-3", "S-COMBAT-8"]);
        assert_eq!(ids("T-SKIRM-2…6 apply"), ["T-SKIRM-2", "T-SKIRM-3", "T-SKIRM-4", "T-SKIRM-5", "T-SKIRM-6"]);
        assert_eq!(ids("(the field is held, T-END-1)"), ["T-END-1"]);
        // Not IDs: missing data, lower case, glued to a word, a number with a letter after it.
        assert!(ids("MD-T2, t-fire-3, XT-FIRE-3, T-FIRE-3a, T-FIRE-, T--1, T-FIRE-03").is_empty());
    }

    #[test]
    fn the_span_of_a_short_form_is_its_number() {
        let text = "S-COMBAT-1/3";
        let c = citations(text);
        assert_eq!(&text[c[0].span.clone()], "S-COMBAT-1");
        assert_eq!(&text[c[1].span.clone()], "/3");
        let parts = segments("x (T-FIRE-3) and T-NONE-1.", |id| id == "T-FIRE-3");
        assert_eq!(
            parts,
            [
                Segment::Text("x ("),
                Segment::Rule { shown: "T-FIRE-3", id: "T-FIRE-3".into() },
                Segment::Text(") and T-NONE-1.")
            ]
        );
    }

    #[test]
    fn placeholders_walk_fields_keys_and_indices() {
        let d = data();
        assert_eq!(d.lookup("napoleonic_rules.hq_distance").map(|v| v.value), Ok("4".into()));
        assert_eq!(d.lookup("napoleonic_rules.roundshot_hits.0").map(|v| v.value), Ok("4".into()));
        assert_eq!(d.lookup("napoleonic_rules.morale_modifiers.general_lost").map(|v| v.value), Ok("-1".into()));
        assert_eq!(d.lookup("napoleonic_units.types.0.id").map(|v| v.value), Ok("light_infantry".into()));
        assert!(d.lookup("napoleonic_rules.no_such_field").is_err_and(|e| e.contains("no_such_field")));
        assert!(d.lookup("napoleonic_rules.roundshot_hits.2").is_err());
        assert!(d.lookup("no_such_file.x").is_err_and(|e| e.contains("not a data file")));
        // A table is not one value.
        assert!(d.lookup("napoleonic_rules.morale_threshold").is_err_and(|e| e.contains("not a number")));
    }

    const ONE: &str = r#"RulesReference(
  mode: "tactical",
  language: "en",
  entries: [
    (
      id: "T-CMD-4",
      area: "Command",
      title: "Near the HQ",
      text: "Within {napoleonic_rules.hq_distance} cells; morale {napoleonic_rules.morale_modifiers.general_lost}.",
      resolution: Some("Light cavalry is exempt."),
      house: false,
      sources: ["001"],
      see: [],
    ),
  ],
)"#;

    fn one(text: &str) -> Result<Reference, DataError> {
        Reference::parse(&data(), [("t.ron", text)])
    }

    #[test]
    fn an_entry_resolves_its_numbers() {
        let r = one(ONE).unwrap_or_else(|e| panic!("{e}"));
        let e = r.get("t-cmd-4", Lang::En).expect("found ignoring case");
        assert_eq!(e.text, "Within 4 cells; morale -1.");
        assert_eq!(e.values.len(), 2);
        let shown = e.render(&Texts::english());
        assert!(shown.contains("House resolution: Light cavalry is exempt."), "{shown}");
        assert!(shown.contains("napoleonic_rules.hq_distance = 4"), "{shown}");
        assert!(r.get("T-CMD-4", Lang::Ru).is_none());
    }

    #[test]
    fn mistakes_are_reported_at_their_place() {
        let bad = ONE.replace("hq_distance}", "hq_distanse}");
        let err = one(&bad).expect_err("unknown field");
        assert_eq!((err.path.as_str(), err.line), ("t.ron", 9), "{err}");
        assert!(err.message.contains("hq_distanse"), "{err}");
        let err = one(&ONE.replace("house: false", "house: false, hous: true")).expect_err("unknown key");
        assert_eq!(err.line, 11, "{err}");
        let err = one(&ONE.replace("\"T-CMD-4\"", "\"S-CMD-4\"")).expect_err("wrong mode");
        assert_eq!(err.line, 6, "{err}");
        let err = one(&ONE.replace("see: []", "see: [\"T-CMD-5\"]")).expect_err("see names nothing");
        assert!(err.message.contains("T-CMD-5"), "{err}");
        assert_eq!(err.line, 13, "{err}");
        let err = one(&ONE.replace("Within {", "Within {{")).expect_err("nested brace");
        assert!(err.message.contains("without its"), "{err}");
        let err = one(&ONE.replace("\"tactical\"", "\"tactics\"")).expect_err("mode");
        assert_eq!(err.line, 2, "{err}");
    }
}
