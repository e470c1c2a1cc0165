//! The integration tests of `sg-solve`: the `grundy` command through the
//! real binary and the library through its public interface. One test
//! binary with a module per subject (as rust-analyzer and cargo lay out
//! theirs): one link instead of one per file, and the tests of every
//! module share one pool of test threads.

mod bad_input;
mod common;
mod cram_cli;
mod definitional;
mod doc_examples;
mod engine_hardening;
mod files;
mod graph;
mod hardening;
mod hdu5724_threads;
mod heatmap;
mod help_and_docs;
mod json;
mod knight_cli;
mod memory;
mod messages;
mod misere;
mod misere_checkpoint;
mod misere_cli;
mod node_kayles_chomp_cli;
mod octal_checkpoint;
mod octal_cli;
mod proof_corpus;
mod quoting;
mod samples;
mod scan_paths;
mod search_checkpoint;
mod stopped;
mod sweep;
mod table_files;
mod tables;
mod threads;
mod uva11927_threads;
