//! `grundy node-kayles`: the nimber of Node-Kayles on a graph, who wins, a
//! winning move, and a certificate of the nimber.

use super::search::{SearchArgs, ShowMove, solve};
use super::shared::{InputArg, bad_input};
use anyhow::Result;
use sg_search::bits::Bits;
use sg_search::games::node_kayles::{MAX_VERTICES, NodeKayles, fits_u64};
use sg_solve::boards::{Graph, node_kayles_graph};
use std::process::ExitCode;

/// Node-Kayles on a graph: the nimber, who wins, and a winning move.
#[derive(clap::Args, Debug)]
#[command(long_about = "Node-Kayles on a graph: the nimber, who wins, and a winning move.\n\n\
    Players in turn pick a vertex and remove it with its neighbours; the player who \
    cannot pick one (the graph is empty) loses. The graph is read from FILE (standard \
    input when absent or `-`) as the judges write one: `n m`, then m lines `u v`, an \
    undirected edge between the vertices u and v, numbered from 0 (whitespace free; an \
    edge listed twice is one edge). At most 128 vertices. A self-loop or a vertex out of \
    range is an error at its line and column.\n\n\
    Prints `nimber N`, then WIN or LOSE (for the player to move), then with --hint \
    `move vertex V`, a winning vertex. With --misere, who wins in misère play (the \
    player who picks the last vertex loses), without the nimber. With --json: {\"game\":\"node-kayles, 5 vertices, \
    5 edges\",\"nimber\":0,\"outcome\":\"LOSE\",\"hint\":null,\"positions\":0,\
    \"expanded\":0,\"seconds\":0.0}; the hint is the vertex.\n\n\
    Examples:\n  printf '5 5\\n0 1\\n1 2\\n2 3\\n3 4\\n4 0\\n' | grundy node-kayles\n  \
    grundy node-kayles graph.txt --hint --json\n  \
    grundy node-kayles graph.txt --misere --hint\n  \
    grundy node-kayles graph.txt --proof graph.proof && grundy proof check graph.proof")]
pub(crate) struct Args {
    #[command(flatten)]
    input: InputArg,
    #[command(flatten)]
    search: SearchArgs,
}

pub(crate) fn run(args: Args) -> Result<ExitCode> {
    let input = args.input.read()?;
    let graph = match node_kayles_graph(&input, MAX_VERTICES) {
        Ok(graph) => graph,
        Err(e) => return Ok(bad_input(e)),
    };
    if fits_u64(u64::from(graph.vertices)) {
        run_on::<u64>(&graph, &args.search)
    } else {
        run_on::<u128>(&graph, &args.search)
    }
}

fn run_on<B: Bits>(graph: &Graph, search: &SearchArgs) -> Result<ExitCode> {
    match NodeKayles::<B>::new(graph.vertices, &graph.edges) {
        Ok(game) => solve(&game, search, &VertexMoves),
        Err(e) => Ok(bad_input(e)),
    }
}

/// A move is a vertex: `5` in JSON.
struct VertexMoves;

impl<B: Bits> ShowMove<NodeKayles<B>> for VertexMoves {
    fn json(&self, _: &NodeKayles<B>, vertex: &u32) -> serde_json::Value {
        (*vertex).into()
    }
}
