//! A key-value store of text for saves and settings, and nothing else: it knows no game, no
//! scene and no format (a leaf: it imports nothing from the rest of the app).
//!
//! Natively a key is a file `KEY.ron` in the data folder. Every write is atomic and durable:
//! the text goes to a temporary file in the same folder, is flushed and synced, and is renamed
//! over the old file, so a crash or power loss leaves either the old or the new version, never a
//! truncated one. The version it replaces is kept as `KEY.ron.bak` (restorable). A file that
//! cannot be read is set aside as `KEY.ron.corrupt-N`, never overwritten.
//!
//! In the browser a key is a pointer (`kriegsspiel/KEY` → `@N`) to a value under
//! `kriegsspiel/KEY@N`: a write stores the new value under a fresh name first, then moves the
//! pointer, then deletes the version before the backup, so a failed write (storage full)
//! leaves the old save as it was.

use std::fmt;

/// Why the store could not do something, in one sentence for the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoreError {
    pub key: String,
    pub message: String,
    /// The storage is full (the browser's quota): the player should download the save instead.
    pub full: bool,
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.key, self.message)
    }
}

impl std::error::Error for StoreError {}

fn err(key: &str, message: impl fmt::Display) -> StoreError {
    StoreError { key: key.to_string(), message: message.to_string(), full: false }
}

