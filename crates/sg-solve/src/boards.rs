//! The inputs of the game subcommands, read with clear errors before
//! anything is allocated in proportion to a declared size: a Cram board
//! (`RxC`, or a picture of `.` and `#`), a graph for Node-Kayles, Chomp's
//! rows.

use crate::error::{InputError, InputErrorKind, quote};
use crate::scan::Scanner;
use std::fmt;

/// The longest side of a Cram board the engine supports.
pub const CRAM_MAX_SIDE: u32 = sg_search::games::cram::MAX_SIDE;
/// The most cells of the shorter side of a Cram board.
pub const CRAM_MAX_SHORT_SIDE: u32 = sg_search::games::cram::MAX_SHORT_SIDE;

/// The most rows (or columns) of a Chomp diagram: rows + columns at most
/// 127.
pub const CHOMP_MAX_ROWS: usize = 126;

/// A problem in an input, at a line and column (both 1-based; columns
/// count bytes) when it has a place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardError {
    /// The place: 1-based line and byte column.
    pub at: Option<(usize, usize)>,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some((line, column)) => write!(f, "line {line}, column {column}: {}", self.what),
            None => f.write_str(&self.what),
        }
    }
}

impl std::error::Error for BoardError {}

fn at(line: usize, column: usize, what: String) -> BoardError {
    BoardError {
        at: Some((line, column)),
        what,
    }
}

/// A Cram board: its size and its blocked cells `(row, column)`, 0-based,
/// row by row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CramBoard {
    /// Rows.
    pub rows: u32,
    /// Columns.
    pub cols: u32,
    /// Blocked cells, sorted.
    pub blocked: Vec<(u32, u32)>,
}

/// A number of a size: digits only, at least 1.
fn side(text: &str, what: &str) -> Result<u32, String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "the {what} must be a number (digits only), found {}",
            quote(text)
        ));
    }
    match text.parse::<u32>() {
        Ok(0) => Err(format!("the {what} must be at least 1")),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "the {what} {} is beyond what the engine supports",
            quote(text)
        )),
    }
}

/// `RxC`: `R` rows of `C` cells, e.g. `4x7`.
pub fn parse_rows_by_cols(text: &str) -> Result<(u32, u32), String> {
    let Some((rows, cols)) = text.split_once('x') else {
        return Err(format!(
            "expected a size RxC such as 4x7, found {}",
            quote(text)
        ));
    };
    Ok((
        side(rows, "number of rows")?,
        side(cols, "number of columns")?,
    ))
}

/// An empty Cram board of `RxC`, checked against the engine's limits.
pub fn cram_size(text: &str) -> Result<CramBoard, BoardError> {
    let (rows, cols) = parse_rows_by_cols(text).map_err(|what| BoardError { at: None, what })?;
    let board = CramBoard {
        rows,
        cols,
        blocked: Vec::new(),
    };
    check_cram_size(&board)?;
    Ok(board)
}

fn check_cram_size(board: &CramBoard) -> Result<(), BoardError> {
    let (long, short) = (board.rows.max(board.cols), board.rows.min(board.cols));
    if long > CRAM_MAX_SIDE || short > CRAM_MAX_SHORT_SIDE {
        return Err(BoardError {
            at: None,
            what: format!(
                "a Cram board of {}x{} is beyond the engine: one side at most {CRAM_MAX_SHORT_SIDE} \
                 cells, the other at most {CRAM_MAX_SIDE}",
                board.rows, board.cols
            ),
        });
    }
    Ok(())
}

