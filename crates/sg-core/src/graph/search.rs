//! The iterative depth-first search shared by the plain engine
//! ([`super::Grundy`]) and the search for the part of a graph that cannot
//! reach a cycle (`crate::peel`). An explicit stack, never recursion, so
//! paths of millions of nodes are fine. What a node's state means is the
//! visitor's business; the search only walks.

use super::Graph;
use crate::mex::Mex;

/// A node being searched.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Frame {
    pub(crate) node: u32,
    /// Index into the CSR targets of the next successor to look at.
    pub(crate) cursor: u32,
    /// The successors' values below 64 seen so far, one bit each. Each
    /// successor's value is read once, as the cursor passes it, so a node
    /// with fewer than 64 moves needs no second pass for its mex.
    pub(crate) seen: u64,
}

/// What the search does with the successor under the cursor.
pub(crate) enum Look {
    /// Search it (the visitor has marked it as on the stack); the cursor
    /// stays on it, so it is looked at again when it is finished.
    Descend,
    /// It has this value: record it and go on.
    Value(u32),
    /// Stop looking at this node's successors and finish it now.
    FinishNow,
    /// Stop the whole search, leaving the stack as it is.
    Stop,
}

/// The search's questions to its user.
pub(crate) trait Visitor {
    /// What to do with successor `w` of the node on top of the stack.
    fn look(&mut self, w: u32) -> Look;
    /// `frame`'s node is finished: all its successors were looked at (their
    /// values are recorded in `frame.seen`), or the visitor said
    /// [`Look::FinishNow`] (then `early`).
    fn finish(&mut self, frame: &Frame, early: bool);
}

/// Searches from `root`, which the caller has marked as on the stack.
/// Returns the successor at which the visitor said [`Look::Stop`] (the
/// stack then holds the path to it, `root` first), or `None` once `root` is
/// finished (the stack is then empty).
#[inline]
pub(crate) fn search(
    graph: &Graph,
    stack: &mut Vec<Frame>,
    root: u32,
    visitor: &mut impl Visitor,
) -> Option<u32> {
    let (offsets, targets) = (graph.offsets(), graph.targets());
    stack.push(Frame {
        node: root,
        cursor: offsets[root as usize],
        seen: 0,
    });
    'frames: while let Some(top) = stack.last_mut() {
        let end = offsets[top.node as usize + 1];
        let mut early = false;
        while top.cursor < end {
            let w = targets[top.cursor as usize];
            match visitor.look(w) {
                Look::Descend => {
                    stack.push(Frame {
                        node: w,
                        cursor: offsets[w as usize],
                        seen: 0,
                    });
                    continue 'frames;
                }
                Look::Value(g) => {
                    if g < 64 {
                        top.seen |= 1 << g;
                    }
                    top.cursor += 1;
                }
                Look::FinishNow => {
                    early = true;
                    break;
                }
                Look::Stop => return Some(w),
            }
        }
        visitor.finish(top, early);
        stack.pop();
    }
    None
}

/// The value of a frame whose successors were all looked at: from the bits
/// it recorded when it has fewer than 64 successors, else the mex of
/// `value_of` over them.
#[inline]
pub(crate) fn frame_value(
    graph: &Graph,
    frame: &Frame,
    mex: &mut Mex,
    value_of: impl Fn(u32) -> u32,
) -> u32 {
    let succ = graph.successors(frame.node);
    if succ.len() < 64 {
        (!frame.seen).trailing_zeros()
    } else {
        mex.mex(succ.len(), succ.iter().map(|&w| value_of(w)))
    }
}
