//! How a long computation runs: on a thread of its own, the interpreter
//! released (other Python threads run meanwhile), while the calling
//! thread waits and, every [`POLL`], checks the signals (Ctrl-C raises
//! `KeyboardInterrupt` there, as anywhere in Python) and reports the
//! progress to the caller's callback.
//!
//! A computation is stopped through its [`Stop`]: a Ctrl-C, a progress
//! callback that raises, or a game's callback that raises (a game defined
//! in Python) request it with the exception to raise. The engines look at
//! it where they already look at the time: the octal engine every 1024
//! heaps, the searches at every position they expand (the games are
//! wrapped, see `stoppable`). A search stops by unwinding from the
//! position it was expanding ([`Stop::check`], with the payload
//! [`Stopped`]) to [`run_detached`], which catches it: the search's
//! partial state is dropped, never read again, so no question of its
//! consistency arises; and no panic hook runs (`resume_unwind`), so
//! nothing is printed. Any other panic (a bug) becomes a `RuntimeError`,
//! never a `PanicException`.

use pyo3::exceptions::{PyKeyboardInterrupt, PyRecursionError, PyRuntimeError};
use pyo3::prelude::*;
use std::any::Any;
use std::cell::RefCell;
use std::ffi::{c_long, c_ulong};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::progress::Progress;

/// How often the waiting thread checks the signals.
const POLL: Duration = Duration::from_millis(50);

/// How often the progress is reported.
const REPORT_EVERY: Duration = Duration::from_millis(250);

/// How many computations may run at once in the process (nested or from
/// threads of the caller's); one more raises `RecursionError` at once.
pub(crate) const MAX_ACTIVE: u32 = 256;

/// The computations running now.
static ACTIVE: AtomicU32 = AtomicU32::new(0);

/// One of the [`ACTIVE`] computations, until dropped.
struct Active;

impl Active {
    fn enter() -> PyResult<Active> {
        if ACTIVE.fetch_add(1, Ordering::SeqCst) >= MAX_ACTIVE {
            ACTIVE.fetch_sub(1, Ordering::SeqCst);
            return Err(PyRecursionError::new_err(format!(
                "more than {MAX_ACTIVE} grundy computations at once: a game's callback that \
                 calls grundy (here through other threads) never ends"
            )));
        }
        Ok(Active)
    }
}

impl Drop for Active {
    fn drop(&mut self) {
        ACTIVE.fetch_sub(1, Ordering::SeqCst);
    }
}

/// How deep computations may nest: a game's callback may call grundy (on
/// another game, or a part of its own), whose callbacks may call it
/// again, to this depth; one deeper raises `RecursionError` at once. Each
/// level is a thread of its own, so a callback that asks grundy about the
/// very position it is called for would otherwise start threads without
/// end.
pub(crate) const MAX_NESTING: u32 = 32;

/// The request to stop a computation, and why.
#[derive(Default)]
pub(crate) struct Stop {
    requested: AtomicBool,
    reason: Mutex<Option<PyErr>>,
    /// The threads running Python code for the computation now (a game's
    /// callbacks), by their Python thread ident: a Ctrl-C interrupts the
    /// code there (see [`Stop::interrupt`]), as it interrupts code on the
    /// main thread.
    in_python: Mutex<Vec<c_ulong>>,
    /// How many computations this one is nested in (see [`MAX_NESTING`]).
    depth: AtomicU32,
}

/// A thread running Python code for a computation (see
/// [`Stop::in_python`]), until it is dropped.
pub(crate) struct InPython<'a> {
    stop: &'a Stop,
    ident: c_ulong,
    /// What [`CALLBACK_OF`] was before.
    outer: Option<Arc<Stop>>,
}

impl Drop for InPython<'_> {
    fn drop(&mut self) {
        CALLBACK_OF.with(|of| *of.borrow_mut() = self.outer.take());
        let mut threads = self
            .stop
            .in_python
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(at) = threads.iter().position(|&t| t == self.ident) {
            threads.swap_remove(at);
        }
    }
}

/// The payload a search unwinds with when it is stopped.
pub(crate) struct Stopped;

impl Stop {
    /// A stop not requested yet.
    pub(crate) fn new() -> Arc<Stop> {
        Arc::new(Stop::default())
    }

