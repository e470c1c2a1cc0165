//! `grundy`: answers impartial-game judge problems with Sprague-Grundy theory.

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use sg_core::knight::MoveSet;
use sg_core::knight_pattern::{KnightPattern, SearchOptions, search};
use sg_core::row::MAX_WIDTH;
use sg_solve::tables::{KnightValues, RowValues, find_table, report, table_files};
use sg_solve::{InputError, graph, hdu1524, hdu5724, lightoj1315, uva11927};
use sg_tables::{MappedTable, TableError, TableKind};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Exit status for bad input (a usage error from clap is also 2).
const EXIT_BAD_INPUT: u8 = 2;

#[derive(Parser, Debug)]
#[command(
    name = "grundy",
    version,
    about = "Solve impartial combinatorial games exactly with the Sprague-Grundy theory",
    long_about = "Solve impartial combinatorial games exactly with the Sprague-Grundy theory.\n\n\
        Each judge subcommand reads the judge's input format from FILE (or standard input \
        when FILE is absent or `-`) and writes exactly the judge's output. Whitespace is free: \
        any mix of spaces, tabs, blank lines and CRLF is accepted.\n\n\
        On bad input the answers of the complete test cases before the error are printed, \
        then one line `error: line L, column C: ...` goes to standard error and the exit \
        status is 2."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// HDU 1524 "A Chess Game": tokens on a DAG, WIN or LOSE per query.
    #[command(
        visible_alias = "chess-dag",
        long_about = "HDU 1524 \"A Chess Game\": tokens on a DAG, WIN or LOSE per query.\n\n\
            Input, test cases to the end of the input:\n  \
              N                      number of positions (0..N-1)\n  \
              X_i t_1 .. t_X         N lines: the moves from position i\n  \
              M p_1 .. p_M           query lines: M tokens on positions p_j\n  \
              0                      ends the test case (so does the end of the input)\n\n\
            Output: one line per query, WIN if the player to move wins, else LOSE.\n\
            With --hint: `WIN FROM TO`, move a token from position FROM to TO.\n\n\
            Example:\n  printf '3\\n1 1\\n1 2\\n0\\n1 0\\n2 0 1\\n0\\n' | grundy hdu1524   # LOSE, WIN"
    )]
    Hdu1524 {
        #[command(flatten)]
        input: InputArg,
        /// After WIN, print a winning move: `WIN FROM TO`.
        #[arg(long)]
        hint: bool,
    },
    /// UVA 11927 "Games Are Important": stones on DAG nodes, First or Second.
    #[command(
        visible_alias = "stones",
        long_about = "UVA 11927 \"Games Are Important\": stones on DAG nodes, First or Second.\n\n\
            Input, test cases until `0 0` (or the end of the input):\n  \
              n m                    nodes 0..n-1 and m edges\n  \
              u v                    m lines: a stone may move from u to v\n  \
              s_0 .. s_(n-1)         the number of stones on each node\n\n\
            Output: one line per test case, First if the first player wins, else Second.\n\n\
            Example:\n  printf '2 1\\n0 1\\n1 0\\n0 0\\n' | grundy uva11927   # First"
    )]
    Uva11927 {
        #[command(flatten)]
        input: InputArg,
    },
    /// HDU 5724 "Chess": pieces jump right over blocks; YES if Alice wins.
    #[command(
        visible_alias = "row-jump",
        long_about = "HDU 5724 \"Chess\": pieces jump right over blocks; YES if Alice wins.\n\n\
            Input:\n  \
              T                      number of test cases\n  \
              n                      per case: number of rows\n  \
              m p_1 .. p_m           n lines: the columns (1..=W, distinct) of a row's pieces\n\n\
            Output: one line per test case, YES if the first player wins, else NO.\n\
            With --hint: `YES ROW FROM TO`, in row ROW (1-based within the case) move the \
            piece on column FROM to column TO.\n\n\
            Example:\n  printf '1\\n1\\n1 19\\n' | grundy hdu5724   # YES"
    )]
    Hdu5724 {
        #[command(flatten)]
        input: InputArg,
        /// After YES, print a winning move: `YES ROW FROM TO`.
        #[arg(long)]
        hint: bool,
        /// Board width W (columns 1..=W), 1 to 64.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_WIDTH)))]
        width: u32,
        #[command(flatten)]
        tables: TableArgs,
    },
    /// LightOJ 1315 "Game of Hyper Knights": `Case k: Alice` or `Case k: Bob`.
    #[command(
        visible_alias = "hyper-knight",
        long_about = "LightOJ 1315 \"Game of Hyper Knights\": `Case k: Alice` or `Case k: Bob`.\n\n\
            A hyper knight on (x, y) moves by (-3,-1), (-2,1), (-2,-1), (-1,-2), (-1,-3) \
            or (1,-2) and must stay on x, y >= 0.\n\n\
            Input:\n  \
              T                      number of test cases\n  \
              n                      per case: number of knights\n  \
              x y                    n lines: a knight's square\n\n\
            Output: `Case k: Alice` if the first player wins, else `Case k: Bob`.\n\
            With --hint: `Case k: Alice K X Y`, move knight K (1-based) to (X, Y).\n\n\
            Example:\n  printf '1\\n1\\n3 5\\n' | grundy lightoj1315   # Case 1: Alice"
    )]
    Lightoj1315 {
        #[command(flatten)]
        input: InputArg,
        /// After Alice, print a winning move: `Alice K X Y`.
        #[arg(long)]
        hint: bool,
        #[command(flatten)]
        tables: TableArgs,
    },
    /// Precomputed tables: what a table file holds, and whether it is intact.
    Tables {
        #[command(subcommand)]
        command: TablesCommand,
    },
    /// Tokens on a directed graph that may have cycles: WIN, LOSE or DRAW per query.
    #[command(
        visible_alias = "cyclic",
        long_about = "Tokens on a directed graph that may have cycles: WIN, LOSE or DRAW per query.\n\n\
            A move moves one token along one edge; whoever cannot move loses; a play that \
            never ends is a draw. Answers come from generalized Sprague-Grundy values \
            (Smith; Fraenkel and Yesha): a finite value, or inf{K} with K the finite values \
            of the node's followers.\n\n\
            Input:\n  \
              n m                    nodes 0..n-1 and m edges\n  \
              u v                    m lines: a move from u to v (repeats and self-loops allowed)\n  \
              k t_1 .. t_k           queries to the end of the input: k >= 1 tokens on nodes t_j\n\n\
            Output: one line per query, WIN or LOSE for the player to move, or DRAW.\n\
            With --hint: `WIN FROM TO`, move a token from node FROM to TO; always playing the \
            hinted moves wins in finitely many moves, whatever the opponent does.\n\
            With --values: one line per node instead, its value or `inf{0,2}` (`inf{}` when K \
            is empty).\n\
            With --json: the same as JSON lines, {\"outcome\":\"WIN\",\"move\":{\"token\":0,\
            \"from\":3,\"to\":5}} or {\"node\":1,\"value\":\"inf\",\"k\":[0,2]}.\n\n\
            Example:\n  printf '2 3\\n0 1\\n1 0\\n1 1\\n1 0\\n' | grundy graph   # DRAW"
    )]
    Graph {
        #[command(flatten)]
        input: InputArg,
        /// After WIN, print a winning move: `WIN FROM TO`.
        #[arg(long, conflicts_with = "values")]
        hint: bool,
        /// Print each node's value instead of answering the queries.
        #[arg(long)]
        values: bool,
        /// Print JSON lines instead of text.
        #[arg(long)]
        json: bool,
    },
    /// The Grundy value of one knight on (X, Y), for any X, Y below 2^63.
    #[command(
        long_about = "The Grundy value of one knight on (X, Y), for any X, Y below 2^63.\n\n\
        The value comes from a finite description of the whole board (a block near the \
        origin, periodic layers along a few rays, periodic sectors between them) that is \
        certified before use: the mex recurrence is checked at finitely many squares that \
        stand for all of them. The hyper knight's description is compiled in; other move \
        sets are searched for on the spot.\n\n\
        Examples:\n  grundy knight 2 5\n  grundy knight 4611686018427387904 7\n  \
        grundy knight 10 20 --moves \"-2,-1 -1,-2 -2,1 1,-2\""
    )]
    Knight {
        /// The square's x.
        #[arg(value_parser = clap::value_parser!(u64).range(..1u64 << 63))]
        x: u64,
        /// The square's y.
        #[arg(value_parser = clap::value_parser!(u64).range(..1u64 << 63))]
        y: u64,
        /// The steps, `dx,dy` separated by spaces, each lowering x + y
        /// (default: the hyper knight).
        #[arg(long, value_name = "STEPS", allow_hyphen_values = true)]
        moves: Option<String>,
        /// Use no stored description: search for one and certify it now,
        /// even for the hyper knight.
        #[arg(long)]
        online: bool,
    },
    /// Benchmark floor: read FILE and parse every integer in it, nothing else.
    ///
    /// Prints the count and the wrapping sum of the integers. Every solver is
    /// measured against this on the same bytes (see README, Performance).
    Floor {
        #[command(flatten)]
        input: InputArg,
    },
}

