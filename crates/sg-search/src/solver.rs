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
//! # The stack
//!
//! Questions nest as deep as the game is long. The search keeps its own
//! stack of frames on the heap (one per component being examined), so a
//! game a million moves deep needs memory, not a deep call stack.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::game::{Game, Nimber, Reduced};
use crate::table::{FixedHasher, Knowledge, Table};
use rayon::prelude::*;

use crate::{Outcome, SearchError};

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
    expanded: AtomicU64,
    /// The threads of a parallel search (none for one thread).
    pool: Option<rayon::ThreadPool>,
}

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
                    .build()
                    .ok()
            })
            .flatten();
        Solver {
            game,
            table: Table::new(options.memory, threads),
            expanded: AtomicU64::new(0),
            pool,
        }
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

    /// Runs `search` on a worker, in the solver's threads.
    fn with_worker<T: Send>(
        &self,
        search: impl FnOnce(&mut Worker<'_, 'g, G>) -> Result<T, Stop> + Send,
    ) -> Result<T, SearchError> {
        let run = || {
            let mut worker = Worker::new(self, Vec::new(), 0);
            let result = search(&mut worker);
            worker.flush();
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

    /// Entries in the transposition table.
    pub fn positions(&self) -> usize {
        self.table.len()
    }

    /// How far the search has got: cheap to read from another thread while
    /// a search runs (for a progress line).
    pub fn stats(&self) -> Stats {
        Stats {
            expanded: self.expanded.load(Ordering::Relaxed),
            positions: self.table.entries(),
            table_bytes: self.table.bytes(),
            table_budget: self.table.budget(),
        }
    }

    /// Bytes the transposition table holds.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
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

/// How many options ahead of the one judged are played and split (and
/// their table entries prefetched).
const AHEAD: usize = 3;

/// How far above the known lower bound of a component's nimber an
/// `Equals` target must be for the values below it to be looked for first
/// (fewer positions expanded on boards of nimbers 4 to 9, the same on
/// those of smaller nimbers).
const BELOW_FIRST_GAP: u64 = 4;

/// Expansions a worker counts before adding them to the solver's count
/// (and looking whether it has been cancelled).
const FLUSH: u64 = 256;

/// Frames at most this deep in the search share their pass two between
/// threads.
const PARALLEL_DEPTH: usize = 2;

/// A question about a component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Goal {
    /// Its nimber.
    Nimber,
    /// Whether its nimber is the target.
    Equals(Nimber),
}

/// The answer to a question.
#[derive(Clone, Copy, Debug)]
enum Reply {
    Nimber(Nimber),
    Equals(bool),
}

/// Which part of a question a frame is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Looking for an option of nimber `t` (the goal's nimber candidate,
    /// or the target of an `Equals`).
    Target,
    /// `Equals` only: no option has the target; looking for options of
    /// each value below it.
    Below,
    /// `Equals` only, far above what is known: looking for options of each
    /// value below the target first (a value missing answers no), then for
    /// the target.
    BelowFirst,
}

/// What a frame waits for from the frame above it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Awaiting {
    Nothing,
    /// The nimber of the current option's component `k`.
    ComponentNimber,
    /// Whether the current option's last component has nimber `t ^ x`.
    LastEquals,
}

/// Where an option's components are in its frame's lists, once the
/// option has been played and split.
#[derive(Clone, Copy, Debug)]
struct Span {
    start: u32,
    len: u32,
    /// The XOR of the nimbers of its components known at once.
    known: Nimber,
}

/// Not played and split yet.
const UNEXPANDED: Span = Span {
    start: u32::MAX,
    len: 0,
    known: 0,
};

/// A component being examined.
struct Frame<G: Game> {
    component: G::Position,
    hash: u64,
    goal: Goal,
    knowledge: Knowledge,
    /// Expansions counted when the frame started.
    work_start: u64,
    phase: Phase,
    /// The value looked for among the options.
    t: Nimber,
    /// Where the frame's moves (and their spans), their components and its
    /// list of options for pass two start in the worker's lists, and how
    /// many moves and options to search there are.
    moves: usize,
    count: usize,
    parts: usize,
    order: usize,
    order_len: usize,
    /// Where pass two is in its list.
    cursor: usize,
    /// The current option's component and the XOR of those before it.
    k: usize,
    x: Nimber,
    /// The current option's component asked whether it has the nimber
    /// sought (the others' nimbers are computed).
    last: usize,
    awaiting: Awaiting,
}

