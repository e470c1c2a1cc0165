//! The crew: every heap settled once and in order, a slow thread not
//! waited for, the faster of the crew and the leader alone kept, a break
//! and a panic passed on.

use super::*;

/// A state: the number of chunks settled when it was published.
type Settled = usize;

/// Each heap's candidates: the heap itself.
fn heaps(_: &Settled, heaps: Range<usize>, _: &mut Scratch, out: &mut Vec<Candidates>) {
    out.extend(heaps.map(|h| Candidates::only(h as u32)));
}

/// Every heap is computed once and settled once, in order, each chunk
/// from a state published at most the lookahead before it, whatever
/// the crew's size and the range's length.
#[test]
fn every_heap_settled_once_in_order() {
    for helpers in [0, 1, 3, MAX_THREADS - 1, MAX_THREADS, 1023] {
        // The last: with the crew's measure (the other threads parked
        // and woken as it decides), the others with the crew always.
        for len in [
            0,
            1,
            15,
            16,
            17,
            100,
            1000,
            100 * CHUNK,
            3 * EPOCH * CHUNK + 5,
        ] {
            let start = 1000 * len;
            let mut settled = Vec::new();
            let mut chunks = 0;
            let threads = (helpers + 1).min(MAX_THREADS);
            let mut measure = if len > 100 * CHUNK {
                Measure::default()
            } else {
                Measure::always_crew()
            };
            let flow = run(
                0,
                start..start + len,
                helpers,
                &heaps,
                &mut measure,
                |crew| {
                    crew.settle_all(|&published, first| {
                        let lag = chunks - published;
                        assert!(lag <= LOOKAHEAD_PER_THREAD * threads, "lag {lag}");
                        settled.extend(first.iter().map(|c| c.first()));
                        chunks += 1;
                        ControlFlow::<(), _>::Continue(chunks)
                    })
                },
            );
            assert_eq!(flow, ControlFlow::Continue(()));
            assert_eq!(settled, (start..start + len).collect::<Vec<_>>());
        }
    }
}

/// A thread that takes long over a chunk (descheduled on a busy
/// machine) does not hold the leader up: the leader computes the chunk
/// itself, and every heap is still settled once, in order.
#[test]
fn a_slow_thread_is_not_waited_for() {
    static BY_LEADER: Mutex<Vec<usize>> = Mutex::new(Vec::new());
    static SLOW_BY_HELPERS: Mutex<Vec<usize>> = Mutex::new(Vec::new());
    fn work(_: &Settled, heaps: Range<usize>, _: &mut Scratch, out: &mut Vec<Candidates>) {
        let chunk = heaps.start / CHUNK;
        if thread::current().name() == Some("leader") {
            lock(&BY_LEADER).push(chunk);
            // Until another thread is slow over a chunk.
            let start = Instant::now();
            while lock(&SLOW_BY_HELPERS).is_empty() && start.elapsed().as_secs() < 60 {
                thread::sleep(Duration::from_millis(1));
            }
        } else if chunk % 20 == 1 {
            lock(&SLOW_BY_HELPERS).push(chunk);
            // Until the leader has computed the chunk itself (a minute
            // at most: then the test fails).
            let start = Instant::now();
            while !lock(&BY_LEADER).contains(&chunk) && start.elapsed().as_secs() < 60 {
                thread::sleep(Duration::from_millis(1));
            }
        }
        out.extend(heaps.map(|h| Candidates::only(h as u32)));
    }
    let settled = thread::scope(|scope| {
        let leader = thread::Builder::new().name("leader".into());
        leader
            .spawn_scoped(scope, || {
                let mut settled = Vec::new();
                let mut chunks = 0;
                let _ = run(
                    0,
                    0..200 * CHUNK,
                    3,
                    &work,
                    &mut Measure::always_crew(),
                    |crew| {
                        crew.settle_all(|_, first| {
                            settled.extend(first.iter().map(|c| c.first()));
                            chunks += 1;
                            ControlFlow::<(), _>::Continue(chunks)
                        })
                    },
                );
                settled
            })
            .unwrap()
            .join()
            .unwrap()
    });
    assert_eq!(settled, (0..200 * CHUNK).collect::<Vec<_>>());
    // The slow chunks the other threads took, the leader computed too
    // (they wait for it).
    let slow = lock(&SLOW_BY_HELPERS).clone();
    let by_leader = lock(&BY_LEADER).clone();
    assert!(!slow.is_empty());
    assert!(
        slow.iter().all(|c| by_leader.contains(c)),
        "{slow:?} {by_leader:?}"
    );
}

