//! Misère play: who wins a position when the player who makes the last
//! move *loses* (a player who cannot move wins), and a winning move
//! ([`Solver::misere_outcome`], [`Solver::misere_winning_move`]).
//!
//! # Why the components are not enough
//!
//! Under the normal convention a sum is decided by its components'
//! nimbers (Sprague-Grundy). Under the misère convention it is not: the
//! misère outcome of `G + H` is not a function of the misère outcomes, nor
//! of any finite value, of `G` and `H` in general (Conway, *On Numbers and
//! Games*, 2nd ed. 2001, chapter 12, "How to Lose When You Must";
//! Berlekamp, Conway and Guy, *Winning Ways*, vol. 2, chapter 13; Siegel,
//! *Combinatorial Game Theory*, AMS 2013, chapter V). Misère Nim is the
//! exception (Bouton, 1902): the player to move loses exactly when every
//! heap is at most 1 and their count is odd, or some heap is larger and
//! the XOR of the heaps is 0. Conway's *tame* games are those that play
//! in every sum with each other like Nim positions (the genus theory of
//! chapter 12 of *On Numbers and Games*; Siegel, chapter V, the section on
//! genus theory and tame games); the games that are not are *wild*, and
//! Plambeck and Siegel's misère quotients ("Misère quotients for
//! impartial games", J. Combin. Theory Ser. A 115 (2008) 593-622) are the
//! finer, game-by-game, theory of those sums.
//!
//! So the search uses the components where the theory allows it: a
//! position all of whose components are tame is answered by its
//! components' types at once; any other position is searched whole, as a
//! sum, with a transposition table of whole positions.
//!
//! # Tame components
//!
//! A component gets a *type* ([`tame::Tame`]): its normal-play nimber
//! `n`, and whether it is *big* (it plays like a Nim position with a heap
//! of 2 or more) or *small* (like one of heaps 0 and 1 only; then `n` is
//! 0 or 1). A component without a move is `(0, small)`; the type of a sum
//! is the XOR of the nimbers, big when any part is. A component with
//! moves, all of whose options are sums of typed components, gets a type
//! from its options' types (`n` the mex of their nimbers) when it obeys
//! these rules, and is wild otherwise:
//!
//! - `n = 0`: small exactly when an option is `(1, small)`; a small one
//!   has no option `(1, big)`.
//! - `n = 1`: small exactly when an option is `(0, small)`; a small one
//!   has no option `(0, big)`.
//! - `n >= 2`: big, with an option `(1, small)` or `(0, big)`, and an
//!   option `(0, small)` or `(1, big)`.
//!
//! (A Nim heap of `k` is `(k, small)` for `k <= 1` and `(k, big)` above.)
//! **Theorem.** A sum of typed components is a misère loss for the player
//! to move exactly when its type is `(0, big)` or `(1, small)` (misère
//! Nim's rule). *Proof*, by induction on the sum (its options are sums of
//! typed components, of the types the rules see). Let `T` be the sum's
//! type. No option of a component has the component's own nimber (the
//! mex), so a move changes `T`'s nimber.
//!
//! - `T = (1, small)`: every component is small; a move in one of nimber
//!   `m` reaches `(1, small)` only through an option `(m, small)` (none:
//!   the mex) and `(0, big)` only through an option `(1 ^ m, big)` (none:
//!   the rules for small ones). Every option is a win.
//! - `T = (0, big)`: with another big component the option stays big, of
//!   nimber not 0. With one only, the rest is small of nimber `m` (that
//!   component's nimber, as `T`'s is 0), and a loss needs an option
//!   `(1 ^ m, small)` of it, which the rules exclude for a big component of
//!   nimber 0 or 1. Every option is a win.
//! - `T = (0, small)` with a move: some component of nimber 1 (small) has
//!   an option `(0, small)`, which leaves `(1, small)`; if there is none,
//!   a component with a move is `(0, small)` and has an option `(1,
//!   small)`, which leaves `(1, small)` too.
//! - `T` big of nimber `x != 0`, two big components or more: as in Nim, a
//!   component whose nimber has `x`'s highest bit has an option of nimber
//!   `n ^ x < n` (the mex), and the sum stays big: `(0, big)`.
//! - `T` big of nimber `x != 0`, one big component `B` of nimber `n`, the
//!   rest small of nimber `m` (`x = n ^ m`): if `n >= 2`, `B` has an option
//!   `(1, small)` or `(0, big)` (for `m = 0`) and `(0, small)` or `(1, big)`
//!   (for `m = 1`), each leaving a loss. If `n = 1`, then `m = 0`, and the
//!   rules give `B` an option of nimber 0 which is not small: `(0, big)`.
//!   If `n = 0`, then `m = 1`: a small component of nimber 1 moves to
//!   `(0, small)`, which leaves `(0, big)`.
//!
//! These are Conway's tame games seen through the two facts the proof
//! needs of each (its nimber, and whether it is restive in sums like a
//! heap of 2 or more); the unit tests of [`tame`] check the theorem
//! against the definition on thousands of sums of random games. A
//! component's kind (terminal, tame of a type, wild, or not known: its
//! typing gave up) is computed once, from its options' parts, on a stack
//! of its own ([`typing`]), and kept in a table of components (the
//! normal-play [`Table`], its exact value the kind's code). Typing a
//! component types the components of its options, and so on: it gives up
//! after [`TYPE_BUDGET`] expansions, and a component found wild or
//! unknown makes every component with an option containing it untyped.
//!
//! # The search of whole positions
//!
//! A position is a misère loss when it has a move and every option is a
//! win ([`search`]). It is keyed by the sorted list of its canonical
//! components with a move ([`Game::canonical`] returns an isomorphic
//! position, so the key is sound in any play), the full key, in a table
//! with a bound on its memory that replaces the entries that cost least
//! to compute ([`sum_table`]). Each frame lists its options (a move in
//! the first of equal components: the others give the same options);
//! pass one answers those all tame or in the table (one that is a loss
//! ends the frame), and the rest are searched in order: the last move
//! that won at that depth first (a killer), then the options of fewer
//! dominoes, cells or vertices ([`Game::size`]) first, ties broken by how
//! often the move has won (history). The frames are on a stack on the
//! heap: a game a million moves deep needs memory, not a deep call stack
//! (tests/suite/misere.rs). A cycle in the moves is reported as
//! [`SearchError::Cycle`].
//!
//! The search runs on one thread (the option `threads` does not change
//! it); the tables take the memory the normal-play table has not (both
//! together within the option `memory`). A table much smaller than the
//! search needs makes it slower, not wrong: a kind or a position replaced
//! is computed again each time it is met (Cram 4 x 7: 49,178 positions
//! expanded with 1 GiB, 87,102 with 1 MiB, 248,187 with 256 KiB,
//! 1,674,586 with 64 KiB: `MISERE_MEMORY=65536 cargo run --release -p
//! sg-search --features timing-examples --example misere_time -- cram
//! 4x7`).
//!
//! A winning move ([`Solver::misere_winning_move`]) is looked for first
//! among the options known without search (all tame, or in the table),
//! where the search that found the position won left the option it found;
//! the others are searched only if none is (Chomp 10 x 10: 166 positions
//! stored with the move against 71,645 when the options were searched in
//! the order of the moves; Node-Kayles on the 7 x 7 grid 153,552 against
//! 263,114).
//!
//! # Measured, and tried
//!
//! Figures from `cargo run --release -p sg-search --features
//! timing-examples --example misere_time -- cram 4x7 5x6` (and `-- node-kayles 5x6 6x6`, `-- chomp 10x10`):
//! positions expanded. Typing components, against a search of whole
//! positions only ([`TYPE_BUDGET`] set to 0): Cram 4 x 7 49,178 against
//! 58,982, 5 x 6 86,749 against 113,164, Node-Kayles 5 x 6 1672 against
//! 1978, 6 x 6 2977 against 5289; Chomp (one component) 165 against 118.
//! Budgets of `1 << 10` and `1 << 18` expansions expand as many as
//! `1 << 14` on these.
//!
//! Not done: the misère quotient of a game (Plambeck-Siegel), which would
//! answer sums of wild components by a finite monoid computed for the
//! game, and a parallel search of whole positions.

