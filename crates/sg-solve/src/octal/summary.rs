//! The one-screen summary of a heap game's run, as `grundy octal CODE`
//! prints it and the Python module's `OctalGame.summary()` returns it:
//! the game, the heaps computed and where their values came from, the
//! period (certified, or how far none was found), the largest value and
//! the sparse-space figures.

use sg_tables::octal::CatalogueEntry;

/// Where a run's values came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The compiled-in catalogue.
    Catalogue,
    /// Computed now.
    Computed,
    /// The record of a game in a table of `--tables DIR` (its values
    /// checked), extended if it stops short of the heap asked for.
    Table,
    /// A stored run, checked (unless `--trust-resume`) and extended.
    Resumed {
        /// Values in the file.
        stored: u64,
        /// Whether every stored value was checked.
        checked: bool,
    },
}

impl Source {
    /// In words, as the summary's line `computed` ends.
    ///
    /// ```
    /// use sg_solve::octal::summary::Source;
    /// assert_eq!(Source::Computed.describe(), "computed");
    /// ```
    pub fn describe(self) -> String {
        match self {
            Self::Catalogue => "from the compiled-in catalogue".to_owned(),
            Self::Table => "from a table of --tables, its values checked".to_owned(),
            Self::Computed => "computed".to_owned(),
            Self::Resumed {
                stored,
                checked: true,
            } => format!("resumed from {stored} stored values, every one checked"),
            Self::Resumed {
                stored,
                checked: false,
            } => format!("resumed from {stored} stored values, trusted unchecked (--trust-resume)"),
        }
    }
}

/// The summary of `entry`, whose values came from `source`; `stopped`
/// says why a run ended before the heap it was asked for (a line
/// `stopped  at heap N: REASON`).
///
/// ```
/// use sg_octal::{Rules, Sequence};
/// use sg_solve::octal::summary::{Source, text_summary};
/// use sg_tables::octal::CatalogueEntry;
///
/// let mut kayles = Sequence::new(Rules::parse("0.77").unwrap());
/// kayles.extend_to(200, &mut |_| {}).unwrap();
/// let text = text_summary(&CatalogueEntry::from_sequence(&kayles), Source::Computed, None);
/// assert!(text.starts_with("game            0.77\n"));
/// assert!(text.contains("period          12\n"));
/// ```
pub fn text_summary(entry: &CatalogueEntry, source: Source, stopped: Option<&str>) -> String {
    let s = entry;
    let computed_to = s.computed.saturating_sub(1);
    let mut out = String::new();
    let mut line = |label: &str, value: String| out.push_str(&format!("{label:<16}{value}\n"));
    line("game", s.rules.to_string());
    line(
        "computed",
        format!("heaps 0..={computed_to} ({})", source.describe()),
    );
    if let Some(reason) = stopped {
        line("stopped", format!("at heap {}: {reason}", s.computed));
    }
    match s.period {
        Some(p) => {
            line("preperiod", p.preperiod.to_string());
            line("period", p.period.to_string());
            line(
                "certified",
                format!("yes, by the periodicity theorem with G(0..{})", s.computed),
            );
        }
        None => {
            line("preperiod", "-".to_owned());
            line("period", format!("none up to heap {computed_to}"));
            line("certified", "no".to_owned());
        }
    }
    line("largest value", s.max_value.to_string());
    line("rare mask", format!("{} ({:#b})", s.rare_mask, s.rare_mask));
    line("rare values", s.rare_count.to_string());
    line(
        "last rare heap",
        s.last_rare.map_or("-".to_owned(), |h| h.to_string()),
    );
    out
}
