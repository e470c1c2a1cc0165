//! UVA 11927 on two threads: a reader tokenizes the input case after case
//! while the calling thread builds each case's graph, computes its values
//! and writes its answer, so that the whole takes about the longer of the
//! two instead of their sum.
//!
//! The reader hands over its work in batches covering up to 64 KiB of
//! input (or holding that much), through a channel that holds one batch:
//! at most about three batches of cases are in memory at once (one being
//! read, one waiting, one being solved). Cases of up to [`PACKED_MAX_EDGES`] edges are packed
//! into a few buffers per batch ([`PackedCases`]: no allocation per case on
//! the reader's side, none freed on the other thread), and their graphs
//! built by the solving thread. A larger case's edges are counted by the
//! reader and handed over at once, so that its values are computed while
//! its stone counts are read. Errors keep their order: the reader stops at
//! the first input error and passes it on; the solving thread reports a
//! cycle before a bad stone count of the same case (as the one-thread path
//! does, which computes the values before reading the counts), and every
//! answer before the error is written.
//!
//! Tried and dropped: a message per case (each hand-over woke the other
//! thread: slower than one thread); a channel of two batches (no better);
//! spinning instead of yielding while waiting (slower on small inputs: the
//! new thread starts on its parent's CPU); the reader solving the larger
//! cases itself when the channel is full, and packing judge-size cases
//! (both slower than handing them over); values from the sinks up (Kahn's
//! order) instead of the depth-first search (slower).

use super::{Edges, Header, read_edge_list, read_edges, read_header, write_answer};
use crate::error::InputError;
use crate::scan::Scanner;
use sg_core::EdgeCounter;
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError, TrySendError, sync_channel};
use std::time::{Duration, Instant};

/// At most about how much input the messages of one batch cover (see
/// [`Batch`]); smaller inputs get at least [`MIN_BATCHES`] batches.
const BATCH_BYTES: usize = 64 * 1024;

/// How many batches an input of less than `MIN_BATCHES * BATCH_BYTES` is
/// cut into, at least: the solving thread starts on the first one.
const MIN_BATCHES: usize = 16;

/// How long the solving thread polls for the next batch before it sleeps.
const POLL_LIMIT: Duration = Duration::from_micros(500);

/// Cases of at most this many edges are packed ([`PackedCases`]); larger
/// ones are counted by the reader (20 cases of 10,000 edges: 0.90x the
/// time of one thread this way, 1.02x packed).
const PACKED_MAX_EDGES: u64 = 1 << 10;

/// What the reader hands over, in input order.
enum Message {
    /// Complete cases of at most [`PACKED_MAX_EDGES`] edges.
    Packed(PackedCases),
    /// A larger case, edges read; its stone counts come next.
    Large(Header, Edges),
    /// The large case's stone counts' parities (see [`read_stone_parities`]),
    /// or the error that stopped the reading of them.
    Stones(Result<Vec<u64>, InputError>),
    /// Packed cases the reader solved itself, the solving thread being
    /// behind: their answers, how many, and the error that ended them.
    Solved {
        answers: Vec<u8>,
        cases: u64,
        result: Result<(), InputError>,
    },
    /// No more cases: the input ended (`Ok`) or a header or an edge was bad.
    End(Result<(), InputError>),
}

/// Small cases read in a row, in three buffers instead of an allocation or
/// more per case: their headers, their edges (source and target pairs, case
/// after case) and their stone counts' parities (whole words per case).
#[derive(Default)]
struct PackedCases {
    headers: Vec<Header>,
    edges: Vec<u32>,
    parities: Vec<u64>,
    /// The error in the stone counts of the last case, which ends the input.
    stones_error: Option<InputError>,
}

impl PackedCases {
    /// The bytes its buffers hold.
    fn memory(&self) -> usize {
        size_of_val(&self.headers[..])
            + size_of_val(&self.edges[..])
            + size_of_val(&self.parities[..])
    }

    /// Whether the cases average fewer than [`TINY_CASE_SIZE`] nodes and
    /// edges together: what each costs beyond its reading (allocations,
    /// the search's set-up, the answer) then outweighs its reading.
    fn are_tiny(&self) -> bool {
        let size: usize =
            self.headers.iter().map(|h| h.node_count).sum::<usize>() + self.edges.len() / 2;
        size < TINY_CASE_SIZE * self.headers.len()
    }
}

/// See [`PackedCases::are_tiny`]: only tiny cases are solved by the reader
/// when the solving thread is behind. Larger ones cost the reader more
/// than waiting (20 cases of 1000 nodes and 10,000 edges, when such cases
/// were packed: 1.09x the time of one thread if the reader solved them
/// when the channel was full, 1.02x if it waited).
const TINY_CASE_SIZE: usize = 64;