/// Where `hdu5724` and `lightoj1315` get Grundy values (default: the
/// tables compiled into `grundy`, computing what they do not cover).
#[derive(Args, Debug)]
struct TableArgs {
    /// Use the tables of DIR (made by `cargo xtask gen --out DIR`),
    /// memory-mapped, instead of the compiled-in ones. The files must not
    /// change while grundy runs.
    #[arg(long, value_name = "DIR", conflicts_with = "online")]
    tables: Option<PathBuf>,
    /// Use no table: the closed form for rows, on-demand diagonals for knights.
    #[arg(long)]
    online: bool,
}

#[derive(Subcommand, Debug)]
enum TablesCommand {
    /// Print kind, version, metadata, sizes and checksums of table files
    /// (a file, every .sgt file of a folder, or the compiled-in tables).
    Info {
        /// A .sgt file or a folder; the compiled-in tables when absent.
        path: Option<PathBuf>,
    },
    /// Check table files completely; exit status 1 with the reason if one is corrupt.
    Verify {
        /// A .sgt file or a folder; the compiled-in tables when absent.
        path: Option<PathBuf>,
    },
}

/// Memory-maps the table file `path`: the one place `grundy` maps a file.
fn map_table(path: &Path, verify_checksum: bool) -> Result<MappedTable> {
    // SAFETY: grundy never writes table files and `cargo xtask gen` replaces
    // them by rename, never in place; whoever passes a table file to grundy
    // promises not to modify or truncate it while grundy runs (see --tables
    // and README, "Precomputed tables").
    let mapped = unsafe {
        if verify_checksum {
            sg_tables::open_mmap(path)
        } else {
            sg_tables::open_mmap_unverified(path)
        }
    };
    mapped.map_err(|e| match e {
        TableError::Io { .. } => e.into(),
        _ => anyhow::Error::new(e).context(format!("invalid table {}", path.display())),
    })
}

