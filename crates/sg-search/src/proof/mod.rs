//! Proofs of nimbers that anyone can check without trusting the search:
//! a certificate lists claims "the component `C` has nimber `v`", each
//! with the moves that show it, and [`check`] confirms every claim from
//! the game's rules alone, with no search.
//!
//! [`prove`] writes a certificate after a [`Solver`](crate::Solver) has
//! found the nimber of a game's start; [`check`] (the built-in games) or
//! [`check_game`] (a game of yours) checks one; the file format is in
//! [`file`](mod@file). A game has proofs when it implements [`ProofGame`]: its name,
//! its rules as data, its start and how its positions are stored.
//!
//! # What a certificate holds
//!
//! The game's name and rules, its root (the start position of those
//! rules), the root's nimber, and a list of claims. A claim is a position
//! `C` with a nimber `v` and a *witness*, a list of numbers: for each
//! `j < v` the index of a move of `C` (in the order of [`Game::moves`]);
//! then for each move of `C`, in order, `0`, or `m + 1`: a *reply*, the
//! `m`-th move of the position that move leads to.
//!
//! # The check
//!
//! The *parts* of a position `P` are what the search works with: the
//! components of `P` ([`Game::split`]) whose nimber the rules do not give
//! ([`Game::reduce`], which answers as [`Game::known_nimber`] does), each
//! replaced by its canonical form (as `reduce` gives it, the same as
//! [`Game::canonical`]), in the order `split` lists them, and with pairs of equal ones
//! removed (a part equal to an earlier one still unpaired is paired with
//! it, and both go); the nimbers the rules give are XORed into `k(P)`. A
//! part is *valued* when a claim *earlier in the file* has a position of
//! that canonical form; its value is that claim's nimber.
//!
//! Claims are checked in the order of the file. The claim `(C, v)` passes
//! when:
//!
//! - (a) for every `j < v`, its witness names a move of `C` to a position
//!   `P` whose parts are all valued, and `k(P)` XOR their values is `j`;
//! - (b) for every move of `C`, to a position `P`:
//!   - with the entry `0`: every part of `P` is valued, and `k(P)` XOR
//!     their values is not `v`;
//!   - with the entry `m + 1`: the `m`-th move of `P` leads to a position
//!     `Q` whose parts are all valued, with `k(Q)` XOR their values equal
//!     to `v`;
//! - and the witness has no entry left over.
//!
//! Then the root: its parts must all be valued (by any claim of the file),
//! and `k(root)` XOR their values must be the nimber the file states. A
//! canonical form may be claimed once only. The first claim that fails
//! (or the root) is named in the error.
//!
//! The file format, every game's rules, the order of its moves and the
//! nimbers its rules give are specified in `PROOF.md` (the documentation
//! of [`file`](mod@file)) closely enough for a checker written apart from
//! this one: `checker/grundy_proof_check.py` in the repository is one, in
//! Python, that shares no code with this module and recognises claimed
//! positions by a canonical form of its own.
//!
//! # Why a certificate that checks proves the nimber
//!
//! What is trusted: the game's code as built from the rules in the file
//! ([`ProofGame::from_rules`], never the solver's instance, which may
//! carry a database): [`Game::moves`] and [`Game::play`] define the game;
//! [`Game::split`] returns components whose disjunctive sum is the
//! position (the ones left out have no move); [`Game::reduce`] (and so
//! [`Game::canonical`]) returns a position isomorphic to its argument
//! (the same game tree), and a known nimber that is right; and the game is
//! finite
//! and acyclic, so that every position has a nimber `g`. Three facts of
//! the theory:
//!
//! 1. `g(X)` is the mex of the nimbers of the options of `X`: the least
//!    value that no option has.
//! 2. (Sprague-Grundy) `g(X1 + ... + Xm) = g(X1) XOR ... XOR g(Xm)` for a
//!    disjunctive sum; so `g(D + D) = 0` and removing a pair of equal
//!    components does not change the nimber.
//! 3. Isomorphic positions have the same nimber: `g` depends on the game
//!    tree only. So `g(canonical(D)) = g(D)`.
//!
//! By 2 and 3, for every position `P`, `g(P)` is `k(P)` XOR the nimbers
//! of its parts.
//!
//! **Claim.** If every claim passes, every claim is true: `g(C) = v`.
//!
//! *Proof*, by induction on the place of the claim in the file. Let the
//! claims before `(C, v)` be true. A valued part's value is then its
//! nimber, since it was given by an earlier claim about that very
//! position (or by the rules).
//!
//! - By (a), for each `j < v` some option `P` of `C` has all its parts
//!   valued and `k(P)` XOR their values `= j`; so `g(P) = j`. Every value
//!   below `v` is the nimber of an option.
//! - Let `P` be any option of `C`. If its entry is `0`, all its parts are
//!   valued, so `g(P)` is `k(P)` XOR their values, which (b) says is not
//!   `v`. Otherwise the reply is a move of `P` to a position `Q` with
//!   `g(Q) = v` (its parts valued, as for (a)); `Q` is an option of `P`,
//!   so by fact 1 `g(P) != v`. No option has nimber `v`.
//!
//! By fact 1, `g(C) = v`. The first claim relies on none before it, so the
//! induction starts there. ∎
//!
//! The root's parts are then all valued by true claims or by the rules,
//! so its nimber is `k(root)` XOR their values (facts 2 and 3): the
//! nimber the file states. The induction runs along the file, not along
//! the game, so the check needs no order of the positions beyond the
//! file's: a claim that refers to a later one fails.
//!
//! Every claim of a file that checks is thus a proved nimber, whatever
//! wrote the file: the check never calls the solver, and a file whose
//! claims are wrong, missing, altered or out of order fails at the first
//! claim that relies on one of them (or at the wrong claim itself).
//!
//! # How the certificate is written
//!
//! [`prove`] walks the check's own obligations from the root, asking the
//! solver (whose table holds most answers already) for each nimber it
//! needs: for (a) an option of nimber `j`; for (b), when a move leaves one
//! large component `D` whose nimber the search never computed (the search
//! only learnt that it is not `v XOR x`, `x` the XOR of the others), a
//! reply in `D` to nimber `v XOR x` (a move of `P` that leaves the other
//! components as they are, so that `Q` has nimber `v`), and otherwise the
//! nimbers of all the parts. It prefers options and
//! replies whose parts are claimed already, and writes each claim after
//! every claim its witness uses (a depth-first walk on an explicit stack,
//! the claim written when its walk ends), so the file holds only the
//! claims the check needs, in an order the check accepts.

