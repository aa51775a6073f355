//! The file format every table shares: a header that says what the file holds, the table's
//! bytes, and a checksum, so that a file of another game, another format version or another
//! build (an older otau's cache) is named and refused, never misread.
//!
//! Layout, little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `otau-tbl` |
//! | 4 | format version ([`FORMAT`]) |
//! | 1 | kind ([`Kind`]) |
//! | 3 | parameters of the kind (Toguz: holes, most stones; Modiar: most stones, 0, 0) |
//! | 8 | payload length `L` |
//! | `L` | payload, as the kind lays it out |
//! | 8 | checksum of everything before it ([`checksum`]) |
//!
//! Files are written to a temporary file in the same directory and renamed, so a reader never
//! sees a partial file.

use std::fmt;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::games::mix64;

/// Bumped whenever the layout of the file or the meaning of an entry changes. 2: the shared
/// header and checksum (otau's first files, format 1, had one header per kind).
pub const FORMAT: u32 = 2;
const MAGIC: &[u8; 8] = b"otau-tbl";
/// Header bytes before the payload.
pub const HEADER: usize = 8 + 4 + 1 + 3 + 8;
/// The magics of the format-1 files (`<toguz board>.egtb`, `modiar-v1.table`), recognised so
/// that they are named for what they are.
const OLD_MAGICS: [(&[u8; 8], &str); 2] = [
    (b"otauEGTB", "Toguz Kumalak endgame tables"),
    (b"OTAUMDR\0", "Modiar solution"),
];

/// What a table file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The endgame tables of one Toguz board.
    Toguz = 1,
    /// Modiar's solution.
    Modiar = 2,
    /// A proof of Bestemshe's result from the start (the winner's moves of a proof tree).
    BestemsheProof = 3,
    /// Proofs of a Giuthi start's result (the provers' moves of one or two proof trees).
    GiuthiProof = 4,
}

impl Kind {
    fn of(byte: u8) -> Option<Kind> {
        match byte {
            1 => Some(Kind::Toguz),
            2 => Some(Kind::Modiar),
            3 => Some(Kind::BestemsheProof),
            4 => Some(Kind::GiuthiProof),
            _ => None,
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Toguz => "Toguz Kumalak endgame tables",
            Kind::Modiar => "Modiar solution",
            Kind::BestemsheProof => "Bestemshe proof",
            Kind::GiuthiProof => "Giuthi proof",
        })
    }
}

/// Why a table file could not be read or written, with the file it concerns.
#[derive(Debug)]
pub struct Error {
    pub path: PathBuf,
    pub problem: Problem,
}

