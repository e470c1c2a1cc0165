//! The byte layout of a `.sgt` table file, its header and metadata, and
//! [`encode`] to write one.
//!
#![doc = include_str!("../FORMAT.md")]

// The format's public items, gathered here from the layers that define
// them: the header and the metadata's types know no kind of table
// (`layout.rs`, `metadata.rs`); the payload length of each kind, and so
// the checked encoding, come from above the kinds' modules (`kinds.rs`).
pub use crate::kinds::{encode, encode_prefix, encode_prefix_with_crc};
pub use crate::layout::{
    ENDIANNESS_CHECK, FORMAT_VERSION, HEADER_LEN, Header, MAGIC, PAYLOAD_ALIGN,
    RETIRED_CRAM_ENDGAME,
};
pub use crate::metadata::{Game, Metadata, TableKind};
pub use crate::views::MAX_ROW_WIDTH;
