//! What a frame does with the answers to its questions: the two passes
//! over its options for the value sought (the table first, then the
//! search), the steps of the method of Lemoine and Viennot that follow an
//! option found or none, and the mex of the options' nimbers (see the
//! [module documentation](super)).

use super::Stop;
use super::parallel::YOUNG_BROTHERS_WAIT;
use super::worker::{AHEAD, Awaiting, Goal, NONE, Phase, Reply, Span, Step, Worker};
use crate::SearchError;
use crate::game::{Game, Nimber};
use crate::table::Knowledge;
use sg_nimber::mex::mex_of_bits;

/// What the table says of an option for a value.
pub(super) enum Judged {
    /// Its nimber.
    Exact(Nimber),
    /// Not the value (its one unknown component's entry excludes what
    /// would make it).
    Not,
    /// Unknown, with the size of its largest unknown component, and
    /// whether it is likely the value: its one unknown component's nimber
    /// is known to be at least what would make it, and that value is not
    /// excluded (a component asked about a value it was found to reach).
    Unknown(u64, bool),
}

/// What a frame does after a value was found among its options or not.
enum Next {
    /// Looks for the next value.
    Test,
    /// Answers.
    Answer(Reply),
}

impl<G: Game> Worker<'_, '_, G> {
    /// Advances the top frame with the reply to its last question.
    pub(super) fn step(&mut self, reply: Option<Reply>) -> Result<Step<G::Position>, Stop> {
        let frame = self.stack.last_mut().expect("a frame to step");
        match (frame.awaiting, reply) {
            (Awaiting::Nothing, _) => {
                return self.begin_test();
            }
            (Awaiting::ComponentNimber, Some(Reply::Nimber(n))) => {
                frame.x ^= n;
                frame.k += 1;
                if frame.phase == Phase::Mex {
                    return self.mex_scan();
                }
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
    /// value `t`.
    pub(super) fn judge(&self, option: usize, t: Nimber) -> Judged {
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
            (0, _) => Judged::Exact(x),
            (1, Some(knowledge)) if knowledge.excludes(t ^ x) => Judged::Not,
            (1, Some(knowledge)) => {
                Judged::Unknown(largest, knowledge.low == t ^ x && knowledge.low > 0)
            }
            _ => Judged::Unknown(largest, false),
        }
    }

    /// What the table and the hints (see [`Solver::with_hints`](super::Solver::with_hints)) say of
    /// whether option `option` of the top frame has nimber `t`: `None`
    /// when a component has neither a nimber known nor one hinted.
    fn hinted(&self, option: usize, t: Nimber) -> Option<bool> {
        let frame = self.stack.last().expect("a frame");
        let (parts, hashes, mut x) = self.lists.option(frame.moves + option);
        for (c, &hash) in parts.iter().zip(hashes) {
            let n = match self.known(c, hash).nimber() {
                Some(n) => n,
                None => self.solver.hints.get(c)?.nimber()?,
            };
            x ^= n;
        }
        Some(x == t)
    }

    /// Looks for an option of nimber `t` (the frame's), and goes on with
    /// the next value for as long as the options' nimbers known to the
    /// frame have it: pass one (the table) over the options whose nimbers
    /// are not known yet, then, if none has it, pass two (the search) over
    /// those the table leaves open; or the mex, once every option's nimber
    /// is known.
    pub(super) fn begin_test(&mut self) -> Result<Step<G::Position>, Stop> {
        let depth = self.stack.len() - 1;
        loop {
            let frame = &mut self.stack[depth];
            if frame.phase == Phase::Mex {
                return self.begin_mex();
            }
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
            let found = match self.witness(t) {
                Some(option) => Some(option),
                None => self.pass_one(Some(t)),
            };
            if let Some(option) = found {
                match self.on_found(Some(option)) {
                    Next::Test => continue,
                    Next::Answer(reply) => return Ok(Step::Answer(reply)),
                }
            }
            let frame = &mut self.stack[depth];
            if frame.unresolved == 0 {
                // Every option's nimber is noted: their mex is the
                // frame's nimber.
                frame.phase = Phase::Mex;
                frame.order_len = 0;
                frame.cursor = 0;
                frame.k = 0;
                return self.mex_scan();
            }
            if frame.order_len == 0 {
                match self.on_not_found() {
                    Next::Test => continue,
                    Next::Answer(reply) => return Ok(Step::Answer(reply)),
                }
            }
            return self.scan();
        }
    }

    /// The option of the top frame found to have nimber `t`, if any.
    fn witness(&self, t: Nimber) -> Option<usize> {
        let frame = self.stack.last().expect("a frame");
        if frame.seen == NONE {
            return None;
        }
        let i = t as usize;
        let word = *self.lists.seen.get(frame.seen + i / 64)?;
        (i <= frame.count && word >> (i % 64) & 1 == 1)
            .then(|| self.lists.witness[frame.witness + i] as usize)
    }

    /// Notes that option `option` of the top frame has nimber `n`, which
    /// no longer needs judging; whether `n` is new to the frame.
    fn resolve(&mut self, option: usize, n: Nimber) -> bool {
        self.make_seen();
        let frame = self.stack.last().expect("a frame");
        let span = &mut self.lists.spans[frame.moves + option];
        *span = Span::resolved(n);
        let i = n as usize;
        if i > frame.count {
            return false;
        }
        let word = &mut self.lists.seen[frame.seen + i / 64];
        let new = *word >> (i % 64) & 1 == 0;
        if new {
            *word |= 1 << (i % 64);
            self.lists.witness[frame.witness + i] = option as u32;
        }
        new
    }

    /// Makes the top frame's bitset of its options' nimbers (and their
    /// witnesses), if it has none yet.
    fn make_seen(&mut self) {
        let frame = self.stack.last_mut().expect("a frame");
        if frame.seen == NONE {
            frame.seen = self.lists.seen.len();
            frame.witness = self.lists.witness.len();
            self.lists.seen.resize(frame.seen + frame.count / 64 + 1, 0);
            self.lists
                .witness
                .resize(frame.witness + frame.count + 1, 0);
        }
    }

    /// Pass one over the top frame's options whose nimbers it does not
    /// know yet: those the table gives are resolved (their nimbers noted);
    /// with `Some(t)`, the others that may have nimber `t` are listed for
    /// pass two (the killer move first), and the first option found of
    /// nimber `t` is returned. With `Some(t)`, it stops once every value
    /// the frame's phase still looks for has an option (only `t` for phase
    /// `Target`; `t` and those above it up to the target for `Below` and
    /// `BelowFirst`; all for `Nimber`, which goes through every option).
    /// With `None` (phase `Mex`), it goes through every option and lists
    /// none.
    fn pass_one(&mut self, t: Option<Nimber>) -> Option<usize> {
        let depth = self.stack.len() - 1;
        let frame = &self.stack[depth];
        let (moves, count) = (frame.moves, frame.count);
        // Phase `Target` of an `Equals` looks for `t` alone, and answers
        // once found.
        let single = matches!(frame.goal, Goal::Equals(_)) && frame.phase == Phase::Target;
        let end = match (t, frame.goal, frame.phase) {
            (Some(t), Goal::Equals(_), Phase::Target) => t + 1,
            (Some(_), Goal::Equals(target), Phase::Below | Phase::BelowFirst) => target,
            _ => count as Nimber + 1,
        };
        // Values in `t..end` without an option (`t` has none).
        let mut missing = match (t, frame.goal) {
            _ if single => 1,
            (Some(t), Goal::Equals(_)) => (t..end.max(t + 1))
                .filter(|&v| self.witness(v).is_none())
                .count(),
            _ => usize::MAX,
        };
        let spans = &self.lists.spans[moves..moves + count];
        let killer = self.killers[depth]
            .as_ref()
            .and_then(|killer| {
                self.lists.moves[moves..moves + count]
                    .iter()
                    .position(|mv| mv == killer)
            })
            .filter(|&o| !spans[o].resolved);
        let mut candidates = std::mem::take(&mut self.candidates);
        candidates.clear();
        candidates.extend(killer);
        if frame.seen == NONE {
            // No option resolved yet.
            candidates.extend((0..count).filter(|&o| Some(o) != killer));
        } else {
            candidates.extend((0..count).filter(|&o| Some(o) != killer && !spans[o].resolved));
        }
        let mut deferred = std::mem::take(&mut self.deferred);
        deferred.clear();
        let mut found = None;
        let mut complete = true;
        let mut resolved = 0;
        for (i, &option) in candidates.iter().enumerate() {
            if missing == 0 {
                complete = false;
                break;
            }
            // Options are played and split a few ahead of their judging,
            // so that their table entries are fetched meanwhile.
            if i == 0 && killer.is_some() {
                // The killer alone first: it often answers, and the
                // options played ahead of it would be played for nothing
                // (Cram 5x8: 3% fewer options played, the same positions).
                self.expand(option);
            } else if i == 0 || (i == 1 && killer.is_some()) {
                for &ahead in candidates.iter().skip(i).take(AHEAD) {
                    self.expand(ahead);
                }
            } else if let Some(&ahead) = candidates.get(i + AHEAD - 1) {
                self.expand(ahead);
            }
            match self.judge(option, t.unwrap_or(Nimber::MAX)) {
                // Phase `Target` answers once `t` is found, and notes
                // nothing (if none has it, phase `Below` will). In every
                // phase, an option's nimber is a value the frame's is not:
                // its knowledge (and so the table) keeps it, which answers
                // a later question about that value without expanding the
                // frame again (`cram_census` with the endgame table, one
                // thread: 5x7 601,441 to 555,034 positions expanded, 5x8
                // 2.73 M to 2.44 M and 0.91x the time).
                Judged::Exact(n) if single => {
                    self.stack[depth].knowledge.exclude(n);
                    if Some(n) == t {
                        found = Some(option);
                        missing = 0;
                    }
                }
                Judged::Exact(n) => {
                    self.stack[depth].knowledge.exclude(n);
                    if Some(n) == t && found.is_none() {
                        found = Some(option);
                    }
                    resolved += 1;
                    if self.resolve(option, n) && t.is_some_and(|t| (t..end).contains(&n)) {
                        missing -= 1;
                    }
                }
                Judged::Not => {}
                Judged::Unknown(..) if t.is_none() => {}
                Judged::Unknown(largest, likely) => {
                    // The likely ones first; then smaller first; among
                    // equals, the moves found to reach the value sought
                    // most often before.
                    let found = self
                        .history
                        .get(&self.lists.moves[moves + option])
                        .copied()
                        .unwrap_or(0);
                    // With hints (a checkpoint's), the options they say
                    // have `t` first and those they say have not last.
                    let hinted = match (self.solver.hints.is_empty(), t) {
                        (false, Some(t)) => self.hinted(option, t),
                        _ => None,
                    };
                    let rank: u128 = match hinted {
                        Some(true) => 0,
                        None => 1,
                        Some(false) => 2,
                    };
                    // Rank (2 bits), unlikely (1), size (29), history (64),
                    // option (32).
                    let key = rank << 126
                        | u128::from(!likely) << 125
                        | u128::from(largest.min((1 << 29) - 1)) << 96
                        | u128::from(u64::MAX - found) << 32;
                    deferred.push(key | option as u128)
                }
            }
        }
        let candidates_len = candidates.len();
        self.candidates = candidates;
        let frame = &mut self.stack[depth];
        frame.cursor = 0;
        frame.k = 0;
        self.lists.order.truncate(frame.order);
        frame.order_len = 0;
        if complete {
            frame.unresolved = candidates_len - resolved;
            if t.is_some() {
                deferred.sort_unstable();
                self.lists
                    .order
                    .extend(deferred.iter().map(|&key| key as u32));
                frame.order_len = deferred.len();
            }
        }
        self.deferred = deferred;
        found
    }

    /// Goes on through the options of pass two.
    pub(super) fn scan(&mut self) -> Result<Step<G::Position>, Stop> {
        let depth = self.stack.len() - 1;
        {
            let frame = &self.stack[depth];
            if frame.cursor == YOUNG_BROTHERS_WAIT
                && frame.k == 0
                && frame.order_len > frame.cursor + 1
                && self.parallel_here()
            {
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
                            .get(
                                &self.lists.parts[start + i],
                                self.lists.hashes[start + i],
                                &self.pin,
                            )
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
                match self
                    .solver
                    .table
                    .get(c, hash, &self.pin)
                    .and_then(|k| k.nimber())
                {
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
    pub(super) fn found(&mut self, option: Option<usize>) -> Result<Step<G::Position>, Stop> {
        match self.on_found(option) {
            Next::Test => self.begin_test(),
            Next::Answer(reply) => Ok(Step::Answer(reply)),
        }
    }

    /// No option has nimber `t`.
    pub(super) fn not_found(&mut self) -> Result<Step<G::Position>, Stop> {
        match self.on_not_found() {
            Next::Test => self.begin_test(),
            Next::Answer(reply) => Ok(Step::Answer(reply)),
        }
    }

    /// What an option of nimber `t` teaches the top frame.
    fn on_found(&mut self, option: Option<usize>) -> Next {
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
            (_, Phase::Mex) => unreachable!("a frame in phase Mex looks for no value"),
            (Goal::Nimber, _) => {
                frame.knowledge.exclude(t);
                frame.t = frame.knowledge.low;
                Next::Test
            }
            (Goal::Equals(_), Phase::Target) => {
                frame.knowledge.exclude(t);
                Next::Answer(Reply::Equals(false))
            }
            (Goal::Equals(target), Phase::Below) => {
                frame.knowledge.raise(t + 1);
                if frame.knowledge.low >= target {
                    frame.knowledge = Knowledge::exact(target);
                    return Next::Answer(Reply::Equals(true));
                }
                frame.t = frame.knowledge.low;
                Next::Test
            }
            (Goal::Equals(target), Phase::BelowFirst) => {
                frame.knowledge.raise(t + 1);
                if frame.knowledge.low >= target {
                    frame.phase = Phase::Target;
                    frame.t = target;
                } else {
                    frame.t = frame.knowledge.low;
                }
                Next::Test
            }
        }
    }

    /// What no option of nimber `t` teaches the top frame.
    fn on_not_found(&mut self) -> Next {
        let frame = self.stack.last_mut().expect("a frame");
        frame.awaiting = Awaiting::Nothing;
        let t = frame.t;
        match (frame.goal, frame.phase) {
            (_, Phase::Mex) => unreachable!("a frame in phase Mex looks for no value"),
            (Goal::Nimber, _) => {
                frame.knowledge = Knowledge::exact(t);
                Next::Answer(Reply::Nimber(t))
            }
            (Goal::Equals(target), Phase::Target) => {
                // The nimber is at most the target: it is the target when
                // every value below is reached.
                if frame.knowledge.low >= target {
                    frame.knowledge = Knowledge::exact(target);
                    return Next::Answer(Reply::Equals(true));
                }
                frame.phase = Phase::Below;
                frame.t = frame.knowledge.low;
                Next::Test
            }
            (Goal::Equals(_), Phase::Below | Phase::BelowFirst) => {
                frame.knowledge = Knowledge::exact(t);
                Next::Answer(Reply::Equals(false))
            }
        }
    }

    /// Phase `Mex`: resolves the options that the table gives, and goes on
    /// to ask for the nimbers of the others.
    pub(super) fn begin_mex(&mut self) -> Result<Step<G::Position>, Stop> {
        self.pass_one(None);
        let frame = self.stack.last_mut().expect("a frame");
        frame.cursor = 0;
        frame.k = 0;
        self.mex_scan()
    }

    /// Phase `Mex`: the nimbers of the options still unresolved, each the
    /// XOR of its components' nimbers (asked for), then the mex.
    pub(super) fn mex_scan(&mut self) -> Result<Step<G::Position>, Stop> {
        let depth = self.stack.len() - 1;
        loop {
            let frame = &mut self.stack[depth];
            if frame.cursor == frame.count {
                break;
            }
            let option = frame.cursor;
            if frame.k == 0 {
                if self.lists.spans[frame.moves + option].resolved {
                    frame.cursor += 1;
                    continue;
                }
                self.expand(option);
            }
            let frame = &mut self.stack[depth];
            let span = self.lists.spans[frame.moves + option];
            let (start, len) = (span.start as usize, span.len as usize);
            if frame.k == 0 {
                frame.x = span.known;
            }
            while frame.k < len {
                let i = start + frame.k;
                let hash = self.lists.hashes[i];
                let c = &self.lists.parts[i];
                match self
                    .solver
                    .table
                    .get(c, hash, &self.pin)
                    .and_then(|k| k.nimber())
                {
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
            let x = frame.x;
            frame.cursor += 1;
            frame.k = 0;
            self.resolve(option, x);
        }
        self.make_seen();
        let frame = &mut self.stack[depth];
        frame.awaiting = Awaiting::Nothing;
        frame.unresolved = 0;
        let words = &self.lists.seen[frame.seen..];
        let mex =
            mex_of_bits(words).expect("a value up to the number of options is missing") as Nimber;
        frame.knowledge = Knowledge::exact(mex);
        Ok(Step::Answer(match frame.goal {
            Goal::Nimber => Reply::Nimber(mex),
            Goal::Equals(target) => Reply::Equals(mex == target),
        }))
    }
}
