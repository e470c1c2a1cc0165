//! `grundy octal`: the Grundy sequence of a take-and-break game (octal or
//! hexadecimal code, Grundy's game, a subtraction set), its certified
//! period, and who wins a sum of heaps; answered from the compiled-in
//! catalogue when it has the game, computed otherwise, and written to or
//! resumed from a table file.

mod misere;
mod progress;
pub(super) mod run;

use super::numbers::number;
use super::shared::{UsageError, check_simd_variable, destination, print_error};
use anyhow::{Context, Result};
use run::{Checkpoints, Ended, Request, Resume, Run, RunError, bad_input};
use serde_json::json;
use sg_octal::misere::{DEFAULT_MAX_ORDER, MAX_ORDER};
use sg_octal::{OctalError, PeriodicSequence, SIMD_VARIABLE, simd_used, winning_move};
use sg_solve::answer::write_json_line;
use sg_solve::octal::answers::{say_move, unknown_value};
use sg_solve::octal::args::{parse_code, parse_subtraction};
use sg_solve::octal::summary::text_summary;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The default largest heap: 2^25.
const DEFAULT_TO: u64 = 1 << 25;

/// The default of `--checkpoint-every`.
pub(crate) const DEFAULT_CHECKPOINT_EVERY: &str = "10m";