/// Solves on two threads; `None` (and nothing written) if the reader thread
/// cannot be started. With `reader_solves`, the reader solves the tiny
/// packed cases of every batch itself, not only when the solving thread is
/// behind (for tests).
pub(super) fn solve(
    input: &[u8],
    out: &mut Vec<u8>,
    json: bool,
    reader_solves: bool,
) -> Option<Result<(), InputError>> {
    let (sender, receiver) = sync_channel(1);
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("uva11927-reader".into())
            .spawn_scoped(scope, move || {
                read_cases(input, json, reader_solves, &sender)
            })
            .ok()?;
        Some(solve_cases(input, receiver, out, json))
    })
}

/// The reader: every case in turn until the end or the first error, the
/// messages handed over in batches (see [`Batch`]). Stops early when the
/// solving thread has stopped (at a cycle).
fn read_cases(input: &[u8], json: bool, reader_solves: bool, sender: &SyncSender<Vec<Message>>) {
    let mut sc = Scanner::new(input);
    let mut batch = Batch {
        input,
        json,
        reader_solves,
        cases_sent: 0,
        cases_pending: 0,
        messages: Vec::new(),
        packed: PackedCases::default(),
        bytes: (input.len() / MIN_BATCHES).clamp(1, BATCH_BYTES),
        sent_at: 0,
    };
    let end = loop {
        let header = match read_header(&mut sc) {
            Ok(Some(header)) => header,
            Ok(None) => break Ok(()),
            Err(e) => break Err(e),
        };
        if header.edge_count <= PACKED_MAX_EDGES && header.room_for_counts(&sc, input) {
            let packed = &mut batch.packed;
            let edges_before = packed.edges.len();
            let edges = &mut packed.edges;
            if let Err(e) = read_edge_list(&mut sc, &header, |source, target| {
                edges.extend([source, target]);
            }) {
                packed.edges.truncate(edges_before);
                break Err(e);
            }
            packed.headers.push(header);
            if let Err(e) = read_stone_parities(&mut sc, header.node_count, &mut packed.parities) {
                packed.stones_error = Some(e);
                batch.send_if_full(usize::MAX, sender);
                return;
            }
            if !batch.send_if_full(sc.last_offset(), sender) {
                return;
            }
            continue;
        }
        let edges = match read_edges(&mut sc, input, &header) {
            Ok(edges) => edges,
            Err(e) => break Err(e),
        };
        // The edges go at once if the case is large enough to fill a batch.
        if !batch.push(Message::Large(header, edges), sc.last_offset(), sender) {
            return;
        }
        let mut parities = Vec::new();
        let stones = read_stone_parities(&mut sc, header.node_count, &mut parities);
        let failed = stones.is_err();
        let offset = if failed { usize::MAX } else { sc.last_offset() };
        if !batch.push(Message::Stones(stones.map(|()| parities)), offset, sender) || failed {
            return;
        }
    };
    // The solving thread may have stopped already; nothing to tell it then.
    batch.push(Message::End(end), usize::MAX, sender);
}

/// Messages waiting to be handed over: one hand-over per batch instead of
/// two per case (on `uva11927-large`, a message at a time took 31 ms,
/// 128 KiB batches 21 ms, in paired runs of `benches/paired.py`).
struct Batch<'a> {
    input: &'a [u8],
    json: bool,
    /// Solve every packed case here (see [`solve`]).
    reader_solves: bool,
    /// How many cases the batches sent so far hold, and how many
    /// `messages` hold.
    cases_sent: u64,
    cases_pending: u64,
    messages: Vec<Message>,
    /// Small cases read since the last message.
    packed: PackedCases,
    /// How much input a batch covers, at least (the last one less).
    bytes: usize,
    /// Where the input was when the last batch was sent.
    sent_at: usize,
}

