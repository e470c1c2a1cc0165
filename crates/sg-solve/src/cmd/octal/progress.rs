//! The progress bar of a long `grundy octal` run or check (on a terminal,
//! once the work has lasted a second): heaps done, the time since the work
//! started, and a rate and an ETA once they mean something
//! ([`with_progress`]).
//!
//! The rate is the mean over the whole run, `(heaps done - heaps at the
//! start) / time since the start`, shown only when the run has lasted
//! [`RATE_AFTER`] and has computed heaps. (A rate from the bar's own
//! clock, which starts when the bar appears after a second of work,
//! showed `0/s`, then billions per second: the heaps done before the bar
//! divided by a few microseconds.)

use indicatif::ProgressStyle;
use indicatif::{FormattedDuration, HumanCount, ProgressBar, ProgressDrawTarget, ProgressState};
use std::fmt::Write;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How long a run lasts before its rate is shown.
pub(crate) const RATE_AFTER: Duration = Duration::from_secs(1);

/// Heaps per second over a run that started at `first` heaps `elapsed`
/// ago and is at `done` now; `None` before it means something (less than
/// [`RATE_AFTER`], or no heap computed yet).
pub(crate) fn mean_rate(first: u64, done: u64, elapsed: Duration) -> Option<f64> {
    if elapsed < RATE_AFTER || done <= first {
        return None;
    }
    Some((done - first) as f64 / elapsed.as_secs_f64())
}

/// Runs `work` with a progress callback (heaps done so far) that draws a
/// bar labelled `what` for heaps `first..=to` on standard error, when it
/// is a terminal and once the work has lasted a second; the bar is
/// cleared at the end. Off a terminal, a line now and then
/// ([`crate::cmd::shared::ProgressLog`]).
pub(crate) fn with_progress<R>(
    what: &'static str,
    first: u64,
    to: u64,
    work: impl FnOnce(&mut dyn FnMut(u64)) -> R,
) -> R {
    let start = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    let show = std::io::stderr().is_terminal();
    let mut log = crate::cmd::shared::ProgressLog::new();
    let mut progress = |done: u64| {
        if !show {
            log.tick(|| {
                let rate = mean_rate(first, done, start.elapsed())
                    .map(|r| format!(", {}/s", HumanCount(r as u64)))
                    .unwrap_or_default();
                format!(
                    "{what}: heaps 0..{} of 0..={}{rate}",
                    HumanCount(done),
                    HumanCount(to)
                )
            });
            return;
        }
        let bar = match &bar {
            Some(bar) => bar,
            None if start.elapsed() > Duration::from_secs(1) => {
                bar.insert(new_bar(what, to, first, start))
            }
            None => return,
        };
        bar.set_position(done);
    };
    let result = work(&mut progress);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    result
}

/// A progress bar on standard error for heaps `first..=to` of work that
/// started at `start` (a run stops sooner if a period is certified: the
/// ETA is an upper bound on the heaps left, estimated at the mean rate);
/// drawn when its position is first set.
fn new_bar(what: &'static str, to: u64, first: u64, start: Instant) -> ProgressBar {
    let len = to.saturating_add(1);
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let rate = move |state: &ProgressState| mean_rate(first, state.pos(), start.elapsed());
    bar.set_style(
        ProgressStyle::with_template(
            "{msg} [{run_time}] {wide_bar} {human_pos}/{human_len} heaps, {rate}, ETA {run_eta}",
        )
        .expect("the template is valid")
        .with_key("run_time", move |_: &ProgressState, w: &mut dyn Write| {
            let _ = write!(w, "{}", FormattedDuration(start.elapsed()));
        })
        .with_key("rate", move |state: &ProgressState, w: &mut dyn Write| {
            let _ = match rate(state) {
                Some(r) => write!(w, "{}/s", HumanCount(r as u64)),
                None => write!(w, "-/s"),
            };
        })
        .with_key(
            "run_eta",
            move |state: &ProgressState, w: &mut dyn Write| {
                let _ = match rate(state) {
                    Some(r) => {
                        let left = len.saturating_sub(state.pos()) as f64 / r;
                        write!(
                            w,
                            "{}",
                            FormattedDuration(Duration::from_secs_f64(left.min(1e9)))
                        )
                    }
                    None => write!(w, "-"),
                };
            },
        ),
    );
    bar.set_message(what);
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_only_once_it_means_something() {
        let second = Duration::from_secs(1);
        assert_eq!(mean_rate(0, 0, 10 * second), None);
        assert_eq!(mean_rate(0, 5_000_000, second / 2), None);
        assert_eq!(mean_rate(7, 7, 3 * second), None);
        assert_eq!(mean_rate(1000, 5000, 2 * second), Some(2000.0));
        // Never more than the heaps done per second of the run.
        for ms in [1000, 1001, 5000, 123_456] {
            let r = mean_rate(0, 4_390_912, Duration::from_millis(ms)).unwrap();
            assert!(r <= 4_390_912.0, "{r}");
        }
    }
}
