//! Every environment variable named to the user (in `--help` texts and the documents) is one the
//! code reads, spelt as the code spells it. (`otau tables --help` named `$OTAU_CACHE`, which
//! nothing reads: the code reads `OTAU_CACHE_DIR`.)

use std::collections::BTreeSet;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// `OTAU_...` names in a text (upper-case letters, digits and `_` after the prefix).
fn names_in(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(at) = text[i..].find("OTAU_") {
        let start = i + at;
        let mut end = start + 5;
        while end < bytes.len()
            && (bytes[end].is_ascii_uppercase()
                || bytes[end].is_ascii_digit()
                || bytes[end] == b'_')
        {
            end += 1;
        }
        // `OTAU_` glued to a longer word (`XOTAU_`) is not a name.
        let glued = start > 0 && (bytes[start - 1].is_ascii_alphanumeric());
        if !glued && end > start + 5 {
            out.insert(text[start..end].trim_end_matches('_').to_string());
        }
        i = end;
    }
    out
}

/// The names the code reads: string literals `"OTAU_..."` in src/ and tests/.
fn read_by_code() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for dir in ["src", "tests"] {
        let mut stack = vec![Path::new(ROOT).join(dir)];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    for piece in text.split("\"OTAU_").skip(1) {
                        if let Some(end) = piece.find('"') {
                            out.insert(format!("OTAU_{}", &piece[..end]));
                        }
                    }
                }
            }
        }
    }
    out
}

fn help(program: &str, args: &[&str]) -> String {
    let out = crate::support::command(program)
        .args(args)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Subcommand names listed under `Commands:` in a clap help text.
fn subcommands(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .filter(|c| c != "help")
        .collect()
}

#[test]
fn every_named_variable_is_read_by_the_code() {
    let known = read_by_code();
    assert!(known.contains("OTAU_CACHE_DIR"), "{known:?}");
    let mut texts: Vec<(String, String)> = Vec::new();
    for program in [env!("CARGO_BIN_EXE_otau"), env!("CARGO_BIN_EXE_otau-arena")] {
        let top = help(program, &["--help"]);
        for sub in subcommands(&top) {
            texts.push((
                format!("{program} {sub} --help"),
                help(program, &[&sub, "--help"]),
            ));
        }
        texts.push((format!("{program} --help"), top));
    }
    let mut docs = vec![Path::new(ROOT).join("README.md")];
    for entry in std::fs::read_dir(Path::new(ROOT).join("protocol")).unwrap() {
        docs.push(entry.unwrap().path());
    }
    for doc in docs {
        texts.push((
            doc.display().to_string(),
            std::fs::read_to_string(&doc).unwrap(),
        ));
    }
    let tables = texts
        .iter()
        .find(|(w, _)| w.ends_with("otau tables --help"))
        .expect("otau tables has a help text");
    assert!(tables.1.contains("$OTAU_CACHE_DIR"), "{}", tables.1);
    for (where_, text) in &texts {
        for name in names_in(text) {
            assert!(
                known.contains(&name),
                "{where_} names {name}, which the code does not read (it reads {known:?})"
            );
        }
    }
}
