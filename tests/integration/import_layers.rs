//! No import circles between the crate's modules (issue #17: a module's `use crate::x` must not
//! point back up the layers). Reads every `src/**/*.rs` of the library (not `src/bin`), takes the
//! paths it names (`use crate::…`, `use super::…`, `use` of a child module, and `crate::…` /
//! `super::…` paths in code), maps each to its module — the top-level module, or for `arena` and
//! `games` its submodule (`arena::client`, `games::types`; see [`SPLIT`]) — and fails naming every
//! circle, with a file and line for each step. Comments, string literals and `#[cfg(test)]` items
//! do not count: a test may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Top-level modules whose submodules are nodes of their own: the arena (most of the crate), and
/// the games, whose files are layers of their own (the vocabulary `types, variant, text, board`,
/// then `notation`, the `Game` trait, the games; see `src/games/notation.rs`). A file inside such a
/// module names its neighbours directly (`super::types::Side`, not `super::Side`, which is the
/// re-export in mod.rs and would point back up).
const SPLIT: &[&str] = &["arena", "games"];

#[test]
fn the_module_graph_has_no_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let crate_ = Crate::read(&src);
    let edges = crate_.edges();
    assert!(
        edges.len() > 20,
        "the scan found only {} module edges in {}: the parser is broken",
        edges.len(),
        src.display()
    );
    if std::env::var_os("OTAU_PRINT_LAYERS").is_some() {
        for ((from, to), place) in &edges {
            println!("{from} -> {to} ({place})");
        }
    }
    let circles = circles(&edges);
    assert!(
        circles.is_empty(),
        "import circles between modules (each step: from -> to at file:line):\n{}",
        circles.join("\n")
    );
}

/// The layers of README.md's "Architecture" (its numbers times ten; `pgn` and `perft` come
/// "then" in layer 1, `play` is the `otau play` front beside `ugi`). A module imports only from a
/// lower layer; inside one top-level module the circle test above is the rule.
const LAYERS: &[(&str, u32)] = &[
    ("sync", 10),
    ("games", 10),
    ("input", 10),
    ("key_values", 10),
    ("pgn", 11),
    ("names", 11),
    ("perft", 11),
    ("eval", 20),
    ("tables", 20),
    ("search", 30),
    ("ugi", 40),
    ("play", 40),
    ("stats", 50),
    ("arena", 60),
    ("web", 70),
    ("cli", 80),
];