/// Keys are plain names: letters, digits, `-` and `_` (no folders, no dots).
pub fn valid_key(key: &str) -> bool {
    !key.is_empty() && key.len() <= 120 && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

#[cfg(not(target_arch = "wasm32"))]
pub use native::Store;

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::{StoreError, err, valid_key};
    use std::fs::{self, File, OpenOptions};
    use std::io::{ErrorKind, Write};
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicU64, Ordering};

    /// Temporary files of one process get distinct names.
    static NEXT_TEMP: AtomicU64 = AtomicU64::new(0);

    /// A data folder.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Store {
        dir: PathBuf,
    }

    impl Store {
        pub fn at(dir: impl Into<PathBuf>) -> Store {
            Store { dir: dir.into() }
        }

        pub fn dir(&self) -> &Path {
            &self.dir
        }

        fn path(&self, key: &str) -> PathBuf {
            self.dir.join(format!("{key}.ron"))
        }

        fn backup_path(&self, key: &str) -> PathBuf {
            self.dir.join(format!("{key}.ron.bak"))
        }

        fn check(key: &str) -> Result<(), StoreError> {
            if valid_key(key) { Ok(()) } else { Err(err(key, "not a valid name for a save")) }
        }

        /// The text under `key`; `None` when there is none.
        pub fn read(&self, key: &str) -> Result<Option<String>, StoreError> {
            Self::check(key)?;
            read_file(key, &self.path(key))
        }

        /// The version `key` held before the last write, if kept.
        pub fn read_backup(&self, key: &str) -> Result<Option<String>, StoreError> {
            Self::check(key)?;
            read_file(key, &self.backup_path(key))
        }

        /// Writes `text` under `key`, atomically and durably; the version it replaces becomes
        /// the backup.
        pub fn write(&self, key: &str, text: &str) -> Result<(), StoreError> {
            Self::check(key)?;
            fs::create_dir_all(&self.dir)
                .map_err(|e| err(key, format!("cannot create {}: {e}", self.dir.display())))?;
            self.remove_stale_temps(key);
            let target = self.path(key);
            let temp = self.write_temp(key, text)?;
            if target.exists() {
                // The backup is made by a link (or a copy) of the current file, so the current
                // file stays in place until the new one replaces it in one rename.
                let bak_temp = self.temp_path(key);
                let linked = fs::hard_link(&target, &bak_temp).is_ok()
                    || fs::copy(&target, &bak_temp).and_then(|_| File::open(&bak_temp)?.sync_all()).is_ok();
                if linked {
                    let _ = fs::rename(&bak_temp, self.backup_path(key));
                }
                // Gone after the rename, except where the backup already was this very file
                // (a rename between two links of one file does nothing).
                let _ = fs::remove_file(&bak_temp);
            }
            if let Err(e) = fs::rename(&temp, &target) {
                let _ = fs::remove_file(&temp);
                return Err(err(key, format!("cannot replace {}: {e}", target.display())));
            }
            sync_dir(&self.dir);
            Ok(())
        }

        /// Makes the backup the current version again (the current one becomes the backup).
        pub fn restore_backup(&self, key: &str) -> Result<(), StoreError> {
            let text = self.read_backup(key)?.ok_or_else(|| err(key, "there is no backup to restore"))?;
            self.write(key, &text)
        }

        /// Renames an unreadable `key` out of the way (`KEY.ron.corrupt-N`) and says where it went.
        pub fn set_aside(&self, key: &str) -> Result<String, StoreError> {
            Self::check(key)?;
            let from = self.path(key);
            for n in 1..10_000u32 {
                let name = format!("{key}.ron.corrupt-{n}");
                let to = self.dir.join(&name);
                if to.exists() {
                    continue;
                }
                return match fs::rename(&from, &to) {
                    Ok(()) => {
                        sync_dir(&self.dir);
                        Ok(name)
                    }
                    Err(e) => Err(err(key, format!("cannot set {} aside: {e}", from.display()))),
                };
            }
            Err(err(key, "too many files set aside already"))
        }

        /// Removes `key` and its backup.
        pub fn remove(&self, key: &str) -> Result<(), StoreError> {
            Self::check(key)?;
            for path in [self.path(key), self.backup_path(key)] {
                match fs::remove_file(&path) {
                    Ok(()) => {}
                    Err(e) if e.kind() == ErrorKind::NotFound => {}
                    Err(e) => return Err(err(key, format!("cannot remove {}: {e}", path.display()))),
                }
            }
            sync_dir(&self.dir);
            Ok(())
        }

        /// The keys that start with `prefix` and hold a current version or a backup, sorted.
        pub fn keys(&self, prefix: &str) -> Vec<String> {
            let Ok(entries) = fs::read_dir(&self.dir) else { return Vec::new() };
            let mut keys: Vec<String> = entries
                .filter_map(Result::ok)
                .filter_map(|e| e.file_name().into_string().ok())
                .filter_map(|name| {
                    let key = name.strip_suffix(".ron.bak").or_else(|| name.strip_suffix(".ron"))?;
                    (key.starts_with(prefix) && valid_key(key)).then(|| key.to_string())
                })
                .collect();
            keys.sort();
            keys.dedup();
            keys
        }

        fn temp_path(&self, key: &str) -> PathBuf {
            let n = NEXT_TEMP.fetch_add(1, Ordering::Relaxed);
            self.dir.join(format!("{key}.ron.tmp-{}-{n}", std::process::id()))
        }

        fn write_temp(&self, key: &str, text: &str) -> Result<PathBuf, StoreError> {
            let temp = self.temp_path(key);
            let written = OpenOptions::new().write(true).create_new(true).open(&temp).and_then(|mut file| {
                file.write_all(text.as_bytes())?;
                file.flush()?;
                file.sync_all()
            });
            match written {
                Ok(()) => Ok(temp),
                Err(e) => {
                    let _ = fs::remove_file(&temp);
                    let full = e.kind() == ErrorKind::StorageFull;
                    let mut e = err(key, format!("cannot write {}: {e}", temp.display()));
                    e.full = full;
                    Err(e)
                }
            }
        }

        /// Temporary files left by a process that died while writing `key`.
        fn remove_stale_temps(&self, key: &str) {
            let own = format!("{key}.ron.tmp-{}-", std::process::id());
            let any = format!("{key}.ron.tmp-");
            let Ok(entries) = fs::read_dir(&self.dir) else { return };
            for entry in entries.filter_map(Result::ok) {
                let name = entry.file_name().to_string_lossy().to_string();
                if name.starts_with(&any) && !name.starts_with(&own) {
                    let _ = fs::remove_file(entry.path());
                }
            }
        }
    }

    fn read_file(key: &str, path: &Path) -> Result<Option<String>, StoreError> {
        match fs::read(path) {
            Ok(bytes) => {
                String::from_utf8(bytes).map(Some).map_err(|_| err(key, format!("{} is not text", path.display())))
            }
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
            Err(e) => Err(err(key, format!("cannot read {}: {e}", path.display()))),
        }
    }

    /// Makes the renames in `dir` durable (a no-op where folders cannot be opened).
    fn sync_dir(dir: &Path) {
        #[cfg(unix)]
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        #[cfg(not(unix))]
        let _ = dir;
    }
}

#[cfg(target_arch = "wasm32")]
pub use browser::Store;

#[cfg(target_arch = "wasm32")]
mod browser {
    use super::{StoreError, err, valid_key};

    /// The browser's local storage, under `kriegsspiel/`.
    #[derive(Clone, Debug, Default, PartialEq, Eq)]
    pub struct Store;

    const ROOT: &str = "kriegsspiel/";

    fn storage(key: &str) -> Result<web_sys::Storage, StoreError> {
        web_sys::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .ok_or_else(|| err(key, "the browser offers no local storage"))
    }

    fn get(s: &web_sys::Storage, name: &str) -> Option<String> {
        s.get_item(&format!("{ROOT}{name}")).ok().flatten()
    }

