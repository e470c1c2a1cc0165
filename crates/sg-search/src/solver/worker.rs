//! One thread's search: a stack of frames (each a component and the
//! question asked of it), the lists they keep their moves and options in,
//! and the loop that asks questions, pushing a frame for each that what is
//! known does not settle, and pops it with its answer. What a frame does
//! with the answers is in [`questions`](super::questions).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use super::memo::{Memo, Memoized};
use super::{Solver, Stop};
use crate::SearchError;
use crate::game::{Game, Nimber};
use crate::table::{FixedHasher, Knowledge};

/// How many options ahead of the one judged are played and split (and
/// their table entries prefetched).
pub(super) const AHEAD: usize = 3;

/// The depth of the stack from which the positions on it are tracked to
/// find a cycle (see [`Worker::ask`]).
pub(super) const CYCLE_DEPTH: usize = 256;

/// Expansions a worker counts before adding them to the solver's count
/// (and looking whether it has been cancelled).
pub(super) const FLUSH: u64 = 256;

/// How far above the known lower bound of a component's nimber an
/// `Equals` target must be for the values below it to be looked for first
/// (fewer positions expanded on boards of nimbers 4 to 9, the same on
/// those of smaller nimbers).
pub(super) const BELOW_FIRST_GAP: u64 = 4;

/// A component asked a question again once its nimber is known to be at
/// least this is solved by the mex of its options' nimbers (phase `Mex`;
/// see "The mex, for large nimbers" in the [module documentation](super)).
pub(super) const MEX_LOW: Nimber = 8;

/// A frame's list not made yet.
pub(super) const NONE: usize = usize::MAX;

/// A question about a component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Goal {
    /// Its nimber.
    Nimber,
    /// Whether its nimber is the target.
    Equals(Nimber),
}

/// The answer to a question.
#[derive(Clone, Copy, Debug)]
pub(super) enum Reply {
    Nimber(Nimber),
    Equals(bool),
}

/// Which part of a question a frame is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
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
    /// The exact nimber, as the mex of the exact nimbers of all options
    /// (those the table does not give are asked for).
    Mex,
}

/// What a frame waits for from the frame above it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Awaiting {
    Nothing,
    /// The nimber of the current option's component `k`.
    ComponentNimber,
    /// Whether the current option's last component has nimber `t ^ x`.
    LastEquals,
}

/// Where an option's components are in its frame's lists, once the
/// option has been played and split.
#[derive(Clone, Copy, Debug)]
pub(super) struct Span {
    pub(super) start: u32,
    pub(super) len: u32,
    /// The XOR of the nimbers of its components known at once (once
    /// resolved, the option's nimber).
    pub(super) known: Nimber,
    /// Its frame knows its nimber (`known`; `len` is then 0).
    pub(super) resolved: bool,
}

impl Span {
    /// An option of nimber `n`, known to its frame.
    pub(super) fn resolved(n: Nimber) -> Span {
        Span {
            start: 0,
            len: 0,
            known: n,
            resolved: true,
        }
    }
}

/// Not played and split yet.
pub(super) const UNEXPANDED: Span = Span {
    start: u32::MAX,
    len: 0,
    known: 0,
    resolved: false,
};

/// A component being examined.
pub(super) struct Frame<G: Game> {
    pub(super) component: G::Position,
    pub(super) hash: u64,
    pub(super) goal: Goal,
    pub(super) knowledge: Knowledge,
    /// Expansions counted when the frame started.
    pub(super) work_start: u64,
    pub(super) phase: Phase,
    /// The value looked for among the options.
    pub(super) t: Nimber,
    /// Where the frame's moves (and their spans), their components and its
    /// list of options for pass two start in the worker's lists, and how
    /// many moves and options to search there are.
    pub(super) moves: usize,
    pub(super) count: usize,
    pub(super) parts: usize,
    pub(super) order: usize,
    pub(super) order_len: usize,
    /// Where the frame's bitset of its options' nimbers, and the option
    /// found for each, start in the worker's lists ([`NONE`] until the
    /// frame resolves an option).
    pub(super) seen: usize,
    pub(super) witness: usize,
    /// How many of its options the frame does not know the nimber of (as
    /// of its last pass one that went through every option).
    pub(super) unresolved: usize,
    /// Where pass two is in its list.
    pub(super) cursor: usize,
    /// The current option's component and the XOR of those before it.
    pub(super) k: usize,
    pub(super) x: Nimber,
    /// The current option's component asked whether it has the nimber
    /// sought (the others' nimbers are computed).
    pub(super) last: usize,
    pub(super) awaiting: Awaiting,
    /// The component's class key and its hash in the table of classes,
    /// if it has one.
    pub(super) class: Option<(u128, u64)>,
}

