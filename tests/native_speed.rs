//! Issue 30, natively: the frame time of panning the largest map and the resident memory over a
//! 20-turn game, measured by running the game itself under Xvfb (software Vulkan, 1280 × 720).
//! Ignored by default (they need `xvfb-run` and a release build to mean anything):
//!
//! ```text
//! cargo test --release --test native_speed -- --ignored --nocapture
//! ```
//!
//! The frame figures are printed with the issue's bounds (median ≤ 16 ms, 95th percentile
//! ≤ 33 ms); the memory test fails if the game's resident memory grows by more than a tenth
//! between its second turn and its last.

use std::process::Command;

const AUGUST_1914: &str = "scenarios/great_war/august_1914.ron";

/// Runs the game under Xvfb with `args`; its standard output.
fn run_game(args: &[&str]) -> String {
    let out = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x720x24", env!("CARGO_BIN_EXE_kriegsspiel")])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("xvfb-run runs (apt-get install xvfb mesa-vulkan-drivers)");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "the game failed: {}\n{text}", String::from_utf8_lossy(&out.stderr));
    text
}

/// `median 12.3 ms, 95th percentile 20.1 ms, worst 33.0 ms`: the three figures.
fn figures(line: &str) -> Option<(f32, f32, f32)> {
    let number = |key: &str| -> Option<f32> {
        let rest = &line[line.find(key)? + key.len()..];
        rest.trim_start().split(' ').next()?.parse().ok()
    };
    Some((number("median")?, number("95th percentile")?, number("worst")?))
}

#[test]
fn figures_are_read_from_the_games_report() {
    let line =
        "frame stats x whole field (scale 27.10): median 12.3 ms, 95th percentile 20.1 ms, worst 33.0 ms (300 frames)";
    assert_eq!(figures(line), Some((12.3, 20.1, 33.0)));
    assert_eq!(figures("resident memory: 1.0 MB"), None);
}

#[test]
#[ignore = "needs xvfb-run and a release build: cargo test --release --test native_speed -- --ignored"]
fn panning_august_1914_at_three_zooms() {
    let out = run_game(&["--scenario", AUGUST_1914, "--frame-stats", "150"]);
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("frame stats")).collect();
    assert_eq!(lines.len(), 4, "three zooms and all of them:\n{out}");
    for line in &lines {
        let (median, p95, _) = figures(line).expect("figures");
        let over = median > 16.0 || p95 > 33.0;
        println!("{line}{}", if over { "  OVER THE BOUND (issue 30: median ≤ 16 ms, 95th ≤ 33 ms)" } else { "" });
    }
    for line in out.lines().filter(|l| l.starts_with("resident memory")) {
        println!("{line}");
    }
}

#[test]
#[ignore = "needs xvfb-run and a release build: cargo test --release --test native_speed -- --ignored"]
fn the_resident_memory_does_not_grow_over_twenty_turns() {
    let out = run_game(&["--scenario", AUGUST_1914, "--ai", "all", "--level", "veteran", "--exit-after-turns", "20"]);
    let per_turn: Vec<(u32, f64)> = out
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("turn ")?;
            let (turn, mb) = rest.split_once(": resident memory ")?;
            Some((turn.parse().ok()?, mb.trim_end_matches(" MB").parse().ok()?))
        })
        .collect();
    for (turn, mb) in &per_turn {
        println!("turn {turn}: {mb:.1} MB");
    }
    let (Some(second), Some(last)) = (per_turn.get(1), per_turn.last()) else { panic!("no turns reported:\n{out}") };
    assert!(per_turn.len() >= 20, "twenty turns played:\n{out}");
    assert!(
        last.1 <= second.1 * 1.10,
        "resident memory grew from {:.1} MB (turn {}) to {:.1} MB (turn {})",
        second.1,
        second.0,
        last.1,
        last.0
    );
}