#[test]
fn modules_import_only_from_the_layers_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = Crate::read(&src).edges();
    let layer = |node: &str| {
        let top = node.split("::").next().unwrap_or(node);
        LAYERS
            .iter()
            .find(|(m, _)| *m == node)
            .or_else(|| LAYERS.iter().find(|(m, _)| *m == top))
            .map(|&(_, l)| l)
    };
    let mut wrong = Vec::new();
    for ((from, to), place) in &edges {
        let (Some(lf), Some(lt)) = (layer(from), layer(to)) else {
            wrong.push(format!(
                "{from} -> {to} ({place}): a module missing from LAYERS (and README.md's Architecture)"
            ));
            continue;
        };
        let same_module = from.split("::").next() == to.split("::").next();
        if lt >= lf && !(same_module && lt == lf) {
            wrong.push(format!(
                "{from} (layer {lf}) -> {to} (layer {lt}) at {place}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "imports that point up or across the layers:\n{}",
        wrong.join("\n")
    );
}

/// Argv is read in one place: no module below `src/cli` names clap (its derives, its
/// `ValueEnum`), so an arena type's command-line spelling lives in `src/cli` beside the rest of
/// the command line (issue #30). Comments and strings do not count; tests do.
#[test]
fn no_clap_below_the_command_line() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    collect(&src, &src, &mut found);
    let mut wrong = Vec::new();
    for (path, module) in &found {
        if module.first().is_some_and(|m| m == "cli") {
            continue;
        }
        let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let code = code_only(&text);
        let bytes = code.as_bytes();
        for (at, _) in code.match_indices("clap") {
            let before = at.checked_sub(1).map(|k| bytes[k]);
            let after = bytes.get(at + 4).copied();
            if !before.is_some_and(is_ident) && !after.is_some_and(is_ident) {
                let line = code[..at].matches('\n').count() + 1;
                wrong.push(format!("{}:{line}", path.display()));
            }
        }
    }
    assert!(
        found.len() > 20 && wrong.is_empty(),
        "clap named below src/cli (move the command-line knowledge into src/cli):\n{}",
        wrong.join("\n")
    );
}

/// The parser itself, on a small text: the edges it must and must not see.
#[test]
fn the_scan_reads_groups_and_skips_comments_strings_and_tests() {
    let text = r##"
//! use crate::stats::X; (a comment)
use crate::{games::{Side, Move}, arena::client::{self, Fault}};
use super::records;
use worker::Job;
/* use crate::eval::Y; */
fn f() { let s = "crate::pgn::Z"; let c = '{'; crate::search::go(); let r = r#"crate::play"#; }
#[cfg(test)]
mod tests {
    use crate::tables::T;
    fn g() { let _ = '}'; }
}
fn h<'a>(x: &'a str) -> &'a str { crate::notation::shorten(x) }
"##;
    let file = SourceFile::parse(
        PathBuf::from("src/arena/matchmaking/referee.rs"),
        vec!["arena".into(), "referee".into()],
        text,
    );
    let mut paths: Vec<String> = file.paths.iter().map(|(p, _)| p.join("::")).collect();
    paths.sort();
    assert_eq!(
        paths,
        [
            "arena::client",
            "arena::client::Fault",
            "arena::records",
            "arena::referee::worker::Job",
            "games::Move",
            "games::Side",
            "notation::shorten",
            "search::go",
        ]
    );
}

/// A module path (`["arena", "client"]`) and the line a reference to it is on.
type Ref = (Vec<String>, usize);

struct SourceFile {
    path: PathBuf,
    /// The module this file is (`[]` for lib.rs).
    module: Vec<String>,
    /// Absolute paths it names, with their lines.
    paths: Vec<Ref>,
}

struct Crate {
    files: Vec<SourceFile>,
    /// Module paths that exist (from the file layout).
    modules: BTreeSet<Vec<String>>,
    /// `#[macro_export]` macros (at the crate root) and the module defining each.
    macros: BTreeMap<String, Vec<String>>,
}

impl Crate {
    fn read(src: &Path) -> Crate {
        let mut found = Vec::new();
        collect(src, src, &mut found);
        let mut modules = BTreeSet::new();
        for (_, module) in &found {
            modules.insert(module.clone());
        }
        let mut files = Vec::new();
        let mut macros = BTreeMap::new();
        for (path, module) in found {
            let text =
                fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                if line.trim() == "#[macro_export]" {
                    if let Some(name) = lines
                        .get(i + 1)
                        .and_then(|l| l.trim().strip_prefix("macro_rules! "))
                    {
                        macros.insert(
                            name.trim_end_matches(['{', ' ']).to_string(),
                            module.clone(),
                        );
                    }
                }
            }
            files.push(SourceFile::parse(path, module, &text));
        }
        Crate {
            files,
            modules,
            macros,
        }
    }

    /// The graph node a module path belongs to.
    fn node(&self, path: &[String]) -> Option<String> {
        let top = path.first()?;
        if self.modules.contains(&vec![top.clone()]) {
            if SPLIT.contains(&top.as_str()) && path.len() > 1 && self.modules.contains(&path[..2])
            {
                return Some(path[..2].join("::"));
            }
            return Some(top.clone());
        }
        if path.len() == 1 {
            return self.macros.get(top).and_then(|m| self.node(m));
        }
        None
    }

    /// A file as the report names it: from the package root (`src/arena/engine/client.rs`).
    fn shown(&self, path: &Path) -> String {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        path.strip_prefix(root)
            .unwrap_or(path)
            .display()
            .to_string()
    }

    /// Each module edge with the first place it is seen.
    fn edges(&self) -> BTreeMap<(String, String), String> {
        let mut edges = BTreeMap::new();
        for file in &self.files {
            let Some(from) = self.node(&file.module) else {
                continue;
            };
            for (path, line) in &file.paths {
                // A relative `use child::…` names a child module only if there is one.
                let Some(to) = self.node(path) else { continue };
                if to != from {
                    edges
                        .entry((from.clone(), to))
                        .or_insert_with(|| format!("{}:{line}", self.shown(&file.path)));
                }
            }
        }
        edges
    }
}

