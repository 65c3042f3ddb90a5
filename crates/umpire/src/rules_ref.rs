//! `umpire rules`: the rules reference on the command line.
//!
//! `umpire rules T-CMD-4 [--lang ru] [--json]` prints one entry, `umpire rules --list` every ID
//! with its title, `umpire rules --markdown [--lang ru]` the whole reference as Markdown (the
//! committed `docs/rules-reference.{en,ru}.md`), `umpire rules --check FILE…` reads reference
//! files from disk (a modder's) and resolves them against the shipped data files.

use rules::data::read_text;
use rules::reference::{DataFiles, Lang, Reference};
use std::path::PathBuf;

/// Options of `umpire rules`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["id", "list", "markdown", "check"])))]
pub struct RulesArgs {
    /// The rule ID to print, e.g. T-CMD-4 or S-COMBAT-11.
    id: Option<String>,
    /// List every rule ID with its title.
    #[arg(long)]
    list: bool,
    /// Print the whole reference as Markdown.
    #[arg(long)]
    markdown: bool,
    /// Check reference files (RulesReference(..)) against the shipped data files.
    #[arg(long, num_args = 1..)]
    check: Vec<PathBuf>,
    /// Language: en or ru.
    #[arg(long, default_value = "en", value_parser = parse_lang)]
    lang: Lang,
    /// Print JSON for machines (an entry, or the list).
    #[arg(long)]
    json: bool,
}

fn parse_lang(code: &str) -> Result<Lang, String> {
    Lang::from_code(code).ok_or_else(|| format!("`{code}` is not a language of the reference (en, ru)"))
}

/// Runs the subcommand; the error is the one line to print.
pub fn run(args: &RulesArgs) -> Result<(), String> {
    if !args.check.is_empty() {
        return check(&args.check);
    }
    let reference = Reference::builtin().map_err(|e| e.to_string())?;
    let lang = args.lang;
    if args.markdown {
        print!("{}", reference.to_markdown(lang));
        return Ok(());
    }
    if args.list {
        let entries: Vec<_> = reference.entries(lang).collect();
        if args.json {
            let list: Vec<_> = entries
                .iter()
                .map(|e| serde_json::json!({ "id": e.id, "area": e.area, "title": e.title, "house": e.house }))
                .collect();
            println!("{}", serde_json::to_string_pretty(&list).map_err(|e| e.to_string())?);
        } else {
            for e in entries {
                println!("{:<12} {}", e.id, e.title);
            }
        }
        return Ok(());
    }
    let id = args.id.as_deref().unwrap_or_default();
    let entry = reference.get(id, lang).ok_or_else(|| {
        let near: Vec<&str> = reference
            .entries(lang)
            .map(|e| e.id.as_str())
            .filter(|other| id.rsplit_once('-').is_some_and(|(stem, _)| other.starts_with(&format!("{stem}-"))))
            .take(20)
            .collect();
        if near.is_empty() {
            format!("no rule {id} in the {lang} reference (umpire rules --list shows every ID)")
        } else {
            format!("no rule {id} in the {lang} reference; that area has {}", near.join(", "))
        }
    })?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(entry).map_err(|e| e.to_string())?);
    } else {
        print!("{}", entry.render(&lang.texts()));
    }
    Ok(())
}

fn check(paths: &[PathBuf]) -> Result<(), String> {
    let data = DataFiles::builtin().map_err(|e| e.to_string())?;
    let mut texts = Vec::new();
    for path in paths {
        texts.push((path.to_string_lossy().to_string(), read_text(path).map_err(|e| e.to_string())?));
    }
    let reference =
        Reference::parse(&data, texts.iter().map(|(p, t)| (p.as_str(), t.as_str()))).map_err(|e| e.to_string())?;
    for book in reference.books() {
        println!("{}: {} {} entries, every number resolved", book.path, book.entries.len(), book.lang);
    }
    Ok(())
}
