//! `otau-arena pair --trf FILE`: the next round of a Tournament Report File paired by the Dutch
//! system, a standalone pairing tool as bbpPairings and JaVaFo are (same output, same exit
//! codes: 1 no valid pairing, 3 an invalid file, 4 too large, 5 a file not read or written).

use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;

use crate::arena::pairing::swiss::{self, trf, PairingError};
use crate::arena::system::console;
use crate::arena::system::files::{self, Named};

/// The largest TRF read: 9,999 players of 99 rounds is under 10 MB.
const TRF_LIMIT: u64 = 16 << 20;

pub(super) fn pair_command(path: &Path, out: Option<&Path>) -> Result<ExitCode> {
    let fail = |code: u8, why: &dyn std::fmt::Display| {
        console::err(format_args!("otau-arena: {why}\n"));
        Ok(ExitCode::from(code))
    };
    let text = match crate::input::read_input_file(path, TRF_LIMIT, "tournament report file") {
        Ok(text) => text,
        Err(e) => return fail(5, &e),
    };
    let tournament = match trf::next_round(&text) {
        Ok(t) => t,
        Err(e) => return fail(3, &format_args!("{}: {e}", path.display())),
    };
    let pairing = match swiss::pair_round(&tournament) {
        Ok(pairing) => pairing,
        Err(e @ PairingError::NoValidPairing) => {
            return fail(1, &format_args!("{}: {e}", path.display()))
        }
        Err(e @ PairingError::TooLarge(_)) => {
            return fail(4, &format_args!("{}: {e}", path.display()))
        }
    };
    let text = trf::pairing_text(&pairing);
    match out {
        Some(out) => {
            if let Err(e) =
                files::write_whole(&Named::new("pairing file", out), text.as_bytes(), false)
            {
                return fail(5, &format_args!("{e:#}"));
            }
        }
        None => console::out(format_args!("{text}")),
    }
    Ok(ExitCode::SUCCESS)
}
