//! Games built in: Cram, and (soon) Node-Kayles and Chomp.

pub mod cram;