/// A Cram board drawn as rows of `.` (free) and `#` (blocked): blank lines
/// and trailing spaces (and tabs, and the `\r` of CRLF) are ignored; rows
/// shorter than the longest are padded with blocked cells.
pub fn cram_board(text: &[u8]) -> Result<CramBoard, BoardError> {
    let mut rows: Vec<Vec<bool>> = Vec::new();
    for (index, line) in text.split(|&b| b == b'\n').enumerate() {
        let line_number = index + 1;
        let end = line
            .iter()
            .rposition(|b| !matches!(b, b' ' | b'\t' | b'\r'))
            .map_or(0, |i| i + 1);
        let cells = &line[..end];
        if cells.is_empty() {
            continue;
        }
        if rows.len() as u32 == CRAM_MAX_SIDE {
            return Err(at(
                line_number,
                1,
                format!("more than {CRAM_MAX_SIDE} rows: beyond the engine"),
            ));
        }
        let mut row = Vec::new();
        for (i, &b) in cells.iter().enumerate() {
            let free = match b {
                b'.' => true,
                b'#' => false,
                _ => {
                    // The whole character found (`é` is two bytes), or the
                    // one byte that starts no character.
                    let len = cells[i..]
                        .utf8_chunks()
                        .next()
                        .and_then(|chunk| chunk.valid().chars().next())
                        .map_or(1, char::len_utf8);
                    return Err(at(
                        line_number,
                        i + 1,
                        format!(
                            "expected `.` (a free cell) or `#` (a blocked cell), found `{}`",
                            crate::error::escape_bytes(&cells[i..i + len], len)
                        ),
                    ));
                }
            };
            if i as u32 == CRAM_MAX_SIDE {
                return Err(at(
                    line_number,
                    i + 1,
                    format!("a row of more than {CRAM_MAX_SIDE} cells: beyond the engine"),
                ));
            }
            row.push(free);
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(BoardError {
            at: None,
            what: "the board has no row (rows of `.` for free cells and `#` for blocked ones)"
                .to_owned(),
        });
    }
    let cols = rows.iter().map(Vec::len).max().expect("a row") as u32;
    let mut board = CramBoard {
        rows: rows.len() as u32,
        cols,
        blocked: Vec::new(),
    };
    check_cram_size(&board)?;
    for (r, row) in rows.iter().enumerate() {
        for c in 0..cols {
            if !row.get(c as usize).copied().unwrap_or(false) {
                board.blocked.push((r as u32, c));
            }
        }
    }
    Ok(board)
}

/// A graph for Node-Kayles: its vertices and its edges, each once,
/// smaller vertex first, sorted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    /// Vertices, numbered from 0.
    pub vertices: u32,
    /// Edges `(u, v)`, `u < v`, sorted and distinct.
    pub edges: Vec<(u32, u32)>,
}

/// A graph as the judges write one: `n m`, then `m` pairs `u v` with
/// `0 <= u, v < n` (whitespace free). At most `max_vertices` vertices; a
/// self-loop or a vertex out of range is an error at its line and column.
/// Memory is bounded by `n^2` bits, never by the declared `m`.
pub fn node_kayles_graph(text: &[u8], max_vertices: u32) -> Result<Graph, InputError> {
    let mut scanner = Scanner::new(text);
    let n = scanner.next_at_most("the number of vertices", u64::from(max_vertices))? as u32;
    let m = scanner.next("the number of edges")?;
    let mut edges = std::collections::BTreeSet::new();
    for _ in 0..m {
        let u = scanner.next_node("a vertex", n as usize)?;
        let v = scanner.next_node("a vertex", n as usize)?;
        if u == v {
            return Err(
                scanner.error_at(scanner.last_offset(), InputErrorKind::SelfLoop { node: u })
            );
        }
        edges.insert((u.min(v), u.max(v)));
    }
    scanner.expect_end("the last edge")?;
    Ok(Graph {
        vertices: n,
        edges: edges.into_iter().collect(),
    })
}

