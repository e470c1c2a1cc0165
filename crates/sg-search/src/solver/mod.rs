//! The solver: nimbers, outcomes and winning moves of a [`Game`]'s
//! positions, by the search of Lemoine and Viennot ("Nimbers are
//! inevitable", 2012), driven by an explicit stack.
//!
//! # The method
//!
//! A position is a disjunctive sum of components ([`Game::split`]); its
//! nimber is the XOR of theirs. The search never asks for the nimber of a
//! whole sum: it asks whether a component `C` has nimber `t` ("is `C + *t`
//! a loss for the player to move?"), and answers a question about a sum
//! `C1 + ... + Cm + *t` by computing the nimbers of all components but the
//! largest, `x`, and asking whether the largest has nimber `t ^ x`.
//!
//! Whether `C` has nimber `t`: the nimber is the mex of the options'
//! nimbers, so it is `t` exactly when no option has nimber `t` and every
//! value below `t` is the nimber of an option. The search first looks for
//! an option of nimber `t` (one found ends the question: the answer is
//! no); only when there is none does it look, value by value from the
//! lowest not known to be reached, for an option of each value below `t`
//! (the first value with none is the nimber, and the answer is no). The
//! nimber itself is the first `t`, upward from what is known, with no
//! option of nimber `t`. What each question teaches is kept in the
//! transposition table ([`crate::table`]): the exact nimber, or a lower
//! bound and values known not to be the nimber, which answer later
//! questions without search.
//!
//! Two prunings cut the options examined. An option whose components
//! have all known nimbers is decided from the table alone, before any
//! search (the options are examined in two passes). And an option with a
//! single unknown component whose table entry excludes the value needed
//! is skipped.
//!
//! # Classes of components
//!
//! Canonical forms share what is known of a component between its images
//! under the game's symmetries. A game may know wider classes of
//! components with one nimber ([`Game::class_key`]: Cram's components
//! whose graphs of cells are the same, however they lie on the board).
//! The solver keeps a second table, keyed by class, and looks there when
//! a question about a component is not settled by the component's own
//! entry, before expanding it: what the class's entry says is merged into
//! the component's knowledge, and if that settles the question, the
//! component is not expanded (its entry gets what its class said, for
//! the lookups of pass one). Otherwise the component is searched from the
//! merged knowledge, and what its frame learns goes to both tables. Both
//! hold only facts proven by the search, and a fact about a member of a
//! class holds for every member (the game's promise), so answers stay
//! exact. The key is computed only for the components the search would
//! expand, once each time: it may cost what a few options cost.
//!
//! Measured with `cram_census` (one thread, the endgame table): Cram 5x8
//! expands 1,226,118 positions with classes and 2,444,685 without, and
//! plays 15.9 M options instead of 26.5 M; 5x7 326,161 and 555,034
//! (`--no-classes`). Keyed by full isomorphism of the graph of cells (a
//! prototype by Weisfeiler-Lehman colour refinement), 5x8 expanded
//! 1.10 M: Cram's key gets 88% of what isomorphism would share.
//!
//! # The order of pass two
//!
//! Pass two searches, one by one, the options pass one could not decide.
//! It tries first those whose single unknown component's entry has the
//! bound that would make the option the value sought (the component is
//! known to reach the value needed, and not known to have it): such an
//! option answers more often than one about which nothing is known. Cram
//! 5x8 1.23 M expansions to 1.18 M, 4x9 127 k to 117 k; Node-Kayles and
//! Chomp as many or fewer. An oracle that put first the option an earlier
//! run found to answer (measured before classes) expanded 794 k positions
//! on 5x8 against 2.44 M: the order is where most of the remaining work
//! lies. Tried and dropped: the killer move first (3.08 M expansions on
//! 5x8 without classes), widening budgets of expansions per option (twice
//! the work), the thinnest components first.
//!
//! # What a frame keeps of its options
//!
//! A frame notes the nimber of each option that pass one finds in the
//! table (the option is then *resolved*: a bit per value, and the option
//! that has it), and later pass ones judge only the options not resolved
//! yet. A value sought is looked up there first; a question that looks for
//! several values (its nimber, or every value below the target) goes
//! through its options once for all of them, not once per value, and
//! stops as soon as every value it needs has an option (a question about
//! one value only, `t`, still stops at the first option of nimber `t`,
//! and notes nothing, as it then answers). Once every option is resolved,
//! the frame's nimber is the mex of the values noted (phase `Mex`),
//! without a pass for each value. A frame whose values are all found in
//! its notes goes from one to the next in a loop (a position of 100,000
//! options of known nimbers once made as many nested calls, and overflowed
//! the stack).
//!
//! Tried and dropped: a second pass one over every option when the first
//! found only options of known nimber before the value sought (the mex
//! for a Nim heap whose moves are listed from heap 0, but 5% more
//! instructions on Chomp, for nothing); the notes do it for free.
//!
//! # The mex, for large nimbers
//!
//! The method answers each question about a component by expanding it
//! (generating its options and looking each up), and each question is
//! about one value. With small nimbers (Cram, Node-Kayles: mostly below
//! 8) a component can be asked only a few questions before its nimber is
//! known, and looking for one option of the value needed, rather than
//! computing every option's nimber, is what saves the search. With large
//! nimbers it is the other way: a Nim heap of `n` whose moves are listed
//! from the largest heap left has its heaps asked about value after
//! value, each question expanding a heap of up to `n` options again (a
//! heap of 500: 125,251 expansions for 501 positions, 2 s; the
//! subtraction game `{1..300}` from 900, 135,448 for 901), where the mex
//! over the options takes microseconds.
//!
//! So a component asked a question once its nimber is known to be at
//! least [`MEX_LOW`](worker::MEX_LOW) (8) is not searched for the value
//! asked: its frame (phase `Mex`) computes its exact nimber, the mex of
//! its options' exact nimbers, each the XOR of its components' nimbers,
//! asked as questions of their own on the same stack (each follows the
//! same rule: a component of small nimber is searched, one of large
//! nimber solved by its mex). The nimber, exact in the table, answers
//! every later question about the component at once. A bound of 8 is
//! evidence of both: the component was asked about before (a bound rises
//! only by questions about it), and it has at least 8 options, of
//! different nimbers. On a game that splits, the rule applies to each
//! component, whatever the sum. A heap of 500 now expands 4465 positions
//! (501 with moves listed from heap 0), `{1..300}` from 900 7993 (5645).
//! The mex is computed on one thread: the parallel pass shares pass two
//! only.
//!
//! Measured in expansions (Cram 4 x 9 and 5 x 7, Node-Kayles 5 x 1..12,
//! Chomp 10 x 1..10, one solver per size): with the mex at 8, 327,088,
//! 757,880, 430,075 and 909,852; without it the same but Chomp, 1,183,980.
//! Tried and dropped:
//!
//! - The bound at 4 to 7 (Node-Kayles 454,871 at 4, 449,102 at 5,
//!   434,940 at 6, 430,532 at 7; Chomp 633,603 to 833,376), or at 10 and
//!   16 (Chomp 987,531 and 1,145,773).
//! - A count of each component's expansions in its table entry (4 bits
//!   taken from the bound's) as the signal, with or without the bound: the
//!   mex from the second expansion on cost Node-Kayles 4.3 times the
//!   expansions, from the fourth 4% more (for 59% and 35% fewer on Chomp,
//!   23% with the bound). The bound alone does as well on Nim and the
//!   subtraction games, costs Node-Kayles nothing, and the entry keeps its
//!   size.
//! - The mex once at most `u` options are not in the table: `u` = 2 to 4
//!   changed little; 16 cut Chomp by 70% but raised Node-Kayles by 27%
//!   and Cram 4 x 9 by 58% (16 only for components of bound 4 or more:
//!   Node-Kayles 6% more); 64 is the plain mex everywhere (Cram 4 x 9 5.3
//!   M, 16 times more).
//!
//! # The stack
//!
//! Questions nest as deep as the game is long. The search keeps its own
//! stack of frames on the heap (one per component being examined), so a
//! game a million moves deep needs memory, not a deep call stack.
//!
//! # Threads
//!
//! The threads share one transposition table and split the searches of
//! the frames near the root (`parallel`): a frame at most three deep in
//! the search, once the first two options of its pass two were searched
//! alone (the "young brothers wait" of parallel alpha-beta: they are
//! often the one sought), hands each other option to a job of rayon's;
//! the first job that finds the value sought stops the others. While a
//! thread is idle (fewer workers searching than threads, counted by the
//! solver), frames down to depth 16 split the same way, so that the long
//! job a search often ends with is shared too.
//!
//! What is shared, and what contends:
//!
//! - The table: each lookup locks only its bucket, a bit in the bucket's
//!   own cache line (see `table`), so two threads wait on each other only
//!   for the same bucket, one chance in millions; no line is written by
//!   every lookup. (With a lock per shard, every lookup wrote its shard's
//!   line, which moved between the cores at almost every lookup: two
//!   threads took twice the CPU time of one.) A shard grows by moving its
//!   entries to a new array while the others read on.
//! - Counters: expansions are added to the solver's count 256 at a time,
//!   a shard's count of entries once per new entry (on a line apart from
//!   what lookups read).
//! - The memos and the history of moves are each worker's own; a job near
//!   the root starts with a copy of its parent's history.
//!
//! Measured on a 2-core machine (Cram with the endgame table and classes,
//! whole process, `grundy cram RxC --threads T`, docs/PERFORMANCE.md):
//! 5x8 on two threads 0.70x the time of one, 1.29x its CPU time; 4x11
//! 0.66x and 1.28x (the jobs' searches overlap: 17% and 9% more
//! positions expanded). Before classes, when the search had twice the
//! work, 0.52x and 1.03x on 5x8, 0.59x and 1.25x on 4x11.
//!
//! On 16 or 64 cores: the table scales (its contention grows with the
//! threads over the buckets, millions), but every lookup is a cache miss,
//! so 64 threads looking up as fast as one would ask about 40 GB/s of
//! memory, near what a socket gives: the misses, not the locks, are then
//! the limit. The work splits into enough jobs (a 5x8 board's frames near
//! the root have tens of thousands of options), but what grows is the
//! speculative work: a job that searches an option whose answer turns out
//! not to be needed (another option had the value) is lost, and with more
//! threads more of them run before the stop reaches them. On two threads
//! it is 3% (5x8) to 25% (4x11) of the CPU; with sixteen, expect most of
//! the gain beyond eight to go there unless the split waits for more
//! brothers as the threads grow. Shards per thread (8) keep growth
//! local; a shard's count of entries is the one line every insertion of
//! that shard writes.
//!
//! # Checkpoints and hints
//!
//! [`Solver::facts`] gives what the table knows of the components whose
//! computation cost most, as [`crate::checkpoint`] stores it;
//! [`Solver::with_hints`] takes such facts back as *hints*: a component
//! whose hint gives its nimber `n` is asked a larger value by looking for
//! the values below it first (the missing `n` answers), and options are
//! tried in the order the hints say answers first. Nothing is concluded
//! from a hint: every answer is proven by the search, so false hints only
//! cost time. [`Solver::learn`] takes them as facts instead.