/// The lists of the frames on a worker's stack, each frame's in a segment
/// above those of the frames below it (only the top frame adds to them;
/// popping a frame cuts them back), so that no frame allocates.
pub(super) struct Lists<G: Game> {
    /// The moves of each frame.
    pub(super) moves: Vec<G::Move>,
    /// Per move, its option's components once played and split: canonical,
    /// smaller first, pairs of equal ones cancelled.
    pub(super) spans: Vec<Span>,
    pub(super) parts: Vec<G::Position>,
    pub(super) hashes: Vec<u64>,
    /// The options of pass two, in the order they are searched.
    pub(super) order: Vec<u32>,
    /// Per frame, a bit for each value up to its number of options, set
    /// when an option is known to have that nimber, and the option.
    pub(super) seen: Vec<u64>,
    pub(super) witness: Vec<u32>,
}

impl<G: Game> Lists<G> {
    /// The components of the option of move `index` (an index in `moves`),
    /// their hashes, and the XOR of the nimbers known at once.
    pub(super) fn option(&self, index: usize) -> (&[G::Position], &[u64], Nimber) {
        let span = self.spans[index];
        let range = span.start as usize..(span.start + span.len) as usize;
        (&self.parts[range.clone()], &self.hashes[range], span.known)
    }
}

/// What a frame asks next.
pub(super) enum Step<P> {
    Ask(P, u64, Goal),
    Answer(Reply),
}

/// One thread's search: its stack, and buffers reused between frames.
pub(super) struct Worker<'s, 'g, G: Game> {
    pub(super) solver: &'s Solver<'g, G>,
    /// The flags of the parallel searches this worker's answer is part of:
    /// any set, and the answer is no longer wanted.
    pub(super) stops: Vec<&'s AtomicBool>,
    /// The depth, in the whole search, of this worker's first frame.
    pub(super) base_depth: usize,
    /// Positions expanded by this worker and not yet added to the
    /// solver's count (added in batches: one shared counter updated by
    /// every thread at every expansion would cost more than expanding).
    pub(super) unflushed: u64,
    /// Positions expanded by this worker.
    pub(super) expanded: u64,
    pub(super) stack: Vec<Frame<G>>,
    pub(super) lists: Lists<G>,
    /// Hashes of the components on the stack (a cycle brings one back).
    pub(super) on_stack: HashMap<u64, u32, FixedHasher>,
    /// Per depth of the stack, the last move found to reach the value
    /// looked for (tried first by the next frame at that depth: the
    /// sibling positions of a search often share their good replies).
    pub(super) killers: Vec<Option<G::Move>>,
    /// How often each move was found to reach the value looked for, at
    /// any depth: pass two tries such moves first among options of the
    /// same size (the history heuristic of game-tree search).
    pub(super) history: HashMap<G::Move, u64, FixedHasher>,
    pub(super) split: Vec<G::Position>,
    pub(super) keyed: Vec<(u64, u64, G::Position)>,
    pub(super) deferred: Vec<u128>,
    pub(super) candidates: Vec<usize>,
    /// What `reduce` said of the components met lately.
    pub(super) memo: Memo<G::Position>,
    /// Keeps this thread pinned (`crossbeam-epoch`, see the table's
    /// module documentation), so that each lookup's own pin is a counter;
    /// repinned at each [`flush`](Self::flush), so that the arrays of
    /// grown shards are freed.
    pub(super) pin: crossbeam_epoch::Guard,
}

