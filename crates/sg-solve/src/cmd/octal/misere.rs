//! `grundy octal --misere`: misère play of a take-and-break game, through
//! its misère quotient (`sg_octal::misere`): the quotient itself (order,
//! P-portion, presentation, pretending function, certified period), or who
//! wins a sum of heaps and how, in the words of normal play.

use super::CANNOT_WRITE;
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use sg_files::safe_write::Destination;
use sg_files::signals::StopSignals;
use sg_octal::misere::{Ended, Limit, Limits, MAX_ORDER, MisereError, MisereQuotient};
use sg_octal::misere::{Progress, StoredQuotient, SumSearchLimits};
use sg_octal::{HeapMove, Rules};
use sg_solve::answer::write_json_line;
use sg_solve::octal::answers::say_move;
use std::cell::Cell;
use std::io::{BufWriter, IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// At most this many heaps' elements on the `pretending` line of the
/// summary (`--json` lists them all).
const PRETENDING_SHOWN: usize = 40;

/// At most this many elements on the `P-portion` line.
const P_SHOWN: usize = 16;

/// The largest heap `--to` is suggested for (each heap costs a pass over
/// its options: beyond, only a certified period answers in practice).
const FAR: u64 = 1 << 20;

/// With `--heaps` and no `--to`: the candidate quotients a heap refutes
/// before its construction gives way to a search of the sum over the heaps
/// proven (see [`run`]).
const GIVE_WAY_CANDIDATES: usize = 8;

/// The positions that search expands before the construction goes on.
const GIVE_WAY_LIMITS: SumSearchLimits = SumSearchLimits {
    positions: 200_000,
    bytes: 256 << 20,
};

/// What stops a search of a sum (a signal, the time bound), and says so,
/// and its progress lines off a terminal.
struct SumWatch<'a> {
    stop: &'a StopSignals,
    started: Instant,
    deadline: Option<Duration>,
    max_seconds: Option<u64>,
    log: crate::cmd::shared::ProgressLog,
    /// Why the search was stopped, once it is.
    stopped: Option<String>,
}

impl<'a> SumWatch<'a> {
    fn new(
        stop: &'a StopSignals,
        started: Instant,
        deadline: Option<Duration>,
        max_seconds: Option<u64>,
    ) -> SumWatch<'a> {
        SumWatch {
            stop,
            started,
            deadline,
            max_seconds,
            log: crate::cmd::shared::ProgressLog::new(),
            stopped: None,
        }
    }

    /// Whether the search goes on, `positions` expanded so far.
    fn check(&mut self, positions: usize) -> ControlFlow<()> {
        self.log.tick(|| {
            format!(
                "searching the sum: {}",
                count(positions, "position expanded", "positions expanded")
            )
        });
        if let Some(signal) = self.stop.caught() {
            self.stopped = Some(format!(
                "stopped by {}",
                crate::cmd::shared::signal_name(signal)
            ));
            return ControlFlow::Break(());
        }
        if self.deadline.is_some_and(|d| self.started.elapsed() >= d) {
            self.stopped = Some(format!(
                "stopped by the time bound (--max-seconds {})",
                self.max_seconds.unwrap_or_default()
            ));
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }
}

/// `n` and the noun, singular for 1: `1 position expanded`.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// How long a run lasts before its progress line is drawn.
const QUIET: Duration = Duration::from_secs(1);

/// What `--out` files are made by.
const GENERATOR: &str = concat!("grundy ", env!("CARGO_PKG_VERSION"));

/// The progress line of a run (on a terminal, or now and then in a log):
/// the heaps proven, the order
/// and P-portion there, and the search for the next heap.
fn progress_line(code: &str, p: &Progress) -> String {
    let mut line = format!(
        "misère quotient of {code}: heaps 0..={} proven, order {}, |P| {}",
        p.proven_to, p.order, p.p_portion
    );
    if p.candidates > 0 {
        line.push_str(&format!(
            "; heap {}: {} refuted, the last of {} elements",
            p.proven_to + 1,
            count(p.candidates, "candidate", "candidates"),
            p.candidate_order
        ));
    }
    line
}

