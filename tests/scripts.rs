//! Every script in scripts/ answers `-h` with its usage and exits 0, so none can rot silently
//! into a syntax error.

use std::process::Command;

#[test]
fn every_script_prints_usage() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("sh") {
            continue;
        }
        let syntax = Command::new("bash").arg("-n").arg(&path).status().unwrap();
        assert!(syntax.success(), "{}: syntax error", path.display());
        let out = Command::new("bash").arg(&path).arg("-h").output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}: -h failed", path.display());
        assert!(
            text.lines().count() >= 1 && text.len() > 40,
            "{}: no usage: {text}",
            path.display()
        );
        seen += 1;
    }
    assert!(seen >= 5, "{seen} scripts");
}

/// The scripts find cargo's binaries where cargo puts them: under `CARGO_TARGET_DIR` when it is
/// set (a new user's shell had it, and every script failed on `target/release/...`), so none
/// names `target/release` itself.
#[test]
fn scripts_find_binaries_through_cargo_target_dir() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts");
    let mut using = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("sh") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            assert!(
                !line.contains("target/release"),
                "{}:{}: names target/release; use ${{CARGO_TARGET_DIR:-target}}/release: {line}",
                path.display(),
                n + 1
            );
        }
        using += text.contains("${CARGO_TARGET_DIR:-") as usize;
    }
    assert!(using >= 8, "{using} scripts use CARGO_TARGET_DIR");
}