impl TableArgs {
    /// The file of `kind` to map, if the values come from a folder.
    fn file(&self, kind: TableKind) -> Result<Option<PathBuf>> {
        self.tables
            .as_deref()
            .map(|dir| find_table(dir, kind))
            .transpose()
            .map_err(Into::into)
    }
}

#[derive(Args, Debug)]
struct InputArg {
    /// Input file; standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
}

impl InputArg {
    fn read(&self) -> Result<Vec<u8>> {
        match &self.file {
            Some(path) if path.as_os_str() != "-" => {
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))
            }
            _ => {
                let mut buf = Vec::new();
                std::io::stdin()
                    .lock()
                    .read_to_end(&mut buf)
                    .context("cannot read standard input")?;
                Ok(buf)
            }
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Runs a subcommand: prints what was answered, then the input error if any.
fn run(cli: Cli) -> Result<ExitCode> {
    let mut out = Vec::new();
    let result: Result<(), InputError> = match cli.command {
        Command::Hdu1524 { input, hint } => {
            hdu1524::solve(&input.read()?, &mut out, hdu1524::Options { hint })
        }
        Command::Uva11927 { input } => uva11927::solve(&input.read()?, &mut out),
        Command::Hdu5724 {
            input,
            hint,
            width,
            tables,
        } => {
            let mapped = tables
                .file(TableKind::Row)?
                .map(|path| map_table(&path, true))
                .transpose()?;
            let table = match &mapped {
                Some(m) => Some(m.table().row()?),
                None if tables.online => None,
                None => Some(sg_tables::embedded_row_table()),
            };
            let values = RowValues::new(table);
            hdu5724::solve(
                &input.read()?,
                &mut out,
                hdu5724::Options { width, hint },
                |mask| values.value(mask),
            )
        }
        Command::Lightoj1315 {
            input,
            hint,
            tables,
        } => {
            let mapped = tables
                .file(TableKind::Knight)?
                .map(|path| map_table(&path, true))
                .transpose()?;
            let table = match &mapped {
                Some(m) => Some(m.table().knight()?),
                None if tables.online => None,
                None => Some(sg_tables::embedded_knight_table()),
            };
            let mut values = KnightValues::new(table)?;
            if !tables.online {
                // Squares beyond the table, up to 2^63: the certified description.
                values = values.with_pattern(sg_tables::embedded_knight_pattern().clone())?;
            }
            let moves = values.moves().clone();
            lightoj1315::solve(
                &input.read()?,
                &mut out,
                lightoj1315::Options { hint },
                &moves,
                |x, y| values.value(x, y),
            )
        }
        Command::Tables { command } => return tables_command(command),
        Command::Knight {
            x,
            y,
            moves,
            online,
        } => {
            let pattern = knight_pattern(moves.as_deref(), online)?;
            writeln!(out, "{}", pattern.value(x, y)).expect("writing to a Vec cannot fail");
            Ok(())
        }
        Command::Floor { input } => {
            sg_solve::scan::parse_all(&input.read()?).map(|(count, sum)| {
                writeln!(out, "{count} {sum}").expect("writing to a Vec cannot fail");
            })
        }
        Command::Graph {
            input,
            hint,
            values,
            json,
        } => graph::solve(
            &input.read()?,
            &mut out,
            graph::Options { hint, values, json },
        ),
    };
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(&out).context("cannot write the answers")?;
    stdout.flush().context("cannot write the answers")?;
    match result {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("error: {e}");
            Ok(ExitCode::from(EXIT_BAD_INPUT))
        }
    }
}

