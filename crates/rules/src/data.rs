//! Reading the game's RON data files with errors a modder can act on: `path:line:col: what is wrong`.

use crate::limits::{Limit, LimitError, MAX_FILE_BYTES, MAX_NESTING};
use ron::extensions::Extensions;
use serde::de::DeserializeOwned;
use std::fmt;
use std::path::{Path, PathBuf};

/// A data file that could not be used, with the place in it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}:{line}:{col}: {message}")]
pub struct DataError {
    pub path: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
    /// The limit of the referee the file exceeded, if that is what is wrong.
    pub limit: Option<Limit>,
}

impl DataError {
    pub fn at(path: impl fmt::Display, pos: Pos, message: impl Into<String>) -> Self {
        Self { path: path.to_string(), line: pos.line, col: pos.col, message: message.into(), limit: None }
    }

    /// A file over a limit of the referee.
    pub fn over_limit(path: impl fmt::Display, pos: Pos, e: LimitError) -> Self {
        Self { limit: Some(e.limit), ..Self::at(path, pos, e.to_string()) }
    }
}

/// A 1-based line and column in a text file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

impl Pos {
    pub const START: Pos = Pos { line: 1, col: 1 };
}

/// The RON dialect of all game files: `Some(..)` may be left out.
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(Extensions::IMPLICIT_SOME).with_recursion_limit(MAX_NESTING)
}

/// Parses RON text, mapping every syntax or type error to `path:line:col`.
pub fn parse_ron<T: DeserializeOwned>(path: &str, text: &str) -> Result<T, DataError> {
    ron_options().from_str(text).map_err(|e| {
        let end = pos_of(text, text.trim_end().len());
        let at_end = (e.span.start.line, e.span.start.col) >= (end.line, end.col);
        let message = match &e.code {
            ron::Error::Eof => "the file ends too early (truncated?)".to_string(),
            other if at_end => format!("{other}: the file ends too early (truncated?)"),
            other => other.to_string(),
        };
        let limit = LimitError::recognise(&message);
        DataError { limit, ..DataError::at(path, Pos { line: e.span.start.line, col: e.span.start.col }, message) }
    })
}

/// Parses a data table, a Great War scenario or map: RON whose every number must also be within
/// the referee's [`crate::limits::MAX_FILE_NUMBER`], so the rules' sums of them cannot overflow.
pub fn parse_checked<T: DeserializeOwned + serde::Serialize>(path: &str, text: &str) -> Result<T, DataError> {
    let value: T = parse_ron(path, text)?;
    crate::limits::check_numbers(&value).map_err(|e| DataError::over_limit(path, Pos::START, e))?;
    Ok(value)
}

/// Parses a list of orders (of either war), refusing more than the referee's limit.
pub fn parse_orders<T: DeserializeOwned>(path: &str, text: &str) -> Result<Vec<T>, DataError> {
    let list: Vec<T> = parse_ron(path, text)?;
    Limit::Orders.check_len(list.len()).map_err(|e| DataError::over_limit(path, Pos::START, e))?;
    Ok(list)
}

/// Pretty RON for files the game writes (saves, exported scenarios).
pub fn to_ron<T: serde::Serialize>(value: &T) -> String {
    let config = ron::ser::PrettyConfig::new().depth_limit(4).indentor("  ".to_string()).struct_names(true);
    ron_options().to_string_pretty(value, config).unwrap_or_default()
}

/// Reads a whole file as text: the one reader of every game file. It refuses anything but a
/// regular file (a device such as `/dev/zero`, a pipe, a folder) and a file over
/// [`MAX_FILE_BYTES`], before reading it, and never reads more than that limit.
pub fn read_text(path: &Path) -> Result<String, DataError> {
    use std::io::Read;
    let fail = |message: String| DataError::at(path.display(), Pos::START, message);
    let cannot = |e: std::io::Error| fail(format!("cannot read the file: {e}"));
    let file = std::fs::File::open(path).map_err(cannot)?;
    let meta = file.metadata().map_err(cannot)?;
    if !meta.is_file() {
        return Err(fail("cannot read the file: not a regular file (a device, pipe or folder)".to_string()));
    }
    let over = |e: LimitError| DataError::over_limit(path.display(), Pos::START, e);
    Limit::FileBytes.check(meta.len()).map_err(over)?;
    let mut bytes = Vec::new();
    // One byte more than the limit shows a file that grew after the check.
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(cannot)?;
    Limit::FileBytes.check_len(bytes.len()).map_err(over)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let text = String::from_utf8_lossy(&e.as_bytes()[..at]).into_owned();
        DataError::at(path.display(), pos_of(&text, at), "cannot read the file: it is not UTF-8 text")
    })
}

/// Resolves `relative` against the folder of `base` (the file that names it).
pub fn beside(base: &Path, relative: &str) -> PathBuf {
    base.parent().unwrap_or_else(|| Path::new(".")).join(relative)
}

/// One step into a RON document: a named field of a struct (or key of a map), or the element
/// of a list or tuple at an index (from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<'a> {
    Field(&'a str),
    Index(usize),
}

impl<'a> From<&'a str> for Step<'a> {
    fn from(name: &'a str) -> Self {
        Step::Field(name)
    }
}

impl From<usize> for Step<'_> {
    fn from(index: usize) -> Self {
        Step::Index(index)
    }
}

/// Builds a path of [`Step`]s: `path!["units", 3, "at"]`.
#[macro_export]
macro_rules! path {
    ($($step:expr),* $(,)?) => { [$($crate::data::Step::from($step)),*] };
}

