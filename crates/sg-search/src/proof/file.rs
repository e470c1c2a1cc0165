//! The byte layout of a proof file: the header, the metadata and the
//! claims, how they are written, and how they are read back with every
//! check of their form (the claims' meaning is checked in `check`).
//!
#![doc = include_str!("../../PROOF.md")]

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::ProofGame;
use crate::game::Nimber;

/// The first eight bytes of every proof file.
pub const MAGIC: [u8; 8] = *b"GRUNDYP\0";
/// The endianness check word, stored little-endian.
pub const ENDIANNESS_CHECK: u32 = 0x0102_0304;
/// The one format version this crate reads and writes (version 1, of
/// earlier releases, stored positions as integers and named replies by a
/// component: such files are refused and written anew with `--proof`).
pub const FORMAT_VERSION: u32 = 2;
/// Size of the fixed header.
pub const HEADER_LEN: usize = 64;

/// A certificate written by [`prove`](super::prove).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofFile {
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// The nimber it proves.
    pub nimber: Nimber,
    /// Its claims.
    pub claims: u64,
}

/// Why the bytes of a proof file are not a well-formed certificate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// The file ends too soon.
    #[error("the file is truncated: its {what} needs {needed} bytes, the file has {len}")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Bytes needed.
        needed: u64,
        /// Bytes in the file.
        len: u64,
    },
    /// Not a proof file.
    #[error(
        "not a grundy proof file (the first bytes are {found:02x?}, not \"GRUNDYP\\0\"){}",
        if found.starts_with(&[0x1f, 0x8b]) { "; it is compressed with gzip: gunzip it first" } else { "" }
    )]
    BadMagic {
        /// The first eight bytes.
        found: [u8; 8],
    },
    /// The endianness word is wrong.
    #[error("bad endianness word {found:#010x} (expected 0x01020304)")]
    BadEndianness {
        /// The word read.
        found: u32,
    },
    /// A version this program does not read.
    #[error(
        "unsupported proof file version {found} (this program reads version {FORMAT_VERSION}; write the certificate again with --proof)"
    )]
    UnsupportedVersion {
        /// The version read.
        found: u32,
    },
    /// Reserved header bytes are not zero.
    #[error("the reserved bytes 36..64 of the header are not zero")]
    ReservedNotZero,
    /// Bytes after the payload.
    #[error("the file has {len} bytes, but its header describes {expected}")]
    TrailingBytes {
        /// Bytes the header describes.
        expected: u64,
        /// Bytes in the file.
        len: u64,
    },
    /// A checksum does not match.
    #[error(
        "the {what} checksum does not match (stored {stored:#010x}, computed {computed:#010x})"
    )]
    Checksum {
        /// `metadata` or `payload`.
        what: &'static str,
        /// As stored.
        stored: u32,
        /// As computed.
        computed: u32,
    },
    /// The metadata cannot be decoded.
    #[error("the metadata cannot be decoded at its field {field}: {why}")]
    Metadata {
        /// The field.
        field: &'static str,
        /// Why.
        why: String,
    },
    /// The root is not the start position of the rules.
    #[error("the root is not the start position of {game}")]
    RootNotStart {
        /// The game, described.
        game: String,
    },
    /// A claim cannot be decoded.
    #[error("claim {number} (at byte {offset} of the payload) cannot be decoded: {why}")]
    Claim {
        /// Its place, from 1.
        number: u64,
        /// Where it starts in the payload.
        offset: u64,
        /// Why.
        why: String,
    },
    /// The payload holds more or fewer claims than the metadata says.
    #[error("the payload holds {found} claims, but the metadata says {stated}")]
    ClaimCount {
        /// As the metadata says.
        stated: u64,
        /// As found (`stated + 1` if there is more).
        found: u64,
    },
}

/// The metadata after the game's name and rules.
#[derive(Clone, Serialize, Deserialize)]
pub(crate) struct Tail {
    pub(crate) root: Vec<u8>,
    pub(crate) nimber: Nimber,
    pub(crate) claims: u64,
    pub(crate) generator: String,
}

/// One claim of the payload.
#[derive(Clone, Serialize, Deserialize)]
pub(crate) struct Claim {
    pub(crate) position: Vec<u8>,
    pub(crate) nimber: Nimber,
    pub(crate) witness: Vec<u32>,
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
}

/// The whole file for `metadata` and `payload`.
pub(crate) fn encode(metadata: &[u8], payload: &[u8]) -> Vec<u8> {
    let metadata_len = u32::try_from(metadata.len()).expect("metadata under 4 GiB");
    let mut out = Vec::with_capacity(HEADER_LEN + metadata.len() + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&ENDIANNESS_CHECK.to_le_bytes());
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&metadata_len.to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(metadata).to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out.resize(HEADER_LEN, 0);
    out.extend_from_slice(metadata);
    out.extend_from_slice(payload);
    out
}

/// The metadata of a certificate of `game` proving `nimber` with `claims`
/// claims.
pub(crate) fn encode_metadata<G: ProofGame>(
    game: &G,
    nimber: Nimber,
    claims: u64,
    generator: &str,
) -> Vec<u8> {
    let tail = Tail {
        root: game.code(&game.root()),
        nimber,
        claims,
        generator: generator.to_owned(),
    };
    let mut out = postcard::to_allocvec(G::NAME).expect("a string serializes");
    out = postcard::to_extend(&game.rules(), out).expect("the rules serialize");
    postcard::to_extend(&tail, out).expect("the metadata serializes")
}

