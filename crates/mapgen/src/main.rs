//! `mapgen`: writes maps/europe_1914.ron and its theatre cuts (maps/data/cuts_1914.ron, written
//! next to it) from Natural Earth land and the tables in maps/data.
//!
//! Usage: `mapgen [--atlas DIR] [--data DIR] [--out FILE] [--check]`. The atlas folder is npm's
//! `world-atlas@2.0.2` (default: `$MAPGEN_ATLAS`, else `crates/mapgen/.cache/node_modules/world-atlas`).
//! With `--check` nothing is written: the exit code is 1 when FILE or a cut differs from the output.
//! `mapgen scenarios [--root DIR] [--check]` builds the Great War scenarios of 1914 (and North Sea
//! 1916) from `scenarios/great_war/data/` (see `oob`). `mapgen campaign [--check]` builds the
//! Napoleonic campaign maps of `maps/data/campaign_*.ron` (see `mapgen::campaign`).

use mapgen::{Inputs, read_table, topo};
use std::path::PathBuf;
use std::process::ExitCode;

/// `mapgen scenarios [--root DIR] [--check]`: writes (or checks) the Great War scenarios built
/// from `scenarios/great_war/data/` and prints the units of each.
fn scenarios(mut args: impl Iterator<Item = String>) -> Result<bool, String> {
    let mut root = PathBuf::from(".");
    let mut check = false;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--root" => root = args.next().map(PathBuf::from).ok_or("--root needs a value")?,
            "--check" => check = true,
            _ => return Err(format!("unknown argument `{a}` (use scenarios --root DIR --check)")),
        }
    }
    let folders = mapgen::oob::Folders::at(&root);
    let mut same = true;
    for g in mapgen::oob::generate_all(&folders)? {
        let out = folders.scenarios.join(&g.file);
        println!("{}: {}", out.display(), g.census);
        let mut moved = g.nudged.clone();
        moved.sort_by_key(|(what, km)| (std::cmp::Reverse(*km), what.clone()));
        println!("  {} units moved to the nearest legal hex; the farthest:", moved.len());
        for (what, km) in moved.iter().take(8) {
            println!("    {km} km: {what}");
        }
        if check {
            if std::fs::read_to_string(&out).unwrap_or_default() != g.text {
                eprintln!("{} differs from what mapgen builds: run `mapgen scenarios`", out.display());
                same = false;
            }
        } else {
            std::fs::write(&out, &g.text).map_err(|e| format!("{}: {e}", out.display()))?;
        }
        for (file, text) in &g.orders {
            let out = folders.scenarios.join(file);
            if !check {
                std::fs::write(&out, text).map_err(|e| format!("{}: {e}", out.display()))?;
            } else if std::fs::read_to_string(&out).unwrap_or_default() != *text {
                eprintln!("{} differs from what mapgen builds: run `mapgen scenarios`", out.display());
                same = false;
            }
        }
    }
    Ok(same)
}

/// `mapgen campaign [--atlas DIR] [--data DIR] [--check]`: writes (or checks) the campaign maps
/// of every `campaign_*.ron` frame in the data folder (see `mapgen::campaign`).
fn campaigns(mut args: impl Iterator<Item = String>, mut atlas: PathBuf) -> Result<bool, String> {
    let mut data = PathBuf::from("maps/data");
    let mut check = false;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--atlas" => atlas = args.next().map(PathBuf::from).ok_or("--atlas needs a value")?,
            "--data" => data = args.next().map(PathBuf::from).ok_or("--data needs a value")?,
            "--check" => check = true,
            _ => return Err(format!("unknown argument `{a}` (use campaign --atlas DIR --data DIR --check)")),
        }
    }
    let land_path = atlas.join("land-10m.json");
    let json = std::fs::read_to_string(&land_path).map_err(|e| format!("{}: {e}", land_path.display()))?;
    let land = topo::rings(&json, "land")?;
    let terrain: Vec<mapgen::TerrainArea> = read_table(&data.join("terrain_1914.ron"))?;
    let rivers: Vec<mapgen::features::RiverRow> = read_table(&data.join("rivers_1914.ron"))?;
    let mut frames: Vec<PathBuf> = std::fs::read_dir(&data)
        .map_err(|e| format!("{}: {e}", data.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("campaign_") && n.ends_with(".ron"))
        })
        .collect();
    frames.sort();
    let mut same = true;
    for path in frames {
        let frame: mapgen::campaign::CampaignFrame = read_table(&path)?;
        let text = mapgen::campaign::build(&frame, &land, &terrain, &rivers)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let out = PathBuf::from(&frame.file);
        if check {
            if std::fs::read_to_string(&out).unwrap_or_default() != text {
                eprintln!(
                    "{} differs from what mapgen builds: run `cargo run -p mapgen --release -- campaign`",
                    out.display()
                );
                same = false;
            } else {
                println!("{}: up to date", out.display());
            }
        } else {
            std::fs::write(&out, &text).map_err(|e| format!("{}: {e}", out.display()))?;
            println!("{}: {} bytes", out.display(), text.len());
        }
    }
    Ok(same)
}

fn run() -> Result<bool, String> {
    if std::env::args().nth(1).as_deref() == Some("scenarios") {
        return scenarios(std::env::args().skip(2));
    }
    let mut atlas = std::env::var_os("MAPGEN_ATLAS")
        .map_or_else(|| PathBuf::from("crates/mapgen/.cache/node_modules/world-atlas"), PathBuf::from);
    if std::env::args().nth(1).as_deref() == Some("campaign") {
        return campaigns(std::env::args().skip(2), atlas);
    }
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
        seas: read_table(&data.join("sea_areas_1914.ron"))?,
        rivers: read_table(&data.join("rivers_1914.ron"))?,
        routes: read_table(&data.join("routes_1914.ron"))?,
        cuts: read_table(&data.join("cuts_1914.ron"))?,
    };
    let folder = out.parent().map(PathBuf::from).unwrap_or_default();
    let mut same = true;
    for (file, text) in mapgen::generate_all(&inputs)? {
        let path = file.map_or_else(|| out.clone(), |f| folder.join(f));
        if check {
            let old = std::fs::read_to_string(&path).unwrap_or_default();
            if old == text {
                println!("{}: up to date", path.display());
            } else {
                eprintln!("{} differs from what mapgen builds: run `cargo run -p mapgen --release`", path.display());
                same = false;
            }
            continue;
        }
        std::fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("{}: {} bytes", path.display(), text.len());
    }
    Ok(same)
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
