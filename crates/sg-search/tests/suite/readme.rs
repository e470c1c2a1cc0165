//! The workspace's README shows `sg-search` code that is not compiled
//! there: each such block must be one of this crate's README, whose
//! blocks run as doctests (so a block that stops compiling or answering
//! fails there).

use std::path::Path;

/// The ```rust blocks of a Markdown text.
fn rust_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        match &mut current {
            None if line.trim_end() == "```rust" => current = Some(String::new()),
            Some(block) if line.trim_end() == "```" => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            Some(block) => {
                block.push_str(line);
                block.push('\n');
            }
            None => {}
        }
    }
    blocks
}

#[test]
fn the_workspace_readme_shows_only_tested_code_of_this_crate() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Absent when the crate is built from its package.
    let Ok(workspace) = std::fs::read_to_string(crate_dir.join("../../README.md")) else {
        return;
    };
    let ours = rust_blocks(&std::fs::read_to_string(crate_dir.join("README.md")).unwrap());
    let shown: Vec<String> = rust_blocks(&workspace)
        .into_iter()
        .filter(|block| block.contains("sg_search"))
        .collect();
    assert!(
        !shown.is_empty(),
        "the workspace README shows sg-search code"
    );
    for block in shown {
        assert!(
            ours.contains(&block),
            "this block of the workspace README is not one of crates/sg-search/README.md:\n{block}"
        );
    }
}
