//! Table files as users' cache folders hold them: what was written reads back the same, and a
//! damaged file, a file of another kind or an older otau's file is refused with an error that
//! names the file and what is wrong, never misread.

use std::path::PathBuf;

use otau::games::{AnyGame, Variant};
use otau::tables::storage::file_format::Problem;
use otau::tables::toguz::Tables;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("otau-table-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn toguz(text: &str) -> otau::games::Toguz {
    match AnyGame::from_position(text).unwrap() {
        AnyGame::Toguz(t) => t,
        _ => unreachable!(),
    }
}

#[test]
fn toguz_tables_round_trip_and_damage_is_named() {
    let (tables, _) = Tables::build(Variant::BESTEMSHE, 4);
    let path = scratch(&otau::tables::file_name(Variant::BESTEMSHE));
    assert!(path.ends_with("bestemshe.table"));
    tables.save(&path).unwrap();
    let loaded = Tables::load(&path).unwrap();
    assert_eq!(
        (loaded.variant(), loaded.max_stones()),
        (Variant::BESTEMSHE, 4)
    );
    let pos = toguz("bestemshe 0,0,0,1,0/0,0,1,0,1 23/24 -/- s 30");
    assert_eq!(loaded.probe(&pos), tables.probe(&pos));
    assert!(loaded.probe(&pos).is_some());

    let good = std::fs::read(&path).unwrap();
    let name = path.display().to_string();
    let refused = |bytes: &[u8]| {
        std::fs::write(&path, bytes).unwrap();
        let Err(e) = Tables::load(&path) else {
            panic!("{name} was read")
        };
        assert!(e.to_string().contains(&name), "{e}");
        e
    };
    // One corrupted byte among the entries: the checksum.
    let mut corrupted = good.clone();
    corrupted[good.len() / 2] ^= 0x01;
    let e = refused(&corrupted);
    assert!(matches!(e.problem, Problem::Checksum), "{e}");
    assert!(e.to_string().contains("checksum"), "{e}");
    // Truncated: the header's length against the file's.
    let e = refused(&good[..good.len() - 100]);
    assert!(matches!(e.problem, Problem::Truncated { .. }), "{e}");
    assert!(e.to_string().contains("truncated"), "{e}");
    // The format-1 file of an older otau (magic, version 1, holes, stones, length, entries).
    let mut old = b"otauEGTB".to_vec();
    old.extend_from_slice(&1u32.to_le_bytes());
    old.extend_from_slice(&[5, 4]);
    old.extend_from_slice(&(tables.bytes() as u64).to_le_bytes());
    old.extend_from_slice(&good[24..24 + tables.bytes()]);
    let e = refused(&old);
    assert!(matches!(e.problem, Problem::OldFormat { .. }), "{e}");
    assert!(e.to_string().contains("format 1"), "{e}");
    // A later format version.
    let mut later = good.clone();
    later[8] = 9;
    let e = refused(&later);
    assert!(matches!(e.problem, Problem::Version { found: 9 }), "{e}");
    std::fs::remove_file(&path).unwrap();
}

/// A build killed while it wrote leaves `<name>.tmp.<pid>`: the next save into the directory
/// removes it (its process is gone), and leaves a running process's alone.
#[test]
fn an_interrupted_write_leaves_no_temporary_file_behind() {
    let dir = std::env::temp_dir().join(format!("otau-table-tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // No process has this id (Linux's pid_max is at most 2^22).
    let stale = dir.join("bestemshe.tmp.4294967295");
    let running = dir.join(format!("modiar.tmp.{}", std::process::id()));
    let other = dir.join("notes.tmp.txt");
    for f in [&stale, &running, &other] {
        std::fs::write(f, b"partial").unwrap();
    }
    let (tables, _) = Tables::build(Variant::BESTEMSHE, 2);
    tables.save(&dir.join("bestemshe.table")).unwrap();
    if std::path::Path::new("/proc/self").exists() {
        assert!(!stale.exists(), "the stale temporary file is still there");
    }
    assert!(running.exists() && other.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
