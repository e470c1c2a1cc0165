//! The work of a Cram search, counted the way it is counted for igsolve in
//! docs/PERFORMANCE.md, and which components it spends it on: `cargo run
//! --release -p sg-tables --features timing-examples --example cram_census
//! -- RxC [--online] [--no-classes]`, on one thread (with the compiled-in
//! endgame table unless `--online`, with class keys unless
//! `--no-classes`). Prints the positions expanded, the options played
//! (each split into components), the canonical forms asked of the game,
//! the table's entries, and the expansions by the bounding box of the
//! component expanded (short side, long side) and by its cells.
use sg_search::games::cram::{Cells, Cram, Domino, fits_u64};
use sg_search::{Game, Options, Reduced, Solver};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Cram, counting what the search asks of it.
struct Counted {
    cram: Cram<u64>,
    stride: u32,
    /// Expansions by (cells, short side, long side).
    expanded: Mutex<BTreeMap<(u32, u32, u32), u64>>,
    played: AtomicU64,
    reduced: AtomicU64,
}

/// The rows and columns a set of cells spans (lanes of `stride` bits).
fn span(bits: u64, stride: u32) -> (u32, u32) {
    let (mut rows, mut columns) = (0, 0u64);
    for lane in 0..64 / stride {
        let row = (bits >> (lane * stride)) & ((1 << stride) - 1);
        if row != 0 {
            rows += 1;
            columns |= row;
        }
    }
    (
        rows,
        64 - columns.leading_zeros() - columns.trailing_zeros(),
    )
}

impl Game for Counted {
    type Position = Cells<u64>;
    type Move = Domino;
    fn moves(&self, p: &Cells<u64>, moves: &mut Vec<Domino>) {
        let (rows, columns) = span(p.0, self.stride);
        let key = (p.0.count_ones(), rows.min(columns), rows.max(columns));
        *self.expanded.lock().unwrap().entry(key).or_default() += 1;
        self.cram.moves(p, moves)
    }
    fn play(&self, p: &Cells<u64>, m: &Domino) -> Cells<u64> {
        self.played.fetch_add(1, Ordering::Relaxed);
        self.cram.play(p, m)
    }
    fn split(&self, p: &Cells<u64>, parts: &mut Vec<Cells<u64>>) {
        self.cram.split(p, parts)
    }
    fn canonical(&self, p: &Cells<u64>) -> Cells<u64> {
        self.cram.canonical(p)
    }
    fn reduce(&self, p: &Cells<u64>) -> Reduced<Cells<u64>> {
        self.reduced.fetch_add(1, Ordering::Relaxed);
        self.cram.reduce(p)
    }
    fn size(&self, p: &Cells<u64>) -> u64 {
        self.cram.size(p)
    }
    fn class_key(&self, p: &Cells<u64>) -> Option<u128> {
        self.cram.class_key(p)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let size = args.first().and_then(|a| {
        let (r, c) = a.split_once('x')?;
        Some((r.parse::<u32>().ok()?, c.parse::<u32>().ok()?))
    });
    let Some((rows, cols)) = size.filter(|&(r, c)| fits_u64(r, c)) else {
        eprintln!(
            "usage: cram_census RxC [--online] [--no-classes]  (an empty board that fits in 64 \
             bits: 4x16, 8x8, ...)"
        );
        std::process::exit(2);
    };
    let mut cram = Cram::<u64>::new(rows, cols).unwrap();
    if !args.iter().any(|a| a == "--online") {
        cram = cram.with_endgame(std::sync::Arc::new(sg_tables::embedded_cram_endgame()));
    }
    if args.iter().any(|a| a == "--no-classes") {
        cram = cram.without_classes();
    }
    // The board's lanes: 8 bits when it fits in 8 columns (or 8 rows).
    let stride = if rows.min(cols) <= 8 && rows.max(cols) <= 8 {
        8
    } else {
        16
    };
    let start = cram.start();
    let game = Counted {
        cram,
        stride,
        expanded: Mutex::new(BTreeMap::new()),
        played: AtomicU64::new(0),
        reduced: AtomicU64::new(0),
    };
    let solver = Solver::with_options(
        &game,
        Options {
            memory: 4 << 30,
            threads: 1,
        },
    );
    let nimber = solver.nimber(&start).unwrap();
    let by_shape = game.expanded.lock().unwrap();
    let total: u64 = by_shape.values().sum();
    println!(
        "{}: nimber {nimber}, expanded {total}, played {}, canonical forms {}, entries {}",
        args[0],
        game.played.load(Ordering::Relaxed),
        game.reduced.load(Ordering::Relaxed),
        solver.positions()
    );
    let mut by_box: BTreeMap<(u32, u32), u64> = BTreeMap::new();
    let mut by_cells: BTreeMap<u32, u64> = BTreeMap::new();
    for (&(cells, short, long), &n) in by_shape.iter() {
        *by_box.entry((short, long)).or_default() += n;
        *by_cells.entry(cells).or_default() += n;
    }
    let share = |n: u64| 100.0 * n as f64 / total.max(1) as f64;
    println!("expanded by bounding box (short side x long side):");
    for ((short, long), n) in by_box {
        println!("  {short}x{long}: {n} ({:.1}%)", share(n));
    }
    println!("expanded by cells:");
    for (cells, n) in by_cells {
        println!("  {cells}: {n} ({:.1}%)", share(n));
    }
}
