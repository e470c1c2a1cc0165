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
use crate::{HeapMove, Moves};

/// The caller's `watch` is called once per this many positions expanded.
const WATCH_EVERY: usize = 1024;

/// The bytes a position held costs besides its heaps' 8 bytes each (its
/// vector, its entry in the table of positions, the allocator's due),
/// for the memory bound.
const ENTRY_BYTES: usize = 64;

/// What a position of `heaps` heaps held costs, for the memory bound.
fn cost(heaps: usize) -> usize {
    ENTRY_BYTES + 8 * heaps
}

/// The bounds of a search of a sum ([`MisereQuotient::search_sum`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SumSearchLimits {
    /// The most positions expanded.
    pub positions: usize,
    /// The most bytes of positions held (those answered and the options
    /// of those being expanded), each counted as 64 bytes and 8 a heap
    /// (the allocator's own due comes on top: about 200 bytes a position
    /// of a few heaps were measured, 80 KB for one of 10,000).
    pub bytes: usize,
}

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
    /// The options held by the frames on the stack (bounded by the
    /// positions' bound too: a heap of a million tokens that splits has
    /// half a million options).
    held: usize,
    /// The bytes of the positions held, as [`cost`] counts them.
    bytes: usize,
    limits: SumSearchLimits,
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
    /// `room` of them costing at most `bytes`, else the error of the bound
    /// they break.
    fn options(
        &self,
        position: &[u64],
        room: usize,
        bytes: usize,
    ) -> Result<Vec<Vec<u64>>, MisereError> {
        let mut options = Vec::new();
        let mut spent = 0usize;
        let mut broken = None;
        for (i, &h) in position.iter().enumerate() {
            if i > 0 && position[i - 1] == h {
                continue;
            }
            let _ = self.moves.for_each_option(h, u64::MAX, |_, parts| {
                // An option has at most two heaps more than its position.
                spent = spent.saturating_add(cost(position.len() + 2));
                if options.len() == room {
                    broken = Some(self.past_positions());
                } else if spent > bytes {
                    broken = Some(self.past_bytes());
                } else {
                    options.push(after(position, i, parts));
                    return ControlFlow::Continue(());
                }
                ControlFlow::Break(())
            });
            if let Some(e) = broken {
                return Err(e);
            }
        }
        Ok(options)
    }

    /// Counts one more position expanded: an error past the bound, or
    /// when `watch` (asked before the first and every [`WATCH_EVERY`]
    /// positions) says to stop.
    fn count(
        &mut self,
        watch: &mut dyn FnMut(usize) -> ControlFlow<()>,
    ) -> Result<(), MisereError> {
        if self.expanded >= self.limits.positions {
            return Err(self.past_positions());
        }
        if self.expanded.is_multiple_of(WATCH_EVERY) && watch(self.expanded).is_break() {
            return Err(MisereError::SearchStopped);
        }
        self.expanded += 1;
        Ok(())
    }

    /// The error of the bound on positions.
    fn past_positions(&self) -> MisereError {
        MisereError::SearchLimit {
            positions: self.limits.positions,
        }
    }

    /// The error of the bound on memory.
    fn past_bytes(&self) -> MisereError {
        MisereError::SearchMemory {
            bytes: self.limits.bytes,
        }
    }

    /// A new frame for `position`, or the error of a bound when its
    /// options do not fit.
    fn frame(&mut self, position: Vec<u64>) -> Result<Frame, MisereError> {
        let room = self.limits.positions.saturating_sub(self.held);
        let bytes = self.limits.bytes.saturating_sub(self.bytes);
        let options = self.options(&position, room, bytes)?;
        self.held += options.len();
        self.bytes += options.iter().map(|o| cost(o.len())).sum::<usize>();
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
        watch: &mut dyn FnMut(usize) -> ControlFlow<()>,
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
                match self.known(option) {
                    Some(true) => done = Some(false),
                    Some(false) => {}
                    None => break,
                }
            }
            match done {
                Some(lost) => {
                    let frame = stack.pop().expect("the frame on top");
                    self.held -= frame.options.len();
                    self.bytes -= frame.options.iter().map(|o| cost(o.len())).sum::<usize>();
                    self.bytes += cost(frame.position.len());
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
        watch: &mut dyn FnMut(usize) -> ControlFlow<()>,
    ) -> Result<Option<HeapMove>, MisereError> {
        let moves = self.moves.clone();
        let mut looked = 0usize;
        let mut any = false;
        for (i, &h) in heaps.iter().enumerate() {
            let mut outcome = Ok(None);
            let _ = moves.for_each_option(h, u64::MAX, |take, parts| {
                any = true;
                looked += 1;
                if looked > self.limits.positions {
                    outcome = Err(self.past_positions());
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
    /// met whose heaps it covers; see the module doc), within `limits`;
    /// `watch` is asked now and then, with the positions expanded so far,
    /// whether to go on.
    ///
    /// # Errors
    ///
    /// [`MisereError::SearchLimit`] past the bound on positions,
    /// [`MisereError::SearchMemory`] past the bound on bytes,
    /// [`MisereError::SearchStopped`] when `watch` breaks.
    pub fn search_sum(
        &self,
        heaps: &[u64],
        hint: bool,
        limits: SumSearchLimits,
        watch: &mut dyn FnMut(usize) -> ControlFlow<()>,
    ) -> Result<SearchedSum, MisereError> {
        let mut search = SumSearch {
            quotient: self,
            moves: Moves::new(self.rules()),
            known: HashMap::new(),
            expanded: 0,
            held: 0,
            bytes: 0,
            limits,
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
