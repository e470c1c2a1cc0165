//! Sums the quotient does not cover, answered by a search of the sum
//! itself ([`MisereQuotient::search_sum`]).
//!
//! A quotient of heaps `0..=n` says nothing of a sum with a heap above `n`
//! (its element is unknown, and two sums the quotient identifies may be
//! told apart by such a heap). Such a sum is searched by the definition of
//! misère play: a position is lost by the player to move exactly when it
//! has a move and every move leaves a position the opponent wins (a
//! player who cannot move wins). A position is the sorted list of its
//! nonempty heaps. The quotient still answers every position the search
//! meets whose heaps it all covers, so that only positions with a heap
//! beyond it are expanded: a move in heap 14 of 0.35 leaves heaps the
//! quotient of heaps `0..=12` covers, and the sum `1 1 2 14` costs a few
//! dozen positions.
//!
//! The frames are on a stack on the heap (a sum of a million tokens needs
//! memory, not a deep call stack); the positions expanded are counted and
//! bounded, and the caller is asked every [`WATCH_EVERY`] positions
//! whether to go on (a signal, a deadline).

use std::collections::HashMap;
use std::ops::ControlFlow;

use super::{MisereError, MisereQuotient};
use crate::octal::{HeapMove, Moves};

/// The caller's `watch` is called once per this many positions expanded.
const WATCH_EVERY: usize = 1024;

/// A sum answered by [`MisereQuotient::search_sum`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchedSum {
    /// Whether the player to move loses.
    pub lost: bool,
    /// With `hint`, for a sum that is won: a move to a lost sum (`None`
    /// when the sum has no move at all, and its player, who cannot move,
    /// wins).
    pub winning_move: Option<HeapMove>,
    /// The positions expanded (those the quotient did not answer).
    pub positions: usize,
}

/// One position being expanded: its options, and the next to look at.
struct Frame {
    /// The position (sorted, nonempty heaps).
    position: Vec<u64>,
    /// Its options (each sorted, nonempty heaps).
    options: Vec<Vec<u64>>,
    /// The next option to look at.
    next: usize,
}

/// The search of one question: the positions answered so far.
struct SumSearch<'q> {
    quotient: &'q MisereQuotient,
    moves: Moves,
    /// Positions expanded, by whether they are lost.
    known: HashMap<Vec<u64>, bool>,
    /// The positions expanded so far.
    expanded: usize,
    /// The options held by the frames on the stack (bounded by
    /// `max_positions` too: a heap of a million tokens that splits has
    /// half a million options).
    held: usize,
    max_positions: usize,
}

impl SumSearch<'_> {
    /// Whether `position` is lost, when known without expanding it.
    fn known(&self, position: &[u64]) -> Option<bool> {
        match self.quotient.is_lost(position) {
            Ok(lost) => Some(lost),
            Err(_) => self.known.get(position).copied(),
        }
    }

    /// The options of `position`: one move in the first of equal heaps
    /// (the others give the same options), each option sorted; at most
    /// `room` of them, else `None`.
    fn options(&self, position: &[u64], room: usize) -> Option<Vec<Vec<u64>>> {
        let mut options = Vec::new();
        for (i, &h) in position.iter().enumerate() {
            if i > 0 && position[i - 1] == h {
                continue;
            }
            let flow = self.moves.for_each_option(h, u64::MAX, |_, parts| {
                if options.len() == room {
                    return ControlFlow::Break(());
                }
                options.push(after(position, i, parts));
                ControlFlow::Continue(())
            });
            if flow.is_break() {
                return None;
            }
        }
        Some(options)
    }

    /// Counts one more position expanded: an error past the bound, or
    /// when `watch` (asked before the first and every [`WATCH_EVERY`]
    /// positions) says to stop.
    fn count(&mut self, watch: &mut dyn FnMut() -> ControlFlow<()>) -> Result<(), MisereError> {
        if self.expanded >= self.max_positions {
            return Err(MisereError::SearchLimit {
                positions: self.max_positions,
            });
        }
        if self.expanded.is_multiple_of(WATCH_EVERY) && watch().is_break() {
            return Err(MisereError::SearchStopped);
        }
        self.expanded += 1;
        Ok(())
    }

    /// A new frame for `position`, or the error of the bound when its
    /// options do not fit.
    fn frame(&mut self, position: Vec<u64>) -> Result<Frame, MisereError> {
        let room = self.max_positions.saturating_sub(self.held);
        let options = self
            .options(&position, room)
            .ok_or(MisereError::SearchLimit {
                positions: self.max_positions,
            })?;
        self.held += options.len();
        Ok(Frame {
            options,
            position,
            next: 0,
        })
    }

    /// Whether `root` is lost, expanding the positions the quotient and
    /// the earlier expansions do not answer.
    fn lost(
        &mut self,
        root: &[u64],
        watch: &mut dyn FnMut() -> ControlFlow<()>,
    ) -> Result<bool, MisereError> {
        if let Some(lost) = self.known(root) {
            return Ok(lost);
        }
        self.count(watch)?;
        self.held = 0;
        let mut stack = vec![self.frame(root.to_vec())?];
        // The value of the frame just finished, for its parent.
        let mut finished: Option<bool> = None;
        loop {
            let top = stack.last_mut().expect("the root is on the stack");
            let mut done = match finished.take() {
                // A lost option: the frame is won.
                Some(true) => Some(false),
                _ => None,
            };
            while done.is_none() {
                let Some(option) = top.options.get(top.next) else {
                    // Every option won (or none at all: the player who
                    // cannot move wins).
                    done = Some(!top.options.is_empty());
                    break;
                };
                top.next += 1;
                match self
                    .known
                    .get(option)
                    .copied()
                    .or_else(|| self.quotient.is_lost(option).ok())
                {
                    Some(true) => done = Some(false),
                    Some(false) => {}
                    None => break,
                }
            }
            match done {
                Some(lost) => {
                    let frame = stack.pop().expect("the frame on top");
                    self.held -= frame.options.len();
                    self.known.insert(frame.position, lost);
                    if stack.is_empty() {
                        return Ok(lost);
                    }
                    finished = Some(lost);
                }
                None => {
                    self.count(watch)?;
                    let option = top.options[top.next - 1].clone();
                    let frame = self.frame(option)?;
                    stack.push(frame);
                }
            }
        }
    }
}

