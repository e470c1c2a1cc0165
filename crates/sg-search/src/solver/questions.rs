//! What a frame does with the answers to its questions: the two passes
//! over its options for the value sought (the table first, then the
//! search), and the steps of the method of Lemoine and Viennot that follow
//! an option found or none (see the [module documentation](super)).

use super::Stop;
use super::parallel::YOUNG_BROTHERS_WAIT;
use super::worker::{AHEAD, Awaiting, Goal, Phase, Reply, Step, Worker};
use crate::SearchError;
use crate::game::{Game, Nimber};
use crate::table::Knowledge;

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
    pub(super) fn judge(&self, option: usize, t: Nimber) -> Result<bool, u64> {
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
    pub(super) fn begin_test(&mut self) -> Result<Step<G::Position>, Stop> {
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
    pub(super) fn found(&mut self, option: Option<usize>) -> Result<Step<G::Position>, Stop> {
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
    pub(super) fn not_found(&mut self) -> Result<Step<G::Position>, Stop> {
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