mod search;
mod sum_table;
mod tame;
mod typing;
mod worker;

use crate::game::{Game, Nimber};
use crate::solver::{Solver, public};
use crate::table::{Knowledge, Table};
use crate::{Outcome, SearchError};
use sum_table::SumTable;
use tame::Tame;
use worker::Worker;

/// Expansions one component's typing may take (with the components it
/// needs) before it gives up.
const TYPE_BUDGET: u64 = 1 << 14;

/// What the misère search knows of a canonical component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// It has no move.
    Terminal,
    /// It is tame, of this type.
    Tame(Tame),
    /// It has no type: a follower breaks the rules.
    Wild,
    /// Its typing gave up.
    Unknown,
}

impl Kind {
    /// Its type, if it has one (a component without a move is `0`).
    pub(crate) fn tame(self) -> Option<Tame> {
        match self {
            Kind::Terminal => Some(Tame::ZERO),
            Kind::Tame(t) => Some(t),
            Kind::Wild | Kind::Unknown => None,
        }
    }

    /// As an exact value of the table's entry.
    fn code(self) -> Nimber {
        match self {
            Kind::Wild => 0,
            Kind::Unknown => 1,
            Kind::Terminal => 2,
            Kind::Tame(t) => {
                t.n.checked_mul(2)
                    .and_then(|n| n.checked_add(3 + Nimber::from(t.big)))
                    .unwrap_or(Nimber::MAX)
            }
        }
    }

