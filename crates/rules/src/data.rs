//! Reading the game's RON data files with errors a modder can act on: `path:line:col: what is wrong`.

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
}

impl DataError {
    pub fn at(path: impl fmt::Display, pos: Pos, message: impl Into<String>) -> Self {
        Self { path: path.to_string(), line: pos.line, col: pos.col, message: message.into() }
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
    ron::Options::default().with_default_extension(Extensions::IMPLICIT_SOME)
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
        DataError::at(path, Pos { line: e.span.start.line, col: e.span.start.col }, message)
    })
}

/// Pretty RON for files the game writes (saves, exported scenarios).
pub fn to_ron<T: serde::Serialize>(value: &T) -> String {
    let config = ron::ser::PrettyConfig::new().depth_limit(4).indentor("  ".to_string()).struct_names(true);
    ron_options().to_string_pretty(value, config).unwrap_or_default()
}

/// Reads a whole file as text.
pub fn read_text(path: &Path) -> Result<String, DataError> {
    std::fs::read_to_string(path)
        .map_err(|e| DataError::at(path.display(), Pos::START, format!("cannot read the file: {e}")))
}

/// Resolves `relative` against the folder of `base` (the file that names it).
pub fn beside(base: &Path, relative: &str) -> PathBuf {
    base.parent().unwrap_or_else(|| Path::new(".")).join(relative)
}

/// Finds where a sequence of tokens occurs in `text`, ignoring whitespace between them, so a
/// semantic error found after parsing can still point at its place. Occurrence `nth` counts from 0.
pub fn locate(text: &str, tokens: &[&str], nth: usize) -> Pos {
    let bytes = text.as_bytes();
    let mut seen = 0;
    for start in 0..bytes.len() {
        if tokens_match_at(text, start, tokens) {
            if seen == nth {
                return pos_of(text, start);
            }
            seen += 1;
        }
    }
    Pos::START
}

fn tokens_match_at(text: &str, start: usize, tokens: &[&str]) -> bool {
    let mut at = start;
    for (i, token) in tokens.iter().enumerate() {
        if i > 0 {
            while text[at..].starts_with(|c: char| c.is_whitespace()) {
                at += text[at..].chars().next().map_or(1, char::len_utf8);
            }
        }
        if !text.is_char_boundary(at) || !text[at..].starts_with(token) {
            return false;
        }
        at += token.len();
    }
    true
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
    fn locate_skips_whitespace() {
        let text = "a\n  (5,  3) x (5,3)";
        assert_eq!(locate(text, &["(", "5", ",", "3", ")"], 0), Pos { line: 2, col: 3 });
        assert_eq!(locate(text, &["(", "5", ",", "3", ")"], 1), Pos { line: 2, col: 13 });
        assert_eq!(locate(text, &["nothing"], 0), Pos::START);
    }
}