    /// Asks the computation to stop, raising `reason` (the first reason
    /// given is kept).
    pub(crate) fn request(&self, reason: PyErr) {
        let mut kept = self.reason.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.is_none() {
            *kept = Some(reason);
        }
        self.requested.store(true, Ordering::SeqCst);
    }

    /// Whether a stop was requested.
    #[inline]
    pub(crate) fn requested(&self) -> bool {
        self.requested.load(Ordering::Relaxed)
    }

    /// Unwinds to [`run_detached`] if a stop was requested.
    #[inline]
    pub(crate) fn check(&self) {
        if self.requested() {
            unwind();
        }
    }

    /// Marks this thread as running Python code for the computation (a
    /// game's callback) until the guard is dropped: a Ctrl-C meanwhile
    /// raises `KeyboardInterrupt` in that code. Taken before attaching to
    /// the interpreter, dropped after detaching (the lock is never held
    /// while waiting for the interpreter).
    pub(crate) fn in_python(self: &Arc<Self>) -> InPython<'_> {
        // SAFETY: `PyThread_get_thread_ident` only reads the calling
        // thread's identity (`pthread_self`); it needs no thread state.
        let ident = unsafe { pyo3::ffi::PyThread_get_thread_ident() };
        self.in_python
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(ident);
        let outer = CALLBACK_OF.with(|of| of.borrow_mut().replace(Arc::clone(self)));
        InPython {
            stop: self,
            ident,
            outer,
        }
    }

    /// Raises `KeyboardInterrupt` asynchronously in the Python code that
    /// the computation's threads are running (a callback in an endless
    /// loop would otherwise never see the stop): the exception is raised
    /// there at the next bytecode, propagates out of the callback, and the
    /// search stops as for any exception of a callback.
    fn interrupt(&self, _py: Python<'_>) {
        let threads = self
            .in_python
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        for ident in threads {
            // SAFETY: the interpreter is attached (`_py`), which
            // `PyThreadState_SetAsyncExc` requires; the exception is the
            // interpreter's `KeyboardInterrupt` type, which lives as long
            // as the interpreter (the call takes its own reference). An
            // ident no thread state has any longer is ignored (it returns
            // 0).
            unsafe {
                pyo3::ffi::PyThreadState_SetAsyncExc(
                    ident as c_long,
                    pyo3::ffi::PyExc_KeyboardInterrupt,
                );
            }
        }
    }

    /// The exception to raise, if a stop was requested.
    fn take_reason(&self) -> Option<PyErr> {
        self.reason
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }
}

/// Unwinds to [`run_detached`] (which must be below on the stack), with
/// the payload [`Stopped`], without running the panic hook.
pub(crate) fn unwind() -> ! {
    std::panic::resume_unwind(Box::new(Stopped))
}

thread_local! {
    /// The stop of the computation running on this thread, for the games
    /// built anew inside it (a certificate's writer builds the game from
    /// its rules).
    static CURRENT: RefCell<Option<Arc<Stop>>> = const { RefCell::new(None) };
    /// The stop of the computation whose game's callback runs on this
    /// thread now (see [`Stop::in_python`]): on any thread of its search,
    /// its own or a pool's.
    static CALLBACK_OF: RefCell<Option<Arc<Stop>>> = const { RefCell::new(None) };
}

/// The stop of the computation running on this thread (a stop never
/// requested outside one).
pub(crate) fn current_stop() -> Arc<Stop> {
    CURRENT.with(|current| current.borrow().clone().unwrap_or_default())
}

/// Whether a computation has ended, and the condition its waiter sleeps on.
#[derive(Default)]
struct Done {
    done: Mutex<bool>,
    changed: Condvar,
}

impl Done {
    fn finish(&self) {
        *self.done.lock().unwrap_or_else(PoisonError::into_inner) = true;
        self.changed.notify_all();
    }

    /// Waits until the computation has ended or `timeout` has passed;
    /// whether it has ended.
    fn wait(&self, timeout: Duration) -> bool {
        let done = self.done.lock().unwrap_or_else(PoisonError::into_inner);
        let (done, _) = self
            .changed
            .wait_timeout_while(done, timeout, |done| !*done)
            .unwrap_or_else(PoisonError::into_inner);
        *done
    }
}