    fn set(s: &web_sys::Storage, key: &str, name: &str, value: &str) -> Result<(), StoreError> {
        s.set_item(&format!("{ROOT}{name}"), value).map_err(|e| {
            let name = js_sys::Reflect::get(&e, &wasm_bindgen::JsValue::from_str("name"))
                .ok()
                .and_then(|n| n.as_string())
                .unwrap_or_default();
            let full = name.contains("Quota");
            let mut e = err(
                key,
                if full { "the browser's storage for this page is full" } else { "the browser refused to store it" },
            );
            e.full = full;
            e
        })
    }

    fn remove(s: &web_sys::Storage, name: &str) {
        let _ = s.remove_item(&format!("{ROOT}{name}"));
    }

    /// The version a pointer names (`@N`), or `None` for a value written before pointers.
    fn generation(pointer: &str) -> Option<u64> {
        pointer.strip_prefix('@')?.parse().ok()
    }

    impl Store {
        fn check(key: &str) -> Result<web_sys::Storage, StoreError> {
            if !valid_key(key) {
                return Err(err(key, "not a valid name for a save"));
            }
            storage(key)
        }

        fn read_at(&self, key: &str, pointer_name: &str) -> Result<Option<String>, StoreError> {
            let s = Self::check(key)?;
            Ok(match get(&s, pointer_name) {
                None => None,
                Some(p) => match generation(&p) {
                    Some(g) => get(&s, &format!("{key}@{g}")),
                    None => Some(p),
                },
            })
        }

        pub fn read(&self, key: &str) -> Result<Option<String>, StoreError> {
            self.read_at(key, key)
        }

        pub fn read_backup(&self, key: &str) -> Result<Option<String>, StoreError> {
            self.read_at(key, &format!("{key}.bak"))
        }

        pub fn write(&self, key: &str, text: &str) -> Result<(), StoreError> {
            let s = Self::check(key)?;
            let old = get(&s, key);
            let mut old_gen = old.as_deref().and_then(generation);
            if let (Some(value), None) = (&old, old_gen) {
                // A value from before pointers: keep it under its own name first.
                set(&s, key, &format!("{key}@0"), value)?;
                old_gen = Some(0);
            }
            let old_bak = get(&s, &format!("{key}.bak")).as_deref().and_then(generation);
            let new_gen = old_gen.max(old_bak).map_or(1, |g| g + 1);
            set(&s, key, &format!("{key}@{new_gen}"), text)?;
            set(&s, key, key, &format!("@{new_gen}"))?;
            if let Some(g) = old_gen {
                set(&s, key, &format!("{key}.bak"), &format!("@{g}"))?;
            }
            if let Some(b) = old_bak.filter(|b| Some(*b) != old_gen && *b != new_gen) {
                remove(&s, &format!("{key}@{b}"));
            }
            Ok(())
        }

        pub fn restore_backup(&self, key: &str) -> Result<(), StoreError> {
            let text = self.read_backup(key)?.ok_or_else(|| err(key, "there is no backup to restore"))?;
            self.write(key, &text)
        }

        pub fn set_aside(&self, key: &str) -> Result<String, StoreError> {
            let s = Self::check(key)?;
            let text = self.read(key)?.unwrap_or_default();
            for n in 1..10_000u32 {
                let name = format!("{key}.corrupt-{n}");
                if get(&s, &name).is_none() {
                    set(&s, key, &name, &text)?;
                    if let Some(g) = get(&s, key).as_deref().and_then(generation) {
                        remove(&s, &format!("{key}@{g}"));
                    }
                    remove(&s, key);
                    return Ok(name);
                }
            }
            Err(err(key, "too many values set aside already"))
        }

        pub fn remove(&self, key: &str) -> Result<(), StoreError> {
            let s = Self::check(key)?;
            for pointer in [key.to_string(), format!("{key}.bak")] {
                if let Some(g) = get(&s, &pointer).as_deref().and_then(generation) {
                    remove(&s, &format!("{key}@{g}"));
                }
                remove(&s, &pointer);
            }
            Ok(())
        }

        pub fn keys(&self, prefix: &str) -> Vec<String> {
            let Ok(s) = storage(prefix) else { return Vec::new() };
            let len = s.length().unwrap_or(0);
            let mut keys: Vec<String> = (0..len)
                .filter_map(|i| s.key(i).ok().flatten())
                .filter_map(|name| {
                    let name = name.strip_prefix(ROOT)?;
                    let key = name.strip_suffix(".bak").unwrap_or(name);
                    (key.starts_with(prefix) && valid_key(key)).then(|| key.to_string())
                })
                .collect();
            keys.sort();
            keys.dedup();
            keys
        }
    }
}