/// The Grundy sequence of a take-and-break game and its certified period.
#[derive(clap::Args, Debug)]
#[command(
    long_about = "The Grundy sequence of a take-and-break game and its certified period.\n\n\
    CODE is a Winning Ways code d0.d1d2...dk (digit d_i for taking i tokens: bit 1 = take \
    the whole heap, 2 = leave one heap, 4 = leave two, 8 = leave three; d0 is 0 or 4), e.g. \
    0.77 (Kayles), 0.07 (Dawson's Kayles), .6 (Officers), 4.007; or grundys-game; or give \
    --subtract 1,3,4 instead. Values are computed for heaps 0..=N, stopping as soon as a \
    period is certified by the periodicity theorem; games 0.ddd and 4.ddd solved in the \
    compiled-in catalogue are answered from it at once.\n\n\
    Examples:\n  grundy octal 0.77\n  grundy octal .6 --to 100000 --json\n  \
    grundy octal 0.07 --heaps 10 20 30 --hint\n  grundy octal --subtract 1,3,4 --values --to 20\n  \
    grundy octal .6 --to 1000000 --out officers.sgt\n  \
    grundy octal .6 --to 2000000 --resume officers.sgt --out officers.sgt\n  \
    grundy octal 0.75 --misere\n  grundy octal 0.77 --misere --heaps 4 7 9 --hint\n\n\
    Misère play (--misere; the player who makes the last move loses): the misère quotient \
    of Plambeck and Siegel is computed heap by heap, each step proven, until its pretending \
    function is certified periodic (then it holds for every heap) or heap N. It stops \
    sooner, exact for the heaps before and saying why, when the quotient would outgrow \
    --max-order elements (the order it needs is named), when --max-seconds pass, or when a \
    candidate for a heap is refuted and shows nothing to learn from (the least failing sum \
    is named).\n\n\
    A long run stopped by Ctrl-C, SIGTERM or SIGHUP prints what it has proven: the \
    summary (or --json) of the heaps computed, or the misère quotient of the heaps proven, \
    with a `stopped` line saying so (exit status 0); --values prints the values computed \
    and --heaps the answer if they cover it, else exit status 128 + the signal's number. \
    A second signal stops it at once. With --out FILE, the values computed so far are \
    written to FILE every --checkpoint-every (10 minutes by default), each time replacing \
    FILE whole, and once more when the run is stopped by a signal (exit status 128 + the \
    signal's number). Continue a stopped or killed run with --resume FILE --out FILE and \
    the same --to: it ends with the file an uninterrupted run writes. With --misere, --out \
    FILE stores the quotient of the heaps proven (at the end, and every \
    --checkpoint-every), and --misere --resume FILE proves the stored quotient from the \
    rules before extending it.\n\n\
    The engine uses the AVX-512 or AVX2 kernels the CPU has; for benchmarking, the \
    environment variable GRUNDY_OCTAL_SIMD=avx2 (no AVX-512 kernel) or portable (neither) \
    shows what a CPU without them gets."
)]
pub(crate) struct Args {
    /// The game: a code such as 0.77, .6, 4.007, 0.f, or grundys-game.
    #[arg(value_name = "CODE", required_unless_present_any = ["subtract", "resume"])]
    code: Option<String>,
    /// A finite subtraction set instead of a code, e.g. 1,3,4.
    #[arg(long, value_name = "SET", conflicts_with = "code")]
    subtract: Option<String>,
    /// The largest heap to compute (default 2^25); the run stops sooner
    /// when a period is certified.
    #[arg(long, value_name = "N", value_parser = number::<u64>(0, u64::MAX))]
    to: Option<u64>,
    /// Worker threads (default: one per CPU). Any count works and the
    /// values never depend on it; a run uses at most one per core it may
    /// run on (and 31), and only its own while the others do not help (a
    /// machine busy with other work); the check of --resume all of them.
    #[arg(long, value_name = "T", value_parser = number::<u32>(1, 1024))]
    threads: Option<u32>,
    /// Print one JSON object: code, computed_to, preperiod, period,
    /// certified, max_value, rare_mask, rare_count, last_rare, stopped
    /// (null, or heap and reason when a signal stopped the run); with
    /// --heaps: outcome, value (the XOR of the heaps' values) and, with
    /// --hint, move (heap, 1-based; size; take; leaves).
    #[arg(long, conflicts_with = "values")]
    json: bool,
    /// Print G(0) to G(N), one per line (through the certified period
    /// beyond the heaps computed).
    #[arg(long, conflicts_with = "heaps")]
    values: bool,
    /// Print WIN or LOSE for the sum of these heaps (each below 2^63).
    #[arg(long, value_name = "H", num_args = 1..,
          value_parser = number::<u64>(0, (1 << 63) - 1))]
    heaps: Option<Vec<u64>>,
    /// With --heaps: also print a winning move, as a player would say it
    /// (e.g. `move: in the third heap (30 tokens), take 3 and split the
    /// rest into 2 and 25`).
    #[arg(long, requires = "heaps")]
    hint: bool,
    /// Write the values computed to this table file (.sgt, kind "octal
    /// sequence"; with --misere the quotient, kind "misère quotient"): a
    /// new file, or a regular file that can be written (checked before the
    /// run; never a link, device or FIFO), replaced whole through a
    /// temporary file and a rename.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// With --out, write the values computed so far to FILE this often
    /// while the run computes (e.g. 30s, 10m, 2h 30m), and once more if
    /// the run is stopped by a signal; --resume FILE continues.
    #[arg(long, value_name = "DURATION", requires = "out",
          default_value = DEFAULT_CHECKPOINT_EVERY, value_parser = parse_duration)]
    checkpoint_every: Duration,
    /// Continue the run stored in this table file (made by --out, or a
    /// checkpoint of it): every value is checked (each heap's from the
    /// stored values below it, on every thread), then the run is extended
    /// to N. With --misere, a stored quotient: proven the quotient of the
    /// game's heaps from the rules, then extended.
    #[arg(long, value_name = "FILE")]
    resume: Option<PathBuf>,
    /// With --resume: skip the check of the stored values, for a file you
    /// made yourself with --out. A file made wrong (by hand, by another
    /// program) then gives wrong answers; its checksum guards only
    /// against corruption.
    #[arg(long, requires = "resume")]
    trust_resume: bool,
    /// Compute even if the compiled-in catalogue has the game.
    #[arg(long)]
    online: bool,
    /// Answer from the octal-runs tables of DIR (written by `grundy sweep
    /// merge`), the game's record checked before use (every value computed
    /// anew from those below it), and extended when it stops short of N;
    /// a game no table holds is computed.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["resume", "online"])]
    tables: Option<PathBuf>,
    /// Misère play (the player who makes the last move loses): the misère
    /// quotient of the heaps 0..=N (order, P-portion, presentation,
    /// pretending function, certified period), or with --heaps who wins and
    /// how. --to defaults to 16384 here (each heap costs a pass over its
    /// options: 0.561, never certified, takes 0.5 s to 16384 and 27 s to
    /// 10^5; a code leaving three heaps, a digit with 8, costs the cube:
    /// 4.81c takes 31 s to 4000, half an hour to 16384; docs/OCTAL.md).
    /// A sum with a heap beyond the quotient is answered by a search of
    /// the sum itself (said on standard error); without --to and --out, a
    /// quotient that stalls at a heap gives way to that search.
    #[arg(long)]
    misere: bool,
    /// With --misere: the most elements the quotient may have (default
    /// 1024, at most 4096; its table takes 2 bytes per pair of elements);
    /// the quotient is then exact up to the last heap before the limit.
    #[arg(long, value_name = "M", value_parser = number::<usize>(1, MAX_ORDER as u64))]
    max_order: Option<usize>,
    /// With --misere: stop after S seconds and print the quotient of the
    /// heaps proven by then, `stopped` saying so (exit status 0).
    #[arg(long, value_name = "S", value_parser = number::<u64>(1, 1 << 32))]
    max_seconds: Option<u64>,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let rules = match (&args.code, &args.subtract) {
        (Some(code), _) => match parse_code(code) {
            Ok(rules) => Some(rules),
            Err(message) => return Ok(bad_input(message)),
        },
        (None, Some(set)) => match parse_subtraction(set) {
            Ok(rules) => Some(rules),
            Err(message) => return Ok(bad_input(message)),
        },
        (None, None) => None,
    };
    if args.misere || args.max_order.is_some() || args.max_seconds.is_some() {
        return misere(&args, rules);
    }
    // The kernels' override (for benchmarking), checked before the run.
    if let Err(UsageError(message)) =
        check_simd_variable(SIMD_VARIABLE, "the octal engine", || simd_used().name())
    {
        return Ok(bad_input(message));
    }
    // Before the run, which may be long.
    let out_file = args.out.as_deref().map(destination).transpose()?;
    super::threads::start_global_pool(args.threads)?;
    let to = target(args.to, args.heaps.as_deref());
    let resume = args.resume.as_deref().map(|path| Resume {
        path,
        trust: args.trust_resume,
    });
    let checkpoints = out_file.as_ref().map(|destination| Checkpoints {
        destination,
        every: args.checkpoint_every,
    });
    let run = match Run::obtain(Request {
        rules,
        to,
        resume,
        online: args.online,
        tables: args.tables.as_deref(),
        checkpoints,
    }) {
        Ok(Ended::Done(run)) => run,
        Ok(Ended::Stopped { signal, computed }) => {
            let out = args.out.as_deref().expect("checkpoints only with --out");
            // The command to continue, with the path as a shell reads it
            // (`'a'\''b'`); a path that cannot be shown whole on a line
            // is named FILE, never shown in a form a shell would misread.
            let (word, note) = match sg_text::shell_word(out) {
                Some(word) => (word, ""),
                None => ("FILE".to_owned(), "FILE being the file written; "),
            };
            // Not `eprintln!`, which panics where standard error cannot be
            // written (`2>/dev/full`): the exit status still tells.
            let _ = writeln!(
                std::io::stderr(),
                "stopped by signal {signal}: G(0..{computed}) written to {path}; continue with\n  \
                 grundy octal --resume {word} --out {word} --to {to}\n\
                 ({note}with --trust-resume, the values it wrote are not checked again)",
                path = sg_text::shown_path(out),
            );
            return Ok(super::shared::signal_exit(signal));
        }
        Ok(Ended::StoppedChecking {
            signal,
            checked,
            stored,
        }) => {
            let _ = writeln!(
                std::io::stderr(),
                "stopped by {} while checking the stored values ({checked} of {stored} \
                 checked): nothing computed, nothing written; the same command starts \
                 again (--trust-resume skips the check of a file you made)",
                super::shared::signal_name(signal),
            );
            return Ok(super::shared::signal_exit(signal));
        }
        Err(RunError::Refused(refused)) => return Ok(bad_input(refused)),
        Err(RunError::Failed(error)) => return Err(error),
    };
    if let Some(out_file) = &out_file {
        run.write(out_file)?;
    }
    let stdout = std::io::stdout().lock();
    let mut out = BufWriter::new(stdout);
    // Stopped by a signal: the answers that cannot say so (the values, a
    // sum's outcome) end with 128 + its number, as the signal would have
    // ended the process, and a line on standard error.
    let signalled = |what: &str| {
        let signal = run.stopped.expect("stopped");
        print_error(format_args!(
            "stopped by {} at heap {}: {what}",
            super::shared::signal_name(signal),
            run.values.len()
        ));
        super::shared::signal_exit(signal)
    };
    let status = if let Some(heaps) = &args.heaps {
        match answer_heaps(&run, heaps, args.hint, args.json) {
            Ok(text) => {
                out.write_all(text.as_bytes()).context(CANNOT_WRITE)?;
                ExitCode::SUCCESS
            }
            Err(message) if run.stopped.is_some() => signalled(&message),
            Err(message) => bad_input(message),
        }
    } else if args.values {
        write_values(&run, args.to.unwrap_or(DEFAULT_TO), &mut out).context(CANNOT_WRITE)?;
        match run.stopped {
            Some(_) => {
                out.flush().context(CANNOT_WRITE)?;
                signalled(&match run.values.len() {
                    0 => "no value printed".to_owned(),
                    n => format!("G(0..={}) printed", n - 1),
                })
            }
            None => ExitCode::SUCCESS,
        }
    } else if args.json {
        let mut line = Vec::new();
        write_json_line(&mut line, &json_summary(&run));
        out.write_all(&line).context(CANNOT_WRITE)?;
        ExitCode::SUCCESS
    } else {
        let stopped = run.stopped.map(stopped_reason);
        out.write_all(text_summary(&run.summary, run.source, stopped.as_deref()).as_bytes())
            .context(CANNOT_WRITE)?;
        ExitCode::SUCCESS
    };
    out.flush().context(CANNOT_WRITE)?;
    Ok(status)
}

