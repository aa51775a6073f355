//! fastchess's and cutechess-cli's command lines: their single-dash options (`-engine`,
//! `-each`, `-rounds`, `-games`, `-repeat`, `-pgnout file=F`, `-srand`, `-variant`, ...)
//! translated into otau-arena's own double-dash ones before the one parser reads them, so that a
//! line pasted from either tool runs with the same meaning, and every option otau does not
//! have is refused by name instead of being misread (`-engine` used to be read as `-e ...`).
//!
//! Each option's meaning, and what differs, is the table of `protocol/arena.md`, "Coming from
//! fastchess or cutechess-cli"; [`SPELLINGS`] is the short form `--help` prints. Engine keys
//! (`proto=`, `arg=`, `restart=`, `tc=inf`, `conf=`, ...) are read by `--engine` itself
//! ([`crate::arena::config::EngineSpec`]), so both spellings take them.

use std::ffi::OsString;

/// The help's list of single-dash spellings (`otau-arena --help` prints it).
pub const SPELLINGS: &str = "\
fastchess and cutechess-cli spellings (single dash; see protocol/arena.md):
  -engine KEYS / -each KEYS     --engine / --each (also conf=NAME, proto=ugi|uci, arg=, dir=,
                                stderr=FILE, restart=, tc=inf, tc=40/1:30+0.5, plies=); a cmd=
                                without a path is looked up on PATH, then in the working folder
  -rounds R -games G [-repeat]  R x G games per pairing (G: games per encounter per round,
                                default 2 as fastchess, -repeat: 2; -games G alone: G games),
                                played as pairs: --rounds ceil(R*G/2)
  -variant ID, -game ID         --game ID
  -concurrency N, -maxmoves N, -ratinginterval N, -event NAME, -recover: the same as --NAME
  -tournament round-robin|roundrobin|gauntlet|knockout
  -openings file= format= order= plies= start=   --openings
  -pgnout file=F | -pgnout F [min] [fi]           --pgn F
  -draw, -resign, -sprt KEYS    --draw, --resign, --sprt (scores in centi-stones; also
                                cutechess 0.x's -draw N S, -resign N S)
  -srand N, -seed N             --seed N
  -log file=F, -config file=F, -output format=fastchess|cutechess
                                --log F, --config F, --output fastchess|cutechess
  read and left alone: -wait, -debug, -site, -outcomeinterval, -resultformat, -randomseed, ...
  refused, by name: -noswap, -reverse, -tb..., -epdout, -bookmode, book=, proto=xboard, ...
  each option once (a repeat is refused); -engine and -each add up";

/// Whether `t` is a single-dash option word (`-engine`, not `-q`, `--out`, `-5` or a value).
fn single_dash(t: &str) -> Option<&str> {
    let name = t.strip_prefix('-')?;
    let mut chars = name.chars();
    (chars.next()?.is_ascii_alphabetic() && name.len() >= 2).then_some(name)
}

/// Whether `t` starts an option of either spelling (so it ends the values before it).
fn is_option(t: &str) -> bool {
    t.strip_prefix('-')
        .and_then(|r| r.chars().next())
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '-')
}

/// Why an option of fastchess or cutechess-cli is refused (None: not one of theirs).
fn refused(name: &str) -> Option<&'static str> {
    Some(match name {
        "noswap" | "reverse" => {
            "otau-arena always plays each opening twice, colours swapped (games come in pairs \
             for the pentanomial statistics)"
        }
        "tb" | "tbpieces" | "tbignore50" | "tbadjudicate" => {
            "there are no chess tablebases here: --adjudicate tables ends games with otau's own \
             exact tables (the Modiar solution, the Toguz endgame tables)"
        }
        "epdout" => "not supported: the final positions are in the records (--out) and the PGN",
        "scoreinterval" => "not supported: -ratinginterval N prints the results every N games",
        "bookmode" => {
            "a Polyglot book holds chess moves, which no mancala game has: give the run a \
             mancala opening book with -openings file=FILE (epd, pgn or txt)"
        }
        "pgnin" | "epdin" => "not supported: -openings file=FILE format=pgn|epd reads books",
        "force-concurrency" | "use-affinity" | "affinity" => {
            "not supported: -concurrency N plays N games at once, with no CPU pinning"
        }
        "quick" | "show-latency" | "testEnv" | "crc32" => "not supported",
        _ => return None,
    })
}

