//! The typing of components (see "Tame components" in the [module
//! documentation](super)): a component's kind from the kinds of the
//! components of its options, on a stack of its own (one frame per
//! component being typed), within a budget of expansions per component
//! asked about.

use super::tame::{OptionTypes, Tame};
use super::worker::Worker;
use super::{Kind, TYPE_BUDGET};
use crate::SearchError;
use crate::game::{Game, Nimber};
use crate::solver::Stop;
use sg_nimber::mex::mex_of_bits;

/// The current option's parts not listed yet.
const UNLISTED: usize = usize::MAX;

/// A component being typed.
pub(super) struct TypeFrame<P> {
    component: P,
    hash: u64,
    /// Its moves in the worker's `type_moves`, and the one whose option is
    /// being typed.
    moves: usize,
    count: usize,
    option: usize,
    /// Where its current option's parts start in `type_parts`, how many
    /// there are ([`UNLISTED`] until listed), and the one being typed.
    parts: usize,
    len: usize,
    k: usize,
    /// The type of the current option's parts typed so far.
    acc: Tame,
    /// A bit per nimber up to `count` among its options' (in
    /// `type_seen`), and what their types say.
    seen: usize,
    flags: OptionTypes,
    work_start: u64,
}

/// What the top frame does next.
enum Next<P> {
    /// Types this component first.
    Push(P, u64),
    /// The frame's kind is known.
    Done(Kind),
}

impl<G: Game> Worker<'_, '_, G> {
    /// Types the canonical component `component` (not in the table), and
    /// every component it needs; records what it learns in the table.
    /// Gives up (the kind [`Kind::Unknown`]) after [`TYPE_BUDGET`]
    /// expansions.
    pub(super) fn type_component(
        &mut self,
        component: &G::Position,
        hash: u64,
    ) -> Result<Kind, Stop> {
        let base = self.types.len();
        let end = self.expanded + TYPE_BUDGET;
        let mut reply = self.push_type(component.clone(), hash)?;
        if let Some(kind) = reply {
            return Ok(kind);
        }
        loop {
            let next = match reply.take() {
                Some(kind) => match self.apply(kind) {
                    Some(done) => Next::Done(done),
                    None => self.advance()?,
                },
                None => self.advance()?,
            };
            match next {
                Next::Push(c, h) => {
                    if self.expanded >= end {
                        return Ok(self.give_up(base));
                    }
                    reply = self.push_type(c, h)?;
                }
                Next::Done(kind) => {
                    self.finish_type(kind);
                    if self.types.len() == base {
                        return Ok(kind);
                    }
                    reply = Some(kind);
                }
            }
        }
    }

    /// Starts typing `component`: its kind at once if it has no move,
    /// else a frame.
    fn push_type(&mut self, component: G::Position, hash: u64) -> Result<Option<Kind>, Stop> {
        let moves = self.type_moves.len();
        self.game().moves(&component, &mut self.type_moves);
        let count = self.type_moves.len() - moves;
        if count == 0 {
            self.tables.put_kind(&component, hash, Kind::Terminal, 1);
            return Ok(Some(Kind::Terminal));
        }
        let on = self.type_on_stack.entry(hash).or_insert(0);
        *on += 1;
        if *on > 1 && self.types.iter().any(|f| f.component == component) {
            return Err(Self::cycle(&component));
        }
        self.count_expansion();
        let seen = self.type_seen.len();
        self.type_seen.resize(seen + count / 64 + 1, 0);
        self.types.push(TypeFrame {
            component,
            hash,
            moves,
            count,
            option: 0,
            parts: self.type_parts.len(),
            len: UNLISTED,
            k: 0,
            acc: Tame::ZERO,
            seen,
            flags: OptionTypes::default(),
            work_start: self.expanded - 1,
        });
        Ok(None)
    }

    /// Applies the kind of the top frame's current part; the frame's own
    /// kind if that settles it (a part that is not tame).
    fn apply(&mut self, kind: Kind) -> Option<Kind> {
        let frame = self.types.last_mut().expect("a frame");
        match kind {
            Kind::Terminal => {}
            Kind::Tame(t) => frame.acc = frame.acc.plus(t),
            // An option with a part of no type: the component has none.
            Kind::Wild | Kind::Unknown => return Some(kind),
        }
        frame.k += 1;
        None
    }

