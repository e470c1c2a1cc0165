//! The octal catalogue: every game of [`crate::octal`]'s catalogue
//! computed by `sg_octal::Sequence` up to a heap limit (or until its
//! period is certified), the games in parallel on the current rayon pool.
//! Each game's sequence is sequential; the games are independent, so the
//! entries are the same whatever the number of threads.

use super::Progress;
use crate::octal::{CATALOGUE_GAMES, CatalogueEntry, catalogue_digits, catalogue_rules};
use rayon::prelude::*;
use sg_octal::{OctalError, Sequence};

/// Every game of the catalogue, in its order, each computed up to heap
/// `limit` unless its period is certified sooner. `progress` counts games.
pub fn octal_catalogue(
    limit: u64,
    progress: &dyn Progress,
) -> Result<Vec<CatalogueEntry>, OctalError> {
    progress.start(u64::from(CATALOGUE_GAMES));
    (0..CATALOGUE_GAMES)
        .into_par_iter()
        .map(|index| {
            let mut sequence = Sequence::new(catalogue_rules(catalogue_digits(index)));
            sequence.extend_to(limit, &mut |_| {})?;
            progress.advance(1);
            Ok(CatalogueEntry::from_sequence(&sequence))
        })
        .collect()
}
