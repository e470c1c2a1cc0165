//! Why a table was refused: one variant per way a file can be wrong.

use crate::metadata::TableKind;
use sg_core::knight::KnightError;
use sg_core::knight_pattern::LoadError;
use sg_octal::CodeError;
use std::path::PathBuf;

/// Why a table file or buffer was refused. Every check of
/// [`Table::from_bytes`](crate::Table::from_bytes) has its own variant.
/// A variant with an underlying error keeps it typed, in a field named
/// `error` that the message shows (so it is not also a `source`, which
/// would print it twice in an error chain).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// The file could not be opened, read or mapped.
    #[error("cannot read table file {}: {error}", sg_text::shown_path(.path))]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error (shown in the message, so not a `source`).
        error: std::io::Error,
    },
    /// Fewer bytes than the part that must be there.
    #[error("table truncated: {what} needs {needed} bytes, the file has {len}")]
    Truncated {
        /// The part that does not fit ("header", "metadata", "payload").
        what: &'static str,
        /// Bytes that part needs, counted from the start of the file.
        needed: u64,
        /// Bytes in the file.
        len: u64,
    },
    /// The file does not start with `GRUNDYT\0`.
    #[error("not a grundy table: the magic bytes are {found:02x?}, expected \"GRUNDYT\\0\"")]
    BadMagic {
        /// The first eight bytes.
        found: [u8; 8],
    },
    /// The endianness word is not `0x01020304`.
    #[error(
        "endianness check word is {found:#010x}, expected 0x01020304 (a big-endian or corrupt file)"
    )]
    BadEndianness {
        /// The word as read (little-endian).
        found: u32,
    },
    /// A format version this reader does not know.
    #[error(
        "table format version {found} is not supported (this reader knows version {supported})"
    )]
    UnsupportedVersion {
        /// Version in the file.
        found: u32,
        /// The one supported version.
        supported: u32,
    },
    /// A table kind this reader does not know.
    #[error("unknown table kind {0}")]
    UnknownKind(u32),
    /// A Cram endgame table of the first layout (kind 6: 4-bit slots,
    /// no fingerprints), which could answer a key it did not hold with
    /// some nimber: no longer read.
    #[error(
        "a Cram endgame table of the retired layout (table kind 6: 4-bit slots without fingerprints), which this reader refuses: regenerate it with `cargo xtask gen` (`--cram-cells K --out DIR` for another size)"
    )]
    RetiredCramEndgame,
    /// The table is valid but of another kind than asked for.
    #[error("expected {} table, found {} table", with_article(*.expected), with_article(*.found))]
    WrongKind {
        /// The kind asked for.
        expected: TableKind,
        /// The kind of the file.
        found: TableKind,
    },
    /// The reserved header bytes are not zero.
    #[error("reserved header bytes are not zero")]
    ReservedNotZero,
    /// The metadata checksum does not match.
    #[error("metadata checksum mismatch: header says {expected:#010x}, metadata has {found:#010x}")]
    MetadataChecksum {
        /// Checksum in the header.
        expected: u32,
        /// Checksum of the metadata bytes.
        found: u32,
    },
    /// The metadata could not be decoded (or, when writing, encoded).
    #[error("invalid metadata: {error}")]
    Metadata {
        /// The decoder's error.
        error: postcard::Error,
    },
    /// The metadata's encoding ends before its length in the header.
    #[error("invalid metadata: {extra} bytes after the metadata")]
    MetadataTrailing {
        /// Bytes left over.
        extra: usize,
    },
    /// When writing: metadata longer than the header's `u32` length.
    #[error("invalid metadata: {len} bytes, longer than 4 GiB")]
    MetadataTooLong {
        /// The encoded length.
        len: usize,
    },
    /// The metadata describes another game than the header's kind.
    #[error("the header says a {header} table but the metadata describes a {metadata} table")]
    KindMismatch {
        /// Kind in the header.
        header: TableKind,
        /// Kind of the metadata's game.
        metadata: TableKind,
    },
    /// A row width outside `1..=MAX_ROW_WIDTH`.
    #[error("invalid table parameters: row width {width} is not in 1..={max}")]
    RowWidth {
        /// The width in the metadata.
        width: u32,
        /// [`MAX_ROW_WIDTH`](crate::format::MAX_ROW_WIDTH).
        max: u32,
    },
    /// A knight table of side 0, or too large to count its entries.
    #[error("invalid table parameters: knight size {size} is zero or too large")]
    KnightSize {
        /// The side in the metadata.
        size: u64,
    },
    /// A knight move set that `sg-core` refuses.
    #[error("invalid table parameters: knight moves: {error}")]
    KnightMoves {
        /// Why the move set is refused.
        error: KnightError,
    },
    /// A stored knight pattern that does not decode or does not certify.
    #[error("invalid table parameters: knight pattern: {error}")]
    KnightPattern {
        /// Why it is not a certified description.
        error: LoadError,
    },
    /// A knight pattern certified for other moves than its metadata's.
    #[error(
        "invalid table parameters: knight pattern: the description is for the moves {pattern:?}, the metadata says {metadata:?}"
    )]
    PatternMoves {
        /// The description's steps.
        pattern: Vec<(i32, i32)>,
        /// The metadata's steps.
        metadata: Vec<(i32, i32)>,
    },
    /// The payload offset is not a multiple of 64 or overlaps the metadata.
    #[error("payload offset {offset} is invalid: it must be a multiple of 64 and at least {min}")]
    PayloadOffset {
        /// Offset in the header.
        offset: u64,
        /// First byte after the metadata.
        min: u64,
    },
    /// The payload length is not the one the parameters imply.
    #[error("payload length {found} does not match the table's parameters, which need {expected}")]
    PayloadLength {
        /// Entries the parameters imply.
        expected: u64,
        /// Payload length in the header.
        found: u64,
    },
    /// The payload's end (offset plus length) does not fit in 64 bits.
    #[error("payload offset {offset} plus length {len} overflows 64 bits")]
    PayloadEndOverflow {
        /// Payload offset in the header.
        offset: u64,
        /// Payload length in the header.
        len: u64,
    },
    /// Bytes after the payload.
    #[error("{extra} unexpected bytes after the payload")]
    TrailingBytes {
        /// How many.
        extra: u64,
    },
    /// The bytes do not sit at a 64-byte aligned address.
    #[error(
        "table bytes are misaligned: the payload is at address {address:#x}, which is not a multiple of 64 (load with read_file or an aligned buffer)"
    )]
    Misaligned {
        /// Address of the payload.
        address: usize,
    },
    /// A row table value that is not the mex of its followers' values.
    #[error(
        "wrong value: row {mask:#b} (mask {mask}) holds {stored}, but the mex of its followers' values is {mex}"
    )]
    RowValue {
        /// The row.
        mask: u64,
        /// The value in the table.
        stored: u8,
        /// What the recurrence gives.
        mex: u32,
    },
    /// A knight table value that is not the mex of its moves' values.
    #[error(
        "wrong value: square ({x}, {y}) holds {stored}, but the mex of its moves' squares is {mex}"
    )]
    KnightValue {
        /// The square's x.
        x: u64,
        /// The square's y.
        y: u64,
        /// The value in the table.
        stored: u8,
        /// What the recurrence gives.
        mex: u32,
    },
    /// An octal table value that is not the game's Grundy value.
    #[error(
        "wrong value: in {code}, heap {heap} holds {stored}, but its Grundy value is {expected}"
    )]
    OctalValue {
        /// The game.
        code: String,
        /// The first heap whose value is wrong.
        heap: u64,
        /// The value in the table.
        stored: u16,
        /// The Grundy value, computed anew (from the stored values below
        /// the heap, which are right).
        expected: u64,
    },
    /// A field of a catalogue record that is not what a run of the engine
    /// finds (its period, its largest value, its rare mask...).
    #[error("octal catalogue: {code}: the record says {field} {stored}, but a run finds {found}")]
    CatalogueField {
        /// The game.
        code: String,
        /// The field, as `grundy octal` names it.
        field: &'static str,
        /// The record's value, as text.
        stored: String,
        /// The run's value, as text.
        found: String,
    },
    /// A catalogue whose metadata announces another number of games than
    /// the catalogue has.
    #[error(
        "invalid table parameters: an octal catalogue holds exactly {expected} games, the metadata says {games}"
    )]
    CatalogueGames {
        /// The number of games announced.
        games: u32,
        /// The number of games of the catalogue:
        /// [`CATALOGUE_GAMES`](crate::octal::CATALOGUE_GAMES).
        expected: u32,
    },
    /// A catalogue computed further than a check may go.
    #[error(
        "invalid table parameters: an octal catalogue is computed to heap {max} at most, the metadata says {limit}"
    )]
    CatalogueLimit {
        /// The limit announced.
        limit: u64,
        /// The largest limit a file may have:
        /// [`MAX_CATALOGUE_LIMIT`](crate::octal::MAX_CATALOGUE_LIMIT).
        max: u64,
    },
    /// An octal table whose values could not be computed anew to check them.
    // The cause is in the message (not a `#[source]`): the commands print
    // a table error as one line.
    #[error("cannot check the values of {code}: {error}")]
    OctalCompute {
        /// The game.
        code: String,
        /// Why.
        error: sg_octal::OctalError,
    },
    /// A path that is not a regular file (a FIFO, a device, a folder):
    /// refused before it is read, so that opening it cannot block.
    #[error("{} is not a regular file (it is {what})", sg_text::shown_path(.path))]
    NotRegularFile {
        /// The path.
        path: PathBuf,
        /// What it is instead.
        what: &'static str,
    },
    /// The payload checksum does not match: the payload is corrupt.
    #[error("payload checksum mismatch: header says {expected:#010x}, payload has {found:#010x}")]
    PayloadChecksum {
        /// Checksum in the header.
        expected: u32,
        /// Checksum of the payload bytes.
        found: u32,
    },
    /// An octal sequence whose code `sg-core` refuses.
    #[error("invalid table parameters: octal code {}: {error}", quoted(code))]
    OctalCode {
        /// The code in the metadata.
        code: String,
        /// Why it is refused.
        error: CodeError,
    },
    /// An octal sequence whose payload length (two bytes a value) does not
    /// fit in 64 bits.
    #[error("invalid table parameters: {count} octal values do not fit in a payload")]
    OctalCount {
        /// The number of values in the metadata.
        count: u64,
    },
    /// A catalogue record that ends past the payload.
    #[error("octal catalogue: record {index} at byte {offset} of the payload is truncated")]
    CatalogueTruncated {
        /// The record's index.
        index: u32,
        /// Its offset in the payload.
        offset: u64,
    },
    /// A catalogue record for another game than its place says.
    #[error(
        "octal catalogue: record {index} holds the digits {}, expected {} (0.ddd then 4.ddd, in order)",
        digits(.found),
        digits(.expected)
    )]
    CatalogueGame {
        /// The record's index.
        index: u32,
        /// The digits `d0 d1 d2 d3` its place calls for.
        expected: [u8; 4],
        /// The digits it holds.
        found: [u8; 4],
    },
    /// A catalogue record whose numbers contradict each other.
    #[error(
        "octal catalogue: record {index} ({code}) is inconsistent: preperiod {preperiod} + period {period} exceeds the {computed} values computed, or the computation exceeds the limit"
    )]
    CatalogueRecord {
        /// The record's index.
        index: u32,
        /// The game.
        code: String,
        /// Its preperiod.
        preperiod: u64,
        /// Its period (0: none certified).
        period: u64,
        /// The values it says were computed.
        computed: u64,
    },
    /// A misère quotient that is not well formed, or not the quotient of
    /// its game's heaps.
    #[error("misère quotient: {why}")]
    MisereQuotient {
        /// What is wrong.
        why: String,
    },
    /// A record of an octal-runs table that is not well formed.
    #[error("octal runs: record {index} is {why}")]
    RunsRecord {
        /// The record's index.
        index: u32,
        /// What is wrong.
        why: String,
    },
    /// A catalogue with another number of records than its metadata says.
    #[error("octal catalogue: {found} records, the metadata says {expected}")]
    CatalogueCount {
        /// Records the metadata announces.
        expected: u32,
        /// Records found (or `expected` and bytes left over).
        found: u32,
    },
    /// A Cram endgame table of no cells, or of more than the canonical
    /// forms hold.
    #[error("invalid table parameters: a Cram endgame table of {max_cells} cells (1 to {max})")]
    CramMaxCells {
        /// `K` in the metadata.
        max_cells: u32,
        /// [`MAX_CELLS`](crate::cram::MAX_CELLS).
        max: u32,
    },
    /// A Cram endgame table of 2^32 polyominoes or more, or of 2^32
    /// slots or more.
    #[error(
        "invalid table parameters: a Cram endgame table of {polyominoes} polyominoes and {slots} slots (each fewer than 2^32)"
    )]
    CramCounts {
        /// Polyominoes in the metadata.
        polyominoes: u64,
        /// Slots in the metadata.
        slots: u64,
    },
    /// A Cram endgame table whose slots are not the ones this reader
    /// knows: a 4-bit nimber and a 12-bit fingerprint.
    #[error(
        "invalid table parameters: a Cram endgame table of {nimber_bits}-bit nimbers and {fingerprint_bits}-bit fingerprints (this reader knows {known_nimber_bits} and {known_fingerprint_bits})"
    )]
    CramSlotBits {
        /// Bits of a nimber in the metadata.
        nimber_bits: u32,
        /// Bits of a fingerprint in the metadata.
        fingerprint_bits: u32,
        /// The bits of a nimber this reader knows:
        /// [`NIMBER_BITS`](crate::cram::NIMBER_BITS).
        known_nimber_bits: u32,
        /// The bits of a fingerprint this reader knows:
        /// [`FINGERPRINT_BITS`](crate::cram::FINGERPRINT_BITS).
        known_fingerprint_bits: u32,
    },
    /// A size record whose third of an array is no slot.
    #[error(
        "Cram endgame: the record of the polyominoes of {cells} cells has {third} slots in a third of its array, not a positive number"
    )]
    CramSizeRecord {
        /// The size.
        cells: u32,
        /// A third of its array, in slots.
        third: u32,
    },
    /// The records add up to another total than the metadata's.
    #[error("Cram endgame: the records hold {records} {what}, the metadata says {metadata}")]
    CramTotals {
        /// Which total: "polyominoes" or "slots".
        what: &'static str,
        /// The metadata's total.
        metadata: u64,
        /// What the records add up to (so far).
        records: u64,
    },
    /// When building: the polyominoes of a size cannot be added.
    #[error("Cram endgame: cannot add the polyominoes of {cells} cells: {reason}")]
    CramBuild {
        /// The size.
        cells: u32,
        /// Why.
        reason: &'static str,
    },
    /// When building: a nimber that does not fit in its bits.
    #[error("Cram endgame: the polyomino {key:#x} has nimber {nimber}, more than four bits hold")]
    CramNimberTooLarge {
        /// Its canonical form.
        key: u128,
        /// Its nimber.
        nimber: u8,
    },
    /// Another number of polyominoes of a size than the enumeration finds.
    #[error("wrong Cram endgame: {stored} polyominoes of {cells} cells stored, {listed} exist")]
    CramCount {
        /// The size.
        cells: u32,
        /// In the table.
        stored: u64,
        /// Listed anew.
        listed: u64,
    },
    /// A polyomino the table does not hold: it has more cells than the
    /// table, or its three slots do not give its fingerprint (a slot was
    /// changed, or the table was built with another canonical form).
    #[error(
        "wrong Cram endgame: the polyomino {key:#x} (canonical form, bit 8 * row + column) is not in the table (more cells than it holds, or a fingerprint that does not match)"
    )]
    CramMissing {
        /// Its canonical form.
        key: u128,
    },
    /// A nimber the table gives that is not the polyomino's.
    #[error(
        "wrong value: the Cram polyomino {key:#x} (canonical form, bit 8 * row + column) has nimber {stored} in the table, but the mex of its options is {expected}"
    )]
    CramValue {
        /// Its canonical form.
        key: u128,
        /// The nimber in the table.
        stored: u8,
        /// What the rules give.
        expected: u8,
    },
}

/// A table kind with its article: "a row", "an octal sequence".
fn with_article(kind: TableKind) -> String {
    let name = kind.to_string();
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {name}")
}

/// The four digit bytes of a catalogue record as a code would write them
/// (`4.123`), each byte in decimal when it is not a digit.
fn digits(d: &[u8; 4]) -> String {
    let digit = |b: u8| {
        if b < 10 {
            b.to_string()
        } else {
            format!("<{b}>")
        }
    };
    format!(
        "{}.{}{}{}",
        digit(d[0]),
        digit(d[1]),
        digit(d[2]),
        digit(d[3])
    )
}

/// `text` of a file as a message quotes it ([`sg_text::quote`]: escaped,
/// on one line, cut after 40 bytes), so that a file cannot make a
/// message longer than a line.
pub(crate) fn quoted(text: &str) -> String {
    sg_text::quote(text)
}