/// The values of an option: the tokens after it up to the next option.
fn values(args: &[String], from: usize) -> usize {
    args[from..]
        .iter()
        .position(|t| is_option(t))
        .unwrap_or(args.len() - from)
}

/// `key=value` tokens of `option` as pairs; a bare token as the key `""` (positional values).
fn pairs(tokens: &[String]) -> Vec<(&str, &str)> {
    tokens
        .iter()
        .map(|t| t.split_once('=').unwrap_or(("", t)))
        .collect()
}

/// Options that tell the arena nothing it does not do anyway, read and left alone (each line of
/// `protocol/arena.md`'s table says why).
fn ignored(name: &str) -> bool {
    matches!(
        name,
        // fastchess: a random seed for the openings, what otau does without -srand.
        "randomseed"
            // fastchess saves its state every N games to resume; otau records every game as it
            // ends, so a run resumes with --resume whatever N.
            | "autosaveinterval"
            // cutechess-cli: a pause between games, for engines slow to exit; the arena waits
            // for an engine's exit itself (and kills it after a grace period).
            | "wait"
            // cutechess-cli: every line exchanged shown; -log file=F records them.
            | "debug"
            // cutechess-cli: results every N games (otau prints each game as it ends), the
            // result table's columns, the PGN's Site tag (otau's PGN has none).
            | "outcomeinterval"
            | "resultformat"
            | "site"
    )
}

/// The options that add up when repeated, as both tools document: each `-engine` is one more
/// engine, each `-each` (cutechess-cli 0.x: `-both`) more keys for all of them.
fn accumulates(name: &str) -> bool {
    matches!(name, "engine" | "each" | "both")
}

/// The first argument (the program is argument 0) that is not UTF-8, as an error naming its
/// position: every argument is read as text (names, keys, paths recorded in UTF-8 JSON).
fn non_utf8(args: &[OsString]) -> Option<String> {
    let (i, a) = args
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, a)| a.to_str().is_none())?;
    Some(format!(
        "argument {i} is not valid UTF-8 ('{}'): otau-arena reads its arguments (names, keys, \
         paths) as UTF-8 text",
        a.to_string_lossy().escape_debug()
    ))
}

/// `-draw N S` and `-resign N S`, cutechess-cli 0.x's positional forms, as keys: a draw once
/// both scores are within S after N full moves (one move each), a resignation after N moves
/// beyond -S. fastchess's `-resign` without `movecount=` has its default of 1.
fn adjudication_keys(name: &str, vals: &[String]) -> Vec<String> {
    let number = |t: &String| !t.contains('=') && t.parse::<i64>().is_ok();
    match (name, vals) {
        ("draw", [n, s]) if number(n) && number(s) => {
            vec![
                format!("movenumber={n}"),
                "movecount=1".into(),
                format!("score={s}"),
            ]
        }
        ("resign", [n, s]) if number(n) && number(s) => {
            vec![format!("movecount={n}"), format!("score={s}")]
        }
        ("resign", _) if !vals.iter().any(|t| t.starts_with("movecount=")) => {
            let mut v = vals.to_vec();
            v.push("movecount=1".into());
            v
        }
        _ => vals.to_vec(),
    }
}

/// A whole number of at least 1, for `-rounds`, `-games`, `-repeat`.
fn count(option: &str, v: Option<&String>) -> Result<u64, String> {
    let v = v.ok_or_else(|| format!("-{option}: give a number"))?;
    v.parse::<u64>()
        .ok()
        .filter(|&n| (1..=u64::from(u32::MAX)).contains(&n))
        .ok_or_else(|| format!("-{option} {v}: a whole number in 1..={}", u32::MAX))
}