impl SumSearch<'_> {
    /// In the order given, the first move of `heaps` to a lost sum;
    /// `None` when the sum has no move at all.
    fn first_lost_option(
        &mut self,
        heaps: &[u64],
        watch: &mut dyn FnMut() -> ControlFlow<()>,
    ) -> Result<Option<HeapMove>, MisereError> {
        let moves = self.moves.clone();
        let mut looked = 0usize;
        let mut any = false;
        for (i, &h) in heaps.iter().enumerate() {
            let mut outcome = Ok(None);
            let _ = moves.for_each_option(h, u64::MAX, |take, parts| {
                any = true;
                looked += 1;
                if looked > self.max_positions {
                    outcome = Err(MisereError::SearchLimit {
                        positions: self.max_positions,
                    });
                    return ControlFlow::Break(());
                }
                match self.lost(&after(heaps, i, parts), watch) {
                    Ok(false) => ControlFlow::Continue(()),
                    Ok(true) => {
                        outcome = Ok(Some(HeapMove {
                            heap: i,
                            take,
                            leaves: parts.to_vec(),
                        }));
                        ControlFlow::Break(())
                    }
                    Err(e) => {
                        outcome = Err(e);
                        ControlFlow::Break(())
                    }
                }
            });
            if let Some(found) = outcome? {
                return Ok(Some(found));
            }
        }
        // A won sum with a move has a lost option.
        if any {
            return Err(MisereError::NoWinningMove);
        }
        Ok(None)
    }
}

/// `position` with its heap `i` replaced by `parts`, sorted.
fn after(position: &[u64], i: usize, parts: &[u64]) -> Vec<u64> {
    let mut next: Vec<u64> = position[..i]
        .iter()
        .chain(&position[i + 1..])
        .chain(parts)
        .copied()
        .filter(|&h| h > 0)
        .collect();
    next.sort_unstable();
    next
}

impl MisereQuotient {
    /// Whether the sum of `heaps` is lost in misère play, and with `hint`
    /// a winning move, by a search of the sum itself where the quotient
    /// does not cover every heap (the quotient answers every position
    /// met whose heaps it covers; see the module doc). Expands at most
    /// `max_positions` positions; `watch` is asked now and then whether to
    /// go on.
    ///
    /// # Errors
    ///
    /// [`MisereError::SearchLimit`] after `max_positions` positions,
    /// [`MisereError::SearchStopped`] when `watch` breaks.
    pub fn search_sum(
        &self,
        heaps: &[u64],
        hint: bool,
        max_positions: usize,
        watch: &mut dyn FnMut() -> ControlFlow<()>,
    ) -> Result<SearchedSum, MisereError> {
        let mut search = SumSearch {
            quotient: self,
            moves: Moves::new(self.rules()),
            known: HashMap::new(),
            expanded: 0,
            held: 0,
            max_positions,
        };
        let mut root: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        root.sort_unstable();
        let lost = search.lost(&root, watch)?;
        let mut winning_move = None;
        if hint && !lost {
            winning_move = match self.winning_move(heaps) {
                // Every heap covered: the quotient's move.
                Ok(found) => found,
                Err(_) => search.first_lost_option(heaps, watch)?,
            };
        }
        Ok(SearchedSum {
            lost,
            winning_move,
            positions: search.expanded,
        })
    }
}