mod memo;
mod misere;
mod parallel;
mod questions;
mod worker;

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use crate::game::{Game, Nimber};
use crate::table::{Fact, FixedHasher, Knowledge, Table};
use crate::{Outcome, SearchError};
use memo::Memo;
use worker::Worker;

/// Why a worker stopped before answering.
#[derive(Debug)]
enum Stop {
    /// The search failed.
    Error(SearchError),
    /// Another thread answered the question this worker's answer was for.
    Cancelled,
}

impl From<SearchError> for Stop {
    fn from(error: SearchError) -> Self {
        Stop::Error(error)
    }
}

/// The public result of a top-level worker (which no one cancels).
fn public<T>(result: Result<T, Stop>) -> Result<T, SearchError> {
    result.map_err(|stop| match stop {
        Stop::Error(error) => error,
        Stop::Cancelled => unreachable!("a top-level search is never cancelled"),
    })
}

/// How a [`Solver`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The most bytes the transposition table may hold.
    pub memory: usize,
    /// Threads of the search: 1 for the calling thread only, 0 for one per
    /// CPU.
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            memory: 256 << 20,
            threads: 1,
        }
    }
}

/// Solves positions of a game; keeps what it learns between calls.
pub struct Solver<'g, G: Game> {
    game: &'g G,
    table: Table<G::Position>,
    /// What is known of the classes of components ([`Game::class_key`]).
    classes: Table<u128>,
    expanded: AtomicU64,
    /// The threads of a parallel search (none for one thread).
    pool: Option<rayon::ThreadPool>,
    /// Workers searching now, not counting those waiting for the jobs of
    /// a shared pass two (see `parallel`): fewer than the threads, and a
    /// thread is idle.
    searching: AtomicUsize,
    /// The memos of the workers that ended, for the next ones (a worker of
    /// a parallel pass two would otherwise fill a memo of its own from
    /// nothing, for one option).
    memos: Mutex<Vec<Memo<G::Position>>>,
    /// The memory of the tables (the option).
    memory: usize,
    /// The tables of the misère search, made at its first question.
    misere: OnceLock<misere::Tables<G::Position>>,
    /// Set by [`Solver::stop`]: the workers end with
    /// [`SearchError::Stopped`].
    stopped: AtomicBool,
    /// What a checkpoint says of components, not trusted: it orders the
    /// options searched, and nothing is concluded from it (see
    /// [`Solver::with_hints`]).
    hints: HashMap<G::Position, Knowledge, FixedHasher>,
}

