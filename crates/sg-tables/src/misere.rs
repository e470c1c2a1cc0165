//! The table kind of a misère quotient ([`MisereQuotientTable`]): the
//! quotient of the heaps `0..heaps` of a take-and-break game as
//! `grundy octal CODE --misere --out FILE` stores it, for `--resume FILE`
//! to continue.
//!
//! Payload, little-endian: the product table (`order * order` elements,
//! `u16` each, row by row: `x y` at `x * order + y`, the identity element
//! 0), the pretending function (`heaps` elements, `u16` each, from heap
//! 0), then the P-portion as a bit set (`ceil(order / 8)` bytes, element
//! `x` at bit `x % 8` of byte `x / 8`, unused bits zero).
//!
//! Reading checks the form (every element below the order); the content
//! is checked by [`MisereQuotientTable::verify`] (`sg_core`'s check of a
//! stored quotient: a commutative monoid, the quotient of the game's
//! heaps, reduced), which a resumed run always makes.

use crate::error::TableError;
use crate::layout::{check_payload, encode_of_len, wrong_kind};
use crate::metadata::{Game, Metadata, TableKind};
use crate::octal::rules_of;
use sg_octal::Rules;
use sg_octal::misere::{Limits, MAX_ORDER, MisereError, MisereQuotient, StoredQuotient};

/// The payload length of a quotient of the game `code` of this order over
/// this many heaps, after checking the code, the order (from 1 to
/// [`MAX_ORDER`]) and the heaps (at least 1).
pub(crate) fn payload_len(code: &str, order: u32, heaps: u64) -> Result<u64, TableError> {
    rules_of(code)?;
    if !(1..=MAX_ORDER as u32).contains(&order) || heaps == 0 {
        return Err(TableError::MisereQuotient {
            why: format!("order {order} (from 1 to {MAX_ORDER}) over {heaps} heaps (at least 1)"),
        });
    }
    bytes_of(order, heaps).ok_or(TableError::MisereQuotient {
        why: format!("{heaps} heaps do not fit in a payload"),
    })
}

/// The payload length of a quotient of this order over this many heaps;
/// `None` if it does not fit in 64 bits.
fn bytes_of(order: u32, heaps: u64) -> Option<u64> {
    let order = u64::from(order);
    (2 * order * order)
        .checked_add(heaps.checked_mul(2)?)?
        .checked_add(order.div_ceil(8))
}

/// A stored misère quotient, decoded.
#[derive(Debug, Clone)]
pub struct MisereQuotientTable {
    rules: Rules,
    stored: StoredQuotient,
}

impl MisereQuotientTable {
    /// Decodes and checks the form of the payload of a table described by
    /// `game`.
    pub fn new(game: &Game, payload: &[u8]) -> Result<Self, TableError> {
        let Game::MisereQuotient { code, order, heaps } = game else {
            return Err(wrong_kind(TableKind::MisereQuotient, game));
        };
        check_payload(payload_len(code, *order, *heaps)?, payload)?;
        let rules = rules_of(code)?;
        let order = *order as usize;
        let u16s = |bytes: &[u8]| -> Vec<u16> {
            bytes
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]))
                .collect()
        };
        let (table, rest) = payload.split_at(2 * order * order);
        let (pretending, bits) = rest.split_at(2 * *heaps as usize);
        let table = u16s(table);
        let pretending = u16s(pretending);
        let bad = |what: &str, at: usize, x: u16| TableError::MisereQuotient {
            why: format!("{what} {at} is element {x}, beyond the order {order}"),
        };
        if let Some(at) = table.iter().position(|&x| usize::from(x) >= order) {
            return Err(bad("product", at, table[at]));
        }
        if let Some(at) = pretending.iter().position(|&x| usize::from(x) >= order) {
            return Err(bad("heap", at, pretending[at]));
        }
        let p_portion: Vec<bool> = (0..order)
            .map(|x| bits[x / 8] >> (x % 8) & 1 == 1)
            .collect();
        if (order..8 * bits.len()).any(|x| bits[x / 8] >> (x % 8) & 1 == 1) {
            return Err(TableError::MisereQuotient {
                why: "the P-portion's unused bits are not zero".to_owned(),
            });
        }
        Ok(Self {
            rules,
            stored: StoredQuotient {
                order,
                table,
                p_portion,
                pretending,
            },
        })
    }

    /// The game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The quotient as stored (its form checked, its content not).
    pub fn stored(&self) -> &StoredQuotient {
        &self.stored
    }

    /// The quotient as stored, for a run to continue (which checks it).
    pub fn into_stored(self) -> StoredQuotient {
        self.stored
    }

    /// Checks the content: the stored quotient is the misère quotient of
    /// the game's heaps (`sg_octal::misere::MisereQuotient::compute_kept`
    /// makes the same check before it continues).
    pub fn verify(&self) -> Result<(), TableError> {
        let limits = Limits {
            to: self.stored.pretending.len().saturating_sub(1) as u64,
            max_order: MAX_ORDER,
        };
        MisereQuotient::compute_kept(
            &self.rules,
            limits,
            Some(self.stored.clone()),
            &mut |_| std::ops::ControlFlow::Continue(()),
            &mut |_, _| {},
        )
        .map(drop)
        .map_err(|error| match error {
            MisereError::Stored { why, .. } => TableError::MisereQuotient { why },
            other => TableError::MisereQuotient {
                why: other.to_string(),
            },
        })
    }
}

/// The table file of a quotient of the game of canonical code `code`, made
/// by `generator`.
pub fn encode_misere_quotient(
    code: &str,
    generator: &str,
    stored: &StoredQuotient,
) -> Result<Vec<u8>, TableError> {
    let order = stored.order;
    let mut payload = Vec::with_capacity(2 * order * order + 2 * stored.pretending.len() + order);
    payload.extend(stored.table.iter().flat_map(|x| x.to_le_bytes()));
    payload.extend(stored.pretending.iter().flat_map(|x| x.to_le_bytes()));
    let mut bits = vec![0u8; order.div_ceil(8)];
    for (x, _) in stored.p_portion.iter().enumerate().filter(|(_, p)| **p) {
        bits[x / 8] |= 1 << (x % 8);
    }
    payload.extend(bits);
    let (order, heaps) = (order as u32, stored.pretending.len() as u64);
    let metadata = Metadata {
        game: Game::MisereQuotient {
            code: code.to_owned(),
            order,
            heaps,
        },
        generator: generator.to_owned(),
    };
    encode_of_len(&metadata, payload_len(code, order, heaps)?, &payload)
}
