//! The shipped scenarios a game may be made from: every battle, campaign and Great War scenario
//! under the scenarios folder, found by the struct its file opens with.

use crate::table::Kind;
use std::path::{Path, PathBuf};
pub use wire::Entry;

/// The scenarios under a folder.
#[derive(Clone, Debug)]
pub struct Catalog {
    pub root: PathBuf,
    pub entries: Vec<Entry>,
}

/// Most files a catalog walks (a folder that is not a scenarios folder stops here).
const MAX_FILES: usize = 10_000;

impl Catalog {
    pub fn scan(root: &Path) -> std::io::Result<Catalog> {
        let mut files = Vec::new();
        walk(root, root, &mut files)?;
        files.sort();
        let mut entries = Vec::new();
        for rel in files {
            let Ok(text) = std::fs::read_to_string(root.join(&rel)) else { continue };
            let kind = match rules::source::struct_name(&text).0 {
                "Scenario" => Kind::Battle,
                "CampaignScenario" => Kind::Campaign,
                "GreatWarScenario" => Kind::GreatWar,
                _ => continue,
            };
            entries.push(Entry { path: rel, kind });
        }
        Ok(Catalog { root: root.to_path_buf(), entries })
    }

    pub fn find(&self, path: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.path == path)
    }

    pub fn file(&self, entry: &Entry) -> PathBuf {
        self.root.join(&entry.path)
    }
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) -> std::io::Result<()> {
    let mut items: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    items.sort_by_key(std::fs::DirEntry::path);
    for item in items {
        if out.len() >= MAX_FILES {
            return Ok(());
        }
        let path = item.path();
        if item.file_type()?.is_dir() {
            walk(root, &path, out)?;
        } else if path.extension().is_some_and(|e| e == "ron")
            && let Ok(rel) = path.strip_prefix(root)
        {
            let parts: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            out.push(parts.join("/"));
        }
    }
    Ok(())
}