/// Runs `work` on a thread of its own with the interpreter released, while
/// this thread checks the signals and reports `progress` (see the module
/// documentation). `work` may attach to the interpreter (a game's
/// callbacks): its thread holds one thread state for the whole run, so
/// that each callback attaches cheaply. Returns what `work` returns, or
/// raises the reason of the stop, or a `RuntimeError` for a panic.
pub(crate) fn run_detached<'py, R: Send>(
    py: Python<'py>,
    stop: &Arc<Stop>,
    progress: &mut Progress<'py, '_>,
    work: impl FnOnce() -> R + Send,
) -> PyResult<R> {
    // Nested in the computation whose callback runs here (on whichever
    // thread of its search), or in the one running on this thread: it
    // stops when that one stops.
    let outer = CALLBACK_OF
        .with(|of| of.borrow().clone())
        .or_else(|| CURRENT.with(|current| current.borrow().clone()));
    let depth = outer
        .as_ref()
        .map_or(0, |outer| outer.depth.load(Ordering::Relaxed) + 1);
    if depth > MAX_NESTING {
        return Err(PyRecursionError::new_err(format!(
            "grundy was called from a game's callback more than {MAX_NESTING} levels deep: a \
             callback that asks grundy about the position it is called for never ends"
        )));
    }
    // Computations at once, on any thread: a callback that calls grundy
    // through threads of its own escapes the depth above, not this.
    let _active = Active::enter()?;
    stop.depth.store(depth, Ordering::Relaxed);
    let done = Done::default();
    let stack = worker_stack(py);
    let outcome = std::thread::scope(|scope| {
        let thread = std::thread::Builder::new()
            .name("grundy".to_owned())
            .stack_size(stack)
            .spawn_scoped(scope, || {
                CURRENT.with(|current| *current.borrow_mut() = Some(Arc::clone(stop)));
                let result =
                    Python::attach(|py| py.detach(|| catch_unwind(AssertUnwindSafe(work))));
                CURRENT.with(|current| *current.borrow_mut() = None);
                done.finish();
                result
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        // A computation started by a callback of another (a game's
        // callback calling grundy) stops when that one stops: only the
        // main thread sees the signals.
        let mut reported = Instant::now();
        while !py.detach(|| done.wait(POLL)) {
            if let Some(outer) = &outer
                && outer.requested()
                && !stop.requested()
            {
                stop.request(PyKeyboardInterrupt::new_err("stopped"));
                stop.interrupt(py);
            }
            // Signals are checked even once a stop is requested: another
            // Ctrl-C interrupts a callback that caught the first one.
            if let Err(e) = py.check_signals() {
                stop.request(e);
                stop.interrupt(py);
            } else if stop.requested() {
                continue;
            } else if reported.elapsed() >= REPORT_EVERY {
                reported = Instant::now();
                if let Err(e) = progress.report(py) {
                    stop.request(e);
                }
            }
        }
        thread
            .join()
            .map_err(|payload| internal_error(payload.as_ref()))
    })?;
    if let Some(reason) = stop.take_reason() {
        progress.close(py);
        return Err(reason);
    }
    match outcome {
        Ok(result) => {
            progress.finish(py)?;
            Ok(result)
        }
        Err(payload) => {
            progress.close(py);
            Err(if payload.is::<Stopped>() {
                PyKeyboardInterrupt::new_err("stopped")
            } else {
                internal_error(payload.as_ref())
            })
        }
    }
}

/// The stack of the thread a computation runs on, where a game's
/// callbacks run and the `__hash__` and `__eq__` of its positions, which
/// recurse through nested positions in C: [`WORKER_STACK`], more than a
/// Python thread has (the platform's 8 MiB), or `threading.stack_size()`
/// if larger; never the 2 MiB of a Rust thread, on which a position that
/// Python hashes on any of its threads would overflow the stack. Only the
/// pages touched are used. (The search's own threads, with `threads=`,
/// have as much: `sg_search`'s pool.)
fn worker_stack(py: Python<'_>) -> usize {
    let asked = py
        .import("threading")
        .and_then(|threading| threading.getattr("stack_size")?.call0()?.extract::<usize>())
        .unwrap_or(0);
    asked.max(WORKER_STACK)
}

/// The least stack of a computation's thread.
const WORKER_STACK: usize = 16 << 20;

/// The `RuntimeError` for a panic (a bug of the module: no input should
/// reach one).
fn internal_error(payload: &(dyn Any + Send)) -> PyErr {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_owned());
    PyRuntimeError::new_err(format!(
        "internal error of grundy (please report it): {}",
        sg_text::escape_line(&what)
    ))
}