/// Translates fastchess's and cutechess-cli's single-dash options in `args` (the program name
/// first) into otau-arena's; otau's own spellings pass unchanged, and so does everything after
/// `--check` (an engine's command) and a subcommand's arguments. `long` lists otau-arena's own
/// long options: `-NAME` of one of them (not in the tables) is read as `--NAME`. `subcommands`
/// lists otau-arena's subcommands (their arguments are otau's own and are not translated); both
/// lists are read from the clap definition, so that neither can fall behind it.
pub fn translate(
    args: Vec<OsString>,
    long: &[&str],
    subcommands: &[&str],
) -> Result<Vec<OsString>, String> {
    let text: Vec<String> = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let Some(why) = non_utf8(&args) else {
        return translate_text(text, long, subcommands);
    };
    // A line that needs no translation keeps its arguments as they are (a path need not be
    // UTF-8: `--out`, `ratings FILE`); one that does is refused by the position of the argument
    // that is not text (else `-engine` would reach the parser untranslated, as `-e ...`).
    let unchanged = |out: &[OsString]| {
        out.len() == text.len()
            && out
                .iter()
                .zip(&text)
                .all(|(o, t)| o.to_string_lossy() == *t)
    };
    match translate_text(text.clone(), long, subcommands) {
        Ok(out) if unchanged(&out) => Ok(args),
        _ => Err(why),
    }
}