    /// Goes on with the top frame's options until a part is not in the
    /// table, or its kind is known.
    fn advance(&mut self) -> Result<Next<G::Position>, Stop> {
        loop {
            let frame = self.types.last().expect("a frame");
            if frame.option == frame.count {
                return self.decide().map(Next::Done);
            }
            if frame.len == UNLISTED {
                let next = self.game().play(
                    &frame.component,
                    &self.type_moves[frame.moves + frame.option],
                );
                let mut split = std::mem::take(&mut self.split);
                split.clear();
                self.game().split(&next, &mut split);
                for raw in &split {
                    let c = self.game().canonical(raw);
                    let h = self.solver.table.hash(&c);
                    self.type_parts.push((c, h));
                }
                self.split = split;
                let frame = self.types.last_mut().expect("a frame");
                frame.len = self.type_parts.len() - frame.parts;
                frame.k = 0;
                frame.acc = Tame::ZERO;
            }
            loop {
                let frame = self.types.last().expect("a frame");
                if frame.k >= frame.len {
                    break;
                }
                let (c, h) = &self.type_parts[frame.parts + frame.k];
                match self.tables.kind(c, *h) {
                    Some(kind) => {
                        if let Some(done) = self.apply(kind) {
                            return Ok(Next::Done(done));
                        }
                    }
                    None => return Ok(Next::Push(c.clone(), *h)),
                }
            }
            // Every part of the option is typed: note its type.
            let frame = self.types.last_mut().expect("a frame");
            let t = frame.acc;
            frame.flags.note(t);
            if (t.n as usize) <= frame.count {
                let i = t.n as usize;
                self.type_seen[frame.seen + i / 64] |= 1 << (i % 64);
            }
            frame.option += 1;
            frame.len = UNLISTED;
            self.type_parts.truncate(frame.parts);
        }
    }

    /// The kind of the top frame, every option typed.
    fn decide(&mut self) -> Result<Kind, Stop> {
        let frame = self.types.last().expect("a frame");
        let words = &self.type_seen[frame.seen..frame.seen + frame.count / 64 + 1];
        let mex = mex_of_bits(words).expect("a value up to the number of options is missing");
        let mex = Nimber::try_from(mex).map_err(|_| Stop::Error(SearchError::NimberOverflow))?;
        Ok(match frame.flags.decide(mex) {
            Some(t) => Kind::Tame(t),
            None => Kind::Wild,
        })
    }

    /// Pops the top frame, recording its kind.
    fn finish_type(&mut self, kind: Kind) {
        let frame = self.types.pop().expect("a frame to finish");
        self.tables.put_kind(
            &frame.component,
            frame.hash,
            kind,
            self.expanded - frame.work_start,
        );
        self.end_type_frame(&frame);
    }

    fn end_type_frame(&mut self, frame: &TypeFrame<G::Position>) {
        if let Some(on) = self.type_on_stack.get_mut(&frame.hash) {
            *on -= 1;
            if *on == 0 {
                self.type_on_stack.remove(&frame.hash);
            }
        }
        self.type_moves.truncate(frame.moves);
        self.type_parts.truncate(frame.parts);
        self.type_seen.truncate(frame.seen);
    }

    /// The budget is spent: the frames down to `base` are dropped, and
    /// those that had cost half the budget themselves are recorded as of
    /// unknown kind (not typed again: a component so large would spend the
    /// budget again; the others may be typed when met alone).
    fn give_up(&mut self, base: usize) -> Kind {
        while self.types.len() > base {
            let frame = self.types.pop().expect("a frame");
            let work = self.expanded - frame.work_start;
            if work >= TYPE_BUDGET / 2 {
                self.tables
                    .put_kind(&frame.component, frame.hash, Kind::Unknown, work);
            }
            self.end_type_frame(&frame);
        }
        Kind::Unknown
    }
}
