//! `grundy row`: the Grundy value of one row of the row game (HDU 5724), or
//! the values of every row of a width as a grid, text, JSON or a PNG
//! heatmap.

use super::numbers::number;
use super::shared::{UsageError, check_grid, print_answers, write_png};
use anyhow::{Result, bail};
use sg_core::row::{MAX_WIDTH, row_grundy};
use sg_solve::answer::write_json_line;
use sg_solve::row_args::{row_grid, row_grid_size, row_of};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// The Grundy value of one row of the row game, or a grid of all rows.
#[derive(clap::Args, Debug)]
#[command(
    long_about = "The Grundy value of one row of the row game of HDU 5724: pieces \
    on COLUMNS (1..=W from the left) of a row of W cells; a piece moves right onto the \
    next empty cell, jumping the pieces in between.\n\n\
    With --grid: the values of all 2^W rows of W cells (W at most 24) as a grid, x the \
    pieces of the right ceil(W/2) cells read as a binary number (bit 0 the rightmost \
    cell), y those of the left floor(W/2) cells. With --png FILE, a heatmap instead: each \
    row SCALE pixels, losing rows (value 0) crimson, the others from dark purple (1) \
    to yellow (the largest); nothing is printed then unless --text (the grid as text \
    too) or --json asks for it.\n\n\
    With --json: {\"columns\":[1,19],\"width\":20,\"value\":1}, or for a grid \
    {\"width\":8,\"values\":[[...],...]} (one array per y).\n\n\
    Examples:\n  grundy row 1 19\n  grundy row --width 10 --grid --png rows.png"
)]
pub(crate) struct Args {
    /// The columns of the pieces (1..=W, distinct).
    #[arg(value_name = "COLUMNS", conflicts_with = "grid", value_parser = number::<u32>(0, u32::MAX.into()))]
    columns: Vec<u32>,
    /// Cells in the row, W (1 to 64; with --grid at most 24).
    #[arg(long, default_value_t = 20, value_parser = number::<u32>(1, MAX_WIDTH.into()))]
    width: u32,
    /// Print the values of every row of W cells as a grid instead.
    #[arg(long)]
    grid: bool,
    /// With --grid: draw the grid as a PNG heatmap into FILE (a new file,
    /// or a regular file that can be written, replaced whole), and print
    /// nothing unless --text or --json.
    #[arg(long, value_name = "FILE")]
    png: Option<PathBuf>,
    /// Pixels on a side of each row's square in the PNG.
    #[arg(long, default_value_t = 1, value_parser = number::<u32>(1, 64))]
    scale: u32,
    /// One JSON object: the row and its value, or the grid.
    #[arg(long)]
    json: bool,
    /// With --png: print the grid as text too.
    #[arg(long, requires = "png", conflicts_with = "json")]
    text: bool,
}

/// `--json` for one row.
#[derive(serde::Serialize)]
struct RowJson<'a> {
    columns: &'a [u32],
    width: u32,
    value: u32,
}

/// `--json` for the grid.
#[derive(serde::Serialize)]
struct GridJson<'a> {
    width: u32,
    values: Vec<&'a [u32]>,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let width = args.width;
    let mut out = Vec::new();
    if !args.grid {
        if args.png.is_some() {
            bail!(UsageError("--png needs --grid".to_owned()));
        }
        let row = row_of(width, &args.columns).map_err(UsageError)?;
        let value = row_grundy(row);
        if args.json {
            let columns = &args.columns;
            write_json_line(
                &mut out,
                &RowJson {
                    columns,
                    width,
                    value,
                },
            );
        } else {
            writeln!(out, "{value}").expect("writing to a Vec cannot fail");
        }
        return print_answers(&out, Ok(()));
    }
    let (across, down) = row_grid_size(width, "--grid").map_err(UsageError)?;
    let png = check_grid(across, down, args.png.as_deref(), args.scale)?;
    let grid = row_grid(width, "--grid").map_err(UsageError)?;
    if let Some(png) = &png {
        write_png(&grid, args.scale, png)?;
    }
    if args.json {
        let values = grid.rows().collect();
        write_json_line(&mut out, &GridJson { width, values });
    } else if png.is_none() || args.text {
        out.extend_from_slice(grid.to_text().as_bytes());
    }
    print_answers(&out, Ok(()))
}
