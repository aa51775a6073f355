//! The file format every table shares: a header that says what the file holds, the table's
//! bytes, and a checksum, so that a file of another game, of a format version this otau does not
//! read or of another build (an older otau's cache) is named and refused, never misread.
//!
//! Layout, little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `otau-tbl` |
//! | 4 | format version: [`FORMAT`] is written; [`FORMAT`] is read, and for tables (not proofs) the format before it too, whose layout they kept |
//! | 1 | kind ([`Kind`]) |
//! | 3 | parameters of the kind (Toguz: holes, most stones, stuck rule; Modiar: 42, 0, 0; Bestemshe proof: rules, the tables' stones, the winner (0 South, 1 North, 2 a draw); Giuthi proof: `holes << 4 \| seeds`, the table's seeds, the number of trees) |
//! | 8 | payload length `L` |
//! | `L` | payload, as the kind lays it out; a proof's begins with the tables it rests on ([`RestsOn`]) |
//! | 8 | checksum of everything before it ([`checksum`]) |
//!
//! The checksum catches damage, not forgery: anyone can recompute it. So a proof records the
//! SHA-256 [`Digest`] of each table it rests on, and its verifier compares it with the tables it
//! loads (or rebuilds): a table entry changed and re-summed no longer passes for the one the
//! proof was made over.
//!
//! Files are written to a temporary file in the same directory and renamed, so a reader never
//! sees a partial file.

use std::fmt;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

use crate::games::mix64;

/// Bumped whenever the layout of the file or the meaning of an entry changes. 2: the shared
/// header and checksum (otau's first files, format 1, had one header per kind). 3: a proof's
/// payload begins with the digests of the tables it rests on ([`RestsOn`]); the tables' own
/// layout is that of format 2, so their files of format 2 are still read (no 10-minute rebuild
/// for a change that is not theirs), while a proof of format 2 is refused ([`Problem::NoDigest`]).
pub const FORMAT: u32 = 3;
/// The format before [`FORMAT`], still read for the kinds whose layout it did not change.
const TABLES_FORMAT: u32 = 2;
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
    /// A Giuthi retrograde table. Built in memory at every run, never written: the kind names
    /// it in its [`Digest`] (parameters: holes a row, most seeds on the board, 0; payload: each
    /// seed count's lower bounds then upper bounds, a byte each).
    GiuthiTable = 5,
}

impl Kind {
    /// Whether files of this kind are proofs, whose payload starts with [`RestsOn`].
    pub fn is_proof(self) -> bool {
        matches!(self, Kind::BestemsheProof | Kind::GiuthiProof)
    }

    /// Whether this otau reads a file of this kind of format `version`.
    fn reads(self, version: u32) -> bool {
        version == FORMAT || (version == TABLES_FORMAT && !self.is_proof())
    }

    fn of(byte: u8) -> Option<Kind> {
        match byte {
            1 => Some(Kind::Toguz),
            2 => Some(Kind::Modiar),
            3 => Some(Kind::BestemsheProof),
            4 => Some(Kind::GiuthiProof),
            5 => Some(Kind::GiuthiTable),
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
            Kind::GiuthiTable => "Giuthi table",
        })
    }
}

/// Why a table file could not be read or written, with the file it concerns.
#[derive(Debug)]
pub struct Error {
    /// The file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub problem: Problem,
}

