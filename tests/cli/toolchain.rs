//! The toolchain the manifest promises: `rust-version` in Cargo.toml is at least the
//! `rust-version` every locked dependency declares, for the packages a build on this machine
//! compiles (the bot's, the tests' and the benchmarks'), so a toolchain that satisfies it is not
//! refused by a dependency. What this does not check is written in README.md ("The two
//! commands"): that our own code builds with that toolchain (clippy's `incompatible_msrv` lint
//! checks its use of the standard library against it).

use std::process::Command;

/// `1.89`, `1.85.0` as numbers to compare.
fn version(v: &str) -> (u64, u64, u64) {
    let mut parts = v.split('.').map(|p| p.parse::<u64>().unwrap_or(0));
    let mut next = || parts.next().unwrap_or(0);
    (next(), next(), next())
}

#[test]
fn rust_version_is_at_least_every_locked_dependencys() {
    let rustc = Command::new("rustc").arg("-vV").output().unwrap();
    let info = String::from_utf8(rustc.stdout).unwrap();
    let host = info
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("rustc -vV names the host");
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // Offline: the build that ran this test has fetched every package for this host.
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--offline"])
        .args(["--filter-platform", host, "--manifest-path", manifest])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let packages = metadata["packages"].as_array().unwrap();
    let declared = |p: &serde_json::Value| p["rust_version"].as_str().map(version);
    let ours = packages
        .iter()
        .find(|p| p["name"] == "tablut-bot")
        .and_then(declared)
        .expect("Cargo.toml declares rust-version");
    let (needed, by) = packages
        .iter()
        .filter(|p| p["name"] != "tablut-bot")
        .filter_map(|p| Some((declared(p)?, format!("{} {}", p["name"], p["version"]))))
        .max()
        .unwrap();
    assert!(
        ours >= needed,
        "Cargo.toml's rust-version {ours:?} is below {needed:?}, which {by} declares: raise it"
    );
}
