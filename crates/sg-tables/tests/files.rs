//! Reading and mapping table files.

use sg_tables::format::{self, Game, Metadata};
use sg_tables::{TableError, open_mmap, read_file};
use std::path::PathBuf;

fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sg-tables-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
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
    let path = temp_file("row10.sgt", &row_file());
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
    let path = temp_file("corrupt.sgt", &bytes);
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

    let path = temp_file("empty.sgt", &[]);
    assert!(matches!(
        read_file(&path),
        Err(TableError::Truncated { .. })
    ));
    // SAFETY: as above.
    assert!(unsafe { open_mmap(&path) }.is_err());
}

#[test]
fn missing_file() {
    let err = read_file("/nonexistent/table.sgt").unwrap_err();
    assert!(matches!(err, TableError::Io { .. }));
    assert!(err.to_string().contains("/nonexistent/table.sgt"));
}