/// The lists of the frames on a worker's stack, each frame's in a segment
/// above those of the frames below it (only the top frame adds to them;
/// popping a frame cuts them back), so that no frame allocates.
struct Lists<G: Game> {
    /// The moves of each frame.
    moves: Vec<G::Move>,
    /// Per move, its option's components once played and split: canonical,
    /// smaller first, pairs of equal ones cancelled.
    spans: Vec<Span>,
    parts: Vec<G::Position>,
    hashes: Vec<u64>,
    /// The options of pass two, in the order they are searched.
    order: Vec<u32>,
}

impl<G: Game> Lists<G> {
    /// The components of the option of move `index` (an index in `moves`),
    /// their hashes, and the XOR of the nimbers known at once.
    fn option(&self, index: usize) -> (&[G::Position], &[u64], Nimber) {
        let span = self.spans[index];
        let range = span.start as usize..(span.start + span.len) as usize;
        (&self.parts[range.clone()], &self.hashes[range], span.known)
    }
}

/// What a frame asks next.
enum Step<P> {
    Ask(P, u64, Goal),
    Answer(Reply),
}

/// One thread's search: its stack, and buffers reused between frames.
struct Worker<'s, 'g, G: Game> {
    solver: &'s Solver<'g, G>,
    /// The flags of the parallel searches this worker's answer is part of:
    /// any set, and the answer is no longer wanted.
    stops: Vec<&'s AtomicBool>,
    /// The depth, in the whole search, of this worker's first frame.
    base_depth: usize,
    /// Positions expanded by this worker and not yet added to the
    /// solver's count (added in batches: one shared counter updated by
    /// every thread at every expansion would cost more than expanding).
    unflushed: u64,
    /// Positions expanded by this worker.
    expanded: u64,
    stack: Vec<Frame<G>>,
    lists: Lists<G>,
    /// Hashes of the components on the stack (a cycle brings one back).
    on_stack: HashMap<u64, u32, FixedHasher>,
    /// Per depth of the stack, the last move found to reach the value
    /// looked for (tried first by the next frame at that depth: the
    /// sibling positions of a search often share their good replies).
    killers: Vec<Option<G::Move>>,
    /// How often each move was found to reach the value looked for, at
    /// any depth: pass two tries such moves first among options of the
    /// same size (the history heuristic of game-tree search).
    history: HashMap<G::Move, u64, FixedHasher>,
    split: Vec<G::Position>,
    keyed: Vec<(u64, u64, G::Position)>,
    deferred: Vec<u128>,
    candidates: Vec<usize>,
}

impl<'s, 'g, G: Game> Worker<'s, 'g, G> {
    fn new(solver: &'s Solver<'g, G>, stops: Vec<&'s AtomicBool>, base_depth: usize) -> Self {
        Worker {
            solver,
            stops,
            base_depth,
            unflushed: 0,
            expanded: 0,
            stack: Vec::new(),
            lists: Lists {
                moves: Vec::new(),
                spans: Vec::new(),
                parts: Vec::new(),
                hashes: Vec::new(),
                order: Vec::new(),
            },
            on_stack: HashMap::default(),
            killers: Vec::new(),
            history: HashMap::default(),
            split: Vec::new(),
            keyed: Vec::new(),
            deferred: Vec::new(),
            candidates: Vec::new(),
        }
    }

