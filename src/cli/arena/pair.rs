//! `otau-arena pair --trf FILE`: the next round of a Tournament Report File paired by the Dutch
//! system, a standalone pairing tool as bbpPairings and JaVaFo are (same output).

use std::path::Path;
use std::process::ExitCode;

use anyhow::{anyhow, Result};

use crate::arena::pairing::swiss::{self, trf, PairingError};
use crate::arena::system::console;
use crate::arena::system::files::{self, Named};

/// The largest TRF read: 9,999 players of 99 rounds is under 10 MB.
const TRF_LIMIT: u64 = 16 << 20;

pub(super) fn pair_command(path: &Path, out: Option<&Path>) -> Result<ExitCode> {
    let text = crate::input::read_input_file(path, TRF_LIMIT, "tournament report file")
        .map_err(|e| anyhow!(e))?;
    let tournament = trf::next_round(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let pairing = match swiss::pair_round(&tournament) {
        Ok(pairing) => pairing,
        Err(PairingError::NoValidPairing) => {
            console::err(format_args!(
                "{}: {}\n",
                path.display(),
                PairingError::NoValidPairing
            ));
            return Ok(ExitCode::from(1));
        }
        Err(e) => return Err(anyhow!("{}: {e}", path.display())),
    };
    let text = trf::pairing_text(&pairing);
    match out {
        Some(out) => files::write_whole(&Named::new("pairing file", out), text.as_bytes(), false)?,
        None => console::out(format_args!("{text}")),
    }
    Ok(ExitCode::SUCCESS)
}