/// `--misere`: refuses the options that have no meaning in misère play
/// (one line each), then answers through the misère quotient.
fn misere(args: &Args, rules: Option<sg_octal::Rules>) -> Result<ExitCode> {
    if !args.misere {
        return Ok(bad_input(if args.max_order.is_some() {
            "--max-order bounds the misère quotient: it needs --misere"
        } else {
            "--max-seconds bounds the misère construction: it needs --misere"
        }));
    }
    let refused = [
        (args.values, "--values prints normal-play Grundy values"),
        (
            args.trust_resume,
            "--trust-resume: a stored misère quotient is always checked",
        ),
        (args.online, "--online skips the normal-play catalogue"),
        (
            args.tables.is_some(),
            "--tables reads normal-play Grundy values",
        ),
        (
            args.threads.is_some(),
            "--threads: the misère construction runs on one thread",
        ),
    ];
    if let Some((_, why)) = refused.iter().find(|(given, _)| *given) {
        return Ok(bad_input(format!("{why}; it cannot be used with --misere")));
    }
    // Before the run, which may be long.
    let out = args.out.as_deref().map(destination).transpose()?;
    let resume = match args.resume.as_deref() {
        Some(path) => match stored_quotient(path, rules.as_ref())? {
            Ok((rules, stored)) => Some((path, rules, stored)),
            Err(message) => return Ok(bad_input(message)),
        },
        None => None,
    };
    let rules = match (&resume, rules) {
        (Some((_, rules, _)), _) => rules.clone(),
        (None, Some(rules)) => rules,
        (None, None) => unreachable!("clap requires a game without --resume"),
    };
    // With --heaps, the quotient the same options' summary prints (to
    // --to when given, so that an element is named as there), else to the
    // largest heap, which is all a sum needs.
    let to = match args.to {
        Some(to) => to,
        None => target(Some(sg_octal::misere::DEFAULT_TO), args.heaps.as_deref()),
    };
    misere::run(
        &rules,
        misere::Question {
            to,
            max_order: args.max_order.unwrap_or(DEFAULT_MAX_ORDER),
            max_seconds: args.max_seconds,
            heaps: args.heaps.as_deref(),
            hint: args.hint,
            json: args.json,
            out: out.as_ref(),
            checkpoint_every: args.checkpoint_every,
            give_way: args.heaps.is_some() && args.to.is_none() && out.is_none(),
            resume: resume.map(|(path, _, stored)| (path, stored)),
        },
    )
}