/// Stores the quotient into `out` (`--out`: the old file or the complete
/// new one whatever happens).
fn write_quotient(out: &Destination, code: &str, stored: &StoredQuotient) -> Result<()> {
    let bytes = sg_tables::misere::encode_misere_quotient(code, GENERATOR, stored)?;
    out.write(|file| file.write_all(&bytes).map_err(anyhow::Error::from))
}

/// The longest presentation printed whole on its line.
const PRESENTATION_SHOWN: usize = 400;

/// What `--misere` was asked.
pub(crate) struct Question<'a> {
    /// The largest heap to cover.
    pub(crate) to: u64,
    /// `--max-order`.
    pub(crate) max_order: usize,
    /// `--max-seconds`.
    pub(crate) max_seconds: Option<u64>,
    /// `--heaps`.
    pub(crate) heaps: Option<&'a [u64]>,
    /// `--hint`.
    pub(crate) hint: bool,
    /// `--json`.
    pub(crate) json: bool,
    /// `--out`, checked: where the quotient is stored.
    pub(crate) out: Option<&'a Destination>,
    /// `--checkpoint-every`.
    pub(crate) checkpoint_every: Duration,
    /// `--resume`: the file, and the quotient it stores (its form read,
    /// its content checked by the run).
    pub(crate) resume: Option<(&'a Path, StoredQuotient)>,
    /// Whether a construction that stalls at a heap may give way to a
    /// search of the sum (`--heaps` without `--to` or `--out`).
    pub(crate) give_way: bool,
}