mod check;
pub mod file;
mod games;
#[cfg(test)]
mod tests;
mod write;

pub use check::{Checked, check, check_game};
pub use file::{FileError, ProofFile};
pub use games::{ChompRules, CramRules, NodeKaylesRules};
pub use write::prove;

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::SearchError;
use crate::game::{Game, Nimber};

/// A game whose nimbers can be proved in a certificate: it has a name,
/// rules stored as data (from which the checker builds the game anew), a
/// start position, and a stored form of its positions (a string of
/// bytes).
///
/// The game that [`from_rules`](Self::from_rules) builds must answer
/// [`Game::known_nimber`] and [`Game::reduce`] from the rules alone (no
/// table computed elsewhere): the checker trusts them.
pub trait ProofGame: Game + Sized {
    /// The game's name in a certificate and in messages, e.g. `"cram"`.
    const NAME: &'static str;
    /// The rules, as stored in a certificate (board, blocked cells, graph).
    type Rules: Serialize + DeserializeOwned + Clone + PartialEq + Debug;

    /// This game's rules.
    fn rules(&self) -> Self::Rules;

    /// The game of `rules`, or why they are not valid rules of the game.
    fn from_rules(rules: &Self::Rules) -> Result<Self, String>;

    /// The start position (the root of a certificate).
    fn root(&self) -> Self::Position;

    /// The game with its rules in a few words, e.g. `"cram 4x7"`.
    fn describe(&self) -> String;

    /// The stored form of `position`.
    fn code(&self, position: &Self::Position) -> Vec<u8>;

    /// The position stored as `code`, if it is one of this game.
    fn position_of(&self, code: &[u8]) -> Option<Self::Position>;

    /// `position` for a message.
    fn show(&self, position: &Self::Position) -> String;

    /// `mv` for a message.
    fn show_move(&self, mv: &Self::Move) -> String {
        format!("{mv:?}")
    }
}

/// Why a certificate cannot be written, read or accepted.
#[derive(Debug, thiserror::Error)]
pub enum ProofError {
    /// The file is not a well-formed certificate (truncated, garbage, a
    /// checksum that does not match).
    #[error(transparent)]
    File(#[from] FileError),
    /// A game this program has no rules for.
    #[error("the certificate is for the game {}, which this program does not know", quoted(.0))]
    UnknownGame(String),
    /// A certificate for another game than the one asked for.
    #[error("the certificate is for {found}, not {expected}")]
    OtherGame {
        /// The game asked for.
        expected: String,
        /// The game of the certificate.
        found: String,
    },
    /// Rules that do not make a game.
    #[error("the rules of the certificate are not valid for {game}: {why}")]
    Rules {
        /// The game's name.
        game: &'static str,
        /// Why.
        why: String,
    },
    /// A claim that the check does not confirm.
    #[error("claim {number} of {claims} ({position}, nimber {nimber}) fails: {why}")]
    Claim {
        /// Its place in the file, from 1.
        number: u64,
        /// Claims in the file.
        claims: u64,
        /// Its position, as the game shows it.
        position: String,
        /// Its claimed nimber.
        nimber: Nimber,
        /// What fails.
        why: String,
    },
    /// The root, or the nimber stated for it, is not confirmed.
    #[error("the root ({position}) fails: {why}")]
    Root {
        /// The root, as the game shows it.
        position: String,
        /// What fails.
        why: String,
    },
    /// The solver's answers contradict each other (a bug of the solver):
    /// the writer found no witness where they say there is one.
    #[error("the solver's answers are inconsistent at {position}: {what}")]
    Inconsistent {
        /// The claim being written, as the game shows it.
        position: String,
        /// What is missing.
        what: String,
    },
    /// The search failed while writing a certificate.
    #[error(transparent)]
    Search(#[from] SearchError),
}

/// `text` of a file as a message quotes it ([`sg_text::quote`]: escaped,
/// on one line, cut after 40 bytes): a certificate cannot make a message
/// longer than a line.
fn quoted(text: &str) -> String {
    sg_text::quote(text)
}
