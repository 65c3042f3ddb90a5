//! The browser's log: warnings and errors of every crate, and the game's own information, on the
//! page's console, as Bevy's `LogPlugin` would give them natively ("warn,kriegsspiel=info").
//!
//! Bevy's plugin filters by a `tracing_subscriber::EnvFilter`, whose pattern matching (`regex`)
//! is about half a megabyte of the browser's download, and `DefaultPlugins` names it whether it
//! is disabled or not, so the browser build starts Bevy's default plugins of its features less
//! that one ([`WebPlugins`]) and logs here: a fixed filter, a level and a target prefix. The
//! `log` crate's records (wgpu, naga, winit) come here too.

use bevy::log::Level;

/// Whether a record of `level` from `target` is shown: warnings and errors of every crate, the
/// game's own information too.
///
/// ```
/// use bevy::log::Level;
/// use kriegsspiel::console_log::shown;
///
/// assert!(shown(Level::WARN, "wgpu_core::device") && shown(Level::INFO, "kriegsspiel::net"));
/// assert!(!shown(Level::INFO, "wgpu_core::device") && !shown(Level::DEBUG, "kriegsspiel"));
/// ```
pub fn shown(level: Level, target: &str) -> bool {
    level <= Level::WARN || (level <= Level::INFO && (target == "kriegsspiel" || target.starts_with("kriegsspiel::")))
}

#[cfg(target_arch = "wasm32")]
pub use console::install;

#[cfg(target_arch = "wasm32")]
mod console {
    use super::shown;
    use bevy::log::tracing::field::{Field, Visit};
    use bevy::log::tracing::span::{Attributes, Id, Record};
    use bevy::log::tracing::{Event, Level, Metadata, Subscriber};
    use std::fmt::Write as _;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// The words of a record: its message, then its other fields.
    #[derive(Default)]
    struct Words(String);

    impl Visit for Words {
        fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
            if field.name() == "message" {
                let _ = write!(self.0, "{value:?}");
            } else {
                let _ = write!(self.0, " {}={value:?}", field.name());
            }
        }

        fn record_str(&mut self, field: &Field, value: &str) {
            if field.name() == "message" {
                self.0.push_str(value);
            } else {
                let _ = write!(self.0, " {}={value}", field.name());
            }
        }
    }

    /// One line on the page's console, its level at its head: every level on the console's log,
    /// as Bevy's own plugin (`tracing-wasm`) writes them, so that a page's errors are what the
    /// browser reports (an uncaught exception, a panic), not a record of a crate.
    fn write(level: Level, target: &str, words: &str) {
        web_sys::console::log_1(&wasm_bindgen::JsValue::from_str(&format!("{level} {target}: {words}")));
    }

    /// The subscriber: events only (spans are numbered and forgotten).
    struct Console {
        next_span: AtomicU64,
    }

    impl Subscriber for Console {
        fn enabled(&self, metadata: &Metadata<'_>) -> bool {
            shown(*metadata.level(), metadata.target())
        }

        fn new_span(&self, _span: &Attributes<'_>) -> Id {
            Id::from_u64(self.next_span.fetch_add(1, Ordering::Relaxed).max(1))
        }

        fn record(&self, _span: &Id, _values: &Record<'_>) {}

        fn record_follows_from(&self, _span: &Id, _follows: &Id) {}

        fn event(&self, event: &Event<'_>) {
            let mut words = Words::default();
            event.record(&mut words);
            write(*event.metadata().level(), event.metadata().target(), &words.0);
        }

        fn enter(&self, _span: &Id) {}

        fn exit(&self, _span: &Id) {}
    }

    /// The `log` crate's records.
    struct LogRecords;

    impl log::Log for LogRecords {
        fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
            metadata.level() <= log::Level::Warn
        }

        fn log(&self, record: &log::Record<'_>) {
            if self.enabled(record.metadata()) {
                let level = if record.level() == log::Level::Error { Level::ERROR } else { Level::WARN };
                write(level, record.target(), &record.args().to_string());
            }
        }

        fn flush(&self) {}
    }

    static LOG_RECORDS: LogRecords = LogRecords;

    /// Sends the log to the page's console (once; a second call changes nothing).
    pub fn install() {
        let _ = bevy::log::tracing::subscriber::set_global_default(Console { next_span: AtomicU64::new(1) });
        if log::set_logger(&LOG_RECORDS).is_ok() {
            log::set_max_level(log::LevelFilter::Warn);
        }
    }
}

/// Bevy's `DefaultPlugins` as this build's features make them in the browser (bevy_internal's
/// `default_plugins.rs`, 0.19), in their order, less `LogPlugin`: a Bevy upgrade checks this
/// list against that file (`web/test.sh` fails if the game does not start). `window` is the
/// window plugin as the game sets it.
#[cfg(target_arch = "wasm32")]
pub struct WebPlugins(pub bevy::window::WindowPlugin);

#[cfg(target_arch = "wasm32")]
impl bevy::app::PluginGroup for WebPlugins {
    fn build(self) -> bevy::app::PluginGroupBuilder {
        bevy::app::PluginGroupBuilder::start::<Self>()
            .add(bevy::app::PanicHandlerPlugin)
            .add(bevy::app::TaskPoolPlugin::default())
            .add(bevy::diagnostic::FrameCountPlugin)
            .add(bevy::time::TimePlugin)
            .add(bevy::transform::TransformPlugin)
            .add(bevy::diagnostic::DiagnosticsPlugin)
            .add(bevy::input::InputPlugin)
            .add(self.0)
            .add(bevy::a11y::AccessibilityPlugin)
            .add(bevy::asset::AssetPlugin::default())
            .add(bevy::winit::WinitPlugin::default())
            .add(bevy::render::RenderPlugin::default())
            .add(bevy::image::ImagePlugin::default())
            .add(bevy::mesh::MeshPlugin)
            .add(bevy::camera::CameraPlugin)
            .add(bevy::core_pipeline::CorePipelinePlugin)
            .add(bevy::sprite::SpritePlugin)
            .add(bevy::sprite_render::SpriteRenderPlugin)
            .add(bevy::state::app::StatesPlugin)
    }
}