/// Where the value at `path` begins in `text`, as the RON parser itself sees it (comments,
/// strings and formatting cannot mislead it): the text is parsed again, walking down the path,
/// and the parser's own position is taken when the value is reached. `None` when the path is
/// not in the text; `Pos::START` for the empty path.
pub fn position_of(text: &str, path: &[Step<'_>]) -> Option<Pos> {
    use serde::de::DeserializeSeed;
    let mut de = ron::Deserializer::from_str_with_options(text, &ron_options()).ok()?;
    match (Probe { path }).deserialize(&mut de) {
        Ok(()) => None,
        Err(e) if e.to_string() == probe::FOUND => {
            // The parser stands at the value (after any whitespace before it).
            let at = de.span_error(ron::Error::Eof).span.end;
            Some(Pos { line: at.line, col: at.col })
        }
        Err(_) => None,
    }
}

/// The place of a path, or of the nearest enclosing value found, or the start of the file.
pub fn place(text: &str, path: &[Step<'_>]) -> Pos {
    (0..=path.len()).rev().find_map(|n| position_of(text, &path[..n])).unwrap_or(Pos::START)
}

/// The walker of [`position_of`].
struct Probe<'p, 'a> {
    path: &'p [Step<'a>],
}

mod probe {
    use super::{Probe, Step};
    use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
    use std::fmt;

    /// The message that stops the parser where the value is found.
    pub const FOUND: &str = "\u{0}found\u{0}";

    impl<'de> DeserializeSeed<'de> for Probe<'_, '_> {
        type Value = ();

        fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            if self.path.is_empty() {
                return Err(de::Error::custom(FOUND));
            }
            d.deserialize_any(self)
        }
    }

    /// A key of a struct or map, as text.
    struct Key(String);

    impl<'de> de::Deserialize<'de> for Key {
        fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
            struct V;
            impl Visitor<'_> for V {
                type Value = Key;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a key")
                }
                fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
                    Ok(Key(v.to_string()))
                }
                fn visit_i64<E: de::Error>(self, v: i64) -> Result<Key, E> {
                    Ok(Key(v.to_string()))
                }
                fn visit_u64<E: de::Error>(self, v: u64) -> Result<Key, E> {
                    Ok(Key(v.to_string()))
                }
                fn visit_bool<E: de::Error>(self, v: bool) -> Result<Key, E> {
                    Ok(Key(v.to_string()))
                }
            }
            d.deserialize_any(V)
        }
    }

    impl<'de> Visitor<'de> for Probe<'_, '_> {
        type Value = ();

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a value with parts")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let Some((Step::Field(name), rest)) = self.path.split_first() else {
                return Ok(());
            };
            while let Some(Key(key)) = map.next_key::<Key>()? {
                if key == *name {
                    return map.next_value_seed(Probe { path: rest });
                }
                map.next_value::<IgnoredAny>()?;
            }
            Ok(())
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            let Some((Step::Index(wanted), rest)) = self.path.split_first() else {
                return Ok(());
            };
            let mut i = 0;
            while i < *wanted {
                if seq.next_element::<IgnoredAny>()?.is_none() {
                    return Ok(());
                }
                i += 1;
            }
            seq.next_element_seed(Probe { path: rest }).map(|_| ())
        }

        fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }

        fn visit_newtype_struct<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_any(self)
        }

        fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
            Ok(())
        }
        fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
            Ok(())
        }
        fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
            Ok(())
        }
        fn visit_i128<E: de::Error>(self, _: i128) -> Result<(), E> {
            Ok(())
        }
        fn visit_u128<E: de::Error>(self, _: u128) -> Result<(), E> {
            Ok(())
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
            Ok(())
        }
        fn visit_char<E: de::Error>(self, _: char) -> Result<(), E> {
            Ok(())
        }
        fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
            Ok(())
        }
        fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<(), E> {
            Ok(())
        }
        fn visit_none<E: de::Error>(self) -> Result<(), E> {
            Ok(())
        }
        fn visit_unit<E: de::Error>(self) -> Result<(), E> {
            Ok(())
        }
    }
}

/// The line and column of a byte offset.
pub fn pos_of(text: &str, offset: usize) -> Pos {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Pos { line, col }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Thing {
        name: String,
        size: u32,
    }

    #[test]
    fn truncated_file_reports_place() {
        let err = parse_ron::<Thing>("x.ron", "(\n  name: \"a\",\n  size: ").unwrap_err();
        assert_eq!(err.path, "x.ron");
        assert_eq!(err.line, 3);
        assert!(err.to_string().starts_with("x.ron:3:"), "{err}");
    }

    #[test]
    fn mistyped_field_reports_place() {
        let err = parse_ron::<Thing>("y.ron", "(\n  name: \"a\",\n  size: \"big\",\n)").unwrap_err();
        assert_eq!((err.line, err.path.as_str()), (3, "y.ron"), "{err}");
    }

    #[test]
    fn positions_come_from_the_parser_not_a_text_search() {
        // The comment names the same field and value first; the parser skips it.
        let text = "// size: 7 is the usual size\n(\n  name: \"size\", /* size: 7 */\n  size:   7,\n)";
        assert_eq!(position_of(text, &path!["size"]), Some(Pos { line: 4, col: 11 }));
        assert_eq!(position_of(text, &path!["name"]), Some(Pos { line: 3, col: 9 }));
        assert_eq!(position_of(text, &path!["nothing"]), None);
        let list = "Thing(cells: [(1, 2), // (3, 4)\n (3, 4)])";
        assert_eq!(position_of(list, &path!["cells", 1]), Some(Pos { line: 2, col: 2 }));
        assert_eq!(position_of(list, &path!["cells", 1, 0]), Some(Pos { line: 2, col: 3 }));
        assert_eq!(position_of(list, &path!["cells", 5]), None);
        assert_eq!(place(list, &path!["cells", 5]), Pos { line: 1, col: 14 });
    }
}