    fn from_code(code: Nimber) -> Kind {
        match code {
            0 => Kind::Wild,
            1 => Kind::Unknown,
            2 => Kind::Terminal,
            c => Kind::Tame(Tame {
                n: (c - 3) / 2,
                big: (c - 3) % 2 == 1,
            }),
        }
    }
}

/// The tables of the misère search, made at its first question.
pub(crate) struct Tables<P> {
    /// The kind of each canonical component typed (as an exact value).
    kinds: Table<P>,
    /// Whole positions.
    sums: SumTable<P>,
}

impl<P: Clone + Eq + std::hash::Hash + Default> Tables<P> {
    fn new(memory: usize, threads: usize) -> Self {
        Tables {
            kinds: Table::new(memory / 4, threads),
            sums: SumTable::new(memory - memory / 4, threads),
        }
    }

    pub(crate) fn kind(&self, component: &P, hash: u64) -> Option<Kind> {
        self.kinds
            .get(component, hash, &crossbeam_epoch::pin())
            .and_then(|k| k.nimber())
            .map(Kind::from_code)
    }

    fn put_kind(&self, component: &P, hash: u64, kind: Kind, work: u64) {
        // Codes too large for an entry are not kept.
        if kind.code() != Nimber::MAX {
            self.kinds.put(
                component,
                hash,
                Knowledge::exact(kind.code()),
                work,
                &crossbeam_epoch::pin(),
            );
        }
    }

    pub(crate) fn entries(&self) -> u64 {
        self.kinds.entries() + self.sums.entries()
    }

    pub(crate) fn bytes(&self) -> usize {
        self.kinds.bytes() + self.sums.bytes()
    }
}

impl<'g, G: Game> Solver<'g, G> {
    /// The misère tables, made at the first misère question with the
    /// memory the normal-play table has not taken.
    fn misere_tables(&self) -> &Tables<G::Position> {
        self.misere.get_or_init(|| {
            Tables::new(
                self.memory.saturating_sub(self.table.bytes()),
                self.threads(),
            )
        })
    }

    /// Runs `search` on a misère worker, in the solver's threads.
    fn with_misere_worker<T: Send>(
        &self,
        search: impl FnOnce(&mut Worker<'_, 'g, G>) -> Result<T, crate::solver::Stop> + Send,
    ) -> Result<T, SearchError> {
        let tables = self.misere_tables();
        let run = || {
            let mut worker = Worker::new(self, tables);
            let result = search(&mut worker);
            worker.flush();
            public(result)
        };
        match &self.pool {
            Some(pool) => pool.install(run),
            None => run(),
        }
    }

    /// Who wins `position` under the misère convention, where the player
    /// who makes the last move loses (a player who cannot move wins).
    pub fn misere_outcome(&self, position: &G::Position) -> Result<Outcome, SearchError> {
        self.with_misere_worker(|worker| {
            Ok(if worker.position_loses(position)? {
                Outcome::Lose
            } else {
                Outcome::Win
            })
        })
    }

    /// A move of `position` to a misère loss for the player then to move
    /// (which wins under the misère convention), or `None` when there is
    /// none (the position is a misère loss, or has no move: then its
    /// player to move has already won).
    pub fn misere_winning_move(
        &self,
        position: &G::Position,
    ) -> Result<Option<G::Move>, SearchError> {
        self.with_misere_worker(|worker| {
            if worker.position_loses(position)? {
                return Ok(None);
            }
            let mut moves = Vec::new();
            self.game.moves(position, &mut moves);
            // The search just found an option that loses: it is all tame,
            // or in the table (unless replaced since); the options known
            // first, then the others searched.
            let mut unknown = Vec::new();
            for mv in moves {
                let next = self.game.play(position, &mv);
                match worker.position_known(&next)? {
                    Some(true) => return Ok(Some(mv)),
                    Some(false) => {}
                    None => unknown.push((mv, next)),
                }
            }
            for (mv, next) in unknown {
                if worker.position_loses(&next)? {
                    return Ok(Some(mv));
                }
            }
            Ok(None)
        })
    }
}
