//! Precomputed Grundy tables for `grundy`: the `.sgt` file format, its
//! validation, typed views, memory-mapped and owned files, and the tables of
//! `data/` compiled into the library.
//!
//! For: storing values that `sg-core` and `sg-octal` compute (and the
//! nimbers of Cram components, by `sg-search`'s canonical forms), and
//! reading them back fast
//! and safely (every file validated, a stored description re-certified).
//! Not for: the games themselves or their values' definitions (`sg-core`,
//! `sg-octal`, `sg-search`),
//! or judge inputs (`sg-solve`). The generators (feature `generate`) only
//! run those crates' definitions and engines in parallel; `cargo xtask gen`
//! drives them.
//!
//! - [`format`](mod@format): the byte layout (documented byte by byte), the header and the
//!   metadata, and [`encode`](format::encode) to write a table.
//! - [`Table`]: a validated table borrowed from bytes, with
//!   [`Table::from_bytes`]; [`RowTable`] and [`KnightTable`] are its typed
//!   views, and [`Table::knight_pattern`] certifies a stored description of
//!   a knight game on the whole board.
//! - [`cram`]: the Cram endgame table, the nimber of every polyomino of at
//!   most `K` cells for sg-search's Cram solver
//!   ([`Table::cram_endgame`], [`read_cram_endgame`] for a file),
//!   checked from the rules by [`cram::CramEndgameTable::verify_values`];
//!   [`polyomino`] lists the polyominoes and computes their nimbers.
//! - [`octal`]: the table kinds of take-and-break games, a Grundy sequence
//!   ([`Table::octal_sequence`]) and the catalogue of the octal games with
//!   three digits ([`Table::octal_catalogue`]).
//! - [`read_file`] reads a file into a 64-byte aligned buffer;
//!   [`open_mmap`] maps it (an `unsafe fn`: see its safety contract);
//!   [`open`] reads files up to [`COPY_LIMIT`] and maps larger ones. Only
//!   regular files are opened.
//! - [`RowTable::verify_values`] and [`KnightTable::verify_values`]: the
//!   values checked against the game's recurrence (a checksum is no proof).
//! - [`embedded_row_table`], [`embedded_knight_table`] and
//!   [`embedded_knight_pattern`], [`embedded_octal_catalogue`],
//!   [`embedded_cram_endgame`] (feature `embedded`, on by default): the
//!   committed tables, validated (the pattern certified) once.
//! - [`generate`] (feature `generate`, with rayon): the generators of the
//!   tables' payloads, in parallel (used by `cargo xtask gen` and the
//!   benchmarks).
//!
//! The tables are written by `cargo xtask gen` from the definitions of the
//! games in `sg-core` and `sg-octal`; see the workspace README. A file the user names is
//! written through `sg-files` (`sg_files::safe_write`: a unique temporary
//! file, `fsync`, a rename); this crate encodes the bytes.
//!
//! # Inside
//! The modules stand in layers, each using only those below it:
//! 1. what knows no kind of table: `metadata.rs` ([`TableKind`](format::TableKind),
//!    [`Game`](format::Game), [`Metadata`](format::Metadata)), `error.rs`
//!    ([`TableError`]) and `layout.rs` (the header and its numbering of
//!    the kinds, the byte readers, the payload checks, the bytes of a file
//!    of a given payload length);
//! 2. the kinds, each with the payload length its parameters imply and
//!    its view of a payload: `views.rs` (row, knight, knight pattern),
//!    [`octal`], [`octal_runs`] and [`misere`] (which use `octal`'s
//!    records and codes), [`cram`] (over [`polyomino`]);
//! 3. `kinds.rs`, what dispatches over the kinds
//!    ([`Game::entries`](format::Game::entries), the checked
//!    [`encode`](format::encode)), and [`format`](mod@format), which
//!    gathers the format's public items;
//! 4. `table.rs` (validation, [`Table`]), `verify.rs`, `file.rs`,
//!    `embedded.rs` and [`generate`].
//!
//! # Example
//!
//! ```
//! use sg_core::row::row_table_by_definition;
//! use sg_tables::format::{Game, Metadata, encode};
//! use sg_tables::read_file;
//!
//! // Write a table of every 8-cell row (as `cargo xtask gen --out DIR` does
//! // for bigger ones), then read it back: the file is checked when read.
//! let metadata = Metadata {
//!     game: Game::Row { width: 8 },
//!     generator: "my program 1.0".to_owned(),
//! };
//! let bytes = encode(&metadata, &row_table_by_definition(8))?;
//! let path = std::env::temp_dir().join(format!("row8-{}.sgt", std::process::id()));
//! std::fs::write(&path, bytes)?;
//!
//! let file = read_file(&path)?;
//! let rows = file.table().row()?;
//! assert_eq!(rows.width(), 8);
//! assert_eq!(rows.get(0b1000_0010), Some(1)); // columns 1 and 7
//! # std::fs::remove_file(&path)?;
//!
//! // The tables compiled in (feature `embedded`, on by default).
//! #[cfg(feature = "embedded")]
//! {
//!     use sg_tables::{embedded_knight_pattern, embedded_knight_table, embedded_row_table};
//!     assert_eq!(embedded_row_table().get(1 << 19 | 1 << 1), Some(1));
//!     assert_eq!(embedded_knight_table().get(2, 5), Some(3));
//!     // Any square below 2^63, through the certified description.
//!     assert_eq!(embedded_knight_pattern().value(1 << 62, 7), 3);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod aligned;
pub mod cram;
#[cfg(feature = "embedded")]
mod embedded;
mod error;
mod file;
pub mod format;
#[cfg(feature = "generate")]
pub mod generate;
mod kinds;
mod layout;
mod metadata;
pub mod misere;
pub mod octal;
pub mod octal_runs;
pub mod polyomino;
mod table;
mod verify;
mod views;

pub use aligned::AlignedBytes;
#[cfg(feature = "embedded")]
pub use embedded::{
    embedded_cram_endgame, embedded_cram_endgame_bytes, embedded_knight_bytes,
    embedded_knight_pattern, embedded_knight_pattern_bytes, embedded_knight_table,
    embedded_octal_catalogue, embedded_octal_catalogue_bytes, embedded_row_bytes,
    embedded_row_table,
};
pub use error::TableError;
pub use file::{
    COPY_LIMIT, MappedTable, OwnedTable, TableFile, open, open_mmap, open_mmap_unverified,
    read_cram_endgame, read_file, read_header,
};
pub use table::{Table, TableInfo};
pub use views::{KnightTable, RowTable};

/// The examples of the crate's README.md, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