/// The certified description for `--moves` (the hyper knight when absent):
/// the compiled-in one, or one searched for now.
fn knight_pattern(moves: Option<&str>, online: bool) -> Result<KnightPattern> {
    let moves = match moves {
        None => MoveSet::hyper_knight(),
        Some(text) => parse_moves(text)?,
    };
    if !online && moves == MoveSet::hyper_knight() {
        return Ok(sg_tables::embedded_knight_pattern().clone());
    }
    let found = search(&moves, &SearchOptions::default())
        .with_context(|| format!("move set {:?}", moves.steps()))?;
    Ok(found.pattern)
}

/// Parses `"dx,dy dx,dy ..."` into a move set.
fn parse_moves(text: &str) -> Result<MoveSet> {
    let mut steps = Vec::new();
    for pair in text.split_whitespace() {
        let (dx, dy) = pair
            .split_once(',')
            .with_context(|| format!("--moves: expected dx,dy, found {pair:?}"))?;
        let parse = |s: &str| {
            s.trim()
                .parse::<i32>()
                .with_context(|| format!("--moves: {s:?} is not a step"))
        };
        steps.push((parse(dx)?, parse(dy)?));
    }
    MoveSet::new(&steps).context("--moves")
}

/// `grundy tables info|verify`: exit status 1 if any table is invalid.
fn tables_command(command: TablesCommand) -> Result<ExitCode> {
    let (path, verify) = match command {
        TablesCommand::Info { path } => (path, false),
        TablesCommand::Verify { path } => (path, true),
    };
    let mut ok = true;
    let mut out = std::io::stdout().lock();
    match path {
        None => {
            for (name, bytes) in [
                (
                    "compiled-in data/row20.sgt",
                    sg_tables::embedded_row_bytes(),
                ),
                (
                    "compiled-in data/knight.sgt",
                    sg_tables::embedded_knight_bytes(),
                ),
                (
                    "compiled-in data/knight-pattern.sgt",
                    sg_tables::embedded_knight_pattern_bytes(),
                ),
            ] {
                ok &= report(name, bytes, verify, &mut out)?;
            }
        }
        Some(path) => {
            for file in table_files(&path)? {
                let name = file.display().to_string();
                ok &= match map_table(&file, false) {
                    Ok(mapped) => report(&name, mapped.bytes(), verify, &mut out)?,
                    Err(e) => {
                        writeln!(out, "{name}: INVALID: {e:#}")?;
                        false
                    }
                };
            }
        }
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