impl Batch<'_> {
    /// Adds `message`, read up to byte `offset` of the input, then
    /// [`Self::send_if_full`].
    fn push(&mut self, message: Message, offset: usize, sender: &SyncSender<Vec<Message>>) -> bool {
        self.close_packed();
        self.cases_pending += u64::from(matches!(message, Message::Stones(_)));
        self.messages.push(message);
        self.send_if_full(offset, sender)
    }

    /// Sends the batch if it covers `self.bytes` of input when the input
    /// has been read up to byte `offset`, or if its packed cases take that
    /// much memory (tiny cases take about three times their input).
    /// False when the solving thread has stopped.
    fn send_if_full(&mut self, offset: usize, sender: &SyncSender<Vec<Message>>) -> bool {
        if offset.saturating_sub(self.sent_at) < self.bytes && self.packed.memory() < self.bytes {
            return true;
        }
        self.sent_at = offset;
        self.close_packed();
        let messages = std::mem::take(&mut self.messages);
        let tried = if self.reader_solves {
            Err(TrySendError::Full(messages))
        } else {
            sender.try_send(messages)
        };
        match tried {
            Ok(()) => {}
            Err(TrySendError::Disconnected(_)) => return false,
            Err(TrySendError::Full(mut messages)) => {
                // The solving thread is behind (tiny cases, which cost more
                // than their reading): solve the tiny packed ones here.
                let solved = self.solve_packed_here(&mut messages);
                if sender.send(messages).is_err() || !solved {
                    return false;
                }
            }
        }
        self.cases_sent += std::mem::take(&mut self.cases_pending);
        true
    }

    /// Replaces the packed cases of `messages` by their answers; false (and
    /// the messages after it dropped) at an error.
    fn solve_packed_here(&self, messages: &mut Vec<Message>) -> bool {
        let locator = Scanner::new(self.input);
        // The number of the last case before each message.
        let mut case = self.cases_sent;
        for i in 0..messages.len() {
            match &mut messages[i] {
                Message::Packed(packed) if packed.are_tiny() => {
                    let packed = std::mem::take(packed);
                    let (mut answers, before) = (Vec::new(), case);
                    let result = solve_packed(packed, &locator, &mut answers, self.json, &mut case);
                    let failed = result.is_err();
                    messages[i] = Message::Solved {
                        answers,
                        cases: case - before,
                        result,
                    };
                    if failed {
                        messages.truncate(i + 1);
                        return false;
                    }
                }
                Message::Packed(packed) => case += packed.headers.len() as u64,
                Message::Stones(_) => case += 1,
                _ => {}
            }
        }
        true
    }

    /// Ends the packed cases read so far as a message.
    fn close_packed(&mut self) {
        if !self.packed.headers.is_empty() {
            self.cases_pending += self.packed.headers.len() as u64;
            let packed = std::mem::take(&mut self.packed);
            self.messages.push(Message::Packed(packed));
        }
    }
}

/// Reads `node_count` stone counts, appending their parities to `words`:
/// bit `i % 64` of word `i / 64` (from the first word appended) for node
/// `i`. Memory grows with the counts actually read, not with the declared
/// `node_count`.
fn read_stone_parities(
    sc: &mut Scanner<'_>,
    node_count: usize,
    words: &mut Vec<u64>,
) -> Result<(), InputError> {
    let mut word = 0u64;
    for node in 0..node_count {
        word |= (sc.next("a stone count")? & 1) << (node % 64);
        if node % 64 == 63 {
            words.push(word);
            word = 0;
        }
    }
    if !node_count.is_multiple_of(64) {
        words.push(word);
    }
    Ok(())
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
                Message::Packed(packed) => solve_packed(packed, &locator, out, json, &mut case)?,
                Message::Large(header, edges) => values = edges.values(header.start, &locator)?,
                Message::Stones(parities) => {
                    let sum = xor_of_odd(&values, &parities?);
                    case += 1;
                    write_answer(out, case, sum, json);
                }
                Message::Solved {
                    answers,
                    cases,
                    result,
                } => {
                    out.extend_from_slice(&answers);
                    case += cases;
                    result?;
                }
                Message::End(end) => return end,
            }
        }
    }
    Ok(())
}

/// Solves packed cases, numbering them from `case + 1`; an error if one
/// has a cycle, or after the last if its stone counts were bad.
fn solve_packed(
    packed: PackedCases,
    locator: &Scanner<'_>,
    out: &mut Vec<u8>,
    json: bool,
    case: &mut u64,
) -> Result<(), InputError> {
    let PackedCases {
        headers,
        edges,
        parities,
        stones_error,
    } = packed;
    let (mut edges, mut parities) = (&edges[..], &parities[..]);
    for (i, header) in headers.iter().enumerate() {
        let n = header.node_count;
        let mut counter = EdgeCounter::new(n).expect("n was checked against MAX_NODES");
        let (own, rest) = edges.split_at(2 * header.edge_count as usize);
        edges = rest;
        counter.reserve(own.len() / 2);
        for pair in own.chunks_exact(2) {
            counter.push(pair[0], pair[1]);
        }
        let values = Edges::Counted(counter).values(header.start, locator)?;
        if i + 1 == headers.len()
            && let Some(e) = stones_error
        {
            return Err(e);
        }
        let (own, rest) = parities.split_at(n.div_ceil(64));
        parities = rest;
        *case += 1;
        write_answer(out, *case, xor_of_odd(&values, own), json);
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
