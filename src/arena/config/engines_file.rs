//! Engines kept in a file, as cutechess-cli keeps them: `engines.json` (`-config file=F`,
//! `--config F`) is a JSON array of engine objects, and `-engine conf=NAME` takes the one named
//! NAME. Each entry becomes the engine keys `--engine` reads, in the place of `conf=`, so that
//! keys written after `conf=` override the file's (`protocol/arena.md`, "Engines in a file").
//!
//! Fields, as cutechess writes them: `name`, `command` (a command line: the program, then its
//! arguments, split as `args=` splits), `workingDirectory`, `protocol` (`ugi` or `uci`, as
//! `proto=`), `stderrFile` (as `stderr=`), `options` (cutechess's list of
//! `{"name": N, "value": V, ...}`, or an object `{"N": V}`), `restart` (`on|off|auto`); and
//! otau's own `tc` (as `tc=`), `timemargin` (ms), `sandbox` (`true` or `"on"`), `memory`,
//! `processes`, `cpus` (whole numbers) and `overuse`, as their keys. cutechess's fields that mean nothing here
//! are read and left alone when they ask for nothing (`validateClaims`, `debug`, `variants`,
//! `initStrings: []`, `whitepov: false`,
//! `ponder: false`); any other field, or one that asks for what the arena does not do, is an
//! error naming the file, the entry and the field.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::arena::config::{check_protocol, split_args};

/// The file `-engine conf=NAME` reads when no `-config file=` names one (cutechess-cli reads
/// `engines.json` in the working directory too).
pub const DEFAULT_FILE: &str = "engines.json";

/// The largest engines file read (a file of a few engines is a few KB).
const MAX_BYTES: u64 = 16 << 20;

/// An engines file, read and checked whole.
#[derive(Debug)]
pub struct EnginesFile {
    path: PathBuf,
    /// Each entry's name and engine keys, in file order.
    entries: Vec<(String, Keys)>,
}

impl EnginesFile {
    /// Reads and checks every entry of `path`.
    pub fn read(path: &Path) -> Result<EnginesFile, String> {
        let file = path.display();
        // For the hint when the file is missing; the read below checks what it is.
        std::fs::metadata(path).map_err(|e| {
            format!(
                "engines file {file}: {e} (-engine conf=NAME reads it; -config file=FILE names \
                 another)"
            )
        })?;
        let text = crate::input::read_input_file(path, MAX_BYTES, "engines file")?;
        EnginesFile::parse(path, &text)
    }

    /// Checks `text` as the engines file `path`.
    pub fn parse(path: &Path, text: &str) -> Result<EnginesFile, String> {
        let file = path.display();
        let value: Value = serde_json::from_str(text)
            .map_err(|e| format!("engines file {file}: not JSON: {e}"))?;
        let Value::Array(list) = value else {
            return Err(format!(
                "engines file {file}: not a list of engines (cutechess's engines.json is a JSON \
                 array of objects with name, command, ...)"
            ));
        };
        let mut entries: Vec<(String, Keys)> = Vec::new();
        for (i, item) in list.iter().enumerate() {
            let at = |what: String| format!("engines file {file}: entry {}{what}", i + 1);
            let (name, keys) = entry_keys(item).map_err(|(field, why)| {
                let name = item.get("name").and_then(Value::as_str);
                at(format!(
                    "{}, field '{field}': {why}",
                    name.map_or(String::new(), |n| format!(
                        " ('{}')",
                        crate::names::shown(n)
                    ))
                ))
            })?;
            if entries.iter().any(|(n, _)| *n == name) {
                return Err(at(format!(" ('{name}'): a second engine of that name")));
            }
            entries.push((name, keys));
        }
        Ok(EnginesFile {
            path: path.to_path_buf(),
            entries,
        })
    }