impl<'s, 'g, G: Game> Worker<'s, 'g, G> {
    pub(super) fn new(
        solver: &'s Solver<'g, G>,
        stops: Vec<&'s AtomicBool>,
        base_depth: usize,
    ) -> Self {
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
                seen: Vec::new(),
                witness: Vec::new(),
            },
            on_stack: HashMap::default(),
            killers: Vec::new(),
            history: HashMap::default(),
            split: Vec::new(),
            keyed: Vec::new(),
            deferred: Vec::new(),
            candidates: Vec::new(),
            memo: solver.take_memo(),
            pin: crossbeam_epoch::pin(),
        }
    }

    /// Ends the worker: its expansions counted, its memo kept for the
    /// next worker.
    pub(super) fn retire(&mut self) {
        self.flush();
        self.solver.give_memo(std::mem::take(&mut self.memo));
    }

    pub(super) fn game(&self) -> &'g G {
        self.solver.game
    }

    /// Adds this worker's expansions to the solver's count.
    pub(super) fn flush(&mut self) {
        self.solver
            .expanded
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
        if std::env::var_os("NOREPIN").is_none() {
            self.pin.repin();
        }
    }

    /// Whether the answer this worker works on is no longer wanted.
    pub(super) fn cancelled(&self) -> bool {
        self.stops.iter().any(|stop| stop.load(Ordering::Relaxed))
    }

    /// The canonical components of `position` whose nimbers are not known
    /// at once, smaller first, pairs of equal ones cancelled; and the XOR
    /// of the nimbers of the others.
    pub(super) fn components_of(&mut self, position: &G::Position) -> (Vec<G::Position>, Nimber) {
        let mut keyed = Vec::new();
        let known = self.canonical_parts(position, &mut keyed);
        (keyed.into_iter().map(|(_, _, p)| p).collect(), known)
    }

    /// The parts of `position` whose nimbers are not known at once,
    /// canonical, sorted and cancelled, as (size, hash, component);
    /// returns the XOR of the nimbers of the others.
    pub(super) fn canonical_parts(
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
            match self.memo.reduce(game, &self.solver.table, part) {
                Memoized::Known(n) => known ^= n,
                Memoized::Canonical(c, hash, size) => keyed.push((size, hash, c.clone())),
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
    pub(super) fn sum_has_nimber(
        &mut self,
        components: &[G::Position],
        t: Nimber,
    ) -> Result<bool, Stop> {
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

    pub(super) fn nimber(&mut self, component: &G::Position) -> Result<Nimber, Stop> {
        let hash = self.solver.table.hash(component);
        match self.run(component.clone(), hash, Goal::Nimber)? {
            Reply::Nimber(n) => Ok(n),
            Reply::Equals(_) => unreachable!("a Nimber question gets a nimber"),
        }
    }

    /// What is known of a canonical component without search.
    pub(super) fn known(&self, component: &G::Position, hash: u64) -> Knowledge {
        self.solver
            .table
            .get(component, hash, &self.pin)
            .unwrap_or_default()
    }

    /// The answer to a question from what is known, if it settles it.
    pub(super) fn quick(knowledge: &Knowledge, goal: Goal) -> Option<Reply> {
        match (goal, knowledge.nimber()) {
            (Goal::Nimber, Some(n)) => Some(Reply::Nimber(n)),
            (Goal::Equals(t), Some(n)) => Some(Reply::Equals(n == t)),
            (Goal::Equals(t), None) if knowledge.excludes(t) => Some(Reply::Equals(false)),
            _ => None,
        }
    }

    /// Answers a question, with frames on the worker's own stack.
    pub(super) fn run(
        &mut self,
        component: G::Position,
        hash: u64,
        goal: Goal,
    ) -> Result<Reply, Stop> {
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
    pub(super) fn ask(
        &mut self,
        component: G::Position,
        hash: u64,
        goal: Goal,
    ) -> Result<Option<Reply>, Stop> {
        let mut knowledge = self.known(&component, hash);
        if let Some(reply) = Self::quick(&knowledge, goal) {
            return Ok(Some(reply));
        }
        // What is known of the component's class (the same game) may
        // settle it; the component keeps it for its own later lookups.
        let class = self.game().class_key(&component).map(|key| {
            let classes = &self.solver.classes;
            (key, classes.hash(&key))
        });
        if let Some((key, class_hash)) = class
            && let Some(known) = self.solver.classes.get(&key, class_hash, &self.pin)
        {
            let before = knowledge;
            knowledge.merge(&known);
            if let Some(reply) = Self::quick(&knowledge, goal) {
                if knowledge != before {
                    self.solver
                        .table
                        .put(&component, hash, knowledge, 1, &self.pin);
                }
                return Ok(Some(reply));
            }
        }
        // A cycle pushes frames without end: the positions on the stack
        // are tracked only from depth CYCLE_DEPTH on (a repeat above it is
        // found within one turn of the cycle), which spares the games that
        // never go so deep (Cram, Node-Kayles, Chomp) a map entry per
        // expansion.
        if self.stack.len() >= CYCLE_DEPTH {
            let count = self.on_stack.entry(hash).or_insert(0);
            *count += 1;
            if *count > 1
                && self.stack[CYCLE_DEPTH..]
                    .iter()
                    .any(|f| f.component == component)
            {
                return Err(Stop::Error(SearchError::Cycle {
                    position: format!("{component:?}"),
                }));
            }
        }
        let work_start = self.expanded;
        self.expanded += 1;
        self.unflushed += 1;
        if self.unflushed == FLUSH {
            self.flush();
            if self.solver.stopped.load(Ordering::Relaxed) {
                return Err(Stop::Error(SearchError::Stopped));
            }
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
        // So is a target above the nimber a hint gives (a checkpoint's).
        let hinted_below = |target: Nimber| {
            !self.solver.hints.is_empty()
                && self
                    .solver
                    .hints
                    .get(&component)
                    .and_then(Knowledge::nimber)
                    .is_some_and(|n| n < target)
        };
        let below_first = matches!(goal, Goal::Equals(target)
            if u64::from(target) >= u64::from(knowledge.low) + BELOW_FIRST_GAP
                || (target > knowledge.low && hinted_below(target)));
        let t = match goal {
            Goal::Nimber => knowledge.low,
            Goal::Equals(_) if below_first => knowledge.low,
            Goal::Equals(target) => target,
        };
        // A component of large nimber asked again: its exact nimber.
        let mex = knowledge.low >= MEX_LOW;
        let frame = Frame {
            component,
            hash,
            goal,
            knowledge,
            work_start,
            phase: if mex {
                Phase::Mex
            } else if below_first {
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
            seen: NONE,
            witness: NONE,
            unresolved: count,
            cursor: 0,
            k: 0,
            x: 0,
            last: 0,
            awaiting: Awaiting::Nothing,
            class,
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
    pub(super) fn finish(&mut self) {
        let frame = self.stack.pop().expect("a frame to finish");
        // Tracked if it was pushed at depth CYCLE_DEPTH or more (see `ask`).
        if self.stack.len() >= CYCLE_DEPTH
            && let Some(count) = self.on_stack.get_mut(&frame.hash)
        {
            *count -= 1;
            if *count == 0 {
                self.on_stack.remove(&frame.hash);
            }
        }
        let work = self.expanded - frame.work_start;
        self.solver.table.put(
            &frame.component,
            frame.hash,
            frame.knowledge,
            work,
            &self.pin,
        );
        if let Some((key, class_hash)) = frame.class {
            self.solver
                .classes
                .put(&key, class_hash, frame.knowledge, work, &self.pin);
        }
        self.lists.moves.truncate(frame.moves);
        self.lists.spans.truncate(frame.moves);
        self.lists.parts.truncate(frame.parts);
        self.lists.hashes.truncate(frame.parts);
        self.lists.order.truncate(frame.order);
        if frame.seen != NONE {
            self.lists.seen.truncate(frame.seen);
            self.lists.witness.truncate(frame.witness);
        }
    }

    /// Plays and splits option `option` of the top frame, once.
    pub(super) fn expand(&mut self, option: usize) {
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
            resolved: false,
        };
        self.keyed = keyed;
    }
}
