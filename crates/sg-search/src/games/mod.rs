//! Games built in: Cram, Node-Kayles and Chomp.

pub mod chomp;
pub mod cram;
pub mod node_kayles;