/// What is wrong with a table file.
#[derive(Debug)]
pub enum Problem {
    /// Reading or writing failed.
    Io(std::io::Error),
    /// Shorter than its header says (or than a header).
    Truncated {
        /// The file's size.
        bytes: u64,
        /// The size it needs.
        expected: u64,
    },
    /// Longer than its header says.
    TooLong {
        /// The file's size.
        bytes: u64,
        /// The size its header says.
        expected: u64,
    },
    /// No table magic at the start.
    NotATable,
    /// A file of otau's first format (one header per kind, before the shared header).
    OldFormat {
        /// What the old file holds, in words.
        holds: &'static str,
    },
    /// The shared header, another format version.
    Version {
        /// The file's format version.
        found: u32,
    },
    /// Another kind of table than asked for.
    Kind {
        /// The kind the file holds, in words.
        found: String,
        /// The kind asked for.
        expected: Kind,
    },
    /// Parameters or payload size that this kind does not allow, or that were not asked for.
    Header(String),
    /// The bytes do not match the checksum: the file is damaged.
    Checksum,
    /// A proof of format 2, which records no digest of the tables it rests on.
    NoDigest {
        /// The file's format version.
        found: u32,
    },
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
            Problem::NoDigest { found } => write!(
                f,
                "{path} is a proof of table format {found}, which records no digest of the \
                 tables it rests on; this otau reads proofs of format {FORMAT} only: remove it \
                 and solve again (`otau solve`)"
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
    /// An error about the file at `path`.
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

/// The SHA-256 digest of a table's content: what a proof records of each table it rests on.
/// A checksum only catches damage (anyone can recompute it); a table changed so that the same
/// digest comes out would take a SHA-256 collision.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Digest(pub [u8; 32]);

impl Digest {
    /// The digest of a table of `kind`: SHA-256 of the kind byte, the three parameter bytes, the
    /// payload's length (8 bytes) and the payload, in the order of its file, without the file's
    /// framing (magic, format version, checksum): the same tables have the same digest whatever
    /// format their file was written in.
    pub fn of_table(kind: Kind, params: [u8; 3], payload: &[u8]) -> Digest {
        Digest::of_parts(kind, params, &[payload])
    }

    /// [`Digest::of_table`] of a payload kept in `parts` (a table held layer by layer), as if
    /// they were one byte string.
    pub fn of_parts(kind: Kind, params: [u8; 3], parts: &[&[u8]]) -> Digest {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        let mut sha = Sha256::new();
        sha.update([kind as u8]);
        sha.update(params);
        sha.update((len as u64).to_le_bytes());
        for part in parts {
            sha.update(part);
        }
        Digest(sha.finalize().into())
    }
}

/// In lowercase hex, as `sha256sum` prints a digest.
impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({self})")
    }
}

/// A table a proof rests on: the name of its file (in the directory of the proof; for a table
/// built in memory at every run, a name for it) and its content's [`Digest`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RestsOn {
    /// The name of the table's file.
    pub table: String,
    /// The digest of the table's content.
    pub digest: Digest,
}

impl RestsOn {
    /// The section a proof's payload begins with: the number of tables (1 byte), then each
    /// table's name length (1 byte), name (UTF-8) and digest (32 bytes).
    pub fn encode(tables: &[RestsOn]) -> Vec<u8> {
        assert!(tables.len() < 256, "at most 255 tables");
        let mut out = vec![tables.len() as u8];
        for t in tables {
            assert!(t.table.len() < 256, "a table name of at most 255 bytes");
            out.push(t.table.len() as u8);
            out.extend_from_slice(t.table.as_bytes());
            out.extend_from_slice(&t.digest.0);
        }
        out
    }

    /// Splits a proof's payload into the tables it rests on and the proof itself; the error
    /// says what is malformed.
    pub fn decode(payload: &[u8]) -> Result<(Vec<RestsOn>, &[u8]), String> {
        let short = || "the tables the proof rests on are cut short".to_string();
        let (&count, mut rest) = payload.split_first().ok_or_else(short)?;
        let mut tables = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let (&len, after) = rest.split_first().ok_or_else(short)?;
            let len = len as usize;
            if after.len() < len + 32 {
                return Err(short());
            }
            let table = std::str::from_utf8(&after[..len])
                .map_err(|_| "a table name that is not UTF-8".to_string())?
                .to_string();
            let digest = Digest(after[len..len + 32].try_into().expect("32 bytes"));
            tables.push(RestsOn { table, digest });
            rest = &after[len + 32..];
        }
        Ok((tables, rest))
    }
}

/// Where the tables a proof is checked over came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TablesFrom {
    /// Read from this file (the cache): trusted only as far as their digest matches.
    File(PathBuf),
    /// Rebuilt from scratch by this otau for the check.
    Rebuilt,
}

/// The tables a proof is checked over are not those it rests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DigestMismatch {
    /// The proof file.
    pub proof: PathBuf,
    /// What the proof records.
    pub rests_on: RestsOn,
    /// Where the tables at hand came from.
    pub tables: TablesFrom,
    /// The digest of the tables at hand.
    pub found: Digest,
}

impl fmt::Display for DigestMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let proof = self.proof.display();
        let RestsOn { table, digest } = &self.rests_on;
        let found = self.found;
        match &self.tables {
            TablesFrom::File(path) => write!(
                f,
                "{} has SHA-256 {found}, but the proof {proof} rests on {table} of SHA-256 \
                 {digest}: the table file (or the proof) was changed since the proof was made; \
                 check both from scratch with `--verify --rebuild-tables`, or remove both files \
                 and solve again",
                path.display()
            ),
            TablesFrom::Rebuilt => write!(
                f,
                "the tables rebuilt from scratch have SHA-256 {found}, but the proof {proof} \
                 rests on {table} of SHA-256 {digest}: the proof was not made over the tables \
                 this otau builds (forged, or made by another version of otau); remove it and \
                 solve again"
            ),
        }
    }
}