/// The metadata and the payload of a proof file, after the checks of its
/// header, its length and the metadata's checksum. The payload's checksum
/// is checked by [`Sections::payload`].
pub(crate) struct Sections<'a> {
    pub(crate) metadata: &'a [u8],
    payload: &'a [u8],
    payload_crc: u32,
}

impl<'a> Sections<'a> {
    /// Splits `bytes` after checking the header, the length and the
    /// metadata checksum.
    pub(crate) fn of(bytes: &'a [u8]) -> Result<Self, FileError> {
        let len = bytes.len() as u64;
        if bytes.len() < HEADER_LEN {
            return Err(FileError::Truncated {
                what: "header",
                needed: HEADER_LEN as u64,
                len,
            });
        }
        let magic: [u8; 8] = bytes[..8].try_into().expect("8 bytes");
        if magic != MAGIC {
            return Err(FileError::BadMagic { found: magic });
        }
        let check = u32_at(bytes, 8);
        if check != ENDIANNESS_CHECK {
            return Err(FileError::BadEndianness { found: check });
        }
        let version = u32_at(bytes, 12);
        if version != FORMAT_VERSION {
            return Err(FileError::UnsupportedVersion { found: version });
        }
        if bytes[36..HEADER_LEN].iter().any(|&b| b != 0) {
            return Err(FileError::ReservedNotZero);
        }
        let metadata_len = u64::from(u32_at(bytes, 16));
        let metadata_end = HEADER_LEN as u64 + metadata_len;
        if len < metadata_end {
            return Err(FileError::Truncated {
                what: "metadata",
                needed: metadata_end,
                len,
            });
        }
        let payload_len = u64_at(bytes, 24);
        let end = metadata_end.checked_add(payload_len);
        match end {
            Some(end) if end > len => {
                return Err(FileError::Truncated {
                    what: "payload",
                    needed: end,
                    len,
                });
            }
            None => {
                return Err(FileError::Truncated {
                    what: "payload",
                    needed: u64::MAX,
                    len,
                });
            }
            Some(end) if end < len => {
                return Err(FileError::TrailingBytes { expected: end, len });
            }
            Some(_) => {}
        }
        let metadata = &bytes[HEADER_LEN..metadata_end as usize];
        let stored = u32_at(bytes, 20);
        let computed = crc32fast::hash(metadata);
        if stored != computed {
            return Err(FileError::Checksum {
                what: "metadata",
                stored,
                computed,
            });
        }
        Ok(Sections {
            metadata,
            payload: &bytes[metadata_end as usize..],
            payload_crc: u32_at(bytes, 32),
        })
    }

    /// The payload, after checking its checksum.
    pub(crate) fn payload(&self) -> Result<&'a [u8], FileError> {
        let computed = crc32fast::hash(self.payload);
        if computed != self.payload_crc {
            return Err(FileError::Checksum {
                what: "payload",
                stored: self.payload_crc,
                computed,
            });
        }
        Ok(self.payload)
    }
}

/// Decodes one postcard value of the metadata, the field `field`.
pub(crate) fn take<'a, T: DeserializeOwned>(
    bytes: &'a [u8],
    field: &'static str,
) -> Result<(T, &'a [u8]), FileError> {
    postcard::take_from_bytes(bytes).map_err(|e| FileError::Metadata {
        field,
        why: e.to_string(),
    })
}

/// The claims of a payload, in order, each with its offset.
pub(crate) struct Claims<'a> {
    payload: &'a [u8],
    rest: &'a [u8],
    read: u64,
    stated: u64,
}

impl<'a> Claims<'a> {
    pub(crate) fn new(payload: &'a [u8], stated: u64) -> Self {
        Claims {
            payload,
            rest: payload,
            read: 0,
            stated,
        }
    }

    /// The next claim, or `None` after the last; an error if the payload
    /// does not hold exactly the stated number of claims.
    pub(crate) fn next_claim(&mut self) -> Result<Option<Claim>, FileError> {
        if self.read == self.stated {
            if !self.rest.is_empty() {
                return Err(FileError::ClaimCount {
                    stated: self.stated,
                    found: self.stated + 1,
                });
            }
            return Ok(None);
        }
        if self.rest.is_empty() {
            return Err(FileError::ClaimCount {
                stated: self.stated,
                found: self.read,
            });
        }
        let offset = (self.payload.len() - self.rest.len()) as u64;
        self.read += 1;
        let (claim, rest) = postcard::take_from_bytes(self.rest).map_err(|e| FileError::Claim {
            number: self.read,
            offset,
            why: e.to_string(),
        })?;
        self.rest = rest;
        Ok(Some(claim))
    }

    /// Claims read so far.
    pub(crate) fn read(&self) -> u64 {
        self.read
    }

    /// Where the next claim starts in the payload.
    pub(crate) fn offset(&self) -> u64 {
        (self.payload.len() - self.rest.len()) as u64
    }
}