/// [`translate`] of arguments that are all text.
fn translate_text(
    args: Vec<String>,
    long: &[&str],
    subcommands: &[&str],
) -> Result<Vec<OsString>, String> {
    if args
        .get(1)
        .is_some_and(|a| subcommands.contains(&a.as_str()))
    {
        return Ok(args.into_iter().map(OsString::from).collect());
    }
    let mut out: Vec<String> = Vec::new();
    let (mut rounds, mut games, mut repeat) = (None, None, false);
    // Each option once (by its canonical name), with the values it was first given.
    let mut seen: Vec<(String, String)> = Vec::new();
    let (mut policy_round, mut engines) = (false, 0usize);
    let mut i = 0;
    while i < args.len() {
        let t = &args[i];
        i += 1;
        if out.is_empty() {
            out.push(t.clone());
            continue;
        }
        if t == "--check" || t == "-check" {
            out.push("--check".into());
            out.extend(args[i..].iter().cloned());
            break;
        }
        let Some(name) = single_dash(t) else {
            out.push(t.clone());
            continue;
        };
        let n = values(&args, i);
        let vals = &args[i..i + n];
        i += n;
        let canonical = match name {
            "game" => "variant",
            "seed" => "srand",
            other => other,
        };
        if !accumulates(name) {
            let given = format!("-{name} {}", vals.join(" "));
            if let Some((_, first)) = seen.iter().find(|(n, _)| n == canonical) {
                return Err(format!(
                    "-{name} is given twice ('{}', then '{}'): give it once (only -engine and \
                     -each add up)",
                    first.trim_end(),
                    given.trim_end()
                ));
            }
            seen.push((canonical.to_string(), given));
        }
        let one = |out: &mut Vec<String>, to: &str| -> Result<(), String> {
            match vals {
                [v] => {
                    out.extend([to.to_string(), v.clone()]);
                    Ok(())
                }
                [] => Err(format!("-{name}: give a value")),
                _ => Err(format!("-{name}: one value, not {}", vals.join(" "))),
            }
        };
        match name {
            "engine" | "each" | "sprt" => {
                engines += usize::from(name == "engine");
                out.push(format!("--{name}"));
                out.extend(vals.iter().cloned());
            }
            // cutechess-cli 0.x's name of -each.
            "both" => {
                out.push("--each".into());
                out.extend(vals.iter().cloned());
            }
            "draw" | "resign" => {
                out.push(format!("--{name}"));
                out.extend(adjudication_keys(name, vals));
            }
            _ if ignored(name) => {}
            // cutechess-cli: the first N engines of a gauntlet play all the others; otau's
            // gauntlet has one, the first.
            "seeds" => match vals {
                [v] if v == "1" => {}
                _ => {
                    return Err(format!(
                        "-seeds {}: not supported (a gauntlet's first engine is its only seed: \
                         -seeds 1)",
                        vals.join(" ")
                    ))
                }
            },
            "concurrency" | "maxmoves" | "ratinginterval" | "event" => {
                one(&mut out, &format!("--{name}"))?
            }
            "variant" | "game" => one(&mut out, "--game")?,
            "srand" | "seed" => one(&mut out, "--seed")?,
            "rounds" => rounds = Some(count(name, vals.first())?),
            "games" => games = Some(count(name, vals.first())?),
            "repeat" => match vals.first() {
                // cutechess-cli: each opening played once, its default: otau plays pairs anyway
                // (as it does without -repeat).
                Some(v) if count(name, Some(v))? == 1 => {}
                Some(v) if count(name, Some(v))? != 2 => {
                    return Err(format!(
                        "-repeat {v}: otau-arena plays each opening exactly twice, colours \
                         swapped (-repeat or -repeat 2; -repeat 1 is read as without -repeat)"
                    ))
                }
                _ => repeat = true,
            },
            "recover" | "help" | "version" => out.push(format!("--{name}")),
            "tournament" => {
                let kind = match vals {
                    [v] => match v.as_str() {
                        "round-robin" | "roundrobin" => "roundrobin",
                        "gauntlet" => "gauntlet",
                        "knockout" => "knockout",
                        "pyramid" => {
                            return Err(
                                "-tournament pyramid: not supported (roundrobin, gauntlet, \
                                 knockout)"
                                    .into(),
                            )
                        }
                        other => other,
                    },
                    _ => {
                        return Err(format!(
                            "-{name}: one kind (round-robin, gauntlet, knockout)"
                        ))
                    }
                };
                out.extend(["--tournament".to_string(), kind.to_string()]);
            }
            "openings" => {
                out.push("--openings".into());
                for (k, v) in pairs(vals) {
                    match (k, v) {
                        // cutechess's opening policy: otau uses one opening per pair, which is
                        // cutechess's default with -repeat.
                        ("policy", "default") => {}
                        // A new opening each round: with two engines a round is one encounter,
                        // one opening for its pair of games, as here (checked at the end).
                        ("policy", "round") => policy_round = true,
                        ("policy", "encounter") => {
                            return Err(format!(
                                "-openings policy={v}: not supported (each pair of games plays \
                                 its own opening)"
                            ))
                        }
                        _ => out.push(if k.is_empty() {
                            v.to_string()
                        } else {
                            format!("{k}={v}")
                        }),
                    }
                }
            }
            "pgnout" => pgnout(vals, &mut out)?,
            "log" => {
                let (mut file, mut fresh) = (None, false);
                for (k, v) in pairs(vals) {
                    match (k, v) {
                        ("" | "file", f) => set_file(name, &mut file, f)?,
                        // otau logs every line of every engine, and always appends.
                        ("level" | "engine" | "realtime", _) | ("append", "true") => {}
                        ("append", "false") => fresh = true,
                        _ => return Err(format!("-log {k}={v}: not supported (file=F)")),
                    }
                }
                let file = file.ok_or("-log: give file=FILE")?;
                // fastchess truncates the file; otau never empties a file: a new or empty one
                // is what append=false asks for.
                if fresh && std::fs::metadata(file).is_ok_and(|m| m.len() > 0) {
                    return Err(format!(
                        "-log file={file} append=false: {file} is not empty, and otau-arena never \
                         empties a file: remove it, or leave out append=false to append to it"
                    ));
                }
                out.extend(["--log".to_string(), file.to_string()]);
            }
            "config" => {
                let mut file = None;
                for (k, v) in pairs(vals) {
                    match k {
                        "" | "file" => set_file(name, &mut file, v)?,
                        _ => {
                            return Err(format!(
                                "-config {k}={v}: not supported (-config file=engines.json names \
                                 the engines file of -engine conf=NAME; a run resumes with \
                                 --resume RECORDS)"
                            ))
                        }
                    }
                }
                let file = file.ok_or("-config: give file=FILE")?;
                out.extend(["--config".to_string(), file.to_string()]);
            }
            "output" => {
                let v = match pairs(vals).as_slice() {
                    [("format" | "", v)] => v.to_string(),
                    _ => return Err("-output: give format=fastchess or format=cutechess".into()),
                };
                out.extend(["--output".to_string(), v]);
            }
            // The pentanomial counts are always reported (beside the game counts fastchess
            // prints with penta=false).
            "report" => {
                for (k, v) in pairs(vals) {
                    if k != "penta" || !matches!(v, "true" | "false") {
                        return Err(format!(
                            "-report {k}={v}: not supported (penta=true or penta=false)"
                        ));
                    }
                }
            }
            _ => {
                if let Some(why) = refused(name) {
                    return Err(format!("-{name}: {why}"));
                }
                if long.contains(&name) {
                    out.push(format!("--{name}"));
                    out.extend(vals.iter().cloned());
                } else {
                    return Err(format!(
                        "unknown option '-{name}' (otau-arena reads its own --options and the \
                         single-dash options of fastchess and cutechess-cli: see --help)"
                    ));
                }
            }
        }
    }
    if policy_round && engines > 2 {
        return Err(format!(
            "-openings policy=round with {engines} engines: not supported (each pair of games \
             plays its own opening; with two engines a round is one encounter, as here)"
        ));
    }
    if rounds.is_some() || games.is_some() || repeat {
        if out.iter().any(|t| t == "--rounds" || t == "--games") {
            return Err(
                "-rounds/-games/-repeat (fastchess's counts) with --rounds/--games (otau's): give \
                 one kind"
                    .into(),
            );
        }
        // fastchess's defaults: 2 games a round (`-repeat` is `-games 2`). `-games G` without
        // `-rounds` is cutechess-cli's way of giving the games per pairing (fastchess would
        // play 2 rounds of them).
        let per_round = games.unwrap_or(2);
        let per_pairing = rounds.unwrap_or(1) * per_round;
        let pairs = per_pairing.div_ceil(2);
        if pairs > u64::from(u32::MAX) {
            return Err(format!(
                "-rounds {} -games {per_round}: {per_pairing} games per pairing, more than the \
                 {} pairs of games a run may schedule",
                rounds.unwrap_or(1),
                u32::MAX
            ));
        }
        out.extend(["--rounds".to_string(), pairs.to_string()]);
    }
    Ok(out.into_iter().map(OsString::from).collect())
}

