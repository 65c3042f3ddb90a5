//! The server's settings from its command line: where it listens, where it keeps its data, which
//! database is the store of record.

use std::net::SocketAddr;
use std::path::PathBuf;

/// The port the server listens on when `--bind` is not given.
pub const DEFAULT_PORT: u16 = 7914;

#[derive(Clone, Debug, clap::Parser)]
#[command(name = "kriegsspiel-server", about = "Kriegsspiel's umpire as a server")]
pub struct Args {
    /// Address and port to listen on.
    #[arg(long, default_value_t = SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)))]
    pub bind: SocketAddr,
    /// The data folder (else KRIEGSSPIEL_DATA_DIR, else the platform's, as for the game).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// The store of record: `sqlite:PATH` or `postgres://…` (default: a SQLite file in the data folder).
    #[arg(long)]
    pub db: Option<String>,
    /// The folder of the shipped scenarios.
    #[arg(long, default_value = "scenarios")]
    pub scenarios: PathBuf,
    /// The browser build, served at `/` beside the API (`web/build.sh` makes it): a seat's
    /// invite link `/?game=ID&seat=TOKEN` opens the game at its seat.
    #[arg(long, default_value = "web/dist")]
    pub web: PathBuf,
    /// Listen on an address other than localhost without TLS.
    #[arg(long)]
    pub insecure_public: bool,
    /// A certificate chain (PEM): the server speaks TLS (with `--tls-key`).
    #[arg(long, requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The certificate's private key (PEM).
    #[arg(long, requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Where the other server processes on the same PostgreSQL reach this one (default: the
    /// address it listens on).
    #[arg(long)]
    pub advertise: Option<SocketAddr>,
    /// How long a game's lease lasts unless renewed, in seconds: how soon another process takes
    /// over the games of one that hangs (one that dies is seen at once).
    #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub lease_secs: u64,
}

/// Why the server would not start.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("no data folder: set KRIEGSSPIEL_DATA_DIR or --data-dir")]
    NoDataDir,
    #[error("the data folder {0}: {1}")]
    DataDir(PathBuf, std::io::Error),
    #[error(
        "{0} is not a loopback address: without TLS the server listens on localhost only (give --insecure-public to listen there anyway)"
    )]
    Public(SocketAddr),
}

/// The data folder: `--data-dir`, else `KRIEGSSPIEL_DATA_DIR`, else the platform's
/// (`~/.local/share/kriegsspiel`), the game's own rule (`src/storage.rs`).
pub fn data_dir(flag: Option<PathBuf>) -> Result<PathBuf, ConfigError> {
    if let Some(d) = flag {
        return Ok(d);
    }
    if let Ok(d) = std::env::var("KRIEGSSPIEL_DATA_DIR") {
        return Ok(PathBuf::from(d));
    }
    dirs::data_dir().map(|d| d.join("kriegsspiel")).ok_or(ConfigError::NoDataDir)
}

/// The database URL: `--db`, else `server.sqlite` in the data folder (created with its folder).
pub fn db_url(flag: Option<String>, data: &std::path::Path) -> Result<String, ConfigError> {
    if let Some(url) = flag {
        return Ok(url);
    }
    std::fs::create_dir_all(data).map_err(|e| ConfigError::DataDir(data.to_path_buf(), e))?;
    Ok(format!("sqlite:{}", data.join("server.sqlite").display()))
}

/// Without TLS the server binds to loopback only, unless told otherwise.
pub fn check_bind(bind: SocketAddr, insecure_public: bool, tls: bool) -> Result<(), ConfigError> {
    if bind.ip().is_loopback() || insecure_public || tls { Ok(()) } else { Err(ConfigError::Public(bind)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_localhost_needs_the_insecure_flag() {
        let public = SocketAddr::from(([0, 0, 0, 0], 80));
        assert!(check_bind(public, false, false).is_err());
        assert!(check_bind(public, true, false).is_ok());
        assert!(check_bind(public, false, true).is_ok(), "with TLS");
        assert!(check_bind(SocketAddr::from(([127, 0, 0, 1], 80)), false, false).is_ok());
    }

    #[test]
    fn the_default_database_is_a_file_in_the_data_folder() {
        let dir = std::env::temp_dir().join(format!("ks-server-config-{}", std::process::id()));
        let url = db_url(None, &dir).expect("creates the folder");
        assert_eq!(url, format!("sqlite:{}", dir.join("server.sqlite").display()));
        assert!(dir.is_dir());
        assert_eq!(db_url(Some("postgres://x".into()), &dir).expect("given"), "postgres://x");
    }
}
