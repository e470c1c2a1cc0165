//! The search of whole positions (see the [module documentation](super)):
//! a position is a misère loss for the player to move when it has a move
//! and every option is a win; on a stack of frames of its own, one per
//! position being searched.

use super::tame::Tame;
use super::worker::{Worker, key_hash, sum_type};
use crate::game::Game;
use crate::solver::Stop;

/// An option of a frame's position.
pub(super) struct Child {
    /// Its components in the worker's `parts`, sorted by hash.
    start: u32,
    len: u32,
    hash: u64,
    /// The sum of its components' sizes.
    size: u64,
    /// Its move, in the worker's `moves`.
    mv: u32,
    /// Its type, when every component is tame.
    tame: Option<Tame>,
}

/// A position being searched.
pub(super) struct SumFrame {
    /// Its components in the worker's `parts`.
    key: usize,
    key_len: usize,
    hash: u64,
    /// Its options in the worker's `children`, and where its components
    /// and moves start in the worker's lists.
    children: usize,
    count: usize,
    parts_mark: usize,
    moves: usize,
    /// The options left to search after pass one, in `order`, and the
    /// next one.
    order: usize,
    order_len: usize,
    cursor: usize,
    work_start: u64,
}

/// What the top frame does next.
enum Step {
    /// Asks whether its option (an index in `children`) is a loss.
    Ask(usize),
    /// Whether its position is a loss.
    Answer(bool),
}

impl<G: Game> Worker<'_, '_, G> {
    /// Whether the position of `position` is a misère loss for the player
    /// to move.
    pub(super) fn position_loses(&mut self, position: &G::Position) -> Result<bool, Stop> {
        let (key, len, hash) = self.push_key(position)?;
        let lose = self.loses(key, len, hash);
        self.parts.truncate(key);
        lose
    }

    /// Whether `position` is a misère loss, when that is known without a
    /// search: it has no move, its components are all tame, or the table
    /// holds it.
    pub(super) fn position_known(&mut self, position: &G::Position) -> Result<Option<bool>, Stop> {
        let (key, len, hash) = self.push_key(position)?;
        let parts = &self.parts[key..key + len];
        let known = if len == 0 {
            Some(false)
        } else if let Some(t) = sum_type(parts.iter()) {
            Some(t.loses())
        } else {
            self.tables.sums.get(parts, hash, |p| &p.component)
        };
        self.parts.truncate(key);
        Ok(known)
    }

    /// Appends the key of `position` to `parts` (its components with a
    /// move, canonical and typed, sorted by hash): where it starts, its
    /// length and its hash.
    fn push_key(&mut self, position: &G::Position) -> Result<(usize, usize, u64), Stop> {
        let key = self.parts.len();
        let mut fresh = std::mem::take(&mut self.fresh);
        fresh.clear();
        let result = self.parts_of(position, &mut fresh);
        fresh.sort_unstable_by_key(|p| p.hash);
        self.parts.append(&mut fresh);
        self.fresh = fresh;
        if let Err(stop) = result {
            self.parts.truncate(key);
            return Err(stop);
        }
        let len = self.parts.len() - key;
        let hash = key_hash(self.parts[key..].iter().map(|p| p.hash));
        Ok((key, len, hash))
    }

    /// Whether the position of the components `parts[key..key + len]`
    /// (sorted by hash; `hash` its key's hash) is a misère loss.
    pub(super) fn loses(&mut self, key: usize, len: usize, hash: u64) -> Result<bool, Stop> {
        let base = self.stack.len();
        let mut reply = self.ask(key, len, hash)?;
        if let Some(lose) = reply {
            return Ok(lose);
        }
        loop {
            match self.step(reply.take())? {
                Step::Ask(child) => {
                    let c = &self.children[child];
                    let (start, len, hash) = (c.start as usize, c.len as usize, c.hash);
                    reply = self.ask(start, len, hash)?;
                }
                Step::Answer(lose) => {
                    self.finish(lose);
                    if self.stack.len() == base {
                        return Ok(lose);
                    }
                    reply = Some(lose);
                }
            }
        }
    }

    /// The answer at once when the position has no move, is all tame or
    /// is in the table; otherwise a frame for it.
    fn ask(&mut self, key: usize, len: usize, hash: u64) -> Result<Option<bool>, Stop> {
        if len == 0 {
            // No move: the player to move wins.
            return Ok(Some(false));
        }
        let parts = &self.parts[key..key + len];
        if let Some(t) = sum_type(parts.iter()) {
            return Ok(Some(t.loses()));
        }
        if let Some(lose) = self.tables.sums.get(parts, hash, |p| &p.component) {
            return Ok(Some(lose));
        }
        let on = self.on_stack.entry(hash).or_insert(0);
        *on += 1;
        if *on > 1
            && self
                .stack
                .iter()
                .any(|f| self.same(f.key, f.key_len, key, len))
        {
            return Err(Self::cycle(&self.parts[key].component));
        }
        self.count_expansion();
        let frame = SumFrame {
            key,
            key_len: len,
            hash,
            children: self.children.len(),
            count: 0,
            parts_mark: self.parts.len(),
            moves: self.moves.len(),
            order: self.order.len(),
            order_len: 0,
            cursor: 0,
            work_start: self.expanded - 1,
        };
        self.stack.push(frame);
        if self.killers.len() < self.stack.len() {
            self.killers.push(None);
        }
        self.expand()?;
        Ok(None)
    }

    /// Whether two positions in `parts` are the same.
    fn same(&self, a: usize, a_len: usize, b: usize, b_len: usize) -> bool {
        a_len == b_len
            && self.parts[a..a + a_len]
                .iter()
                .zip(&self.parts[b..b + b_len])
                .all(|(x, y)| x.component == y.component)
    }

