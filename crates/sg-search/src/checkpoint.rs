//! Checkpoints of a search: what a [`Solver`](crate::Solver) learnt of the
//! components that cost most (its [`facts`](crate::Solver::facts)), in a
//! file, so that a search stopped or killed goes on from there instead of
//! from nothing.
//!
//! A checkpoint is read back as *hints* ([`Solver::with_hints`](crate::Solver::with_hints)):
//! the search tries first what they say answers, and proves every answer
//! itself, so a file made wrong (by hand, by another program, a bit
//! flipped past its checksum) can make the search slower, never its answer
//! wrong. A user who wrote the file with this program may trust it instead
//! ([`Solver::learn`](crate::Solver::learn)), which saves the proofs too.
//!
//! # Layout
//!
//! Little-endian:
//!
//! | bytes | what |
//! |---|---|
//! | 0..8 | `GRUNDYC\0` |
//! | 8..12 | format version, 2 |
//! | 12..16 | CRC-32 of the bytes from 16 on |
//! | 16.. | postcard: the game's name ([`ProofGame::NAME`]), its rules, the program that wrote the file, and the entries: each a position as a certificate stores it ([`ProofGame::code`]) and a [`Fact`] as a word ([`Fact::to_word`]) |
//!
//! Reading checks every part: the magic, the version, the checksum, the
//! postcard form, that the game and its rules are the ones asked for, and
//! that each entry is a position of the game and a valid fact.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::proof::ProofGame;
use crate::table::Fact;

/// The first eight bytes of every checkpoint.
pub const MAGIC: [u8; 8] = *b"GRUNDYC\0";
/// The one format version this crate reads and writes (version 1, of
/// earlier releases, stored positions as integers; its files are refused,
/// and a search goes on from nothing).
pub const FORMAT_VERSION: u32 = 2;
/// The fixed header's size.
const HEADER_LEN: usize = 16;

/// Why bytes are not a checkpoint of a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointError {
    /// Shorter than the header.
    #[error("the file is truncated: {len} bytes, fewer than the header's {HEADER_LEN}")]
    Truncated {
        /// Bytes in the file.
        len: usize,
    },
    /// Not a checkpoint.
    #[error("not a grundy checkpoint (the first bytes are {found:02x?}, not \"GRUNDYC\\0\")")]
    BadMagic {
        /// The first eight bytes.
        found: [u8; 8],
    },
    /// A version this program does not read.
    #[error("unsupported checkpoint version {found} (this program reads version {FORMAT_VERSION})")]
    UnsupportedVersion {
        /// The version read.
        found: u32,
    },
    /// The checksum does not match.
    #[error(
        "the checksum does not match (stored {stored:#010x}, computed {computed:#010x}): the file is damaged"
    )]
    Checksum {
        /// Stored.
        stored: u32,
        /// Computed.
        computed: u32,
    },
    /// The contents cannot be decoded.
    #[error("the contents are malformed: {0}")]
    Malformed(String),
    /// A checkpoint of another game, or other rules.
    #[error("the file is a checkpoint of {found}, not of {expected}")]
    OtherGame {
        /// What the file holds, in a few words.
        found: String,
        /// The game asked for.
        expected: String,
    },
    /// An entry that is not a position of the game or not a fact.
    #[error("entry {index} is {why}")]
    BadEntry {
        /// Its index, from 0.
        index: usize,
        /// What is wrong.
        why: &'static str,
    },
}

/// The contents after the header.
#[derive(Serialize, Deserialize)]
struct Contents<R, C> {
    game: String,
    rules: R,
    generator: String,
    entries: Vec<(C, u64)>,
}

/// The checkpoint of `facts` (positions of `game` and what is known of
/// them), written by `generator` (e.g. `"grundy 0.1.0"`).
pub fn encode<G: ProofGame>(game: &G, facts: &[(G::Position, Fact)], generator: &str) -> Vec<u8> {
    let contents = Contents {
        game: G::NAME.to_owned(),
        rules: game.rules(),
        generator: generator.to_owned(),
        entries: facts
            .iter()
            .map(|(position, fact)| (game.code(position), fact.to_word()))
            .collect(),
    };
    let body = postcard::to_allocvec(&contents).expect("postcard encodes to memory");
    let mut bytes = Vec::with_capacity(HEADER_LEN + body.len());
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    bytes.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
    bytes.extend_from_slice(&body);
    bytes
}

/// The facts of a checkpoint of `game` (see the module documentation for
/// every check).
pub fn decode<G: ProofGame>(
    game: &G,
    bytes: &[u8],
) -> Result<Vec<(G::Position, Fact)>, CheckpointError>
where
    G::Rules: DeserializeOwned,
{
    if bytes.len() < HEADER_LEN {
        return Err(CheckpointError::Truncated { len: bytes.len() });
    }
    let magic: [u8; 8] = bytes[..8].try_into().expect("8 bytes");
    if magic != MAGIC {
        return Err(CheckpointError::BadMagic { found: magic });
    }
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let version = word(8);
    if version != FORMAT_VERSION {
        return Err(CheckpointError::UnsupportedVersion { found: version });
    }
    let body = &bytes[HEADER_LEN..];
    let (stored, computed) = (word(12), crc32fast::hash(body));
    if stored != computed {
        return Err(CheckpointError::Checksum { stored, computed });
    }
    // The game's name first: a checkpoint of another game is said so,
    // whatever its rules look like.
    let malformed = |e: postcard::Error| CheckpointError::Malformed(e.to_string());
    let (name, _): (String, &[u8]) = postcard::take_from_bytes(body).map_err(malformed)?;
    if name != G::NAME {
        return Err(CheckpointError::OtherGame {
            found: format!("the game {}", sg_text::quote(&name)),
            expected: game.describe(),
        });
    }
    let (contents, rest): (Contents<G::Rules, Vec<u8>>, &[u8]) =
        postcard::take_from_bytes(body).map_err(malformed)?;
    if !rest.is_empty() {
        return Err(CheckpointError::Malformed(format!(
            "{} bytes after the entries",
            rest.len()
        )));
    }
    if contents.rules != game.rules() {
        let found = match G::from_rules(&contents.rules) {
            Ok(other) => other.describe(),
            Err(_) => format!("{} with rules it does not accept", G::NAME),
        };
        return Err(CheckpointError::OtherGame {
            found,
            expected: game.describe(),
        });
    }
    contents
        .entries
        .into_iter()
        .enumerate()
        .map(|(index, (code, word))| {
            let position = game.position_of(&code).ok_or(CheckpointError::BadEntry {
                index,
                why: "not a position of the game",
            })?;
            let fact = Fact::from_word(word).ok_or(CheckpointError::BadEntry {
                index,
                why: "not a valid fact",
            })?;
            Ok((position, fact))
        })
        .collect()
}