/// The crew's measure: it starts with the crew (its first epoch not
/// compared with anything), keeps it when it is [`CREW_GAIN`]
/// percent faster than the best epoch since the last probe, the
/// leader alone when it is [`ALONE_GAIN`] percent faster; probes the other way every
/// [`PROBE_EVERY`] epochs, twice as seldom after each probe of the
/// crew that loses; what it learnt carries over from one run to the
/// next, the time between runs is not counted, and an epoch lasts
/// [`EPOCH_TIME`] at least.
#[test]
fn the_faster_way_is_kept() {
    let ms = Duration::from_millis;
    let mut m = Measure::default();
    let mut now = Instant::now();
    m.begin(3, now);
    // Epoch times by the way they run: alone 80 ms; the crew 40 ms,
    // then (the cores taken by others) 160 ms, then 5% faster than
    // alone (not enough to take it back), then 25% faster, then 160 ms
    // again.
    let alone_time = ms(80);
    let mut active = 3;
    let mut ways = Vec::new();
    for epoch in 0..200 {
        let crew_time = match epoch {
            0..20 => ms(40),
            20..40 => ms(160),
            40..52 => ms(76),
            52..100 => ms(60),
            _ => ms(160),
        };
        assert_eq!(m.active(), active);
        ways.push(active == 3);
        let took = if active == 3 { crew_time } else { alone_time };
        for chunk in 1..=EPOCH {
            if chunk == EPOCH / 2 && epoch % 3 == 0 {
                // A new run, half the time in each, and an hour
                // between them.
                now += took / 2;
                m.end(now);
                now += Duration::from_secs(3600);
                m.begin(3, now);
                now += took - took / 2;
            } else if chunk == EPOCH && epoch % 3 != 0 {
                now += took;
            }
            match m.settled(now) {
                Some(now_active) => {
                    assert_eq!(chunk, EPOCH);
                    assert_ne!(now_active, active, "a change");
                    active = now_active;
                }
                None => assert!(chunk < EPOCH || m.active() == active),
            }
        }
    }
    let crew: Vec<usize> = (0..200).filter(|&e| ways[e]).collect();
    let expected: Vec<usize> = [0, 1]
        .into_iter()
        .chain(3..=9)
        .chain(11..=17)
        .chain(19..=25)
        .chain(27..=33)
        .chain([42])
        .chain(58..=65)
        .chain(67..=73)
        .chain(75..=81)
        .chain(83..=89)
        .chain(91..=97)
        .chain(99..=105)
        .chain(107..=113)
        .chain([122, 138, 170])
        .collect();
    assert_eq!(crew, expected);
    // An epoch shorter than EPOCH_TIME goes on until it has lasted
    // that long.
    for _ in 0..EPOCH {
        assert_eq!(m.settled(now), None);
    }
    now += EPOCH_TIME;
    assert_eq!(m.settled(now), None);
    assert_eq!(m.chunks, 0, "the epoch ended");
    // Another crew size measures again, from the crew.
    m.begin(1, now);
    assert_eq!((m.active(), m.epoch), (1, 0));
}

/// A `Break` stops at once.
#[test]
fn a_break_stops_the_run() {
    for helpers in [0, 1, 3] {
        let mut calls = 0;
        let flow = run(
            0,
            0..1000,
            helpers,
            &heaps,
            &mut Measure::always_crew(),
            |crew| {
                crew.settle_all(|_, _| {
                    calls += 1;
                    if calls == 3 {
                        ControlFlow::Break(calls)
                    } else {
                        ControlFlow::Continue(calls)
                    }
                })
            },
        );
        assert_eq!(flow, ControlFlow::Break(3));
        assert_eq!(calls, 3);
    }
}

/// A panic in any thread ends the run with a panic (not a hang).
#[test]
fn a_panic_is_passed_on() {
    fn fail(_: &(), heaps: Range<usize>, _: &mut Scratch, _: &mut Vec<Candidates>) {
        if heaps.start == 2 * CHUNK {
            panic!("chunk 2 fails");
        }
    }
    for helpers in [0, 1, 3] {
        let result = std::panic::catch_unwind(|| {
            run(
                (),
                0..10 * CHUNK,
                helpers,
                &fail,
                &mut Measure::always_crew(),
                |crew| {
                    let _ = crew.settle_all(|_, _| ControlFlow::<(), ()>::Continue(()));
                },
            );
        });
        assert!(result.is_err(), "{helpers} helpers");
    }
}