/// Chomp's rows: `RxC` (a rectangle) or `L1,L2,...` (row lengths from the
/// top, non-increasing, each at least 1; the first row holds the poisoned
/// cell). At most `max_rows` rows are read.
pub fn chomp_rows(text: &str, max_rows: usize) -> Result<Vec<u32>, String> {
    if text.contains('x') {
        let (rows, cols) = parse_rows_by_cols(text)?;
        if rows as usize > max_rows {
            return Err(format!(
                "{rows} rows are beyond the engine (at most {max_rows})"
            ));
        }
        return Ok(vec![cols; rows as usize]);
    }
    let mut rows: Vec<u32> = Vec::new();
    for (i, item) in text.split(',').enumerate() {
        if i == max_rows {
            return Err(format!("more than {max_rows} rows: beyond the engine"));
        }
        let what = format!("length of row {}", i + 1);
        let length = side(item, &what)?;
        if let Some(&above) = rows.last()
            && length > above
        {
            return Err(format!(
                "row {} has {length} cells, more than row {i} above it ({above}): the rows \
                 must not get longer",
                i + 1
            ));
        }
        rows.push(length);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_rows_by_cols("4x7"), Ok((4, 7)));
        assert!(cram_size("4x7").is_ok());
        for bad in [
            "4", "x7", "4x", "4x7x", "-4x7", "+4x7", "4X7", " 4x7", "0x3", "4x0",
        ] {
            assert!(cram_size(bad).is_err(), "{bad}");
        }
        assert_eq!(
            cram_size("9x9").unwrap_err().to_string(),
            "a Cram board of 9x9 is beyond the engine: one side at most 8 cells, the other at most 16"
        );
        assert!(cram_size("8x16").is_ok());
        assert!(cram_size("16x8").is_ok());
        assert!(cram_size("17x1").is_err());
        assert!(
            cram_size("99999999999x1")
                .unwrap_err()
                .to_string()
                .contains("beyond")
        );
    }

    #[test]
    fn pictures() {
        let board = cram_board(b"\n..#  \r\n\n.\t\n#..\n\n").unwrap();
        assert_eq!(
            board,
            CramBoard {
                rows: 3,
                cols: 3,
                blocked: vec![(0, 2), (1, 1), (1, 2), (2, 0)],
            }
        );
        let e = cram_board(b"...\n.x.\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 2: expected `.` (a free cell) or `#` (a blocked cell), found `x`"
        );
        let e = cram_board(b"... .\n").unwrap_err();
        assert_eq!(e.at, Some((1, 4)));
        let e = cram_board(b"..\xff\n").unwrap_err();
        assert!(e.to_string().contains("found `\\xff`"), "{e}");
        assert!(cram_board(b"\n  \n").is_err());
        let e = cram_board(".................\n".as_bytes()).unwrap_err();
        assert_eq!(e.at, Some((1, 17)));
        let e = cram_board("..\n".repeat(17).as_bytes()).unwrap_err();
        assert_eq!(e.at, Some((17, 1)));
        assert!(cram_board(".........\n".repeat(9).as_bytes()).is_err());
    }

    #[test]
    fn graphs() {
        let graph = node_kayles_graph(b"4 3\n0 1\r\n 2\t1\n\n1 0\n", 128).unwrap();
        assert_eq!(
            graph,
            Graph {
                vertices: 4,
                edges: vec![(0, 1), (1, 2)],
            }
        );
        let e = node_kayles_graph(b"3 2\n0 1\n2 2\n", 128).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3, column 3: the edge joins node 2 to itself (a self-loop)"
        );
        let e = node_kayles_graph(b"3 1\n0 3\n", 128).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 3: node 3 is out of range (nodes are 0..=2)"
        );
        let e = node_kayles_graph(b"129 0\n", 128).unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
        assert!(e.to_string().contains("at most 128"), "{e}");
        // A declared count of edges far beyond the input: the end of the
        // input is reported, nothing is allocated for the count.
        let e = node_kayles_graph(b"3 18446744073709551615\n0 1\n", 128).unwrap_err();
        assert!(e.to_string().contains("found the end of the input"), "{e}");
        let e = node_kayles_graph(b"3 1\n0 1 2\n", 128).unwrap_err();
        assert!(e.to_string().contains("unexpected `2`"), "{e}");
        assert_eq!(node_kayles_graph(b"0 0", 128).unwrap().vertices, 0);
    }

    #[test]
    fn chomp_row_lengths() {
        assert_eq!(chomp_rows("3x4", 126), Ok(vec![4, 4, 4]));
        assert_eq!(chomp_rows("4,3,3,1", 126), Ok(vec![4, 3, 3, 1]));
        assert_eq!(chomp_rows("5", 126), Ok(vec![5]));
        assert_eq!(
            chomp_rows("3,4", 126).unwrap_err(),
            "row 2 has 4 cells, more than row 1 above it (3): the rows must not get longer"
        );
        for bad in [
            "", ",", "3,", "3,,1", "3,0", "0", "+3", "3 ,1", "a", "3x", "2x0",
        ] {
            assert!(chomp_rows(bad, 126).is_err(), "{bad:?}");
        }
        assert!(
            chomp_rows("127x1", 126)
                .unwrap_err()
                .contains("beyond the engine")
        );
        assert!(
            chomp_rows(&"1,".repeat(200), 126)
                .unwrap_err()
                .contains("more than 126 rows")
        );
    }
}