/// Answers `question` for `rules` on standard output: exit status 2 with
/// one line when a heap is beyond the heaps the quotient covers.
pub(crate) fn run(rules: &Rules, question: Question<'_>) -> Result<ExitCode> {
    // A signal stops the construction between two steps: what is proven
    // by then is printed, `stopped` saying so.
    // So does the time bound.
    let stop = StopSignals::catch();
    let started = Instant::now();
    let deadline = question.max_seconds.map(Duration::from_secs);
    let timed_out = Cell::new(false);
    let code = rules.to_string();
    let log = !std::io::stderr().is_terminal();
    let mut written = Instant::now();
    let (resume_path, from) = match question.resume {
        Some((path, stored)) => (Some(path), Some(stored)),
        None => (None, None),
    };
    let bar = (!log).then(|| ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()));
    if let Some(bar) = &bar {
        bar.set_style(
            ProgressStyle::with_template("[{elapsed_precise}] {msg}")
                .expect("the template is valid"),
        );
    }
    // With --heaps and no --to, a construction that stalls at a heap
    // gives way to a search of the sum over the heaps proven (`give_way`);
    // if that search gives up, the construction goes on from where it
    // was.
    let give_way = Cell::new(question.give_way);
    let gave_way: Cell<Option<(u64, usize)>> = Cell::new(None);
    let mut progress_log = crate::cmd::shared::ProgressLog::new();
    let mut on_progress = |progress: &Progress| {
        if let Some(bar) = bar.as_ref().filter(|_| started.elapsed() >= QUIET) {
            bar.set_message(progress_line(&code, progress));
            bar.tick();
        }
        progress_log.tick(|| progress_line(&code, progress));
        if stop.caught().is_some() {
            return ControlFlow::Break(());
        }
        if deadline.is_some_and(|d| started.elapsed() >= d) {
            timed_out.set(true);
            return ControlFlow::Break(());
        }
        if give_way.get() && progress.candidates >= GIVE_WAY_CANDIDATES {
            gave_way.set(Some((progress.proven_to + 1, progress.candidates)));
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    };
    let mut on_heap = |heap: u64, stored: &dyn Fn() -> StoredQuotient| {
        let Some(out) = question.out else {
            return;
        };
        if written.elapsed() < question.checkpoint_every {
            return;
        }
        let elapsed = Duration::from_secs(started.elapsed().as_secs());
        let stored = stored();
        match write_quotient(out, &code, &stored) {
            // Never a panic (`2>/dev/full`): the run goes on.
            Ok(()) if log => crate::cmd::shared::print_error(format_args!(
                "checkpoint: the quotient of heaps 0..={heap} (order {}) written to {} after {}",
                stored.order,
                sg_text::shown_path(out.path()),
                humantime::format_duration(elapsed),
            )),
            Ok(()) => {}
            Err(e) => crate::cmd::shared::print_error(format_args!(
                "warning: checkpoint not written (the run goes on): {e:#}"
            )),
        }
        written = Instant::now();
    };
    let limits = Limits {
        to: question.to,
        max_order: question.max_order,
    };
    let mut from = from;
    let computed = loop {
        let computed = MisereQuotient::compute_kept(
            rules,
            limits,
            from.take(),
            &mut on_progress,
            &mut on_heap,
        );
        let (Some((stalled, candidates)), Ok(partial), Some(heaps)) =
            (gave_way.take(), &computed, question.heaps)
        else {
            break computed;
        };
        give_way.set(false);
        let asked = Asked {
            heaps,
            hint: question.hint,
            json: question.json,
        };
        let mut watch = SumWatch::new(&stop, started, deadline, question.max_seconds);
        let why = format!(
            "its construction gave way to the search at heap {stalled}, after {candidates} \
             candidate quotients refuted"
        );
        if let Ok(searched) = search_answer(partial, asked, GIVE_WAY_LIMITS, &why, &mut watch) {
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
            let mut out = BufWriter::new(std::io::stdout().lock());
            out.write_all(searched.as_bytes()).context(CANNOT_WRITE)?;
            out.flush().context(CANNOT_WRITE)?;
            return Ok(ExitCode::SUCCESS);
        }
        if stop.caught().is_some() {
            // Stopped meanwhile: the heaps proven, as a stopped run.
            break computed;
        }
        if deadline.is_some_and(|d| started.elapsed() >= d) {
            timed_out.set(true);
            break computed;
        }
        from = Some(partial.stored());
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let quotient = match (computed, resume_path) {
        (Ok(quotient), _) => quotient,
        // The check of a stored quotient (--resume, or the heaps proven
        // before the construction gave way) stopped by a signal or the
        // time bound.
        (Err(MisereError::CheckStopped), path) => {
            let signal = stop.caught();
            let by = match signal {
                Some(signal) => crate::cmd::shared::signal_name(signal),
                None => "the time bound (--max-seconds)".to_owned(),
            };
            match path {
                Some(path) => crate::cmd::shared::print_error(format_args!(
                    "error: --resume {}: the check of the stored quotient was stopped by {by}",
                    sg_text::shown_path(path),
                )),
                None => crate::cmd::shared::print_error(format_args!(
                    "error: stopped by {by} before the quotient was computed"
                )),
            }
            return Ok(signal.map_or(ExitCode::from(1), crate::cmd::shared::signal_exit));
        }
        (Err(e @ MisereError::Stored { .. }), Some(path)) => {
            return Ok(super::run::bad_input(format!(
                "--resume {}: {e}",
                sg_text::shown_path(path)
            )));
        }
        (Err(e @ MisereError::StoredOrder { .. }), Some(path)) => {
            return Ok(super::run::bad_input(format!(
                "--resume {}: {e} (raise --max-order, at most {MAX_ORDER})",
                sg_text::shown_path(path)
            )));
        }
        (Err(e), _) => return Err(e.into()),
    };
    let interrupted = quotient.ended().stopped_why() == Some(&Limit::Interrupted);
    if let Some(out) = question.out {
        write_quotient(out, &code, &quotient.stored())?;
        // Stopped: where it went, and how to continue.
        if interrupted {
            let (word, note) = match sg_text::shell_word(out.path()) {
                Some(word) => (word, ""),
                None => ("FILE".to_owned(), " (FILE being the file written)"),
            };
            crate::cmd::shared::print_error(format_args!(
                "checkpoint: the quotient of heaps 0..={} (order {}) written to {}; continue \
                 with grundy octal --misere --resume {word} --out {word} --to {}{}{note}",
                quotient.computed_to(),
                quotient.order(),
                sg_text::shown_path(out.path()),
                question.to,
                if question.max_order == sg_octal::misere::DEFAULT_MAX_ORDER {
                    String::new()
                } else {
                    format!(" --max-order {}", question.max_order)
                },
            ));
        }
    }
    let signal = stop.caught().filter(|_| interrupted);
    let said = Said {
        signal,
        max_seconds: question
            .max_seconds
            .filter(|_| interrupted && timed_out.get()),
    };
    // A search of a sum the quotient does not cover stops as the
    // construction does.
    let mut watch = SumWatch::new(&stop, started, deadline, question.max_seconds);
    let answered = question.heaps.map(|heaps| {
        let asked = Asked {
            heaps,
            hint: question.hint,
            json: question.json,
        };
        answer_heaps(&quotient, asked, said, &mut watch)
    });
    let signal = signal.or_else(|| stop.caught());
    drop(stop);
    let text = match answered {
        Some(answered) => match answered {
            Ok(text) => text,
            // Stopped by a signal before the heaps asked: 128 + its number,
            // as the signal would have ended the process.
            Err(message) => match signal {
                Some(signal) => {
                    crate::cmd::shared::print_error(format_args!("error: {message}"));
                    return Ok(crate::cmd::shared::signal_exit(signal));
                }
                None => return Ok(super::run::bad_input(message)),
            },
        },
        None if question.json => {
            let mut line = Vec::new();
            write_json_line(&mut line, &json_summary(&quotient, said));
            String::from_utf8(line).expect("JSON is UTF-8")
        }
        None => text_summary(&quotient, said),
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    out.write_all(text.as_bytes()).context(CANNOT_WRITE)?;
    out.flush().context(CANNOT_WRITE)?;
    Ok(ExitCode::SUCCESS)
}

/// What stopped the construction besides its limits, for the messages.
#[derive(Debug, Clone, Copy)]
struct Said {
    /// The signal that stopped it, if one did.
    signal: Option<i32>,
    /// The time bound, if it stopped it.
    max_seconds: Option<u64>,
}

impl Said {
    /// Why the quotient stops where it does, in words: the limit's reason,
    /// or the signal's.
    fn reason(self, quotient: &MisereQuotient) -> Option<String> {
        let ended = quotient.ended();
        match (ended, self.signal, self.max_seconds) {
            (
                Ended::Stopped {
                    why: Limit::Interrupted,
                    ..
                },
                Some(signal),
                _,
            ) => Some(format!(
                "stopped by {}",
                crate::cmd::shared::signal_name(signal)
            )),
            (
                Ended::Stopped {
                    why: Limit::Interrupted,
                    ..
                },
                None,
                Some(seconds),
            ) => Some(format!(
                "stopped by the time bound (--max-seconds {seconds}); the quotient of heaps \
                 0..={} has {} elements",
                quotient.computed_to(),
                quotient.order()
            )),
            _ => ended.reason(quotient.max_order(), quotient.order(), "--max-order"),
        }
    }
}

/// What `--heaps` asks.
#[derive(Debug, Clone, Copy)]
struct Asked<'a> {
    /// The sum.
    heaps: &'a [u64],
    /// `--hint`.
    hint: bool,
    /// `--json`.
    json: bool,
}

/// The most positions a search of a sum the quotient does not cover
/// expands (about 100 bytes each) before the sum is refused.
const SUM_SEARCH_LIMITS: SumSearchLimits = SumSearchLimits {
    positions: 2_000_000,
    bytes: 1 << 30,
};

/// `--heaps`: WIN or LOSE under misère play, and with `hint` a move to a
/// lost sum, as text or one JSON object. A sum with a heap beyond the
/// heaps the quotient covers is answered by a search of the sum itself
/// (the quotient answering the positions it covers), a line on standard
/// error saying so; a message when the search gives up too, or was not
/// tried (the construction stopped by a signal or the time bound).
fn answer_heaps(
    quotient: &MisereQuotient,
    asked: Asked<'_>,
    stopped: Said,
    watch: &mut SumWatch<'_>,
) -> Result<String, String> {
    let Asked { heaps, hint, json } = asked;
    let said = |e: MisereError| match e {
        MisereError::NotExact { heap, .. } => not_covered(quotient, heap, stopped),
        e => e.to_string(),
    };
    let element = match quotient.element_of_sum(heaps) {
        Ok(element) => element,
        Err(MisereError::NotExact { heap, .. })
            if stopped.signal.is_none() && stopped.max_seconds.is_none() =>
        {
            return searched_sum(quotient, asked, heap, stopped, watch);
        }
        Err(e) => return Err(said(e)),
    };
    let lost = quotient.monoid().is_p(element);
    let outcome = if lost { "LOSE" } else { "WIN" };
    let found = if hint && !lost {
        quotient.winning_move(heaps).map_err(said)?
    } else {
        None
    };
    if json {
        // The element is named in the quotient of the heaps computed for
        // this question (to its largest heap, or --to): its presentation
        // comes with it, so that the name means the same to every reader.
        let presentation = quotient.presentation();
        let answer = json!({
            "outcome": outcome,
            "misere": true,
            "answered_by": "quotient",
            "element": presentation.word(element),
            "presentation": presentation.to_string(),
            "computed_to": quotient.computed_to(),
        });
        return Ok(json_answer(answer, heaps, found.as_ref(), hint && !lost));
    }
    Ok(text_answer(outcome, heaps, found, hint && !lost))
}

/// The JSON line of an answer: `answer` with the move (`null` for a won
/// sum without a move) when `hinted`.
fn json_answer(
    mut answer: serde_json::Value,
    heaps: &[u64],
    found: Option<&HeapMove>,
    hinted: bool,
) -> String {
    match found {
        Some(m) => {
            answer["move"] = json!({
                "heap": m.heap + 1,
                "size": heaps[m.heap],
                "take": m.take,
                "leaves": m.leaves,
            });
        }
        // Won with no move at all (the text says `move: none`).
        None if hinted => answer["move"] = serde_json::Value::Null,
        None => {}
    }
    let mut line = Vec::new();
    write_json_line(&mut line, &answer);
    String::from_utf8(line).expect("JSON is UTF-8")
}

/// The text of an answer: the outcome, and the move when `hinted`.
fn text_answer(outcome: &str, heaps: &[u64], found: Option<HeapMove>, hinted: bool) -> String {
    match (found, hinted) {
        (Some(m), _) => format!("{outcome}\nmove: {}\n", say_move(&m, heaps[m.heap])),
        // Won with no move at all: the player who cannot move wins.
        (None, true) => format!(
            "{outcome}\nmove: none: no move is left, and in misère play the player who \
             cannot move wins\n"
        ),
        (None, false) => format!("{outcome}\n"),
    }
}

/// A sum with heap `heap` beyond the heaps the quotient covers, answered
/// by a search of the sum ([`search_answer`]), or the message saying why
/// not.
fn searched_sum(
    quotient: &MisereQuotient,
    asked: Asked<'_>,
    heap: u64,
    stopped: Said,
    watch: &mut SumWatch<'_>,
) -> Result<String, String> {
    let why = format!("heap {heap} is beyond them");
    search_answer(quotient, asked, SUM_SEARCH_LIMITS, &why, watch).map_err(|e| {
        let why = match e {
            MisereError::SearchStopped => format!(
                "the search of the sum was {}",
                watch.stopped.as_deref().unwrap_or("stopped")
            ),
            e => e.to_string(),
        };
        format!("{}; {why}", not_covered(quotient, heap, stopped))
    })
}

/// The answer of `asked` by [`MisereQuotient::search_sum`], a note on
/// standard error saying so (and `why`).
fn search_answer(
    quotient: &MisereQuotient,
    asked: Asked<'_>,
    limits: SumSearchLimits,
    why: &str,
    watch: &mut SumWatch<'_>,
) -> Result<String, MisereError> {
    let Asked { heaps, hint, json } = asked;
    let searched = quotient.search_sum(heaps, hint, limits, &mut |n| watch.check(n))?;
    crate::cmd::shared::print_error(format_args!(
        "note: answered by a search of the sum over the misère quotient of {} of heaps \
         0..={} ({why}; {})",
        quotient.rules(),
        quotient.computed_to(),
        count(
            searched.positions,
            "position expanded",
            "positions expanded"
        )
    ));
    let outcome = if searched.lost { "LOSE" } else { "WIN" };
    let hinted = hint && !searched.lost;
    if json {
        let answer = json!({
            "outcome": outcome,
            "misere": true,
            "answered_by": "search",
            "positions": searched.positions,
            "computed_to": quotient.computed_to(),
        });
        return Ok(json_answer(
            answer,
            heaps,
            searched.winning_move.as_ref(),
            hinted,
        ));
    }
    Ok(text_answer(outcome, heaps, searched.winning_move, hinted))
}

/// Why heap `heap` has no element: the quotient stopped before it, or no
/// period is certified and it lies beyond the heaps computed.
fn not_covered(quotient: &MisereQuotient, heap: u64, stopped: Said) -> String {
    let code = quotient.rules();
    let last = quotient.computed_to();
    match quotient.ended() {
        Ended::Stopped { why, .. } => {
            let reason = stopped.reason(quotient).expect("stopped");
            let remedy = match why {
                Limit::Order { .. } if quotient.max_order() < MAX_ORDER => {
                    "; raise --max-order (at most 4096)"
                }
                Limit::Interrupted if stopped.max_seconds.is_some() => "; raise --max-seconds",
                Limit::Order { .. } | Limit::Work | Limit::Refuted { .. } | Limit::Interrupted => {
                    ""
                }
            };
            format!(
                "heap {heap} is beyond the heaps the misère quotient of {code} covers \
                 (0..={last}): {reason}{remedy}"
            )
        }
        Ended::Reached | Ended::Certified => {
            let remedy = if heap <= FAR {
                format!("raise --to to {heap}")
            } else {
                "heaps that far are answered only through a certified period".to_owned()
            };
            format!(
                "heap {heap} is beyond the heaps the misère quotient of {code} covers: no \
                 period of its pretending function is certified up to heap {last}, the last \
                 heap computed; {remedy}"
            )
        }
    }
}

/// The elements whose words a summary shows: the pretending function over
/// the preperiod and one period, or over every heap computed.
fn pretending_shown(quotient: &MisereQuotient) -> &[sg_octal::misere::Element] {
    let all = quotient.pretending();
    match quotient.period() {
        Some(p) => &all[..(p.preperiod + p.period) as usize],
        None => all,
    }
}

/// `--json`: the quotient as one object.
fn json_summary(quotient: &MisereQuotient, said: Said) -> serde_json::Value {
    let presentation = quotient.presentation();
    let words = |xs: &[sg_octal::misere::Element]| -> Vec<String> {
        xs.iter().map(|&x| presentation.word(x)).collect()
    };
    let mut p_portion = quotient.p_portion();
    let order_of = presentation.elements_in_order();
    p_portion.sort_by_key(|x| order_of.iter().position(|y| y == x));
    let stopped = quotient.ended().stopped_at().map(|heap| {
        json!({
            "heap": heap,
            "reason": said.reason(quotient),
        })
    });
    json!({
        "code": quotient.rules().to_string(),
        "misere": true,
        "computed_to": quotient.computed_to(),
        "order": quotient.order(),
        "p_portion": words(&p_portion),
        "generators": presentation.generators(),
        "generator_heaps": quotient.generators().iter().map(|g| g.heap).collect::<Vec<_>>(),
        "relations": presentation.relations(),
        "presentation": presentation.to_string(),
        "pretending": words(pretending_shown(quotient)),
        "preperiod": quotient.period().map(|p| p.preperiod),
        "period": quotient.period().map(|p| p.period),
        "certified": quotient.is_certified(),
        "tame": quotient.tame().is_some(),
        "max_order": quotient.max_order(),
        "stopped": stopped,
    })
}

/// The one-screen summary.
fn text_summary(quotient: &MisereQuotient, said: Said) -> String {
    let presentation = quotient.presentation();
    let last = quotient.computed_to();
    let mut out = String::new();
    let mut line = |label: &str, value: String| out.push_str(&format!("{label:<16}{value}\n"));
    line("game", format!("{} (misère play)", quotient.rules()));
    line("computed", format!("heaps 0..={last}"));
    if let (Some(heap), Some(reason)) = (quotient.ended().stopped_at(), said.reason(quotient)) {
        line("stopped", format!("at heap {heap}: {reason}"));
    }
    line("order", quotient.order().to_string());
    let order_of = presentation.elements_in_order();
    let p: Vec<String> = order_of
        .iter()
        .filter(|&&x| quotient.monoid().is_p(x))
        .map(|&x| presentation.word(x))
        .collect();
    line(
        "P-portion",
        if p.is_empty() {
            "0 (the player to move wins every sum)".to_owned()
        } else if p.len() <= P_SHOWN {
            format!("{}: {}", p.len(), p.join(", "))
        } else {
            format!("{} elements (--json lists them)", p.len())
        },
    );
    let shown = presentation.to_string();
    line(
        "presentation",
        if shown.len() <= PRESENTATION_SHOWN {
            shown
        } else {
            format!(
                "<{} | {} relations> (--json lists them)",
                presentation.generators().join(", "),
                presentation.relations().len()
            )
        },
    );
    let pretending = pretending_shown(quotient);
    let words: Vec<String> = pretending
        .iter()
        .take(PRETENDING_SHOWN)
        .map(|&x| presentation.word(x))
        .collect();
    let more = if pretending.len() > PRETENDING_SHOWN {
        format!(
            " ... (heaps 0..={} shown of 0..={}; --json lists them)",
            PRETENDING_SHOWN - 1,
            pretending.len() - 1
        )
    } else {
        String::new()
    };
    line("pretending", format!("{}{more}", words.join(" ")));
    match quotient.period() {
        Some(p) => {
            line("preperiod", p.preperiod.to_string());
            line("period", p.period.to_string());
            line(
                "certified",
                format!(
                    "yes, by the periodicity theorem for misère quotients with heaps 0..={last}"
                ),
            );
        }
        None => {
            line("preperiod", "-".to_owned());
            // Only a certified period is claimed: the heaps computed may
            // well repeat already (0.77 from heap 71 by 100), too few for
            // the theorem.
            line("period", format!("none certified up to heap {last}"));
            line("certified", format!("no: exact for heaps 0..={last} only"));
        }
    }
    let among = if quotient.is_certified() {
        String::new()
    } else {
        format!(" among heaps 0..={last}")
    };
    line(
        "tame",
        match quotient.tame() {
            Some(t) if t.max_heap == 0 => format!("yes: trivial (no move){among}"),
            Some(t) => format!(
                "yes: the quotient of misère Nim with heaps of at most {}{among}",
                t.max_heap
            ),
            None => format!("no (wild){among}"),
        },
    );
    out
}
