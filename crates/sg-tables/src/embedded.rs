//! The tables of `data/`, compiled in with `include_bytes!` at a 64-byte
//! aligned address and validated once, on first use (every check but the
//! checksums of the row, knight and octal tables, see below). Each accessor returns
//! a `&'static` reference to the validated view; the bytes have their own
//! accessors, for `grundy tables`.
//! They are read from the crate's own copies in `crates/sg-tables/data/`
//! (written by `cargo xtask gen`, checked by `--check`), so that the
//! packaged crate builds.

use crate::aligned::{Align64, AlignAs};
use crate::cram::CramEndgameTable;
use crate::octal::OctalCatalogue;
use crate::table::Table;
use crate::views::{KnightTable, RowTable};
use sg_core::knight_pattern::KnightPattern;
use std::sync::LazyLock;

static ROW_BYTES: &AlignAs<Align64, [u8]> = &AlignAs {
    _align: [],
    bytes: *include_bytes!("../data/row20.sgt"),
};

static KNIGHT_BYTES: &AlignAs<Align64, [u8]> = &AlignAs {
    _align: [],
    bytes: *include_bytes!("../data/knight.sgt"),
};

static KNIGHT_PATTERN_BYTES: &AlignAs<Align64, [u8]> = &AlignAs {
    _align: [],
    bytes: *include_bytes!("../data/knight-pattern.sgt"),
};

static OCTAL_CATALOGUE_BYTES: &AlignAs<Align64, [u8]> = &AlignAs {
    _align: [],
    bytes: *include_bytes!("../data/octal-catalogue.sgt"),
};

static CRAM_ENDGAME_BYTES: &AlignAs<Align64, [u8]> = &AlignAs {
    _align: [],
    bytes: *include_bytes!("../data/cram-endgame.sgt"),
};

// The compiled-in tables are not re-checksummed at run time (that read every
// byte of each payload at startup, and even the metadata's small checksum
// costs crc32fast's CPU-feature probe on its first call, about 0.05 ms on a
// virtual machine): `tests/embedded.rs` and `cargo xtask gen --check` verify
// the committed files, and the bytes cannot change inside the binary. Every
// other check still runs.
static OCTAL_CATALOGUE: LazyLock<OctalCatalogue> = LazyLock::new(|| {
    Table::from_compiled_in(&OCTAL_CATALOGUE_BYTES.bytes)
        .and_then(|t| t.octal_catalogue())
        .unwrap_or_else(|e| panic!("data/octal-catalogue.sgt, compiled in, is invalid: {e}"))
});

static CRAM_ENDGAME: LazyLock<CramEndgameTable<'static>> = LazyLock::new(|| {
    Table::from_compiled_in(&CRAM_ENDGAME_BYTES.bytes)
        .and_then(|t| t.cram_endgame())
        .unwrap_or_else(|e| panic!("data/cram-endgame.sgt, compiled in, is invalid: {e}"))
});

static ROW: LazyLock<RowTable<'static>> = LazyLock::new(|| {
    Table::from_compiled_in(&ROW_BYTES.bytes)
        .and_then(|t| t.row())
        .unwrap_or_else(|e| panic!("data/row20.sgt, compiled in, is invalid: {e}"))
});

static KNIGHT: LazyLock<KnightTable<'static>> = LazyLock::new(|| {
    Table::from_compiled_in(&KNIGHT_BYTES.bytes)
        .and_then(|t| t.knight())
        .unwrap_or_else(|e| panic!("data/knight.sgt, compiled in, is invalid: {e}"))
});

static KNIGHT_PATTERN: LazyLock<KnightPattern> = LazyLock::new(|| {
    Table::from_bytes(&KNIGHT_PATTERN_BYTES.bytes)
        .and_then(|t| t.knight_pattern())
        .unwrap_or_else(|e| panic!("data/knight-pattern.sgt, compiled in, is invalid: {e}"))
});

/// The bytes of the embedded row table file (`data/row20.sgt`).
pub fn embedded_row_bytes() -> &'static [u8] {
    &ROW_BYTES.bytes
}

/// The bytes of the embedded knight table file (`data/knight.sgt`).
pub fn embedded_knight_bytes() -> &'static [u8] {
    &KNIGHT_BYTES.bytes
}

/// The row table of `data/row20.sgt`: every row of 20 cells. Validated on
/// the first call (the tests and `cargo xtask gen --check` guarantee the
/// committed file is valid, so this does not fail).
pub fn embedded_row_table() -> &'static RowTable<'static> {
    &ROW
}

/// The knight table of `data/knight.sgt`: the hyper knight on every square
/// with `x, y < 1024`. Validated on the first call, like
/// [`embedded_row_table`].
pub fn embedded_knight_table() -> &'static KnightTable<'static> {
    &KNIGHT
}

/// The bytes of the embedded knight-pattern file (`data/knight-pattern.sgt`).
pub fn embedded_knight_pattern_bytes() -> &'static [u8] {
    &KNIGHT_PATTERN_BYTES.bytes
}

/// The certified description of the hyper knight on the whole board, from
/// `data/knight-pattern.sgt`: decoded and certified on the first call
/// (well under a millisecond); `cargo xtask gen --check` and the tests
/// guarantee the committed file certifies, so this does not fail.
pub fn embedded_knight_pattern() -> &'static KnightPattern {
    &KNIGHT_PATTERN
}

/// The bytes of the embedded octal catalogue (`data/octal-catalogue.sgt`).
pub fn embedded_octal_catalogue_bytes() -> &'static [u8] {
    &OCTAL_CATALOGUE_BYTES.bytes
}

/// The octal catalogue of `data/octal-catalogue.sgt`: every game `0.ddd`
/// and `4.ddd`, decoded on the first call (a fraction of a millisecond;
/// `cargo xtask gen --check` and the tests guarantee the committed file is
/// valid, so this does not fail).
pub fn embedded_octal_catalogue() -> &'static OctalCatalogue {
    &OCTAL_CATALOGUE
}

/// The bytes of the embedded Cram endgame table (`data/cram-endgame.sgt`).
pub fn embedded_cram_endgame_bytes() -> &'static [u8] {
    &CRAM_ENDGAME_BYTES.bytes
}

/// The Cram endgame table of `data/cram-endgame.sgt`: the nimber of every
/// polyomino of at most 14 cells (see [`crate::cram`]). Its records are
/// checked against each other on the first call (tens of microseconds;
/// `cargo xtask gen --check` and the tests guarantee the committed file is
/// valid, so this does not fail); its bit arrays are read in place. For a
/// Cram board:
///
/// ```
/// use sg_search::games::cram::Cram;
/// use sg_search::Solver;
/// use std::sync::Arc;
///
/// let table = sg_tables::embedded_cram_endgame();
/// let cram = Cram::<u64>::new(4, 5)?.with_endgame(Arc::new(table));
/// assert_eq!(Solver::new(&cram).nimber(&cram.start())?, 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn embedded_cram_endgame() -> &'static CramEndgameTable<'static> {
    &CRAM_ENDGAME
}