    fn game(&self) -> &'g G {
        self.solver.game
    }

    /// Adds this worker's expansions to the solver's count.
    fn flush(&mut self) {
        self.solver
            .expanded
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    /// Whether the answer this worker works on is no longer wanted.
    fn cancelled(&self) -> bool {
        self.stops.iter().any(|stop| stop.load(Ordering::Relaxed))
    }

    /// Whether the top frame's pass two is shared between threads: near
    /// the root of the search (where the work under each option is large),
    /// when there are threads to share it with.
    fn parallel_here(&self) -> bool {
        self.solver.pool.is_some() && self.base_depth + self.stack.len() <= PARALLEL_DEPTH
    }

    /// Pass two of the top frame on all threads: looks for an option of
    /// nimber `t` among those of `order`, each examined by a worker of its
    /// own; the first found stops the others.
    fn parallel_scan(&mut self) -> Result<Option<usize>, Stop> {
        let frame = self.stack.last().expect("a frame");
        let t = frame.t;
        let jobs: Vec<(usize, Vec<G::Position>, Nimber)> = self.lists.order
            [frame.order..frame.order + frame.order_len]
            .iter()
            .map(|&option| {
                let (parts, _, known) = self.lists.option(frame.moves + option as usize);
                (option as usize, parts.to_vec(), known)
            })
            .collect();
        let stop = AtomicBool::new(false);
        let mut stops = self.stops.clone();
        stops.push(&stop);
        let solver = self.solver;
        let base_depth = self.base_depth + self.stack.len();
        // Each job's worker starts with what this one learnt of good
        // replies (a worker without it searches much more).
        let history = &self.history;
        let found = jobs
            .par_iter()
            .with_max_len(1)
            .map(|(option, parts, known)| {
                if stop.load(Ordering::Relaxed) {
                    return Ok(None);
                }
                let mut worker = Worker::new(solver, stops.clone(), base_depth);
                worker.history.clone_from(history);
                let result = worker.sum_has_nimber(parts, t ^ known);
                worker.flush();
                match result {
                    Ok(true) => {
                        stop.store(true, Ordering::Relaxed);
                        Ok(Some(*option))
                    }
                    Ok(false) => Ok(None),
                    Err(Stop::Cancelled) if stop.load(Ordering::Relaxed) => Ok(None),
                    Err(other) => Err(other),
                }
            })
            .find_map_any(|result: Result<Option<usize>, Stop>| match result {
                Ok(None) => None,
                other => Some(other),
            });
        found.transpose().map(Option::flatten)
    }

    /// The canonical components of `position` whose nimbers are not known
    /// at once, smaller first, pairs of equal ones cancelled; and the XOR
    /// of the nimbers of the others.
    fn components_of(&mut self, position: &G::Position) -> (Vec<G::Position>, Nimber) {
        let mut keyed = Vec::new();
        let known = self.canonical_parts(position, &mut keyed);
        (keyed.into_iter().map(|(_, _, p)| p).collect(), known)
    }

    /// The parts of `position` whose nimbers are not known at once,
    /// canonical, sorted and cancelled, as (size, hash, component);
    /// returns the XOR of the nimbers of the others.
    fn canonical_parts(
        &mut self,
        position: &G::Position,
        keyed: &mut Vec<(u64, u64, G::Position)>,
    ) -> Nimber {
        let game = self.game();
        let mut split = std::mem::take(&mut self.split);
        split.clear();
        game.split(position, &mut split);
        keyed.clear();
        let mut known = 0;
        for part in &split {
            match game.reduce(part) {
                Reduced::Known(n) => known ^= n,
                Reduced::Canonical(c) => {
                    let hash = self.solver.table.hash(&c);
                    keyed.push((game.size(&c), hash, c));
                }
            }
        }
        self.split = split;
        if keyed.len() > 1 {
            keyed.sort_unstable_by_key(|&(size, hash, _)| (size, hash));
            // Equal components are adjacent (same size, same hash): cancel
            // them in pairs.
            let mut write = 0;
            let mut read = 0;
            while read < keyed.len() {
                if read + 1 < keyed.len() && keyed[read].2 == keyed[read + 1].2 {
                    read += 2;
                    continue;
                }
                keyed.swap(write, read);
                write += 1;
                read += 1;
            }
            keyed.truncate(write);
        }
        known
    }

    /// Whether the sum of `components` (canonical, as from
    /// [`components_of`](Self::components_of)) has nimber `t`.
    fn sum_has_nimber(&mut self, components: &[G::Position], t: Nimber) -> Result<bool, Stop> {
        if components.is_empty() {
            return Ok(t == 0);
        }
        // Asked of the largest component whose nimber is not known; the
        // others' nimbers are computed (or known).
        let hashes: Vec<u64> = components
            .iter()
            .map(|c| self.solver.table.hash(c))
            .collect();
        let last = (0..components.len())
            .rev()
            .find(|&i| self.known(&components[i], hashes[i]).nimber().is_none())
            .unwrap_or(components.len() - 1);
        let mut x = 0;
        for (i, c) in components.iter().enumerate() {
            if i != last {
                x ^= self.nimber(c)?;
            }
        }
        let (last, hash) = (&components[last], hashes[last]);
        match self.run(last.clone(), hash, Goal::Equals(t ^ x))? {
            Reply::Equals(equal) => Ok(equal),
            Reply::Nimber(_) => unreachable!("an Equals question gets a yes or no"),
        }
    }

    fn nimber(&mut self, component: &G::Position) -> Result<Nimber, Stop> {
        let hash = self.solver.table.hash(component);
        match self.run(component.clone(), hash, Goal::Nimber)? {
            Reply::Nimber(n) => Ok(n),
            Reply::Equals(_) => unreachable!("a Nimber question gets a nimber"),
        }
    }

    /// What is known of a canonical component without search.
    fn known(&self, component: &G::Position, hash: u64) -> Knowledge {
        self.solver.table.get(component, hash).unwrap_or_default()
    }

    /// The answer to a question from what is known, if it settles it.
    fn quick(knowledge: &Knowledge, goal: Goal) -> Option<Reply> {
        match (goal, knowledge.nimber()) {
            (Goal::Nimber, Some(n)) => Some(Reply::Nimber(n)),
            (Goal::Equals(t), Some(n)) => Some(Reply::Equals(n == t)),
            (Goal::Equals(t), None) if knowledge.excludes(t) => Some(Reply::Equals(false)),
            _ => None,
        }
    }

    /// Answers a question, with frames on the worker's own stack.
    fn run(&mut self, component: G::Position, hash: u64, goal: Goal) -> Result<Reply, Stop> {
        let base = self.stack.len();
        let mut reply = match self.ask(component, hash, goal)? {
            Some(reply) => return Ok(reply),
            None => None,
        };
        loop {
            match self.step(reply.take())? {
                Step::Ask(component, hash, goal) => {
                    reply = self.ask(component, hash, goal)?;
                }
                Step::Answer(answer) => {
                    self.finish();
                    if self.stack.len() == base {
                        return Ok(answer);
                    }
                    reply = Some(answer);
                }
            }
        }
    }

    /// Answers a question at once if what is known settles it; otherwise
    /// pushes a frame for it.
    fn ask(
        &mut self,
        component: G::Position,
        hash: u64,
        goal: Goal,
    ) -> Result<Option<Reply>, Stop> {
        let knowledge = self.known(&component, hash);
        if let Some(reply) = Self::quick(&knowledge, goal) {
            return Ok(Some(reply));
        }
        let count = self.on_stack.entry(hash).or_insert(0);
        *count += 1;
        if *count > 1 && self.stack.iter().any(|frame| frame.component == component) {
            return Err(Stop::Error(SearchError::Cycle {
                position: format!("{component:?}"),
            }));
        }
        let work_start = self.expanded;
        self.expanded += 1;
        self.unflushed += 1;
        if self.unflushed == FLUSH {
            self.flush();
            if self.cancelled() {
                return Err(Stop::Cancelled);
            }
        }
        let moves = self.lists.moves.len();
        self.game().moves(&component, &mut self.lists.moves);
        let count = self.lists.moves.len() - moves;
        self.lists.spans.resize(moves + count, UNEXPANDED);
        // A target far above what is known is likely above the nimber:
        // the values below it are looked for first, so that a value
        // missing answers no without searching every option for the
        // target (which is rarely any option's nimber).
        let below_first = matches!(goal, Goal::Equals(target) if u64::from(target) >= u64::from(knowledge.low) + BELOW_FIRST_GAP);
        let t = match goal {
            Goal::Nimber => knowledge.low,
            Goal::Equals(_) if below_first => knowledge.low,
            Goal::Equals(target) => target,
        };
        let frame = Frame {
            component,
            hash,
            goal,
            knowledge,
            work_start,
            phase: if below_first {
                Phase::BelowFirst
            } else {
                Phase::Target
            },
            t,
            moves,
            count,
            parts: self.lists.parts.len(),
            order: self.lists.order.len(),
            order_len: 0,
            cursor: 0,
            k: 0,
            x: 0,
            last: 0,
            awaiting: Awaiting::Nothing,
        };
        let impossible = matches!(goal, Goal::Equals(target) if target as usize > count);
        self.stack.push(frame);
        if self.killers.len() < self.stack.len() {
            self.killers.push(None);
        }
        // The nimber is at most the number of options.
        if let Goal::Equals(target) = goal
            && impossible
        {
            self.stack
                .last_mut()
                .expect("the frame just pushed")
                .knowledge
                .exclude(target);
            self.finish();
            return Ok(Some(Reply::Equals(false)));
        }
        Ok(None)
    }

    /// Pops the top frame, recording what it learnt in the table.
    fn finish(&mut self) {
        let frame = self.stack.pop().expect("a frame to finish");
        if let Some(count) = self.on_stack.get_mut(&frame.hash) {
            *count -= 1;
            if *count == 0 {
                self.on_stack.remove(&frame.hash);
            }
        }
        let work = self.expanded - frame.work_start;
        self.solver
            .table
            .put(&frame.component, frame.hash, frame.knowledge, work);
        self.lists.moves.truncate(frame.moves);
        self.lists.spans.truncate(frame.moves);
        self.lists.parts.truncate(frame.parts);
        self.lists.hashes.truncate(frame.parts);
        self.lists.order.truncate(frame.order);
    }

    /// Plays and splits option `option` of the top frame, once.
    fn expand(&mut self, option: usize) {
        let frame = self.stack.last().expect("a frame");
        let index = frame.moves + option;
        if self.lists.spans[index].start != u32::MAX {
            return;
        }
        let next = self
            .solver
            .game
            .play(&frame.component, &self.lists.moves[index]);
        let mut keyed = std::mem::take(&mut self.keyed);
        let known = self.canonical_parts(&next, &mut keyed);
        let start = self.lists.parts.len() as u32;
        for (_, hash, c) in keyed.drain(..) {
            self.solver.table.prefetch(hash);
            self.lists.parts.push(c);
            self.lists.hashes.push(hash);
        }
        self.lists.spans[index] = Span {
            start,
            len: self.lists.parts.len() as u32 - start,
            known,
        };
        self.keyed = keyed;
    }

    /// Advances the top frame with the reply to its last question.
    fn step(&mut self, reply: Option<Reply>) -> Result<Step<G::Position>, Stop> {
        let frame = self.stack.last_mut().expect("a frame to step");
        match (frame.awaiting, reply) {
            (Awaiting::Nothing, _) => {
                return self.begin_test();
            }
            (Awaiting::ComponentNimber, Some(Reply::Nimber(n))) => {
                frame.x ^= n;
                frame.k += 1;
            }
            (Awaiting::LastEquals, Some(Reply::Equals(equal))) => {
                if equal {
                    let option = self.lists.order[frame.order + frame.cursor] as usize;
                    return self.found(Some(option));
                }
                frame.cursor += 1;
                frame.k = 0;
            }
            (awaiting, reply) => unreachable!("frame awaiting {awaiting:?} got {reply:?}"),
        }
        self.scan()
    }

    /// What the table says of option `option` of the top frame for the
    /// value `t`: `Some(true)` it has nimber `t`, `Some(false)` it has not,
    /// `None` unknown (with the size of its largest unknown component).
    fn judge(&self, option: usize, t: Nimber) -> Result<bool, u64> {
        let frame = self.stack.last().expect("a frame");
        let (parts, hashes, mut x) = self.lists.option(frame.moves + option);
        let mut unknown = None;
        let mut unknowns = 0;
        let mut largest = 0;
        for (c, &hash) in parts.iter().zip(hashes) {
            let knowledge = self.known(c, hash);
            match knowledge.nimber() {
                Some(n) => x ^= n,
                None => {
                    unknowns += 1;
                    unknown = Some(knowledge);
                    largest = self.game().size(c);
                }
            }
        }
        match (unknowns, unknown) {
            (0, _) => Ok(x == t),
            (1, Some(knowledge)) if knowledge.excludes(t ^ x) => Ok(false),
            _ => Err(largest),
        }
    }

    /// Starts looking for an option of nimber `t` (the frame's): pass one
    /// decides the options known from the table (the killer move first),
    /// pass two lists the others.
    fn begin_test(&mut self) -> Result<Step<G::Position>, Stop> {
        let depth = self.stack.len() - 1;
        let frame = &mut self.stack[depth];
        // Skip values known not to be the nimber.
        if frame.goal == Goal::Nimber {
            while frame.knowledge.excludes(frame.t) {
                frame.t = frame
                    .t
                    .checked_add(1)
                    .ok_or(Stop::Error(SearchError::NimberOverflow))?;
            }
        }
        let t = frame.t;
        let count = frame.count;
        let moves = &self.lists.moves[frame.moves..frame.moves + count];
        let killer = self.killers[depth]
            .as_ref()
            .and_then(|killer| moves.iter().position(|mv| mv == killer));
        let mut deferred = std::mem::take(&mut self.deferred);
        deferred.clear();
        let mut found = None;
        let mut candidates = std::mem::take(&mut self.candidates);
        candidates.clear();
        candidates.extend(
            killer
                .into_iter()
                .chain((0..count).filter(|&o| Some(o) != killer)),
        );
        for (i, &option) in candidates.iter().enumerate() {
            // Options are played and split a few ahead of their judging,
            // so that their table entries are fetched meanwhile.
            if i == 0 {
                for &ahead in candidates.iter().take(AHEAD) {
                    self.expand(ahead);
                }
            } else if let Some(&ahead) = candidates.get(i + AHEAD - 1) {
                self.expand(ahead);
            }
            match self.judge(option, t) {
                Ok(true) => {
                    found = Some(option);
                    break;
                }
                Ok(false) => {}
                Err(largest) => {
                    // Smaller first; among equals, the moves found to reach
                    // the value sought most often before.
                    let found = self
                        .history
                        .get(&self.lists.moves[self.stack[depth].moves + option])
                        .copied()
                        .unwrap_or(0);
                    let key = u128::from(largest.min(u64::from(u32::MAX))) << 96
                        | u128::from(u64::MAX - found) << 32;
                    deferred.push(key | option as u128)
                }
            }
        }
        self.candidates = candidates;
        let frame = &mut self.stack[depth];
        frame.cursor = 0;
        frame.k = 0;
        self.lists.order.truncate(frame.order);
        if let Some(option) = found {
            frame.order_len = 0;
            self.deferred = deferred;
            return self.found(Some(option));
        }
        deferred.sort_unstable();
        self.lists
            .order
            .extend(deferred.iter().map(|&key| key as u32));
        frame.order_len = deferred.len();
        self.deferred = deferred;
        self.scan()
    }

    /// Goes on through the options of pass two.
    fn scan(&mut self) -> Result<Step<G::Position>, Stop> {
        let depth = self.stack.len() - 1;
        {
            let frame = &self.stack[depth];
            if frame.cursor == 0 && frame.k == 0 && frame.order_len > 1 && self.parallel_here() {
                return match self.parallel_scan()? {
                    Some(option) => self.found(Some(option)),
                    None => self.not_found(),
                };
            }
        }
        loop {
            let frame = &mut self.stack[depth];
            if frame.cursor == frame.order_len {
                return self.not_found();
            }
            let option = self.lists.order[frame.order + frame.cursor] as usize;
            let span = self.lists.spans[frame.moves + option];
            let len = span.len as usize;
            let start = span.start as usize;
            if frame.k == 0 {
                frame.x = span.known;
                // The component asked whether it has the nimber that makes
                // the option's `t`: the largest whose nimber is not known
                // (the others' nimbers are computed, or known).
                frame.last = (0..len)
                    .rev()
                    .find(|&i| {
                        self.solver
                            .table
                            .get(&self.lists.parts[start + i], self.lists.hashes[start + i])
                            .is_none_or(|k| k.nimber().is_none())
                    })
                    .unwrap_or(len.saturating_sub(1));
            }
            // The other components: their nimbers.
            while frame.k < len {
                if frame.k == frame.last {
                    frame.k += 1;
                    continue;
                }
                let i = start + frame.k;
                let hash = self.lists.hashes[i];
                let c = &self.lists.parts[i];
                match self.solver.table.get(c, hash).and_then(|k| k.nimber()) {
                    Some(n) => {
                        frame.x ^= n;
                        frame.k += 1;
                    }
                    None => {
                        frame.awaiting = Awaiting::ComponentNimber;
                        return Ok(Step::Ask(c.clone(), hash, Goal::Nimber));
                    }
                }
            }
            if len == 0 {
                if frame.t == frame.x {
                    return self.found(Some(option));
                }
            } else {
                let i = start + frame.last;
                let target = frame.t ^ frame.x;
                let c = self.lists.parts[i].clone();
                frame.awaiting = Awaiting::LastEquals;
                return Ok(Step::Ask(c, self.lists.hashes[i], Goal::Equals(target)));
            }
            frame.cursor += 1;
            frame.k = 0;
        }
    }

    /// An option of nimber `t` exists.
    fn found(&mut self, option: Option<usize>) -> Result<Step<G::Position>, Stop> {
        let depth = self.stack.len() - 1;
        let frame = &mut self.stack[depth];
        if let Some(option) = option {
            let mv = &self.lists.moves[frame.moves + option];
            self.killers[depth] = Some(mv.clone());
            // Replies found in larger positions count more (their search
            // was longer, and saves more when the reply is tried first).
            let size = self.solver.game.size(&frame.component);
            *self.history.entry(mv.clone()).or_insert(0) += size.saturating_mul(size).max(1);
        }
        frame.awaiting = Awaiting::Nothing;
        let t = frame.t;
        match (frame.goal, frame.phase) {
            (Goal::Nimber, _) => {
                frame.knowledge.exclude(t);
                frame.t = frame.knowledge.low;
                self.begin_test()
            }
            (Goal::Equals(_), Phase::Target) => {
                frame.knowledge.exclude(t);
                Ok(Step::Answer(Reply::Equals(false)))
            }
            (Goal::Equals(target), Phase::Below) => {
                frame.knowledge.raise(t + 1);
                if frame.knowledge.low >= target {
                    frame.knowledge = Knowledge::exact(target);
                    return Ok(Step::Answer(Reply::Equals(true)));
                }
                frame.t = frame.knowledge.low;
                self.begin_test()
            }
            (Goal::Equals(target), Phase::BelowFirst) => {
                frame.knowledge.raise(t + 1);
                if frame.knowledge.low >= target {
                    frame.phase = Phase::Target;
                    frame.t = target;
                } else {
                    frame.t = frame.knowledge.low;
                }
                self.begin_test()
            }
        }
    }

    /// No option has nimber `t`.
    fn not_found(&mut self) -> Result<Step<G::Position>, Stop> {
        let frame = self.stack.last_mut().expect("a frame");
        frame.awaiting = Awaiting::Nothing;
        let t = frame.t;
        match (frame.goal, frame.phase) {
            (Goal::Nimber, _) => {
                frame.knowledge = Knowledge::exact(t);
                Ok(Step::Answer(Reply::Nimber(t)))
            }
            (Goal::Equals(target), Phase::Target) => {
                // The nimber is at most the target: it is the target when
                // every value below is reached.
                if frame.knowledge.low >= target {
                    frame.knowledge = Knowledge::exact(target);
                    return Ok(Step::Answer(Reply::Equals(true)));
                }
                frame.phase = Phase::Below;
                frame.t = frame.knowledge.low;
                self.begin_test()
            }
            (Goal::Equals(_), Phase::Below | Phase::BelowFirst) => {
                frame.knowledge = Knowledge::exact(t);
                Ok(Step::Answer(Reply::Equals(false)))
            }
        }
    }
}