/// The library's source files and their module paths, `src/bin` left out.
fn collect(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<String>)>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let rel = path.strip_prefix(root).unwrap();
        if path.is_dir() {
            if rel != Path::new("bin") {
                collect(root, &path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            let mut module: Vec<String> = rel
                .iter()
                .map(|s| s.to_string_lossy().into_owned())
                .collect();
            let last = module.pop().unwrap();
            match last.as_str() {
                "lib.rs" | "mod.rs" => {}
                _ => module.push(last.trim_end_matches(".rs").to_string()),
            }
            out.push((path, module));
        }
    }
}

impl SourceFile {
    fn parse(path: PathBuf, module: Vec<String>, text: &str) -> SourceFile {
        let code = blank_tests(&code_only(text));
        let line_of = |at: usize| code[..at].matches('\n').count() + 1;
        let mut paths = Vec::new();
        let bytes = code.as_bytes();
        let mut i = 0;
        while i < code.len() {
            let starts_word = i == 0 || !is_ident(bytes[i - 1]) && bytes[i - 1] != b':';
            if starts_word && code[i..].starts_with("use ") {
                let end = code[i..].find(';').map_or(code.len(), |e| i + e);
                for p in flatten(&code[i + 4..end]) {
                    if let Some(abs) = absolute(&module, &p, true) {
                        paths.push((abs, line_of(i)));
                    }
                }
                i = end;
            } else if starts_word
                && (code[i..].starts_with("crate::") || code[i..].starts_with("super::"))
            {
                let end = code[i..]
                    .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .map_or(code.len(), |e| i + e);
                let p: Vec<String> = code[i..end]
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect();
                if let Some(abs) = absolute(&module, &p, false) {
                    paths.push((abs, line_of(i)));
                }
                i = end;
            } else {
                i += 1;
            }
        }
        SourceFile {
            path,
            module,
            paths,
        }
    }
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// An absolute module path for a path as written in `module`, or None for another crate's.
/// In a `use`, a first segment that is none of crate/super/self is a child module (or an extern
/// crate; `Crate::node` drops what is no module of ours).
fn absolute(module: &[String], p: &[String], in_use: bool) -> Option<Vec<String>> {
    let (first, rest) = p.split_first()?;
    let mut abs = match first.as_str() {
        "crate" => Vec::new(),
        "self" => module.to_vec(),
        "super" => {
            let mut m = module.to_vec();
            let mut rest = rest;
            m.pop()?;
            while rest.first().is_some_and(|s| s == "super") {
                m.pop()?;
                rest = &rest[1..];
            }
            m.extend(rest.iter().cloned());
            return Some(m);
        }
        _ if in_use && !matches!(first.as_str(), "std" | "core" | "alloc") => {
            let mut m = module.to_vec();
            m.push(first.clone());
            m.extend(rest.iter().cloned());
            return Some(m);
        }
        _ => return None,
    };
    abs.extend(rest.iter().cloned());
    Some(abs)
}

/// The paths of one `use` tree (`a::{b, c::{self, D}}` → `a::b`, `a::c`, `a::c::D`).
fn flatten(tree: &str) -> Vec<Vec<String>> {
    let tree = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let tree = tree.trim().strip_prefix("::").unwrap_or(tree.trim());
    let mut out = Vec::new();
    expand(&[], tree, &mut out);
    out
}

fn expand(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim().trim_matches(',').trim();
    if tree.is_empty() {
        return;
    }
    if let Some(open) = tree.find('{') {
        let head: Vec<String> = tree[..open]
            .split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        let mut prefix = prefix.to_vec();
        prefix.extend(head);
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let mut depth = 0;
        let mut start = 0;
        for (k, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&prefix, &inner[start..k], out);
                    start = k + 1;
                }
                _ => {}
            }
        }
        expand(&prefix, &inner[start..], out);
        return;
    }
    // `a::B as C` names `a::B`.
    let tree = tree.split(" as ").next().unwrap_or(tree);
    let mut path = prefix.to_vec();
    for seg in tree
        .split("::")
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "*")
    {
        if seg == "self" {
            continue;
        }
        path.push(seg.to_string());
    }
    out.push(path);
}

