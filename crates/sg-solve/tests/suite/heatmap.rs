//! `grundy knight --grid` and `grundy row --grid` as text and as PNG
//! heatmaps: the values are the definition's, the picture decodes, has the
//! right size, and exactly the losing positions have the losing colour.

use crate::common::grundy;
use sg_core::knight::{MoveSet, TriangleTable};
use sg_core::row::row_table_by_definition;
use sg_solve::heatmap::LOSING_COLOUR;

fn decode(path: &std::path::Path) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut pixels).unwrap();
    assert_eq!(info.color_type, png::ColorType::Rgb);
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    pixels.truncate(info.buffer_size());
    (info.width, info.height, pixels)
}

#[test]
fn grid_text_is_the_definition() {
    let mut t = TriangleTable::new(MoveSet::hyper_knight(), 1000);
    let out = grundy(&["knight", "--grid", "3..10", "5..=9"], "");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    for (row, line) in lines.iter().enumerate() {
        let got: Vec<u8> = line
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        let want: Vec<u8> = (3..10)
            .map(|x| t.value(x, 5 + row as u64).unwrap())
            .collect();
        assert_eq!(got, want, "y = {}", 5 + row);
    }
}

#[test]
fn heatmap_decodes_with_the_losing_squares_marked() {
    let guard = tempfile::tempdir().unwrap();
    let dir = guard.path();
    let mut t = TriangleTable::new(MoveSet::hyper_knight(), 1000);
    for (xs, ys, scale, x0, y0) in [
        ("0..40", "0..30", 3u32, 0, 0),
        ("100..117", "7..=20", 5, 100, 7),
    ] {
        let path = dir.join(format!("knight-{scale}.png"));
        let args = [
            "knight",
            "--grid",
            xs,
            ys,
            "--png",
            path.to_str().unwrap(),
            "--scale",
        ];
        let out = grundy(&[&args[..], &[&scale.to_string()]].concat(), "");
        assert!(out.status.success(), "{out:?}");
        let (width, height, pixels) = decode(&path);
        let (cols, rows) = if x0 == 0 { (40, 30) } else { (17, 14) };
        assert_eq!((width, height), (cols * scale, rows * scale));
        let mut losing = 0;
        for row in 0..rows {
            for col in 0..cols {
                let value = t.value(x0 + u64::from(col), y0 + u64::from(row)).unwrap();
                // Every pixel of the square has the square's colour.
                let first = pixel(&pixels, width, col * scale, row * scale);
                let last = pixel(
                    &pixels,
                    width,
                    col * scale + scale - 1,
                    row * scale + scale - 1,
                );
                assert_eq!(first, last);
                assert_eq!(
                    first == LOSING_COLOUR,
                    value == 0,
                    "({col}, {row}): {value}"
                );
                losing += u32::from(value == 0);
            }
        }
        assert!(losing > 0, "some squares lose");
    }
}

fn pixel(pixels: &[u8], width: u32, x: u32, y: u32) -> [u8; 3] {
    let at = 3 * (y as usize * width as usize + x as usize);
    [pixels[at], pixels[at + 1], pixels[at + 2]]
}

/// With `--png`, the picture is the answer: nothing on standard output
/// unless `--text` or `--json` asks for the grid too (then the same as
/// without `--png`).
#[test]
fn a_picture_alone_prints_nothing() {
    let guard = tempfile::tempdir().unwrap();
    let path = guard.path().join("grid.png");
    let png = path.to_str().unwrap();
    for grid in [
        &["knight", "--grid", "0..9", "2..7"][..],
        &["row", "--width", "6", "--grid"],
    ] {
        let stdout = |extra: &[&str]| {
            let out = grundy(&[grid, extra].concat(), "");
            assert!(out.status.success(), "{grid:?} {extra:?}: {out:?}");
            String::from_utf8(out.stdout).unwrap()
        };
        let (text, json) = (stdout(&[]), stdout(&["--json"]));
        assert!(!text.is_empty() && json.starts_with('{'), "{text} {json}");
        assert_eq!(stdout(&["--png", png]), "", "{grid:?}");
        assert!(std::fs::metadata(&path).unwrap().len() > 0);
        assert_eq!(stdout(&["--png", png, "--text"]), text, "{grid:?}");
        assert_eq!(stdout(&["--png", png, "--json"]), json, "{grid:?}");
        // --text asks for the text beside a picture: alone, or with --json,
        // it is a usage error.
        for extra in [&["--text"][..], &["--png", png, "--text", "--json"]] {
            let out = grundy(&[grid, extra].concat(), "");
            assert_eq!(out.status.code(), Some(2), "{grid:?} {extra:?}");
        }
    }
}

#[test]
fn bad_grids_are_usage_errors() {
    for args in [
        &["knight", "--grid", "5..5", "0..3"][..],
        &["knight", "--grid", "0..3"],
        &["knight", "--grid", "a..3", "0..3"],
        &["knight", "1", "2", "--png", "x.png"],
        &["knight", "--grid", "0..5000", "0..3"],
    ] {
        let out = grundy(args, "");
        assert_ne!(out.status.code(), Some(0), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

#[test]
fn row_values_and_grid_are_the_definition() {
    let table = row_table_by_definition(12);
    // One row: pieces on columns 1 and 19 of 20, and on 2, 3, 9 of 12.
    let value = |args: &[&str]| {
        let out = grundy(args, "");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout)
            .unwrap()
            .trim()
            .parse::<u8>()
            .unwrap()
    };
    assert_eq!(value(&["row", "1", "19"]), 1);
    let mask = (1 << (12 - 2)) | (1 << (12 - 3)) | (1 << (12 - 9));
    assert_eq!(value(&["row", "--width", "12", "2", "3", "9"]), table[mask]);

    let guard = tempfile::tempdir().unwrap();
    let dir = guard.path();
    let path = dir.join("rows.png");
    let args = [
        "row",
        "--width",
        "12",
        "--grid",
        "--png",
        path.to_str().unwrap(),
        "--scale",
        "2",
        "--text",
    ];
    let out = grundy(&args, "");
    assert!(out.status.success(), "{out:?}");
    // Text: 64 lines (the left 6 cells) of 64 values (the right 6 cells).
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 64);
    for (y, line) in lines.iter().enumerate() {
        let got: Vec<u8> = line
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(got, table[y << 6..(y + 1) << 6], "left half {y:#b}");
    }
    let (width, height, pixels) = decode(&path);
    assert_eq!((width, height), (128, 128));
    for mask in 0..1u32 << 12 {
        let (x, y) = (2 * (mask & 63), 2 * (mask >> 6));
        let losing = pixel(&pixels, width, x + 1, y + 1) == LOSING_COLOUR;
        assert_eq!(losing, table[mask as usize] == 0, "row {mask:#b}");
    }

    for args in [
        &["row", "1", "1"][..],
        &["row", "--width", "25", "--grid"],
        &["row", "1", "--png", "x.png"],
    ] {
        let out = grundy(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}
