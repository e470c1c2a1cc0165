//! Progress bars (indicatif) for generations long enough to want one.

use indicatif::{ProgressBar, ProgressStyle};
use sg_tables::generate;

/// A progress bar, or nothing for a short generation.
pub(crate) struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// No bar.
    pub(crate) fn hidden() -> Self {
        Self { bar: None }
    }

    /// A bar labelled `label` if the work is expected to take over about a
    /// second (`expected_ns`, a generous estimate), otherwise nothing.
    pub(crate) fn for_work(label: &str, expected_ns: u64) -> Self {
        if expected_ns < 1_000_000_000 {
            return Self::hidden();
        }
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template(
                "{msg:>16} [{elapsed_precise}] {wide_bar} {pos}/{len} {eta}",
            )
            .expect("the template is valid"),
        );
        bar.set_message(label.to_owned());
        Self { bar: Some(bar) }
    }

    /// Removes the bar at the end of the generation.
    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

impl generate::Progress for Progress {
    fn start(&self, steps: u64) {
        if let Some(bar) = &self.bar {
            bar.set_length(steps);
        }
    }

    fn advance(&self, steps: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(steps);
        }
    }
}