/// The text with comments and the contents of string and char literals turned into spaces
/// (newlines kept, so byte offsets and lines stay).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            let end = text[i..].find('\n').map_or(b.len(), |e| i + e);
            blank(&mut out, i, end);
            i = end;
        } else if b[i..].starts_with(b"/*") {
            let (mut depth, mut j) = (1, i + 2);
            while j < b.len() && depth > 0 {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if (b[i] == b'r' || b[i..].starts_with(b"br"))
            && (i == 0 || !is_ident(b[i - 1]))
            && raw_string_end(b, i).is_some()
        {
            let end = raw_string_end(b, i).unwrap();
            blank(&mut out, i, end);
            i = end;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, i + 1, j.min(b.len()));
            i = j + 1;
        } else if b[i] == b'\'' {
            // A char literal ('x', '\n', '\u{7b}') or a lifetime ('a): only the former closes.
            let close = if b.get(i + 1) == Some(&b'\\') {
                // The char after the backslash may itself be a quote ('\'').
                text.get(i + 3..)
                    .and_then(|t| t.find('\''))
                    .map(|e| i + 3 + e)
            } else {
                let len = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                (b.get(i + 1 + len) == Some(&b'\'')).then_some(i + 1 + len)
            };
            match close {
                Some(c) => {
                    blank(&mut out, i + 1, c);
                    i = c + 1;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII bytes were replaced")
}

/// The end of a raw string literal starting at `i` (`r"…"`, `r#"…"#`, `br"…"`), if one does.
fn raw_string_end(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + if b[i] == b'b' { 2 } else { 1 };
    let mut hashes = 0;
    while b.get(j) == Some(&b'#') {
        hashes += 1;
        j += 1;
    }
    if b.get(j) != Some(&b'"') {
        return None;
    }
    let mut close = vec![b'"'];
    close.extend(std::iter::repeat_n(b'#', hashes));
    let body = j + 1;
    b[body..]
        .windows(close.len())
        .position(|w| w == close.as_slice())
        .map(|p| body + p + close.len())
}

/// `code` with every `#[cfg(test)]` item blanked: a braced item to its closing brace, any
/// other to its `;`. (Comments and literals are already gone, so braces can be counted.)
fn blank_tests(code: &str) -> String {
    let mut out = code.as_bytes().to_vec();
    let mut from = 0;
    while let Some(at) = code[from..].find("#[cfg(test)]").map(|k| from + k) {
        let mut depth = 0usize;
        let mut end = code.len();
        for (k, c) in code[at..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = at + k + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = at + k + 1;
                    break;
                }
                _ => {}
            }
        }
        for c in &mut out[at..end] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
        from = end;
    }
    String::from_utf8(out).expect("only ASCII bytes were replaced")
}

/// Every circle in the graph (one per strongly connected component of two or more modules), as
/// `a -> b (file:line) -> … -> a`.
fn circles(edges: &BTreeMap<(String, String), String>) -> Vec<String> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in edges.keys() {
        next.entry(from).or_default().push(to);
        next.entry(to).or_default();
    }
    let reach = |from: &str| -> BTreeMap<String, String> {
        // Breadth-first, remembering each module's predecessor, to rebuild a shortest path.
        let mut seen: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([from.to_string()]);
        while let Some(m) = queue.pop_front() {
            for &n in &next[m.as_str()] {
                if !seen.contains_key(n) {
                    seen.insert(n.to_string(), m.clone());
                    queue.push_back(n.to_string());
                }
            }
        }
        seen
    };
    let mut reported: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();
    for &start in next.keys() {
        if reported.contains(start) {
            continue;
        }
        let back = reach(start);
        if !back.contains_key(start) {
            continue;
        }
        // The shortest way from `start` back to itself.
        let mut cycle = vec![start.to_string()];
        let mut at = back[start].clone();
        while at != start {
            cycle.push(at.clone());
            at = back[&at].clone();
        }
        cycle.push(start.to_string());
        cycle.reverse();
        let mut text = cycle[0].clone();
        for w in cycle.windows(2) {
            let place = &edges[&(w[0].clone(), w[1].clone())];
            text.push_str(&format!(" -> {} ({place})", w[1]));
        }
        // Everything on a circle with `start` is reported with it.
        for m in next.keys() {
            if back.contains_key(*m) && reach(m).contains_key(start) {
                reported.insert(m.to_string());
            }
        }
        out.push(text);
    }
    out
}
