//! The syntax of an `info` line: known keys with well-formed values and a PV of legal moves,
//! judged with the rules of the position the search was given.

use crate::games::notation::shorten;
use crate::games::{AnyGame, Game};
use crate::ugi::wire::{InfoField, InfoLine, Reply, ScoreKind};

/// Checks one `info` line (not `info string`).
pub(super) fn check_info(
    pos: &AnyGame,
    line: &str,
    unknown: &mut Vec<String>,
) -> Result<(), String> {
    let Reply::Info(info) = Reply::parse(line) else {
        return Err("not an info line".into());
    };
    check_fields(pos, &info, unknown)
}

/// Known keys with well-formed values, a PV of legal moves; unknown words are collected.
fn check_fields(pos: &AnyGame, info: &InfoLine, unknown: &mut Vec<String>) -> Result<(), String> {
    let number = |v: &Result<i64, Option<String>>, key: &str| match v {
        Ok(_) => Ok(()),
        Err(Some(t)) => Err(format!("{key} '{}' is not a number", shorten(t))),
        Err(None) => Err(format!("{key} has no value")),
    };
    for field in &info.fields {
        match field {
            InfoField::Number(key, v) => number(v, key.word())?,
            InfoField::Score { kind, value, .. } => match kind {
                Ok(ScoreKind::Cp | ScoreKind::Mate) => number(value, "score")?,
                Err(other) => {
                    return Err(format!(
                        "score must be 'cp <n>' or 'mate <n>', found {:?}",
                        other.as_deref()
                    ))
                }
            },
            InfoField::Pv(moves) => {
                let mut p = pos.clone();
                for token in moves.split_ascii_whitespace() {
                    match p.parse_move(token) {
                        Ok(mv) if p.is_legal(mv) => {
                            p.play(mv);
                        }
                        _ => return Err(format!("pv move '{}' is not legal", shorten(token))),
                    }
                }
            }
            InfoField::String(_) | InfoField::CurrMove(_) => {}
            InfoField::Unknown(word) => unknown.push(shorten(word)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Variant;

    #[test]
    fn info_lines() {
        let pos = AnyGame::start(Variant::TOGUZ);
        let mut unknown = vec![];
        check_info(
            &pos,
            "info depth 3 seldepth 5 score cp -12 nodes 100 nps 5 time 2 hashfull 0 pv 1 2 3",
            &mut unknown,
        )
        .unwrap();
        check_info(&pos, "info depth 1 score mate -3 wdl 1 2 3", &mut unknown).unwrap();
        assert!(unknown.contains(&"wdl".to_string()));
        assert!(check_info(&pos, "info depth x", &mut unknown).is_err());
        assert!(check_info(&pos, "info score 12", &mut unknown).is_err());
        assert!(check_info(&pos, "info pv 1 0", &mut unknown).is_err());
    }
}
