//! The subcommands of `grundy`, one module each: its clap arguments, its
//! help text and its `run` function. Adding a subcommand means one new
//! module and one line in the list below; what several subcommands share
//! (reading the input, choosing a table source, printing answers then the
//! input error) is in [`shared`].

pub(crate) mod numbers;
mod search;
mod shared;
mod threads;

pub(crate) use shared::{exit_status, print_error, stdout_closed, usage_error};

/// Declares the subcommand modules, the [`Command`] enum that clap parses
/// (one variant per module, holding the module's `Args`) and the dispatch
/// to each module's `run(args) -> anyhow::Result<ExitCode>`.
macro_rules! subcommands {
    ($($variant:ident => $module:ident,)*) => {
        $(mod $module;)*

        /// A subcommand with its arguments.
        #[derive(clap::Subcommand, Debug)]
        pub(crate) enum Command {
            $($variant($module::Args),)*
        }

        impl Command {
            /// Runs the subcommand; the exit status it asks for.
            pub(crate) fn run(self) -> anyhow::Result<std::process::ExitCode> {
                match self {
                    $(Self::$variant(args) => $module::run(args),)*
                }
            }
        }
    };
}

// In the order of `grundy --help`.
subcommands! {
    Hdu1524 => hdu1524,
    Uva11927 => uva11927,
    Hdu5724 => hdu5724,
    Lightoj1315 => lightoj1315,
    Tables => tables,
    Graph => graph,
    Knight => knight,
    Row => row,
    Octal => octal,
    Sweep => sweep,
    Floor => floor,
    Cram => cram,
    NodeKayles => node_kayles,
    Chomp => chomp,
    Proof => proof,
    Completions => completions,
    Man => man,
}