/// What is wrong with a table file.
#[derive(Debug)]
pub enum Problem {
    Io(std::io::Error),
    /// Shorter than its header says (or than a header).
    Truncated {
        bytes: u64,
        expected: u64,
    },
    /// Longer than its header says.
    TooLong {
        bytes: u64,
        expected: u64,
    },
    /// No table magic at the start.
    NotATable,
    /// A file of otau's first format (one header per kind, before the shared header).
    OldFormat {
        holds: &'static str,
    },
    /// The shared header, another format version.
    Version {
        found: u32,
    },
    /// Another kind of table than asked for.
    Kind {
        found: String,
        expected: Kind,
    },
    /// Parameters or payload size that this kind does not allow, or that were not asked for.
    Header(String),
    /// The bytes do not match the checksum: the file is damaged.
    Checksum,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.problem {
            Problem::Io(e) => write!(f, "{path}: {e}"),
            Problem::Truncated { bytes, expected } => write!(
                f,
                "{path} is truncated: {bytes} bytes, its header needs {expected}"
            ),
            Problem::TooLong { bytes, expected } => write!(
                f,
                "{path} is {bytes} bytes, its header says {expected}: not a table otau wrote"
            ),
            Problem::NotATable => write!(f, "{path} is not an otau table file (no otau-tbl magic)"),
            Problem::OldFormat { holds } => write!(
                f,
                "{path} holds {holds} in otau's table format 1; this otau reads format {FORMAT}: \
                 rebuild it (the old file can be deleted)"
            ),
            Problem::Version { found } => write!(
                f,
                "{path} is table format {found}; this otau reads format {FORMAT}: rebuild it"
            ),
            Problem::Kind { found, expected } => {
                write!(f, "{path} holds {found}, not the {expected} asked for")
            }
            Problem::Header(why) => write!(f, "{path}: {why}"),
            Problem::Checksum => write!(
                f,
                "{path} is damaged: its checksum does not match its bytes; rebuild it"
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.problem {
            Problem::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl Error {
    pub fn new(path: &Path, problem: Problem) -> Error {
        Error {
            path: path.to_path_buf(),
            problem,
        }
    }

    /// Whether the file is simply not there (nothing was built yet).
    pub fn is_missing(&self) -> bool {
        matches!(&self.problem, Problem::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }
}

/// A 64-bit checksum of `parts` as one byte string (SplitMix64's finaliser over 8-byte words; the
/// parts before the last must be whole words).
pub fn checksum(parts: &[&[u8]]) -> u64 {
    let mut h = 0x6f74_6175_2d74_626c_u64;
    for part in parts {
        let mut chunks = part.chunks_exact(8);
        for c in &mut chunks {
            h = mix64(h ^ u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        for &b in chunks.remainder() {
            h = mix64(h ^ b as u64);
        }
    }
    h
}

fn header(kind: Kind, params: [u8; 3], len: usize) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT.to_le_bytes());
    h[12] = kind as u8;
    h[13..16].copy_from_slice(&params);
    h[16..24].copy_from_slice(&(len as u64).to_le_bytes());
    h
}

/// Writes a table file atomically (a temporary file in the same directory, then a rename),
/// creating the directory if needed.
pub fn write(path: &Path, kind: Kind, params: [u8; 3], payload: &[u8]) -> Result<(), Error> {
    let err = |e| Error::new(path, Problem::Io(e));
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(err)?;
    }
    if let Some(dir) = path.parent() {
        remove_stale_temporaries(dir);
    }
    let head = header(kind, params, payload.len());
    let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
    let result = (|| {
        let mut file = fs::File::create(&tmp)?;
        file.write_all(&head)?;
        file.write_all(payload)?;
        file.write_all(&checksum(&[&head, payload]).to_le_bytes())?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(err)
}

/// Removes the temporary files of [`write`]s that never ended (`<name>.tmp.<pid>`, left by a
/// build killed or interrupted while it wrote) from `dir`: those of a process that is gone. A
/// running process's (another engine saving the same table) is left alone. Only where processes
/// can be looked up (`/proc`); elsewhere nothing is removed.
pub fn remove_stale_temporaries(dir: &Path) {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let Ok(entries) = fs::read_dir(if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    }) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.rsplit_once(".tmp."))
            .and_then(|(stem, pid)| (!stem.is_empty()).then_some(pid))
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if is_file && pid != std::process::id() && !proc.join(pid.to_string()).exists() {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Reads a table file of `kind`: its parameters and payload, after checking the magic, the
/// format version, the kind, the length against the file's size (before allocating anything)
/// and the checksum. The caller checks that the parameters and the payload's length fit.
pub fn read(path: &Path, kind: Kind) -> Result<([u8; 3], Vec<u8>), Error> {
    let err = |problem| Error::new(path, problem);
    let io = |e| err(Problem::Io(e));
    let mut file = fs::File::open(path).map_err(io)?;
    let bytes = file.metadata().map_err(io)?.len();
    let mut head = [0u8; HEADER];
    let mut got = 0;
    while got < HEADER {
        match file.read(&mut head[got..]).map_err(io)? {
            0 => break,
            n => got += n,
        }
    }
    if got >= 8 {
        if let Some((_, holds)) = OLD_MAGICS.iter().find(|(m, _)| head[..8] == m[..]) {
            return Err(err(Problem::OldFormat { holds }));
        }
        if head[..8] != MAGIC[..] {
            return Err(err(Problem::NotATable));
        }
    }
    if got < HEADER {
        return Err(err(Problem::Truncated {
            bytes,
            expected: HEADER as u64 + 8,
        }));
    }
    let version = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes"));
    if version != FORMAT {
        return Err(err(Problem::Version { found: version }));
    }
    if Kind::of(head[12]) != Some(kind) {
        let found =
            Kind::of(head[12]).map_or(format!("a table of kind {}", head[12]), |k| k.to_string());
        return Err(err(Problem::Kind {
            found,
            expected: kind,
        }));
    }
    let len = u64::from_le_bytes(head[16..24].try_into().expect("8 bytes"));
    let expected = (HEADER as u64 + 8).saturating_add(len);
    if bytes < expected {
        return Err(err(Problem::Truncated { bytes, expected }));
    }
    if bytes > expected {
        return Err(err(Problem::TooLong { bytes, expected }));
    }
    let mut payload = vec![0u8; len as usize];
    let mut sum = [0u8; 8];
    file.read_exact(&mut payload)
        .and_then(|()| file.read_exact(&mut sum))
        .map_err(io)?;
    if checksum(&[&head, &payload]) != u64::from_le_bytes(sum) {
        return Err(err(Problem::Checksum));
    }
    Ok((head[13..16].try_into().expect("3 bytes"), payload))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("otau-table-file-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn round_trip_and_every_damage_named() {
        let path = scratch("t.table");
        let payload: Vec<u8> = (0..1001u32).map(|i| (i * 7) as u8).collect();
        write(&path, Kind::Toguz, [9, 8, 0], &payload).unwrap();
        assert_eq!(read(&path, Kind::Toguz).unwrap(), ([9, 8, 0], payload));
        let good = fs::read(&path).unwrap();
        let name = path.display().to_string();
        let problem = |bytes: &[u8], kind| {
            fs::write(&path, bytes).unwrap();
            let e = read(&path, kind).unwrap_err();
            assert!(e.to_string().contains(&name), "{e}");
            e.problem
        };
        assert!(matches!(
            problem(&good, Kind::Modiar),
            Problem::Kind {
                expected: Kind::Modiar,
                ..
            }
        ));
        let mut flipped = good.clone();
        flipped[HEADER + 500] ^= 0x10;
        assert!(matches!(problem(&flipped, Kind::Toguz), Problem::Checksum));
        assert!(matches!(
            problem(&good[..good.len() - 1], Kind::Toguz),
            Problem::Truncated { .. }
        ));
        assert!(matches!(
            problem(&good[..10], Kind::Toguz),
            Problem::Truncated { .. }
        ));
        let mut longer = good.clone();
        longer.push(0);
        assert!(matches!(
            problem(&longer, Kind::Toguz),
            Problem::TooLong { .. }
        ));
        let mut version = good.clone();
        version[8] = 3;
        assert!(matches!(
            problem(&version, Kind::Toguz),
            Problem::Version { found: 3 }
        ));
        let mut old = b"otauEGTB".to_vec();
        old.extend_from_slice(&1u32.to_le_bytes());
        old.extend_from_slice(&[9, 8]);
        assert!(matches!(
            problem(&old, Kind::Toguz),
            Problem::OldFormat { .. }
        ));
        assert!(matches!(
            problem(b"hello world, not a table", Kind::Toguz),
            Problem::NotATable
        ));
        fs::remove_file(&path).unwrap();
        assert!(read(&path, Kind::Toguz).unwrap_err().is_missing());
    }
}
