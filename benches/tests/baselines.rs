//! The naive baselines compute the same values as the engine, so the
//! benchmarks compare like with like.

use sg_bench::{SplitMix64, adjacency, naive, random_dag_edges};
use sg_core::knight::{MoveSet, knight_square_table};
use sg_core::{Graph, graph::grundy_values, row::row_grundy};

#[test]
fn naive_row_table_matches_closed_form() {
    let table = naive::row_table();
    assert!(
        table
            .iter()
            .enumerate()
            .all(|(m, &g)| u32::from(g) == row_grundy(m as u64))
    );
}

#[test]
fn naive_dag_matches_engine() {
    let n = 20_000;
    let (s, t) = random_dag_edges(n, 5 * n, &mut SplitMix64::new(1));
    let values = grundy_values(&Graph::from_edges(n, &s, &t).unwrap()).unwrap();
    let adj = adjacency(n, &s, &t);
    let mut memo = vec![-1; n];
    for (v, &value) in values.iter().enumerate() {
        assert_eq!(naive::dag_grundy(&adj, &mut memo, v as u32) as u32, value);
    }
}

#[test]
fn naive_knight_matches_table() {
    let table = knight_square_table(&MoveSet::hyper_knight(), 300);
    let mut memo = vec![-1i8; 600 * 600];
    for x in 0..300 {
        for y in 0..300 {
            assert_eq!(
                naive::knight_dfs(&mut memo, 600, x, y) as u8,
                table[x * 300 + y]
            );
        }
    }
}

#[test]
fn inputs_are_deterministic() {
    assert_eq!(sg_bench::hdu5724(3, 5, 9), sg_bench::hdu5724(3, 5, 9));
    let mut a = SplitMix64::new(7);
    // SplitMix64's published first output for seed 7 would pin the stream;
    // here: the stream is reproducible and `below` stays in range.
    let mut b = SplitMix64::new(7);
    for _ in 0..1000 {
        let x = a.below(13);
        assert!(x < 13);
        assert_eq!(x, b.below(13));
    }
}

#[test]
fn generator_stream_is_splitmix64() {
    // The reference splitmix64.c from seed 0: the benchmark inputs stay
    // byte-identical as long as this holds.
    let mut rng = SplitMix64::new(0);
    assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
    assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
}
