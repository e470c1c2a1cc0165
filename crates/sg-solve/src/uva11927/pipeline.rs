//! UVA 11927 on two threads: a reader tokenizes the input case after case
//! while the calling thread builds each case's graph, computes its values
//! and writes its answer, so that the whole takes about the longer of the
//! two instead of their sum.
//!
//! The reader hands over, per case, its edges and then the parities of its
//! stone counts, in batches of messages covering up to 128 KiB of input (a
//! case larger than that has its edges handed over at once, so that its
//! values are computed while its stone counts are read), through a channel
//! that holds one batch: at most about three batches of cases are in memory
//! at once (one being read, one waiting, one being solved). Errors keep
//! their order: the reader stops at the first input error and passes it
//! on; the solving thread reports a cycle before a bad stone count of the
//! same case (as the one-thread path does, which computes the values before
//! reading the counts), and every answer before the error is written.

use super::{PendingCase, read_graph, write_answer};
use crate::error::InputError;
use crate::scan::Scanner;
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, sync_channel};
use std::time::{Duration, Instant};

/// At most about how much input the messages of one batch cover (see
/// [`Batch`]); smaller inputs get at least [`MIN_BATCHES`] batches.
const BATCH_BYTES: usize = 128 * 1024;

/// How many batches an input of less than `MIN_BATCHES * BATCH_BYTES` is
/// cut into, at least: the solving thread starts on the first one.
const MIN_BATCHES: usize = 16;

/// How long the solving thread polls for the next batch before it sleeps.
const POLL_LIMIT: Duration = Duration::from_micros(500);

/// What the reader hands over, in input order.
enum Message {
    /// The next case, edges read.
    Graph(PendingCase),
    /// Its stone counts' parities, bit `i % 64` of word `i / 64` for node
    /// `i`; or the error that stopped the reading of them.
    Stones(Result<Vec<u64>, InputError>),
    /// No more cases: the input ended (`Ok`) or a header or an edge was bad.
    End(Result<(), InputError>),
}

/// Solves on two threads; `None` (and nothing written) if the reader thread
/// cannot be started.
pub(super) fn solve(input: &[u8], out: &mut Vec<u8>, json: bool) -> Option<Result<(), InputError>> {
    let (sender, receiver) = sync_channel(1);
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("uva11927-reader".into())
            .spawn_scoped(scope, move || read_cases(input, &sender))
            .ok()?;
        Some(solve_cases(input, receiver, out, json))
    })
}

/// The reader: every case in turn until the end or the first error, the
/// messages handed over in batches (see [`Batch`]). Stops early when the
/// solving thread has stopped (at a cycle).
fn read_cases(input: &[u8], sender: &SyncSender<Vec<Message>>) {
    let mut sc = Scanner::new(input);
    let mut batch = Batch {
        messages: Vec::new(),
        bytes: (input.len() / MIN_BATCHES).clamp(1, BATCH_BYTES),
        sent_at: 0,
    };
    let end = loop {
        match read_graph(&mut sc, input) {
            Ok(Some(case)) => {
                let node_count = case.node_count;
                // A large case's edges go at once: its values are then
                // computed while its stone counts are read.
                if !batch.push(Message::Graph(case), sc.last_offset(), sender) {
                    return;
                }
                let stones = read_stone_parities(&mut sc, node_count);
                if stones.is_err() {
                    batch.push(Message::Stones(stones), usize::MAX, sender);
                    return;
                }
                if !batch.push(Message::Stones(stones), sc.last_offset(), sender) {
                    return;
                }
            }
            Ok(None) => break Ok(()),
            Err(e) => break Err(e),
        }
    };
    // The solving thread may have stopped already; nothing to tell it then.
    batch.push(Message::End(end), usize::MAX, sender);
}

/// Messages waiting to be handed over: one hand-over per batch instead of
/// two per case (on `uva11927-large`, a message at a time took 31 ms,
/// 128 KiB batches 21 ms; see README, Performance).
struct Batch {
    messages: Vec<Message>,
    /// How much input a batch covers, at least (the last one less).
    bytes: usize,
    /// Where the input was when the last batch was sent.
    sent_at: usize,
}

impl Batch {
    /// Adds `message`, read up to byte `offset` of the input; sends the
    /// batch once it covers `self.bytes`. False when the solving thread has
    /// stopped.
    fn push(&mut self, message: Message, offset: usize, sender: &SyncSender<Vec<Message>>) -> bool {
        self.messages.push(message);
        if offset.saturating_sub(self.sent_at) < self.bytes {
            return true;
        }
        self.sent_at = offset;
        sender.send(std::mem::take(&mut self.messages)).is_ok()
    }
}

/// Reads `node_count` stone counts, keeping their parities. Memory grows
/// with the counts actually read, not with the declared `node_count`.
fn read_stone_parities(sc: &mut Scanner<'_>, node_count: usize) -> Result<Vec<u64>, InputError> {
    let mut words = Vec::new();
    let mut word = 0u64;
    for node in 0..node_count {
        word |= (sc.next("a stone count")? & 1) << (node % 64);
        if node % 64 == 63 {
            words.push(word);
            word = 0;
        }
    }
    if node_count % 64 != 0 {
        words.push(word);
    }
    Ok(words)
}

/// The solving side: the reader's messages in order, an answer per case.
fn solve_cases(
    input: &[u8],
    receiver: Receiver<Vec<Message>>,
    out: &mut Vec<u8>,
    json: bool,
) -> Result<(), InputError> {
    // Only locates errors (a cycle at its case's start).
    let locator = Scanner::new(input);
    let mut case = 0;
    let mut values = Vec::new();
    // The loop ends without `End` only if the reader panicked, which the
    // scope then passes on.
    while let Some(batch) = next_batch(&receiver) {
        for message in batch {
            match message {
                Message::Graph(pending) => values = pending.values(&locator)?,
                Message::Stones(parities) => {
                    let sum = xor_of_odd(&values, &parities?);
                    case += 1;
                    write_answer(out, case, sum, json);
                }
                Message::End(end) => return end,
            }
        }
    }
    Ok(())
}

/// The next batch, or `None` once the reader has gone. Polls, yielding the
/// processor between tries, for up to [`POLL_LIMIT`] before it sleeps:
/// waking a sleeping thread costs the reader a system call and, on a
/// virtual machine, an interrupt to the other processor (about 18 us a
/// batch measured here, 8% of the reader's time with 128 KiB batches).
/// Yielding rather than spinning leaves the processor to the reader when
/// both threads are on the same one (a new thread starts on its parent's):
/// spinning made a one-case input 0.6 ms slower, yielding 0.04 ms.
fn next_batch(receiver: &Receiver<Vec<Message>>) -> Option<Vec<Message>> {
    let started = Instant::now();
    loop {
        for _ in 0..16 {
            match receiver.try_recv() {
                Ok(batch) => return Some(batch),
                Err(TryRecvError::Disconnected) => return None,
                Err(TryRecvError::Empty) => std::thread::yield_now(),
            }
        }
        if started.elapsed() >= POLL_LIMIT {
            return receiver.recv().ok();
        }
    }
}

/// The XOR of the values of the nodes with an odd stone count.
fn xor_of_odd(values: &[u32], parities: &[u64]) -> u32 {
    let mut sum = 0;
    for (chunk, &word) in values.chunks(64).zip(parities) {
        for (bit, &value) in chunk.iter().enumerate() {
            // All ones when the bit is set: no branch on random parities.
            sum ^= value & 0u32.wrapping_sub((word >> bit) as u32 & 1);
        }
    }
    sum
}
