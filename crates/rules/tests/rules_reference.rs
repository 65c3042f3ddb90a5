//! The shipped rules reference: it resolves, both languages agree, it covers the digests and
//! every rule ID the game cites, and the committed Markdown is what the generator writes.

use rules::reference::{Lang, Mode, REFERENCE_FILES, Reference, citations};
use std::path::{Path, PathBuf};

fn reference() -> Reference {
    Reference::builtin().unwrap_or_else(|e| panic!("{e}"))
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn every_placeholder_resolves_to_a_number_or_a_text() {
    // Reference::builtin() refuses a file with a placeholder that names no single value; here
    // also no brace is left over in what a player reads.
    let r = reference();
    for lang in Lang::ALL {
        for e in r.entries(lang) {
            for text in [Some(&e.title), Some(&e.text), e.resolution.as_ref()].into_iter().flatten() {
                assert!(!text.contains(['{', '}']), "{} ({lang}): a brace is left in {text:?}", e.id);
            }
            for v in &e.values {
                assert!(!v.value.trim().is_empty(), "{} ({lang}): {} is empty", e.id, v.path);
            }
        }
    }
}

#[test]
fn english_and_russian_have_the_same_ids_in_the_same_order() {
    let r = reference();
    for mode in Mode::ALL {
        let ids = |lang| -> Vec<String> {
            r.book(mode, lang)
                .unwrap_or_else(|| panic!("no {} reference in {lang}", mode.name()))
                .entries
                .iter()
                .map(|e| e.id.clone())
                .collect()
        };
        let (en, ru) = (ids(Lang::En), ids(Lang::Ru));
        let first = en.iter().zip(&ru).position(|(a, b)| a != b);
        assert_eq!(en, ru, "{}: the en and ru files differ first at entry {first:?}", mode.name());
        // The flags that are not words must agree too.
        for (a, b) in r
            .book(mode, Lang::En)
            .into_iter()
            .flat_map(|b| &b.entries)
            .zip(r.book(mode, Lang::Ru).into_iter().flat_map(|b| &b.entries))
        {
            assert_eq!(
                (a.house, &a.sources, &a.see, a.resolution.is_some()),
                (b.house, &b.sources, &b.see, b.resolution.is_some()),
                "{}: house, sources, see and resolution differ between en and ru",
                a.id
            );
            let paths = |e: &rules::reference::Entry| {
                let mut p: Vec<String> = e.values.iter().map(|v| v.path.clone()).collect();
                p.sort();
                p
            };
            assert_eq!(paths(a), paths(b), "{}: en and ru show different numbers", a.id);
        }
    }
}

#[test]
fn every_rule_id_of_the_digests_has_an_entry_in_the_digests_order() {
    let Some(dir) = rules::testing::digests() else {
        println!(
            "note: no rules digests in shared/rules, ../shared/rules or ../../shared/rules (set KRIEGSSPIEL_DIGESTS); skipped"
        );
        return;
    };
    let r = reference();
    for (mode, file) in [(Mode::Tactical, "tactical.md"), (Mode::Strategic, "strategic.md")] {
        println!("checking against {}", dir.join(file).display());
        let text = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let wanted = rules::testing::digest_ids(&text);
        assert!(wanted.len() > 50, "{file}: only {} rule IDs found", wanted.len());
        for lang in Lang::ALL {
            let have: Vec<String> =
                r.book(mode, lang).map(|b| b.entries.iter().map(|e| e.id.clone()).collect()).unwrap_or_default();
            let missing: Vec<&String> = wanted.iter().filter(|id| !have.contains(id)).collect();
            let extra: Vec<&String> = have.iter().filter(|id| !wanted.contains(id)).collect();
            assert!(
                missing.is_empty() && extra.is_empty(),
                "{} reference ({lang}): {} digest IDs have no entry: {missing:?}; not in the digest: {extra:?}",
                mode.name(),
                missing.len()
            );
            assert_eq!(have, wanted, "{} reference ({lang}): not in the digest's order", mode.name());
        }
    }
}

#[test]
fn digest_ids_are_read_from_list_items() {
    let md = "- **T-CMD-4** General killed.\n  - **T-CMD-5** HQ.\nSee **T-FIRE-3** in text.\n- **MD-T2** gap\n";
    assert_eq!(rules::testing::digest_ids(md), ["T-CMD-4", "T-CMD-5"]);
}

#[test]
fn every_rule_id_the_game_cites_has_an_entry() {
    let r = reference();
    for (path, lang) in [("assets/i18n/en.ron", Lang::En), ("assets/i18n/ru.ron", Lang::Ru)] {
        let text = std::fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        let cited = citations(&text);
        assert!(!cited.is_empty(), "{path} cites no rule ID");
        let missing: std::collections::BTreeSet<&str> =
            cited.iter().map(|c| c.id.as_str()).filter(|id| r.get(id, lang).is_none()).collect();
        assert!(missing.is_empty(), "{path} cites rule IDs that have no entry in the {lang} reference: {missing:?}");
    }
}

#[test]
fn the_reference_files_are_the_ones_compiled_in() {
    // The game and umpire read the compiled-in copies: they must be today's files.
    for (path, text) in REFERENCE_FILES {
        let on_disk = std::fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(on_disk, text, "{path}");
    }
}

#[test]
fn the_committed_markdown_is_the_generators_output() {
    let r = reference();
    for lang in Lang::ALL {
        let path = format!("docs/rules-reference.{lang}.md");
        let committed = std::fs::read_to_string(repo().join(&path)).unwrap_or_default();
        let generated = r.to_markdown(lang);
        if committed != generated {
            let line = committed.lines().zip(generated.lines()).position(|(a, b)| a != b).map_or(0, |i| i + 1);
            panic!(
                "{path} is not what the reference and the data files give now (first difference near line {line}); \
                 regenerate it with: cargo run -p umpire -- rules --markdown --lang {lang} > {path}"
            );
        }
    }
}

#[test]
fn markdown_marks_house_resolutions_and_links_see_also() {
    let r = reference();
    let md = r.to_markdown(Lang::En);
    let with_resolution = r.entries(Lang::En).find(|e| e.resolution.is_some());
    if let Some(e) = with_resolution {
        assert!(md.contains(&format!("<a id=\"{}\"></a>", e.id)));
        assert!(md.contains("**House resolution:**"), "the resolution is labelled as the house's");
    }
    if let Some(e) = r.entries(Lang::En).find(|e| !e.see.is_empty()) {
        assert!(md.contains(&format!("[{}](#{})", e.see[0], e.see[0])), "see-also is a link");
    }
    let ru = r.to_markdown(Lang::Ru);
    if r.entries(Lang::Ru).any(|e| e.resolution.is_some()) {
        assert!(ru.contains("**Решение игры (домашнее):**"), "labelled in Russian");
    }
}