impl std::error::Error for DigestMismatch {}

/// Whether `found`, the digest of the tables at hand (from `tables`), is the one the proof at
/// `proof` rests on: what a verifier checks before it replays the proof over them.
pub fn check_digest(
    proof: &Path,
    rests_on: &RestsOn,
    tables: TablesFrom,
    found: Digest,
) -> Result<(), Box<DigestMismatch>> {
    if rests_on.digest == found {
        return Ok(());
    }
    Err(Box::new(DigestMismatch {
        proof: proof.to_path_buf(),
        rests_on: rests_on.clone(),
        tables,
        found,
    }))
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
    if !kind.reads(version) {
        if version == TABLES_FORMAT && Kind::of(head[12]) == Some(kind) {
            return Err(err(Problem::NoDigest { found: version }));
        }
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
        version[8] = 4;
        assert!(matches!(
            problem(&version, Kind::Toguz),
            Problem::Version { found: 4 }
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

    /// Format 3 changed the proofs only: a table file of format 2 is still read, a proof of
    /// format 2 (no digest of its tables) is refused saying to solve again.
    #[test]
    fn tables_of_format_2_are_read_and_proofs_of_format_2_refused() {
        let path = scratch("old.table");
        let as_format_2 = |kind| {
            write(&path, kind, [1, 2, 3], b"payload").unwrap();
            let mut bytes = fs::read(&path).unwrap();
            bytes[8..12].copy_from_slice(&TABLES_FORMAT.to_le_bytes());
            let n = bytes.len() - 8;
            let sum = checksum(&[&bytes[..HEADER], &bytes[HEADER..n]]);
            bytes[n..].copy_from_slice(&sum.to_le_bytes());
            fs::write(&path, bytes).unwrap();
        };
        as_format_2(Kind::Toguz);
        assert_eq!(
            read(&path, Kind::Toguz).unwrap(),
            ([1, 2, 3], b"payload".to_vec())
        );
        for kind in [Kind::BestemsheProof, Kind::GiuthiProof] {
            as_format_2(kind);
            let e = read(&path, kind).unwrap_err();
            assert!(matches!(e.problem, Problem::NoDigest { found: 2 }), "{e}");
            let text = e.to_string();
            assert!(
                text.contains("no digest") && text.contains("solve again"),
                "{text}"
            );
        }
        fs::remove_file(&path).unwrap();
    }

    #[test]
    fn digests_name_the_content_and_the_rests_on_section_round_trips() {
        let payload: Vec<u8> = (0..100u8).collect();
        let d = Digest::of_table(Kind::Toguz, [5, 6, 0], &payload);
        assert_eq!(
            d,
            Digest::of_parts(Kind::Toguz, [5, 6, 0], &[&payload[..40], &payload[40..]])
        );
        let mut changed = payload.clone();
        changed[70] ^= 1;
        assert_ne!(d, Digest::of_table(Kind::Toguz, [5, 6, 0], &changed));
        assert_ne!(d, Digest::of_table(Kind::Toguz, [5, 6, 1], &payload));
        assert_ne!(d, Digest::of_table(Kind::Modiar, [5, 6, 0], &payload));
        // What is hashed: the kind, the parameters, the payload's length, the payload.
        let empty = Digest::of_table(Kind::Modiar, [0, 0, 0], &[]);
        let direct: [u8; 32] = Sha256::digest([2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).into();
        assert_eq!(empty.0, direct);
        assert_eq!(d.to_string().len(), 64);
        let rests = vec![
            RestsOn {
                table: "bestemshe-28.table".into(),
                digest: d,
            },
            RestsOn {
                table: String::new(),
                digest: empty,
            },
        ];
        let mut bytes = RestsOn::encode(&rests);
        bytes.extend_from_slice(&[7, 8, 9]);
        assert_eq!(RestsOn::decode(&bytes).unwrap(), (rests, &[7u8, 8, 9][..]));
        for cut in 0..bytes.len() - 3 {
            assert!(RestsOn::decode(&bytes[..cut]).is_err(), "{cut}");
        }
    }
}