/// The file of `-log`, `-config` or `-pgnout`, given once.
fn set_file<'a>(option: &str, file: &mut Option<&'a str>, f: &'a str) -> Result<(), String> {
    if let Some(first) = file {
        return Err(format!(
            "-{option}: two files ('{first}', then '{f}'): give file= once"
        ));
    }
    *file = Some(f);
    Ok(())
}

/// `-pgnout file=F [key=value...]` (fastchess) or `-pgnout F [min] [fi]` (cutechess-cli).
fn pgnout(vals: &[String], out: &mut Vec<String>) -> Result<(), String> {
    let (mut file, mut append) = (None, false);
    for (k, v) in pairs(vals) {
        match (k, v) {
            ("file", f) => set_file("pgnout", &mut file, f)?,
            ("", f) if file.is_none() => file = Some(f),
            // What each tool lets one leave out of or add to the movetext: otau's PGN has its
            // own fixed form (a comment per move: score, depth, time), which users of these keys
            // expect to get some PGN from.
            ("", "min" | "fi")
            | (
                "min" | "nodes" | "seldepth" | "nps" | "hashfull" | "timeleft" | "latency" | "pv"
                | "notation" | "match_line",
                _,
            ) => {}
            ("append", "true") => append = true,
            ("append", "false") => append = false,
            _ => {
                return Err(format!(
                    "-pgnout {}: not supported (file=F, or F [min] [fi])",
                    if k.is_empty() {
                        v.to_string()
                    } else {
                        format!("{k}={v}")
                    }
                ))
            }
        }
    }
    let file = file.ok_or("-pgnout: give the PGN's file (file=F or F)")?;
    out.extend(["--pgn".to_string(), file.to_string()]);
    if append {
        out.push("--pgn-append".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests;
