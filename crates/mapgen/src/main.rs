//! `mapgen`: writes maps/europe_1914.ron from Natural Earth land and the tables in maps/data.
//!
//! Usage: `mapgen [--atlas DIR] [--data DIR] [--out FILE] [--check]`. The atlas folder is npm's
//! `world-atlas@2.0.2` (default: `$MAPGEN_ATLAS`, else `crates/mapgen/.cache/node_modules/world-atlas`).
//! With `--check` nothing is written: the exit code is 1 when FILE differs from the output.

use mapgen::{Inputs, read_table, topo};
use std::path::PathBuf;
use std::process::ExitCode;

fn run() -> Result<bool, String> {
    let mut atlas = std::env::var_os("MAPGEN_ATLAS")
        .map_or_else(|| PathBuf::from("crates/mapgen/.cache/node_modules/world-atlas"), PathBuf::from);
    let mut data = PathBuf::from("maps/data");
    let mut out = PathBuf::from("maps/europe_1914.ron");
    let mut check = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().map(PathBuf::from).ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--atlas" => atlas = value()?,
            "--data" => data = value()?,
            "--out" => out = value()?,
            "--check" => check = true,
            _ => return Err(format!("unknown argument `{a}` (use --atlas DIR --data DIR --out FILE --check)")),
        }
    }
    let land_path = atlas.join("land-10m.json");
    let json = std::fs::read_to_string(&land_path).map_err(|e| format!("{}: {e}", land_path.display()))?;
    let inputs = Inputs {
        frame: read_table(&data.join("frame_1914.ron"))?,
        land: topo::rings(&json, "land")?,
        powers: read_table(&data.join("powers_1914.ron"))?,
        provinces: read_table(&data.join("provinces_1914.ron"))?,
        cities: read_table(&data.join("cities_1914.ron"))?,
        terrain: read_table(&data.join("terrain_1914.ron"))?,
    };
    let text = mapgen::generate(&inputs)?;
    if check {
        let old = std::fs::read_to_string(&out).unwrap_or_default();
        if old != text {
            eprintln!("{} differs from what mapgen builds: run `cargo run -p mapgen --release`", out.display());
            return Ok(false);
        }
        println!("{}: up to date", out.display());
        return Ok(true);
    }
    std::fs::write(&out, &text).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("{}: {} bytes", out.display(), text.len());
    Ok(true)
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
