//! A worker's memo of what [`Game::reduce`] (and [`Game::size`]) said of
//! the components it met lately: a small direct-mapped cache keyed by the
//! component itself (the full key: no false hits).
//!
//! The options of a frame share most of their components (a move changes
//! one part of a position and leaves the others as they were), and a
//! component asked a second question is expanded again with the same
//! options: about half of the components that splitting the options of a
//! Cram board gives were met shortly before (4 x 9 and 5 x 7, 4096 slots).
//! A hit costs a hash and a comparison; the canonical form it saves costs
//! a few hundred instructions (Cram: images under eight symmetries, the
//! symmetric-loss rule, the endgame table, whose lookups miss the cache).
//!
//! Measured on `grundy cram 4x9 --threads 1` (with the endgame table):
//! 4250 M instructions without the memo, 2943 M with it
//! (`valgrind --tool=cachegrind`); user time of `grundy cram 5x7
//! --threads 1` 0.70 s without, 0.65 s with (medians of 7 interleaved
//! runs). Without the endgame table (the example `cram_time`, feature
//! `timing-examples`) the memo
//! saves 13% of the instructions but no time: its own cache misses and
//! its hits and misses, which the processor cannot predict, cost about
//! what the canonical forms saved. 1024 slots saved less. With the
//! classes of components (see the solver's documentation), whose search
//! plays fewer options, 4096 slots (160 KB, in the core's second-level
//! cache) take 0.96x the time of 16384 (`grundy cram 5x8 --threads 1`,
//! user time, medians of 8 interleaved runs, 3.44 s and 3.60 s).

use crate::game::{Game, Nimber, Reduced};
use crate::table::Table;

/// Slots of the memo (a power of two): about 160 KB for positions in a
/// `u64`, 256 KB in a `u128` (a slot holds the key, the canonical form
/// and three words); memos are handed from worker to worker through the
/// [`Solver`](super::Solver): a new one is made only when no ended worker
/// left one.
const SLOTS: usize = 4096;

/// What a slot says of its key.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum State {
    /// Nothing.
    #[default]
    Empty,
    /// Its nimber is `known`.
    Known,
    /// Its canonical form is `canonical`, with `hash` and `size`.
    Canonical,
}

#[derive(Clone, Default)]
struct Slot<P> {
    key: P,
    state: State,
    known: Nimber,
    canonical: P,
    hash: u64,
    size: u64,
}

/// What the memo gives back of a component: its nimber, or its canonical
/// form with the table's hash and the game's size of it.
pub(super) enum Memoized<'m, P> {
    Known(Nimber),
    Canonical(&'m P, u64, u64),
}

/// The memo (see the module documentation): empty until first used.
pub(super) struct Memo<P> {
    slots: Vec<Slot<P>>,
}

impl<P> Default for Memo<P> {
    fn default() -> Self {
        Memo { slots: Vec::new() }
    }
}

impl<P: Clone + Default + Eq + std::hash::Hash> Memo<P> {
    /// What `game` says of `component`: from the memo, or asked and
    /// remembered.
    #[inline]
    pub(super) fn reduce<G: Game<Position = P>>(
        &mut self,
        game: &G,
        table: &Table<P>,
        component: &P,
    ) -> Memoized<'_, P> {
        if self.slots.is_empty() {
            self.slots = vec![Slot::default(); SLOTS];
        }
        let index = table.hash(component) as usize & (SLOTS - 1);
        let slot = &mut self.slots[index];
        if slot.state == State::Empty || slot.key != *component {
            slot.key.clone_from(component);
            match game.reduce(component) {
                Reduced::Known(n) => {
                    slot.state = State::Known;
                    slot.known = n;
                }
                Reduced::Canonical(c) => {
                    slot.state = State::Canonical;
                    slot.hash = table.hash(&c);
                    slot.size = game.size(&c);
                    slot.canonical = c;
                }
            }
        }
        match slot.state {
            State::Known => Memoized::Known(slot.known),
            _ => Memoized::Canonical(&slot.canonical, slot.hash, slot.size),
        }
    }
}