/// The stack of the search's threads. The search itself keeps its frames
/// on the heap, but a game's moves may recurse (a game defined in Python
/// hashes and compares its nested positions in C): they get the stack of
/// a program's main thread (8 MiB) or more, never the 2 MiB of a Rust
/// thread. Only the pages touched are used.
const POOL_STACK: usize = 16 << 20;

impl<'g, G: Game> Solver<'g, G> {
    /// A solver with the default [`Options`].
    pub fn new(game: &'g G) -> Self {
        Self::with_options(game, Options::default())
    }

    /// A solver with the given options. Threads that cannot be started
    /// leave the search on the calling thread.
    pub fn with_options(game: &'g G, options: Options) -> Self {
        let threads = match options.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let pool = (threads > 1)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .stack_size(POOL_STACK)
                    .build()
                    .ok()
            })
            .flatten();
        // The table of classes takes an eighth of the memory (its entries
        // are few: one per class searched).
        let classes = options.memory / 8;
        Solver {
            game,
            table: Table::new(options.memory - classes, threads),
            classes: Table::new(classes, threads),
            expanded: AtomicU64::new(0),
            searching: AtomicUsize::new(0),
            pool,
            memos: Mutex::new(Vec::new()),
            memory: options.memory,
            misere: OnceLock::new(),
            stopped: AtomicBool::new(false),
            hints: HashMap::default(),
        }
    }

    /// The solver with `hints`: what a checkpoint (or anything else) says
    /// of components, which the search uses only to choose what to try
    /// first, never as facts. A component whose hint says its nimber is
    /// `n` has the options that the hints say have the values the search
    /// looks for tried first (and, asked whether its nimber is a larger
    /// value, the values below looked for first), so that true hints lead
    /// the search along the proof it would have found, with little of the
    /// rest; false hints only cost time. Every answer is still proven by
    /// the search.
    pub fn with_hints(mut self, hints: impl IntoIterator<Item = (G::Position, Fact)>) -> Self {
        self.hints = hints
            .into_iter()
            .map(|(position, fact)| (position, fact.knowledge()))
            .collect();
        self
    }

    /// Adds `facts` to what the solver knows, trusted: a later search
    /// answers from them as from its own results. For facts this program
    /// computed (a checkpoint the user wrote, its checksum intact); a
    /// false one makes answers wrong. [`with_hints`](Self::with_hints)
    /// takes the same without trusting them.
    pub fn learn(&self, facts: impl IntoIterator<Item = (G::Position, Fact)>) {
        let guard = crossbeam_epoch::pin();
        for (position, fact) in facts {
            let hash = self.table.hash(&position);
            // Kept as if they had cost a long search.
            self.table
                .put(&position, hash, fact.knowledge(), u64::MAX >> 8, &guard);
        }
    }

    /// What the solver knows of the components whose computation expanded
    /// at least `min_work` positions, with that work: the valuable part of
    /// its table, for a checkpoint. Safe to call while another thread
    /// searches (an entry moved meanwhile may be missed).
    pub fn facts(&self, min_work: u64) -> Vec<(G::Position, Fact, u64)> {
        let mut facts = Vec::new();
        let guard = crossbeam_epoch::pin();
        self.table
            .for_each(min_work, &guard, |position, knowledge, work| {
                facts.push((position.clone(), Fact::of(knowledge), work));
            });
        facts
    }

    /// Asks the searches running now, and those started after, to stop:
    /// they end with [`SearchError::Stopped`] within a few hundred
    /// positions expanded per thread. What they learnt stays: the table
    /// holds only proven facts ([`facts`](Self::facts)).
    pub fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }

    /// Whether [`stop`](Self::stop) was called.
    pub fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }

    /// The game.
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// The threads the search uses.
    pub fn threads(&self) -> usize {
        self.pool
            .as_ref()
            .map_or(1, rayon::ThreadPool::current_num_threads)
    }

    /// A memo left by a worker that ended, or a new one.
    fn take_memo(&self) -> Memo<G::Position> {
        self.memos
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .unwrap_or_default()
    }

    /// Keeps the memo of a worker that ended for the next one.
    fn give_memo(&self, memo: Memo<G::Position>) {
        self.memos
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(memo);
    }

    /// Runs `search` on a worker, in the solver's threads.
    fn with_worker<T: Send>(
        &self,
        search: impl FnOnce(&mut Worker<'_, 'g, G>) -> Result<T, Stop> + Send,
    ) -> Result<T, SearchError> {
        let run = || {
            self.searching.fetch_add(1, Ordering::Relaxed);
            let mut worker = Worker::new(self, Vec::new(), 0);
            let result = search(&mut worker);
            worker.retire();
            self.searching.fetch_sub(1, Ordering::Relaxed);
            public(result)
        };
        match &self.pool {
            Some(pool) => pool.install(run),
            None => run(),
        }
    }

    /// The nimber of `position`.
    pub fn nimber(&self, position: &G::Position) -> Result<Nimber, SearchError> {
        self.with_worker(|worker| {
            let (components, mut x) = worker.components_of(position);
            for component in &components {
                x ^= worker.nimber(component)?;
            }
            Ok(x)
        })
    }

    /// Whether the player to move wins `position + *heap`.
    pub fn outcome(&self, position: &G::Position, heap: Nimber) -> Result<Outcome, SearchError> {
        self.with_worker(|worker| {
            let (components, known) = worker.components_of(position);
            Ok(if worker.sum_has_nimber(&components, heap ^ known)? {
                Outcome::Lose
            } else {
                Outcome::Win
            })
        })
    }

    /// A move of `position` to a position of nimber 0 (which wins), or
    /// `None` when there is none (the position is lost, or over).
    pub fn winning_move(&self, position: &G::Position) -> Result<Option<G::Move>, SearchError> {
        self.with_worker(|worker| {
            let mut moves = Vec::new();
            self.game.moves(position, &mut moves);
            for mv in moves {
                let next = self.game.play(position, &mv);
                let (components, known) = worker.components_of(&next);
                if worker.sum_has_nimber(&components, known)? {
                    return Ok(Some(mv));
                }
            }
            Ok(None)
        })
    }

    /// Entries in the transposition tables.
    pub fn positions(&self) -> usize {
        self.table.len() + self.misere.get().map_or(0, |m| m.entries() as usize)
    }

    /// How far the search has got: cheap to read from another thread while
    /// a search runs (for a progress line).
    pub fn stats(&self) -> Stats {
        let misere = self.misere.get();
        Stats {
            expanded: self.expanded.load(Ordering::Relaxed),
            positions: self.table.entries() + misere.map_or(0, misere::Tables::entries),
            table_bytes: self.table_bytes(),
            table_budget: self.table.budget() + self.classes.budget(),
        }
    }

    /// Bytes the transposition tables hold (the normal-play one and, once
    /// a misère question was asked, the misère ones).
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
            + self.classes.bytes()
            + self.misere.get().map_or(0, misere::Tables::bytes)
    }

    /// Positions expanded (their options generated) so far.
    pub fn expanded(&self) -> u64 {
        self.expanded.load(Ordering::Relaxed)
    }
}

/// How far a search has got (see [`Solver::stats`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Stats {
    /// Positions expanded (their moves generated) so far.
    pub expanded: u64,
    /// Entries in the transposition table.
    pub positions: u64,
    /// Bytes the transposition table holds.
    pub table_bytes: usize,
    /// The most bytes it may hold.
    pub table_budget: usize,
}
