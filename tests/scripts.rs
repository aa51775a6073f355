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
