//! `umpire rules`: an entry by rule ID in either language and as JSON, the list, the Markdown,
//! a modder's file checked, and one clear line for a rule that does not exist.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn umpire(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_umpire")).args(args).current_dir(repo()).output().expect("umpire runs")
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// The first entry of the shipped tactical reference that has a house resolution and a number
/// from a data file, and its ID.
fn an_entry() -> rules::reference::Entry {
    let reference = rules::reference::Reference::builtin().unwrap_or_else(|e| panic!("{e}"));
    reference
        .entries(rules::reference::Lang::En)
        .find(|e| e.resolution.is_some() && !e.values.is_empty())
        .cloned()
        .expect("an entry with a resolution and a number")
}

#[test]
fn an_entry_prints_with_its_numbers_and_its_house_resolution_marked() {
    let e = an_entry();
    let text = stdout(&umpire(&["rules", &e.id]));
    assert!(text.starts_with(&format!("{} — {}", e.id, e.title)), "{text}");
    assert!(text.contains("House resolution: "), "{text}");
    let v = &e.values[0];
    assert!(text.contains(&format!("{} = {}", v.path, v.value)), "{text}");
    // Any case, and in Russian.
    let ru = stdout(&umpire(&["rules", &e.id.to_lowercase(), "--lang", "ru"]));
    assert!(ru.contains("Решение игры (домашнее): "), "{ru}");
}

#[test]
fn an_entry_as_json() {
    let e = an_entry();
    let json: serde_json::Value = serde_json::from_str(&stdout(&umpire(&["rules", &e.id, "--json"]))).expect("json");
    assert_eq!(json["id"], e.id.as_str());
    assert_eq!(json["lang"], "en");
    assert_eq!(json["values"][0]["value"], e.values[0].value.as_str());
    assert!(json["resolution"].is_string());
}

#[test]
fn the_list_and_the_markdown() {
    let e = an_entry();
    let list = stdout(&umpire(&["rules", "--list"]));
    assert!(list.lines().any(|l| l.starts_with(&e.id) && l.ends_with(&e.title)), "{list}");
    let md = stdout(&umpire(&["rules", "--markdown", "--lang", "ru"]));
    let reference = rules::reference::Reference::builtin().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(md.trim_end(), reference.to_markdown(rules::reference::Lang::Ru).trim_end());
}

#[test]
fn an_unknown_rule_or_language_is_one_clear_line() {
    let out = umpire(&["rules", "T-CMD-99"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: no rule T-CMD-99 in the en reference"), "{err}");
    let out = umpire(&["rules", "T-CMD-4", "--lang", "de"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a language of the reference"));
}

#[test]
fn a_modders_file_is_checked_against_the_data_files() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("umpire-rules");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let good = dir.join("mod.en.ron");
    let body = r#"RulesReference(mode: "tactical", language: "en", entries: [
  (id: "T-CMD-4", area: "Command", title: "Near the HQ", text: "Within {napoleonic_rules.hq_distance} cells.",
   resolution: None, house: false, sources: ["001"], see: []),
])"#;
    std::fs::write(&good, body).expect("write");
    let out = stdout(&umpire(&["rules", "--check", &good.to_string_lossy()]));
    assert!(out.contains("1 en entries, every number resolved"), "{out}");
    let bad = dir.join("bad.en.ron");
    std::fs::write(&bad, body.replace("hq_distance", "hq_distant")).expect("write");
    let out = umpire(&["rules", "--check", &bad.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.en.ron:2:") && err.contains("hq_distant"), "{err}");
}
