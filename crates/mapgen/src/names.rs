//! English names for the Russian order of battle (issue 27): the tables give the Russian
//! formations their own names, in Cyrillic; the scenario names them in English and keeps the
//! Russian beside (`names_ru`), so each interface shows its own. The words are data
//! (`scenarios/great_war/data/russian_names.ron`).

use serde::Deserialize;

/// Phrases and letters, in the order they are applied.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RussianNames {
    pub phrases: Vec<(String, String)>,
    pub letters: Vec<(String, String)>,
}

fn cyrillic(c: char) -> bool {
    ('\u{0400}'..='\u{04FF}').contains(&c)
}

/// Whether a name has Cyrillic letters in it.
pub fn is_russian(name: &str) -> bool {
    name.chars().any(cyrillic)
}

/// "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", …
pub fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl RussianNames {
    /// The English of a Russian name: "28-я пехотная дивизия" is "28th Infantry Division",
    /// "XXV армейский корпус (Николай Мартос)" "XXV Army Corps (Nikolay Martos)". A name that
    /// keeps Cyrillic after the table is refused.
    pub fn english(&self, name: &str) -> Result<String, String> {
        let mut out = ordinals(name);
        for (ru, en) in &self.phrases {
            out = out.replace(ru.as_str(), en);
        }
        let mut spelled = String::with_capacity(out.len());
        for c in out.chars() {
            match self.letters.iter().find(|(ru, _)| ru.chars().eq(std::iter::once(c))) {
                Some((_, en)) => spelled.push_str(en),
                None => spelled.push(c),
            }
        }
        if is_russian(&spelled) {
            return Err(format!("`{name}`: no English for `{spelled}` in russian_names.ron"));
        }
        Ok(spelled)
    }
}

/// Every "N-я" (a Russian ordinal, feminine) as an English ordinal.
fn ordinals(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut digits = String::new();
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        if c.is_ascii_digit() {
            digits.push(c);
            rest = &rest[1..];
            continue;
        }
        if !digits.is_empty() {
            let n: Option<u64> = digits.parse().ok();
            match (n, rest.strip_prefix("-я")) {
                (Some(n), Some(after)) => {
                    out.push_str(&ordinal(n));
                    rest = after;
                    digits.clear();
                    continue;
                }
                _ => out.push_str(&std::mem::take(&mut digits)),
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out.push_str(&digits);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> RussianNames {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/great_war/data/russian_names.ron");
        crate::read_table(&path).expect("the table reads")
    }

    #[test]
    fn russian_names_have_their_english() {
        let t = table();
        let cases = [
            ("28-я пехотная дивизия", "28th Infantry Division"),
            ("1-я гвардейская кавалерийская дивизия", "1st Guards Cavalry Division"),
            ("2-я армия", "2nd Army"),
            ("3-я Кавказская казачья дивизия", "3rd Caucasian Cossack Division"),
            ("XXV армейский корпус", "XXV Army Corps"),
            ("I Сибирский армейский корпус (by rail, October 1914)", "I Siberian Army Corps (by rail, October 1914)"),
            ("56-я and 57-я пехотные дивизии (reserve)", "56th and 57th Infantry Divisions (reserve)"),
            (
                "Reserve divisions of the Kiev district (60-я, 69-я, 78-я)",
                "Reserve divisions of the Kiev district (60th, 69th, 78th)",
            ),
            ("13-я кавалерийская дивизия", "13th Cavalry Division"),
            ("21-я пехотная дивизия", "21st Infantry Division"),
            ("Николай Мартос", "Nikolay Martos"),
            ("Мортирные дивизионы of the 1st Army", "Mortar battalions of the 1st Army"),
        ];
        for (ru, en) in cases {
            assert_eq!(t.english(ru).as_deref(), Ok(en), "{ru}");
        }
        assert_eq!(t.english("Lahore Division").as_deref(), Ok("Lahore Division"));
        assert!(!is_russian("XXV Army Corps") && is_russian("армия"));
        let bare = RussianNames { phrases: Vec::new(), letters: Vec::new() };
        assert!(bare.english("армия").is_err(), "Cyrillic left over is refused");
    }
}
