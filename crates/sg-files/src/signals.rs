//! The stop signals (`SIGINT`, `SIGTERM`, `SIGHUP`) of a process that
//! writes files through [`safe_write`](crate::safe_write): the first write
//! starts a thread that, on one of them, removes the temporary files being
//! written and then ends the process as the signal would have (a signal
//! that was ignored when the process started stays ignored). A long run
//! that checkpoints asks for the first of them to be only recorded
//! ([`StopSignals`]), so that it writes its last checkpoint before it
//! ends; a library loaded into a program that handles them itself never
//! starts the thread ([`leave_signals_to_host`]).

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// Whether a [`StopSignals`] is alive: the first stop signal is then
/// recorded instead of ending the process.
static CATCHING: AtomicBool = AtomicBool::new(false);
/// The stop signal recorded while a [`StopSignals`] was alive (0: none).
static CAUGHT: AtomicI32 = AtomicI32::new(0);

/// While alive, the first `SIGINT`, `SIGTERM` or `SIGHUP` does not end the
/// process: it is recorded ([`StopSignals::caught`]) for a long run that
/// polls it, writes what it has (a checkpoint, through
/// [`Destination`](crate::safe_write::Destination))
/// and ends by itself. A second one ends the process as always (removing
/// the temporary files being written). Once it is dropped, the signals end
/// the process again. A signal ignored when the process started stays
/// ignored. Without Unix signals it catches nothing.
#[derive(Debug)]
pub struct StopSignals {
    _private: (),
}

impl StopSignals {
    /// Starts catching the stop signals (one at a time in a process).
    pub fn catch() -> Self {
        remove_temporaries_on_signals();
        CAUGHT.store(0, Ordering::SeqCst);
        CATCHING.store(true, Ordering::SeqCst);
        Self { _private: () }
    }

    /// The signal caught since [`StopSignals::catch`], if any (its number:
    /// 2 for `SIGINT`, 15 for `SIGTERM`, 1 for `SIGHUP`).
    pub fn caught(&self) -> Option<i32> {
        match CAUGHT.load(Ordering::SeqCst) {
            0 => None,
            signal => Some(signal),
        }
    }
}

impl Drop for StopSignals {
    fn drop(&mut self) {
        CATCHING.store(false, Ordering::SeqCst);
    }
}

/// Whether the signal thread must never start ([`leave_signals_to_host`]).
static HOST_HANDLES_SIGNALS: AtomicBool = AtomicBool::new(false);

/// For a library loaded into another program (the Python module, in an
/// interpreter that handles `SIGINT` itself): the writes never start the
/// thread that handles `SIGINT`, `SIGTERM` and `SIGHUP`, so the host's
/// handling of them stays as it is (Ctrl-C raises `KeyboardInterrupt`
/// and leaves the interpreter running, instead of ending the process).
/// A temporary file is still removed on every failure, and a write is
/// not interrupted by a signal the host handles by itself; a signal that
/// ends the process in the middle of a write can leave one, as `SIGKILL`
/// can. Call it before the first write; it has no effect once the
/// thread has started.
pub fn leave_signals_to_host() {
    HOST_HANDLES_SIGNALS.store(true, Ordering::SeqCst);
}

/// Starts, once, the thread that on `SIGINT`, `SIGTERM` or `SIGHUP`
/// removes the temporary files being written, then ends the process as
/// the signal would have; while a [`StopSignals`] is alive, it only
/// records the first one. A signal ignored when it is started (`nohup`,
/// a background job of a script) is left ignored.
pub(crate) fn remove_temporaries_on_signals() {
    if HOST_HANDLES_SIGNALS.load(Ordering::SeqCst) {
        return;
    }
    #[cfg(unix)]
    {
        use crate::live::live;
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        static STARTED: std::sync::Once = std::sync::Once::new();
        STARTED.call_once(|| {
            let handled: Vec<libc::c_int> = [SIGINT, SIGTERM, SIGHUP]
                .into_iter()
                .filter(|&signal| !is_ignored(signal))
                .collect();
            let Ok(mut signals) = signal_hook::iterator::Signals::new(&handled) else {
                return;
            };
            let _ = std::thread::Builder::new()
                .name("temporary files".to_owned())
                .spawn(move || {
                    for signal in signals.forever() {
                        if CATCHING.load(Ordering::SeqCst)
                            && CAUGHT
                                .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
                                .is_ok()
                        {
                            continue;
                        }
                        // Held to the end: no rename or new file meanwhile.
                        let live = live();
                        for path in live.iter() {
                            let _ = std::fs::remove_file(path);
                        }
                        let _ = signal_hook::low_level::emulate_default_handler(signal);
                        std::process::exit(128 + signal);
                    }
                });
        });
    }
}

/// Whether `signal` is ignored (`SIG_IGN`) in this process.
#[cfg(unix)]
fn is_ignored(signal: libc::c_int) -> bool {
    // SAFETY: `sigaction` with a null new action changes nothing; it only
    // writes the current action into `current`, a valid, writable, zeroed
    // `struct sigaction` (all-zero is a valid value of it).
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut current) == 0
            && current.sa_sigaction == libc::SIG_IGN
    }
}
