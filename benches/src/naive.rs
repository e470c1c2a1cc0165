//! The baselines: the naive solvers of the judge write-ups, in Rust.
//!
//! Recursive memoized `mex` with a fresh "seen" array per call, as the
//! seed solutions do. Benchmarks only: their recursion depth follows the
//! input, so they are not safe for deep graphs.

/// Grundy value of `v` by recursion with memo (`-1` = unknown), allocating
/// a `seen` array of the graph's size per node like the write-ups.
pub fn dag_grundy(adj: &[Vec<u32>], memo: &mut [i32], v: u32) -> i32 {
    if memo[v as usize] >= 0 {
        return memo[v as usize];
    }
    let mut seen = vec![false; adj.len() + 1];
    for &w in &adj[v as usize] {
        let g = dag_grundy(adj, memo, w);
        seen[g as usize] = true;
    }
    let g = seen.iter().position(|&s| !s).unwrap_or(seen.len()) as i32;
    memo[v as usize] = g;
    g
}

/// The write-up's 2^20 row table: for each mask in increasing order, the
/// moves by scanning bits, then the mex.
pub fn row_table() -> Vec<u8> {
    let mut sg = vec![0u8; 1 << 20];
    for i in 2..1usize << 20 {
        let mut seen = [false; 30];
        for j in (0..20i32).rev() {
            if i & (1 << j) != 0 {
                let mut k = j - 1;
                while k >= 0 && i & (1 << k) != 0 {
                    k -= 1;
                }
                if k < 0 {
                    break;
                }
                let x = i - (1 << j) + (1 << k);
                seen[sg[x] as usize] = true;
            }
        }
        sg[i] = seen.iter().position(|&s| !s).unwrap_or(30) as u8;
    }
    sg
}

const KNIGHT: [(i64, i64); 6] = [(-3, -1), (-2, 1), (-2, -1), (-1, -2), (-1, -3), (1, -2)];

/// The write-up's hyper-knight DFS with a memo of `size x size` (`-1` =
/// unknown); `x + y` must stay below `size`.
pub fn knight_dfs(memo: &mut [i8], size: usize, x: usize, y: usize) -> i8 {
    if memo[x * size + y] >= 0 {
        return memo[x * size + y];
    }
    let mut seen = [false; 7];
    for (dx, dy) in KNIGHT {
        let (nx, ny) = (x as i64 + dx, y as i64 + dy);
        if nx >= 0 && ny >= 0 {
            seen[knight_dfs(memo, size, nx as usize, ny as usize) as usize] = true;
        }
    }
    let g = seen.iter().position(|&s| !s).unwrap_or(7) as i8;
    memo[x * size + y] = g;
    g
}
