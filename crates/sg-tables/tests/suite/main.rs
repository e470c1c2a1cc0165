//! The integration tests of `sg-tables`, one test binary with a module per
//! subject (one link instead of one per file).

mod corrupt;
mod cram;
mod cram_unheld;
mod embedded;
mod files;