/// The misère quotient stored in `path` (`--misere --resume`), its form
/// read (its content is checked by the run), with its game; a message if
/// the file is not such a table or holds another game than `rules`.
fn stored_quotient(
    path: &std::path::Path,
    rules: Option<&sg_octal::Rules>,
) -> Result<Result<(sg_octal::Rules, sg_octal::misere::StoredQuotient), String>> {
    let shown = sg_text::shown_path(path);
    let file = match sg_tables::read_file(path) {
        Ok(file) => file,
        Err(sg_tables::TableError::Io { error, .. }) if super::shared::wrong_path(&error) => {
            return Ok(Err(format!("--resume {shown}: {error}")));
        }
        Err(e @ sg_tables::TableError::Io { .. }) => return Err(e.into()),
        Err(e) => return Ok(Err(format!("--resume {shown}: {e}"))),
    };
    let stored = match file.table().misere_quotient() {
        Ok(stored) => stored,
        Err(e) => return Ok(Err(format!("--resume {shown}: {e}"))),
    };
    if let Some(rules) = rules
        && rules != stored.rules()
    {
        return Ok(Err(format!(
            "--resume {shown}: the file holds the game {}, not {rules}",
            stored.rules()
        )));
    }
    let rules = stored.rules().clone();
    Ok(Ok((rules, stored.into_stored())))
}

/// The largest heap to compute: `--to` (default 2^25), or with `--heaps`
/// no further than their largest heap, which is all a sum needs.
fn target(to: Option<u64>, heaps: Option<&[u64]>) -> u64 {
    let to = to.unwrap_or(DEFAULT_TO);
    match heaps.and_then(|h| h.iter().max()) {
        Some(&largest) => to.min(largest),
        None => to,
    }
}