    /// The engine keys of the entry named `name`.
    pub fn keys(&self, name: &str) -> Result<&[(String, String)], String> {
        self.entries
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, keys)| keys.as_slice())
            .ok_or_else(|| {
                let names: Vec<&str> = self.entries.iter().map(|(n, _)| n.as_str()).collect();
                format!(
                    "conf={name}: no engine of that name in {} (it has: {})",
                    self.path.display(),
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                )
            })
    }
}

/// `pairs` with each `conf=NAME` replaced by `NAME`'s keys from the engines file, which
/// `file` reads at its first use (the keys after `conf=` then override the file's).
pub fn expand(
    pairs: Vec<(String, String)>,
    file: &mut impl FnMut() -> Result<std::rc::Rc<EnginesFile>, String>,
) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for (k, v) in pairs {
        if k == "conf" {
            let engines = file()?;
            out.extend(engines.keys(&v)?.iter().cloned());
        } else {
            out.push((k, v));
        }
    }
    Ok(out)
}

/// The fields an entry may have, in the order their keys are given.
const FIELDS: &[&str] = &[
    "name",
    "command",
    "workingDirectory",
    "protocol",
    "options",
    "restart",
    "tc",
    "timemargin",
    "sandbox",
    "memory",
    "processes",
    "cpus",
    "overuse",
    "stderrFile",
    "validateClaims",
    "debug",
    "variants",
    "initStrings",
    "whitepov",
    "ponder",
];

/// Engine keys as `--engine` reads them, `(key, value)`.
type Keys = Vec<(String, String)>;

/// One entry's name and keys, or the field at fault and why.
fn entry_keys(item: &Value) -> Result<(String, Keys), (String, String)> {
    let Value::Object(map) = item else {
        return Err(("-".into(), "an entry is a JSON object".into()));
    };
    let fail = |field: &str, why: String| (field.to_string(), why);
    let text = |field: &str, v: &Value| -> Result<String, (String, String)> {
        v.as_str()
            .map(str::to_string)
            .ok_or_else(|| fail(field, format!("a string, not {v}")))
    };
    let name = text(
        "name",
        map.get("name")
            .ok_or_else(|| fail("name", "missing".into()))?,
    )?;
    crate::names::check_name(&name).map_err(|why| fail("name", why))?;
    let command = text(
        "command",
        map.get("command")
            .ok_or_else(|| fail("command", "missing".into()))?,
    )?;
    let words = split_args(&command).map_err(|e| fail("command", e))?;
    let Some((program, args)) = words.split_first() else {
        return Err(fail("command", "empty".into()));
    };
    let mut keys = vec![
        ("name".to_string(), name.clone()),
        ("cmd".to_string(), program.clone()),
        // `args=` with no words: the entry's arguments replace any given before `conf=`.
        ("args".to_string(), String::new()),
    ];
    keys.extend(args.iter().map(|a| ("arg".to_string(), a.clone())));
    if let Some(f) = map.keys().find(|f| !FIELDS.contains(&f.as_str())) {
        return Err(fail(
            f,
            "unknown field (name, command, workingDirectory, protocol, options, restart, tc, \
             timemargin, sandbox, memory, processes, cpus, overuse; cutechess's stderrFile, validateClaims, debug, variants, initStrings, \
             whitepov, ponder)"
                .into(),
        ));
    }
    // In this order whatever order the file has (JSON objects have none).
    for (f, v) in FIELDS.iter().filter_map(|f| Some((*f, map.get(*f)?))) {
        match f {
            "name" | "command" => {}
            "workingDirectory" => {
                let dir = text(f, v)?;
                if !dir.is_empty() {
                    keys.push(("dir".into(), dir));
                }
            }
            "protocol" => {
                let proto = text(f, v)?;
                check_protocol(&proto).map_err(|e| fail(f, format!("proto={proto}: {e}")))?;
                keys.push(("proto".into(), proto));
            }
            "stderrFile" => {
                let file = text(f, v)?;
                if !file.is_empty() {
                    keys.push(("stderr".into(), file));
                }
            }
            "options" => {
                for (n, value) in options(v).map_err(|e| fail(f, e))? {
                    keys.push((format!("option.{n}"), value));
                }
            }
            "restart" => keys.push(("restart".into(), text(f, v)?)),
            "tc" => keys.push(("tc".into(), text(f, v)?)),
            "timemargin" => {
                let ms = v
                    .as_u64()
                    .ok_or_else(|| fail(f, format!("a whole number of ms, not {v}")))?;
                keys.push(("timemargin".into(), ms.to_string()));
            }
            // otau's confinement (`Confinement`): `true`/`false` or `on`/`off`, whole numbers.
            "sandbox" => {
                let on = match v {
                    Value::Bool(b) => if *b { "on" } else { "off" }.to_string(),
                    _ => text(f, v)?,
                };
                keys.push(("sandbox".into(), on));
            }
            "memory" | "processes" | "cpus" | "rating" => {
                let n = v
                    .as_u64()
                    .ok_or_else(|| fail(f, format!("a whole number, not {v}")))?;
                keys.push((f.to_string(), n.to_string()));
            }
            "overuse" => keys.push(("overuse".into(), text(f, v)?)),
            // Read by cutechess, nothing to do here: every move is refereed, the run's game is
            // `-variant`, `-log` records every line.
            "validateClaims" | "debug" | "variants" => {}
            "initStrings" if v.as_array().is_some_and(Vec::is_empty) => {}
            "whitepov" | "ponder" if *v == Value::Bool(false) => {}
            "initStrings" | "whitepov" | "ponder" => {
                return Err(fail(
                    f,
                    format!("{v} is not supported (xboard initialisation strings, white's-view scores and pondering mean nothing to a UGI arena)"),
                ))
            }
            _ => unreachable!("every field of FIELDS has its arm"),
        }
    }
    Ok((name, keys))
}

