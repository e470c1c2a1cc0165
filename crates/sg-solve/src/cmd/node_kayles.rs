//! `grundy node-kayles`: the nimber of Node-Kayles on a graph, who wins, a
//! winning move, and a certificate of the nimber.

use super::search::{SearchArgs, ShowMove, solve};
use super::shared::{InputArg, bad_input};
use anyhow::Result;
use sg_search::bits::{Bits, U256};
use sg_search::games::node_kayles::{MAX_VERTICES, NodeKayles, fits_u64, fits_u128};
use sg_solve::boards::{Graph, node_kayles_graph, parse_rows_by_cols};
use std::process::ExitCode;

/// Node-Kayles on a graph: the nimber, who wins, and a winning move.
#[derive(clap::Args, Debug)]
#[command(
    long_about = "Node-Kayles on a graph: the nimber, who wins, and a winning move.\n\n\
    Players in turn pick a vertex and remove it with its neighbours; the player who \
    cannot pick one (the graph is empty) loses. The graph is read from FILE (standard \
    input when absent or `-`) as the judges write one: `n m`, then m lines `u v`, an \
    undirected edge between the vertices u and v, numbered from 0 (whitespace free; an \
    edge listed twice is one edge). At most 256 vertices. A self-loop or a vertex out of \
    range is an error at its line and column. --grid RxC plays on the grid of R rows and \
    C columns instead (vertex r * C + c for row r and column c, joined to the vertices \
    beside, above and below it).\n\n\
    Prints `nimber N`, then WIN or LOSE (for the player to move), then with --hint \
    `move vertex V`, a winning vertex. With --misere, who wins in misère play (the \
    player who picks the last vertex loses), without the nimber. With --json: {\"game\":\"node-kayles, 5 vertices, \
    5 edges\",\"nimber\":0,\"outcome\":\"LOSE\",\"hint\":null,\"positions\":0,\
    \"expanded\":0,\"seconds\":0.0}; the hint is the vertex.\n\n\
    Examples:\n  printf '5 5\\n0 1\\n1 2\\n2 3\\n3 4\\n4 0\\n' | grundy node-kayles\n  \
    grundy node-kayles graph.txt --hint --json\n  \
    grundy node-kayles graph.txt --misere --hint\n  \
    grundy node-kayles --grid 3x40\n  \
    grundy node-kayles graph.txt --proof graph.proof && grundy proof check graph.proof"
)]
pub(crate) struct Args {
    #[command(flatten)]
    input: InputArg,
    /// Play on the grid of R rows and C columns (at most 256 vertices)
    /// instead of a graph read: vertex r * C + c for row r, column c.
    #[arg(long, value_name = "RxC", conflicts_with = "file")]
    grid: Option<String>,
    #[command(flatten)]
    search: SearchArgs,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let graph = match &args.grid {
        Some(size) => match grid_graph(size) {
            Ok(graph) => graph,
            Err(e) => return Ok(bad_input(e)),
        },
        None => {
            let input = args.input.read()?;
            match node_kayles_graph(&input, MAX_VERTICES) {
                Ok(graph) => graph,
                Err(e) => return Ok(bad_input(e)),
            }
        }
    };
    let vertices = u64::from(graph.vertices);
    if fits_u64(vertices) {
        run_on::<u64>(&graph, &args.search)
    } else if fits_u128(vertices) {
        run_on::<u128>(&graph, &args.search)
    } else {
        run_on::<U256>(&graph, &args.search)
    }
}

fn run_on<B: Bits>(graph: &Graph, search: &SearchArgs) -> Result<ExitCode> {
    match NodeKayles::<B>::new(graph.vertices, &graph.edges) {
        Ok(game) => solve(&game, search, &VertexMoves),
        Err(e) => Ok(bad_input(e)),
    }
}

/// The `RxC` grid graph, vertex `r * C + c`, at most [`MAX_VERTICES`].
fn grid_graph(size: &str) -> Result<Graph, String> {
    let (rows, cols) = parse_rows_by_cols(size)?;
    let vertices = u64::from(rows) * u64::from(cols);
    if vertices > u64::from(MAX_VERTICES) {
        return Err(format!(
            "the {rows}x{cols} grid has {vertices} vertices, more than the engine supports (at most {MAX_VERTICES})"
        ));
    }
    let mut edges = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let v = r * cols + c;
            if c + 1 < cols {
                edges.push((v, v + 1));
            }
            if r + 1 < rows {
                edges.push((v, v + cols));
            }
        }
    }
    Ok(Graph {
        vertices: vertices as u32,
        edges,
    })
}

/// A move is a vertex: `5` in JSON.
struct VertexMoves;

impl<B: Bits> ShowMove<NodeKayles<B>> for VertexMoves {
    fn json(&self, _: &NodeKayles<B>, vertex: &u32) -> serde_json::Value {
        (*vertex).into()
    }
}