/// Parses `--checkpoint-every`: a duration such as `30s`, `10m`, `2h 30m`
/// (at least a millisecond).
pub(crate) fn parse_duration(text: &str) -> Result<Duration, String> {
    let duration = humantime::parse_duration(text)
        .map_err(|e| format!("{e}: expected a duration such as 30s, 10m or 2h 30m"))?;
    if duration < Duration::from_millis(1) {
        return Err("a duration of at least 1ms is expected".to_owned());
    }
    Ok(duration)
}

/// What a failed write of the answer says.
pub(crate) const CANNOT_WRITE: &str = "cannot write the answer";

/// `--values`: `G(0)` to `G(to)`, through the period beyond the values.
fn write_values(run: &Run, to: u64, out: &mut impl Write) -> std::io::Result<()> {
    let periodic = run.periodic();
    let known = run.values.len() as u64;
    let last = match &periodic {
        Some(_) => to,
        None => to.min(known.saturating_sub(1)),
    };
    for heap in 0..=last {
        let value = match &periodic {
            Some(p) => p.value(heap),
            None => run.values[heap as usize],
        };
        writeln!(out, "{value}")?;
    }
    Ok(())
}

/// `--heaps`: WIN or LOSE, and with `hint` a winning move, as text or
/// (with `json`) as one JSON object; an error message when a heap's value
/// is not known.
fn answer_heaps(run: &Run, heaps: &[u64], hint: bool, json: bool) -> Result<String, String> {
    let periodic: Option<PeriodicSequence> = run.periodic();
    let found = match &periodic {
        Some(p) => winning_move(&run.summary.rules, p, heaps),
        None => winning_move(&run.summary.rules, &run.values[..], heaps),
    };
    let found = found.map_err(|e| match e {
        OctalError::TooManyHeaps { heap } => unknown_value(
            &run.summary.rules,
            run.values.len().saturating_sub(1) as u64,
            heap,
            |heap| format!("raise --to to {heap}"),
        ),
        e => e.to_string(),
    })?;
    let outcome = if found.is_some() { "WIN" } else { "LOSE" };
    let hint = found.filter(|_| hint);
    if json {
        // Every heap's value is known: `winning_move` read them all.
        let value = heaps.iter().fold(0, |x, &h| {
            x ^ match &periodic {
                Some(p) => p.value(h),
                None => run.values[h as usize],
            }
        });
        let answer = HeapsJson {
            outcome,
            value,
            hint: hint.as_ref().map(|m| MoveJson {
                heap: m.heap + 1,
                size: heaps[m.heap],
                take: m.take,
                leaves: &m.leaves,
            }),
        };
        let mut line = Vec::new();
        write_json_line(&mut line, &answer);
        return Ok(String::from_utf8(line).expect("JSON is UTF-8"));
    }
    Ok(match hint {
        Some(m) => format!("{outcome}\nmove: {}\n", say_move(&m, heaps[m.heap])),
        None => format!("{outcome}\n"),
    })
}

/// `--heaps --json`: who wins, and with `--hint` how.
#[derive(serde::Serialize)]
struct HeapsJson<'a> {
    outcome: &'static str,
    /// The XOR of the heaps' values.
    value: u16,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    hint: Option<MoveJson<'a>>,
}

/// A winning move in `--heaps --json`.
#[derive(serde::Serialize)]
struct MoveJson<'a> {
    /// The heap moved in, 1-based in the list given.
    heap: usize,
    /// Its tokens.
    size: u64,
    /// Tokens taken.
    take: u64,
    /// The heaps left in its place.
    leaves: &'a [u64],
}

/// `--json`: the summary as one JSON object.
fn json_summary(run: &Run) -> serde_json::Value {
    let s = &run.summary;
    json!({
        "code": s.rules.to_string(),
        "computed_to": s.computed.saturating_sub(1),
        "preperiod": s.period.map(|p| p.preperiod),
        "period": s.period.map(|p| p.period),
        "certified": s.period.is_some(),
        "max_value": s.max_value,
        "rare_mask": s.rare_mask,
        "rare_count": s.rare_count,
        "last_rare": s.last_rare,
        "stopped": run.stopped.map(|signal| json!({
            "heap": s.computed,
            "reason": stopped_reason(signal),
        })),
    })
}

/// Why a run stopped by `signal` covers the heaps it covers.
fn stopped_reason(signal: i32) -> String {
    format!("stopped by {}", super::shared::signal_name(signal))
}