    /// Lists the options of the top frame's position: a move in one of
    /// its components (the first of equal ones), which leaves the others
    /// and the components of what that one becomes.
    fn expand(&mut self) -> Result<(), Stop> {
        let frame = self.stack.last().expect("a frame");
        let (key, len) = (frame.key, frame.key_len);
        let game = self.game();
        let mut fresh = std::mem::take(&mut self.fresh);
        let result = (|| {
            for i in 0..len {
                if i > 0 && self.parts[key + i].component == self.parts[key + i - 1].component {
                    continue;
                }
                let first = self.moves.len();
                game.moves(&self.parts[key + i].component, &mut self.moves);
                for m in first..self.moves.len() {
                    let next = game.play(&self.parts[key + i].component, &self.moves[m]);
                    fresh.clear();
                    self.parts_of(&next, &mut fresh)?;
                    let start = self.parts.len();
                    for j in (0..len).filter(|&j| j != i) {
                        let part = self.parts[key + j].clone();
                        self.parts.push(part);
                    }
                    self.parts.append(&mut fresh);
                    self.parts[start..].sort_unstable_by_key(|p| p.hash);
                    let parts = &self.parts[start..];
                    self.children.push(Child {
                        start: start as u32,
                        len: parts.len() as u32,
                        hash: key_hash(parts.iter().map(|p| p.hash)),
                        size: parts.iter().map(|p| p.size).sum(),
                        mv: m as u32,
                        tame: sum_type(parts.iter()),
                    });
                }
            }
            Ok(())
        })();
        self.fresh = fresh;
        let frame = self.stack.last_mut().expect("a frame");
        frame.count = self.children.len() - frame.children;
        result
    }

    /// Advances the top frame with the answer about its last option asked.
    fn step(&mut self, reply: Option<bool>) -> Result<Step, Stop> {
        match reply {
            None => self.pass_one(),
            Some(true) => {
                let frame = self.stack.last().expect("a frame");
                let child = self.order[frame.order + frame.cursor] as usize;
                self.won(child);
                Ok(Step::Answer(false))
            }
            Some(false) => {
                self.stack.last_mut().expect("a frame").cursor += 1;
                Ok(self.next_option())
            }
        }
    }

    /// Pass one: an option known to be a loss (all tame, or in the
    /// table) wins at once; the others the table does not settle are
    /// listed for the search, in order.
    fn pass_one(&mut self) -> Result<Step, Stop> {
        let depth = self.stack.len() - 1;
        let frame = &self.stack[depth];
        let killer = self.killers[depth].as_ref();
        let mut keys: Vec<u128> = Vec::new();
        for c in frame.children..frame.children + frame.count {
            let child = &self.children[c];
            let lose = match child.tame {
                _ if child.len == 0 => Some(false),
                Some(t) => Some(t.loses()),
                None => self.tables.sums.get(
                    &self.parts[child.start as usize..(child.start + child.len) as usize],
                    child.hash,
                    |p| &p.component,
                ),
            };
            match lose {
                Some(true) => {
                    self.won(c);
                    return Ok(Step::Answer(false));
                }
                Some(false) => {}
                None => {
                    let mv = &self.moves[child.mv as usize];
                    let (size, found) = if Some(mv) == killer {
                        (0, u64::MAX)
                    } else {
                        (
                            child.size.min(u64::from(u32::MAX)),
                            self.history.get(mv).copied().unwrap_or(0),
                        )
                    };
                    keys.push(
                        u128::from(size) << 96
                            | u128::from(u64::MAX - found) << 32
                            | (c - frame.children) as u128,
                    );
                }
            }
        }
        keys.sort_unstable();
        let frame = &mut self.stack[depth];
        let first = frame.children;
        self.order.truncate(frame.order);
        self.order
            .extend(keys.iter().map(|&k| (first + (k as u32 as usize)) as u32));
        frame.order_len = keys.len();
        frame.cursor = 0;
        Ok(self.next_option())
    }

    /// The next option to search, or the answer: a loss when none is
    /// left (none of its options is a loss).
    fn next_option(&mut self) -> Step {
        let frame = self.stack.last().expect("a frame");
        if frame.cursor == frame.order_len {
            return Step::Answer(true);
        }
        Step::Ask(self.order[frame.order + frame.cursor] as usize)
    }

    /// The top frame's option `child` is a loss: its move is noted as a
    /// good one.
    fn won(&mut self, child: usize) {
        let depth = self.stack.len() - 1;
        let mv = self.moves[self.children[child].mv as usize].clone();
        let frame = &self.stack[depth];
        let size: u64 = self.parts[frame.key..frame.key + frame.key_len]
            .iter()
            .map(|p| p.size)
            .sum();
        *self.history.entry(mv.clone()).or_insert(0) += size.saturating_mul(size).max(1);
        self.killers[depth] = Some(mv);
    }

    /// Pops the top frame, recording its answer in the table.
    fn finish(&mut self, lose: bool) {
        let frame = self.stack.pop().expect("a frame to finish");
        if let Some(on) = self.on_stack.get_mut(&frame.hash) {
            *on -= 1;
            if *on == 0 {
                self.on_stack.remove(&frame.hash);
            }
        }
        self.tables.sums.put(
            &self.parts[frame.key..frame.key + frame.key_len],
            frame.hash,
            lose,
            self.expanded - frame.work_start,
            |p| &p.component,
        );
        self.parts.truncate(frame.parts_mark);
        self.children.truncate(frame.children);
        self.moves.truncate(frame.moves);
        self.order.truncate(frame.order);
    }
}
