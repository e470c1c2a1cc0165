//! Reading and mapping table files.

use sg_tables::format::{self, Game, Metadata};
use sg_tables::{TableError, open_mmap, read_file};
use std::path::PathBuf;

/// The file `name` holding `bytes`, in a folder removed when the returned
/// guard drops (when the test ends, passed or failed).
fn temp_file(name: &str, bytes: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    (dir, path)
}

fn row_file() -> Vec<u8> {
    let metadata = Metadata {
        game: Game::Row { width: 10 },
        generator: "test".into(),
    };
    let payload: Vec<u8> = (0..1024).map(|m| (m % 7) as u8).collect();
    format::encode(&metadata, &payload).unwrap()
}

#[test]
fn read_and_map_agree() {
    let (_dir, path) = temp_file("row10.sgt", &row_file());
    let owned = read_file(&path).unwrap();
    // SAFETY: the test owns this file and does not change it while mapped.
    let mapped = unsafe { open_mmap(&path) }.unwrap();
    let (a, b) = (owned.table().row().unwrap(), mapped.table().row().unwrap());
    assert_eq!(a.width(), 10);
    for mask in 0..1024 {
        assert_eq!(a.get(mask), Some((mask % 7) as u8));
        assert_eq!(b.get(mask), a.get(mask));
    }
    assert_eq!(owned.bytes(), mapped.bytes());
}

#[test]
fn corrupt_files_are_refused() {
    let mut bytes = row_file();
    *bytes.last_mut().unwrap() ^= 0x80;
    let (_dir, path) = temp_file("corrupt.sgt", &bytes);
    assert!(matches!(
        read_file(&path),
        Err(TableError::PayloadChecksum { .. })
    ));
    // SAFETY: as above.
    let mapped = unsafe { open_mmap(&path) };
    assert!(matches!(mapped, Err(TableError::PayloadChecksum { .. })));
    // SAFETY: as above.
    let unverified = unsafe { sg_tables::open_mmap_unverified(&path) };
    assert!(unverified.is_ok());

    let (_dir, path) = temp_file("empty.sgt", &[]);
    assert!(matches!(
        read_file(&path),
        Err(TableError::Truncated { .. })
    ));
    // SAFETY: as above.
    assert!(unsafe { open_mmap(&path) }.is_err());
}

/// A file far larger than memory (sparse: no disk is used) is refused by
/// its header, never read whole: one that is no table by its magic, a
/// table with a tebibyte after its payload by its length. (Read whole, the
/// first would fail on the allocation of a tebibyte, saying it does not
/// fit in memory.)
#[test]
fn a_huge_file_is_refused_by_its_header_before_it_is_read() {
    const TEBIBYTE: u64 = 1 << 40;
    let (_dir, junk) = temp_file("junk.sgt", b"not a table, and then zeros");
    let (_dir2, long) = temp_file("long.sgt", &row_file());
    for path in [&junk, &long] {
        let file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
        file.set_len(TEBIBYTE).unwrap();
    }
    assert!(matches!(read_file(&junk), Err(TableError::BadMagic { .. })));
    let extra = TEBIBYTE - row_file().len() as u64;
    assert!(
        matches!(read_file(&long), Err(TableError::TrailingBytes { extra: e }) if e == extra),
        "{:?}",
        read_file(&long).err()
    );
}

#[test]
fn missing_file() {
    let err = read_file("/nonexistent/table.sgt").unwrap_err();
    assert!(matches!(err, TableError::Io { .. }));
    assert!(err.to_string().contains("/nonexistent/table.sgt"));
}

#[test]
fn small_files_are_read_and_only_regular_files_opened() {
    let (_dir, path) = temp_file("row10-open.sgt", &row_file());
    // SAFETY: the test owns this file and does not change it.
    let opened = unsafe { sg_tables::open(&path, true) }.unwrap();
    assert!(matches!(opened, sg_tables::TableFile::Owned(_)));
    assert_eq!(opened.table().row().unwrap().width(), 10);
    assert_eq!(sg_tables::read_header(&path).unwrap().payload_len, 1024);
    let dir = path.parent().unwrap().join("a-folder.sgt");
    std::fs::create_dir_all(&dir).unwrap();
    assert!(matches!(
        read_file(&dir),
        Err(TableError::NotRegularFile {
            what: "a folder",
            ..
        })
    ));
    // SAFETY: as above.
    assert!(unsafe { sg_tables::open(&dir, true) }.is_err());
    #[cfg(unix)]
    {
        let fifo = path.parent().unwrap().join("fifo.sgt");
        let _ = std::fs::remove_file(&fifo);
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        // Would block forever if opened for reading the ordinary way.
        assert!(matches!(
            sg_tables::read_header(&fifo),
            Err(TableError::NotRegularFile { what: "a FIFO", .. })
        ));
        // SAFETY: as above (and it is refused before being mapped).
        assert!(unsafe { open_mmap(&fifo) }.is_err());
        assert!(read_file(&fifo).is_err());
    }
}

#[test]
fn the_committed_tables_values_follow_the_recurrence() {
    for bytes in [
        sg_tables::embedded_row_bytes(),
        sg_tables::embedded_knight_bytes(),
        sg_tables::embedded_knight_pattern_bytes(),
    ] {
        sg_tables::Table::from_bytes(bytes)
            .unwrap()
            .verify_values()
            .unwrap();
    }
}

#[test]
fn a_small_table_is_copied_so_changing_its_file_changes_nothing() {
    let (_dir, path) = temp_file("row10-truncated.sgt", &row_file());
    // SAFETY: below COPY_LIMIT the file is read, not mapped: the promise
    // does not apply, which is what this test shows.
    let opened = unsafe { sg_tables::open(&path, true) }.unwrap();
    // Truncate and rewrite the file while the table is in use.
    std::fs::write(&path, b"").unwrap();
    std::fs::write(&path, vec![0xff; 4096]).unwrap();
    let row = opened.table().row().unwrap();
    for mask in 0..1024 {
        assert_eq!(row.get(mask), Some((mask % 7) as u8));
    }
}