/// An `options` field: cutechess's list of `{"name": N, "value": V, ...}` (an option with no
/// `value` keeps the engine's default and is not sent) or an object `{"N": V}`.
fn options(v: &Value) -> Result<Vec<(String, String)>, String> {
    let value_text = |n: &str, v: &Value| match v {
        Value::String(s) => Ok(s.clone()),
        Value::Bool(b) => Ok(b.to_string()),
        Value::Number(x) => Ok(x.to_string()),
        other => Err(format!(
            "option '{n}': value {other} is not a string, number or boolean"
        )),
    };
    match v {
        Value::Object(map) => map
            .iter()
            .map(|(n, v)| Ok((n.clone(), value_text(n, v)?)))
            .collect(),
        Value::Array(list) => {
            let mut out = Vec::new();
            for (i, o) in list.iter().enumerate() {
                let n = o.get("name").and_then(Value::as_str).ok_or_else(|| {
                    format!("option {}: no \"name\" string (cutechess writes {{\"name\": ..., \"value\": ...}})", i + 1)
                })?;
                if let Some(value) = o.get("value") {
                    out.push((n.to_string(), value_text(n, value)?));
                }
            }
            Ok(out)
        }
        other => Err(format!(
            "a list of {{\"name\": N, \"value\": V}} or an object {{\"N\": V}}, not {other}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<EnginesFile, String> {
        EnginesFile::parse(Path::new("engines.json"), text)
    }

    #[test]
    fn a_rival_s_confinement_is_read_from_the_file() {
        let f = parse(
            r#"[{"name": "rival", "command": "/usr/bin/python3 bot.py", "sandbox": true,
                 "memory": 512, "processes": 64, "cpus": 1, "overuse": "forfeit"}]"#,
        )
        .unwrap();
        let keys = f.keys("rival").unwrap();
        for want in [
            ("sandbox", "on"),
            ("memory", "512"),
            ("processes", "64"),
            ("cpus", "1"),
            ("overuse", "forfeit"),
        ] {
            assert!(
                keys.contains(&(want.0.to_string(), want.1.to_string())),
                "{want:?}: {keys:?}"
            );
        }
        let bad = parse(r#"[{"name": "r", "command": "x", "memory": "lots"}]"#).unwrap_err();
        assert!(bad.contains("'memory': a whole number"), "{bad}");
    }

    #[test]
    fn cutechess_entries_become_engine_keys() {
        let f = parse(
            r#"[{"name": "mine", "command": "./bot --fast 'two words'",
                 "workingDirectory": "/tmp", "protocol": "ugi", "stderrFile": "",
                 "options": [{"name": "Hash", "type": "spin", "default": 16, "value": 64},
                             {"name": "Ponder", "type": "check", "default": false, "value": true},
                             {"name": "Untouched", "type": "spin", "default": 3}],
                 "restart": "on", "tc": "40/1:30+0.5", "timemargin": 50},
                {"name": "L5", "command": "builtin:otau", "options": {"Level": 5}}]"#,
        )
        .unwrap();
        let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        assert_eq!(
            f.keys("mine").unwrap(),
            pairs(&[
                ("name", "mine"),
                ("cmd", "./bot"),
                ("args", ""),
                ("arg", "--fast"),
                ("arg", "two words"),
                ("dir", "/tmp"),
                ("proto", "ugi"),
                ("option.Hash", "64"),
                ("option.Ponder", "true"),
                ("restart", "on"),
                ("tc", "40/1:30+0.5"),
                ("timemargin", "50"),
            ])
            .as_slice()
        );
        assert_eq!(
            f.keys("L5").unwrap(),
            pairs(&[
                ("name", "L5"),
                ("cmd", "builtin:otau"),
                ("args", ""),
                ("option.Level", "5")
            ])
            .as_slice()
        );
        let missing = f.keys("nobody").unwrap_err();
        assert!(
            missing.contains("conf=nobody") && missing.contains("mine, L5"),
            "{missing}"
        );
    }

    #[test]
    fn errors_name_the_file_the_entry_and_the_field() {
        for (text, want) in [
            ("{", "engines file engines.json: not JSON"),
            ("{}", "not a list of engines"),
            (
                r#"[{"name": "a", "command": "x"}, {"name": "b"}]"#,
                "entry 2 ('b'), field 'command': missing",
            ),
            (
                r#"[{"name": "a", "command": "x", "protocol": "xboard"}]"#,
                "entry 1 ('a'), field 'protocol': proto=xboard: xboard (CECP) is a chess protocol",
            ),
            (
                r#"[{"name": "a", "command": "x", "options": [{"value": 1}]}]"#,
                "field 'options': option 1: no \"name\"",
            ),
            (
                r#"[{"name": "a", "command": "x", "colour": "red"}]"#,
                "field 'colour': unknown field",
            ),
            (
                r#"[{"name": "a", "command": "x", "ponder": true}]"#,
                "field 'ponder': true is not supported",
            ),
            (
                r#"[{"name": "a", "command": "x"}, {"name": "a", "command": "y"}]"#,
                "entry 2 ('a'): a second engine of that name",
            ),
            (r#"[{"name": 3, "command": "x"}]"#, "field 'name': a string"),
        ] {
            let err = parse(text).unwrap_err();
            assert!(err.contains(want), "{text}: {err}");
        }
    }

    #[test]
    fn keys_after_conf_override_the_files() {
        let f = std::rc::Rc::new(
            parse(r#"[{"name": "a", "command": "x", "options": {"Hash": 8}}]"#).unwrap(),
        );
        let given: Vec<(String, String)> = [("conf", "a"), ("option.Hash", "32"), ("name", "b")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let out = expand(given, &mut || Ok(f.clone())).unwrap();
        let spec = crate::arena::config::EngineSpec {
            list: "--engine 1".into(),
            pairs: out,
        };
        let each = crate::arena::config::EngineSpec::parse("--each", &["depth=1".into()]);
        let e = spec.build(&each.unwrap(), 0).unwrap();
        assert_eq!(e.name, "b");
        assert_eq!(e.cmd, "x");
        assert_eq!(e.options, vec![("Hash".to_string(), "32".to_string())]);
    }
}
