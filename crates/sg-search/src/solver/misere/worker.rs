//! One thread's misère search: its two stacks (the typing of components,
//! [`typing`](super::typing), and the search of whole positions,
//! [`search`](super::search)), the lists their frames keep, and how a
//! position becomes the key of the table: its components, canonical,
//! typed, those without a move left out, sorted by hash.

use std::collections::HashMap;
use std::sync::atomic::Ordering;

use super::search::SumFrame;
use super::tame::Tame;
use super::typing::TypeFrame;
use super::{Kind, Tables};
use crate::SearchError;
use crate::game::Game;
use crate::solver::{Solver, Stop};
use crate::table::FixedHasher;

/// Expansions a worker counts before adding them to the solver's count.
const FLUSH: u64 = 256;

/// A component of a position: canonical, with its hash, its kind and its
/// size.
#[derive(Clone, Debug)]
pub(super) struct Part<P> {
    pub(super) component: P,
    pub(super) hash: u64,
    pub(super) kind: Kind,
    pub(super) size: u64,
}

/// One thread's misère search.
pub(super) struct Worker<'s, 'g, G: Game> {
    pub(super) solver: &'s Solver<'g, G>,
    pub(super) tables: &'s Tables<G::Position>,
    /// Expansions not yet added to the solver's count.
    pub(super) unflushed: u64,
    /// Positions expanded by this worker (by either stack).
    pub(super) expanded: u64,

    // The typing of components.
    pub(super) types: Vec<TypeFrame<G::Position>>,
    pub(super) type_moves: Vec<G::Move>,
    pub(super) type_parts: Vec<(G::Position, u64)>,
    pub(super) type_seen: Vec<u64>,
    pub(super) type_on_stack: HashMap<u64, u32, FixedHasher>,

    // The search of whole positions.
    pub(super) stack: Vec<SumFrame>,
    /// The components of the positions of the frames and of their
    /// options, each a segment.
    pub(super) parts: Vec<Part<G::Position>>,
    pub(super) children: Vec<super::search::Child>,
    pub(super) moves: Vec<G::Move>,
    pub(super) order: Vec<u32>,
    pub(super) on_stack: HashMap<u64, u32, FixedHasher>,
    /// Per depth, the last move found to win there.
    pub(super) killers: Vec<Option<G::Move>>,
    /// How often each move was found to win (the history heuristic).
    pub(super) history: HashMap<G::Move, u64, FixedHasher>,

    /// Buffers.
    pub(super) split: Vec<G::Position>,
    pub(super) fresh: Vec<Part<G::Position>>,
}

impl<'s, 'g, G: Game> Worker<'s, 'g, G> {
    pub(super) fn new(solver: &'s Solver<'g, G>, tables: &'s Tables<G::Position>) -> Self {
        Worker {
            solver,
            tables,
            unflushed: 0,
            expanded: 0,
            types: Vec::new(),
            type_moves: Vec::new(),
            type_parts: Vec::new(),
            type_seen: Vec::new(),
            type_on_stack: HashMap::default(),
            stack: Vec::new(),
            parts: Vec::new(),
            children: Vec::new(),
            moves: Vec::new(),
            order: Vec::new(),
            on_stack: HashMap::default(),
            killers: Vec::new(),
            history: HashMap::default(),
            split: Vec::new(),
            fresh: Vec::new(),
        }
    }

    pub(super) fn game(&self) -> &'g G {
        self.solver.game
    }

    /// Counts an expansion; every [`FLUSH`], adds them to the solver's
    /// count (which a progress line reads).
    pub(super) fn count_expansion(&mut self) {
        self.expanded += 1;
        self.unflushed += 1;
        if self.unflushed == FLUSH {
            self.flush();
        }
    }

    /// Adds this worker's expansions to the solver's count.
    pub(super) fn flush(&mut self) {
        self.solver
            .expanded
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    /// The canonical components of `position` that have a move, typed,
    /// appended to `into` (not sorted).
    pub(super) fn parts_of(
        &mut self,
        position: &G::Position,
        into: &mut Vec<Part<G::Position>>,
    ) -> Result<(), Stop> {
        let game = self.game();
        let mut split = std::mem::take(&mut self.split);
        split.clear();
        game.split(position, &mut split);
        for raw in &split {
            let component = game.canonical(raw);
            let hash = self.solver.table.hash(&component);
            let kind = self.kind(&component, hash)?;
            if kind != Kind::Terminal {
                let size = game.size(&component);
                into.push(Part {
                    component,
                    hash,
                    kind,
                    size,
                });
            }
        }
        self.split = split;
        Ok(())
    }

    /// The kind of a canonical component: from the table, or typed now.
    pub(super) fn kind(&mut self, component: &G::Position, hash: u64) -> Result<Kind, Stop> {
        match self.tables.kind(component, hash) {
            Some(kind) => Ok(kind),
            None => self.type_component(component, hash),
        }
    }

    /// The error for a cycle through `position`.
    pub(super) fn cycle(position: &impl std::fmt::Debug) -> Stop {
        Stop::Error(SearchError::Cycle {
            position: format!("{position:?}"),
        })
    }
}

/// The hash of a position of components of hashes `hashes`, in order.
pub(super) fn key_hash(hashes: impl Iterator<Item = u64>) -> u64 {
    const SEED: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h: u64 = 0x2545_f491_4f6c_dd1d;
    for part in hashes {
        h = (h.rotate_left(5) ^ part).wrapping_mul(SEED);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ h >> 33
}

/// The type of a sum of parts, if all are tame.
pub(super) fn sum_type<'a, P: 'a>(mut parts: impl Iterator<Item = &'a Part<P>>) -> Option<Tame> {
    parts.try_fold(Tame::ZERO, |acc, part| {
        part.kind.tame().map(|k| acc.plus(k))
    })
}
