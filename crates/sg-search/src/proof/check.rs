//! The checker: confirms a certificate's claims in order from the game's
//! rules alone (the rule and why it proves the nimber are in the
//! [module documentation](super)). It never calls the solver.

use std::collections::HashMap;

use super::file::{Claim, Claims, FileError, Sections, Tail, take};
use super::games::{ChompRules, CramRules, NodeKaylesRules};
use super::{ProofError, ProofGame};
use crate::bits::U256;
use crate::game::{Game, Nimber, Reduced};
use crate::games::chomp::{self, Chomp};
use crate::games::cram::{self, Cram};
use crate::games::node_kayles::{self, NodeKayles};

/// A certificate that checks: what it proves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The game with its rules, e.g. `"cram 4x7"`.
    pub game: String,
    /// The nimber of its start position.
    pub nimber: Nimber,
    /// The claims checked.
    pub claims: u64,
}

/// Checks a certificate of one of the built-in games (the game is the
/// one the file names).
pub fn check(bytes: &[u8]) -> Result<Checked, ProofError> {
    let sections = Sections::of(bytes)?;
    let (name, rest) = take::<String>(sections.metadata, "game")?;
    match name.as_str() {
        <Cram as ProofGame>::NAME => {
            let (rules, _) = take::<CramRules>(rest, "rules")?;
            if cram::fits_u64(rules.rows, rules.cols) {
                check_sections::<Cram<u64>>(&sections, None)
            } else {
                check_sections::<Cram<u128>>(&sections, None)
            }
        }
        <NodeKayles as ProofGame>::NAME => {
            let (rules, _) = take::<NodeKaylesRules>(rest, "rules")?;
            let vertices = u64::from(rules.vertices);
            if node_kayles::fits_u64(vertices) {
                check_sections::<NodeKayles<u64>>(&sections, None)
            } else if node_kayles::fits_u128(vertices) {
                check_sections::<NodeKayles<u128>>(&sections, None)
            } else {
                check_sections::<NodeKayles<U256>>(&sections, None)
            }
        }
        <Chomp as ProofGame>::NAME => {
            let (rules, _) = take::<ChompRules>(rest, "rules")?;
            let (rows, cols) = (
                rules.rows.len() as u64,
                rules.rows.first().copied().unwrap_or(0),
            );
            if chomp::fits_u64(rows, u64::from(cols)) {
                check_sections::<Chomp<u64>>(&sections, None)
            } else {
                check_sections::<Chomp<u128>>(&sections, None)
            }
        }
        _ => Err(ProofError::UnknownGame(name)),
    }
}

/// Checks a certificate of the game `G`, with any rules; with `expected`,
/// only a certificate of the game with exactly these rules is accepted.
pub fn check_game<G: ProofGame>(bytes: &[u8], expected: Option<&G>) -> Result<Checked, ProofError> {
    check_sections(&Sections::of(bytes)?, expected)
}

fn check_sections<G: ProofGame>(
    sections: &Sections<'_>,
    expected: Option<&G>,
) -> Result<Checked, ProofError> {
    let (name, rest) = take::<String>(sections.metadata, "game")?;
    if name != G::NAME {
        return Err(ProofError::OtherGame {
            expected: G::NAME.to_owned(),
            found: format!("the game {}", super::quoted(&name)),
        });
    }
    let (rules, rest) = take::<G::Rules>(rest, "rules")?;
    let game = G::from_rules(&rules).map_err(|why| ProofError::Rules { game: G::NAME, why })?;
    if let Some(expected) = expected
        && expected.rules() != rules
    {
        return Err(ProofError::OtherGame {
            expected: expected.describe(),
            found: game.describe(),
        });
    }
    let (tail, rest) = take::<Tail>(rest, "root, nimber, claims, generator")?;
    if !rest.is_empty() {
        return Err(FileError::Metadata {
            field: "generator",
            why: format!("{} bytes after the last field", rest.len()),
        }
        .into());
    }
    let root = game.position_of(&tail.root);
    if root.as_ref() != Some(&game.root()) {
        return Err(FileError::RootNotStart {
            game: game.describe(),
        }
        .into());
    }
    let payload = sections.payload()?;
    let mut checker = Checker::new(&game, tail.claims);
    let mut claims = Claims::new(payload, tail.claims);
    loop {
        let offset = claims.offset();
        let Some(claim) = claims.next_claim()? else {
            break;
        };
        checker.claim(claims.read(), offset, claim)?;
    }
    checker.root(tail.nimber)?;
    Ok(Checked {
        game: game.describe(),
        nimber: tail.nimber,
        claims: tail.claims,
    })
}

/// The parts of `position` (see the [module documentation](super)):
/// into `parts`, its components whose nimber the rules do not give, in
/// canonical form, pairs of equal ones removed; returns the XOR of the
/// nimbers the rules give. `split` is a buffer.
pub(crate) fn parts_of<G: Game>(
    game: &G,
    position: &G::Position,
    split: &mut Vec<G::Position>,
    parts: &mut Vec<G::Position>,
) -> Nimber {
    split.clear();
    parts.clear();
    game.split(position, split);
    let mut known = 0;
    for part in split.drain(..) {
        match game.reduce(&part) {
            Reduced::Known(n) => known ^= n,
            Reduced::Canonical(c) => parts.push(c),
        }
    }
    cancel_pairs(parts);
    known
}

/// Removes pairs of equal positions from `parts` (keeping the order of
/// the others).
fn cancel_pairs<P: Eq + std::hash::Hash>(parts: &mut Vec<P>) {
    if parts.len() < 2 {
        return;
    }
    let mut keep = vec![true; parts.len()];
    if parts.len() <= 16 {
        for i in 0..parts.len() {
            if !keep[i] {
                continue;
            }
            if let Some(j) = (i + 1..parts.len()).find(|&j| keep[j] && parts[j] == parts[i]) {
                keep[i] = false;
                keep[j] = false;
            }
        }
    } else {
        let mut open: HashMap<&P, usize> = HashMap::new();
        for (i, part) in parts.iter().enumerate() {
            if let Some(j) = open.remove(part) {
                keep[i] = false;
                keep[j] = false;
            } else {
                open.insert(part, i);
            }
        }
    }
    let mut index = 0;
    parts.retain(|_| {
        index += 1;
        keep[index - 1]
    });
}

/// The check of a certificate's claims, in order.
struct Checker<'g, G: ProofGame> {
    game: &'g G,
    stated: u64,
    /// The claims checked so far.
    claimed: HashMap<G::Position, Nimber>,
    moves: Vec<G::Move>,
    replies: Vec<G::Move>,
    split: Vec<G::Position>,
    parts: Vec<G::Position>,
    reply_parts: Vec<G::Position>,
}

impl<'g, G: ProofGame> Checker<'g, G> {
    fn new(game: &'g G, stated: u64) -> Self {
        Checker {
            game,
            stated,
            claimed: HashMap::new(),
            moves: Vec::new(),
            replies: Vec::new(),
            split: Vec::new(),
            parts: Vec::new(),
            reply_parts: Vec::new(),
        }
    }

    /// The XOR of the values of `parts` and `known`, or the first part
    /// without a claim.
    fn value_of<'p>(
        &self,
        known: Nimber,
        parts: &'p [G::Position],
    ) -> Result<Nimber, &'p G::Position> {
        let mut x = known;
        for part in parts {
            x ^= *self.claimed.get(part).ok_or(part)?;
        }
        Ok(x)
    }

    /// Checks claim `number` (from 1), read at `offset` of the payload.
    fn claim(&mut self, number: u64, offset: u64, claim: Claim) -> Result<(), ProofError> {
        let game = self.game;
        let undecodable = |why: String| FileError::Claim {
            number,
            offset,
            why,
        };
        let position = game.position_of(&claim.position).ok_or_else(|| {
            undecodable(format!("its position is not one of {}", game.describe()))
        })?;
        let stated = self.stated;
        let fail = |why: String| ProofError::Claim {
            number,
            claims: stated,
            position: game.show(&position),
            nimber: claim.nimber,
            why,
        };
        // Parts are canonical forms: a claim values its own.
        let canonical = game.canonical(&position);
        if self.claimed.contains_key(&canonical) {
            return Err(fail(
                "its position, or an image of it under the game's symmetries, is claimed before"
                    .to_owned(),
            ));
        }
        self.witness(&position, claim.nimber, &claim.witness)
            .map_err(fail)?;
        self.claimed.insert(canonical, claim.nimber);
        Ok(())
    }

    /// Checks the witness of the claim that `position` has nimber `v`: the
    /// rules (a) and (b) of the module documentation.
    fn witness(
        &mut self,
        position: &G::Position,
        v: Nimber,
        witness: &[u32],
    ) -> Result<(), String> {
        let game = self.game;
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        game.moves(position, &mut moves);
        let result = self.witness_with(position, v, witness, &moves);
        self.moves = moves;
        result
    }

    fn witness_with(
        &mut self,
        position: &G::Position,
        v: Nimber,
        witness: &[u32],
        moves: &[G::Move],
    ) -> Result<(), String> {
        let game = self.game;
        if witness.len() < v as usize + moves.len() {
            return Err(format!(
                "its witness has {} entries, but a nimber of {v} and {} moves need at least {}",
                witness.len(),
                moves.len(),
                v as usize + moves.len()
            ));
        }
        let (reaching, replies) = witness.split_at(v as usize);
        let mut parts = std::mem::take(&mut self.parts);
        let result = (|| {
            // (a) Every value below v is the nimber of an option.
            for (j, &index) in reaching.iter().enumerate() {
                let mv = moves.get(index as usize).ok_or_else(|| {
                    format!("the move {index} given for nimber {j} does not exist")
                })?;
                let next = game.play(position, mv);
                let known = parts_of(game, &next, &mut self.split, &mut parts);
                let x = self.value_of(known, &parts).map_err(|part| {
                    format!(
                        "the move {} given for nimber {j} leaves the component {}, not claimed before",
                        game.show_move(mv),
                        game.show(part)
                    )
                })?;
                if x != j as Nimber {
                    return Err(format!(
                        "the move {} given for nimber {j} leads to nimber {x}",
                        game.show_move(mv)
                    ));
                }
            }
            // (b) No option has nimber v.
            let mut replies = replies.iter().copied();
            for mv in moves {
                let next = game.play(position, mv);
                let known = parts_of(game, &next, &mut self.split, &mut parts);
                let Some(entry) = replies.next() else {
                    return Err(format!(
                        "its witness ends before the entry of the move {}",
                        game.show_move(mv)
                    ));
                };
                if entry == 0 {
                    match self.value_of(known, &parts) {
                        Err(part) => {
                            return Err(format!(
                                "the move {} leaves the component {}, not claimed before, and has no reply",
                                game.show_move(mv),
                                game.show(part)
                            ));
                        }
                        Ok(x) if x == v => {
                            return Err(format!(
                                "the move {} leads to nimber {v}",
                                game.show_move(mv)
                            ));
                        }
                        Ok(_) => continue,
                    }
                }
                self.reply(&next, entry - 1, v)
                    .map_err(|why| format!("the move {}: {why}", game.show_move(mv)))?;
            }
            let extra = replies.count();
            if extra > 0 {
                return Err(format!("its witness has {extra} entries too many"));
            }
            Ok(())
        })();
        self.parts = parts;
        result
    }

    /// Checks that the move `index` of `position` leads to a position of
    /// nimber `target`, all of its parts claimed.
    fn reply(&mut self, position: &G::Position, index: u32, target: Nimber) -> Result<(), String> {
        let game = self.game;
        let mut replies = std::mem::take(&mut self.replies);
        replies.clear();
        game.moves(position, &mut replies);
        let mut parts = std::mem::take(&mut self.reply_parts);
        let result = match replies.get(index as usize) {
            None => Err(format!(
                "its reply {index} does not exist (the position it answers has {} moves)",
                replies.len()
            )),
            Some(reply) => {
                let next = game.play(position, reply);
                let known = parts_of(game, &next, &mut self.split, &mut parts);
                match self.value_of(known, &parts) {
                    Err(part) => Err(format!(
                        "its reply {} leaves the component {}, not claimed before",
                        game.show_move(reply),
                        game.show(part)
                    )),
                    Ok(y) if y != target => Err(format!(
                        "its reply {} leads to nimber {y}, not {target}",
                        game.show_move(reply),
                    )),
                    Ok(_) => Ok(()),
                }
            }
        };
        self.replies = replies;
        self.reply_parts = parts;
        result
    }

    /// Checks the root against the claims and the stated `nimber`.
    fn root(&mut self, nimber: Nimber) -> Result<(), ProofError> {
        let game = self.game;
        let root = game.root();
        let fail = |why: String| ProofError::Root {
            position: game.show(&root),
            why,
        };
        let mut parts = Vec::new();
        let known = parts_of(game, &root, &mut self.split, &mut parts);
        let x = self
            .value_of(known, &parts)
            .map_err(|part| fail(format!("its component {} has no claim", game.show(part))))?;
        if x != nimber {
            return Err(fail(format!(
                "its components' claims give nimber {x}, but the file states {nimber}"
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_cancel() {
        for n in [0usize, 1, 5, 16, 17, 40] {
            let mut parts: Vec<u32> = (0..n as u32).map(|i| i % 7).collect();
            let mut expected: Vec<u32> = Vec::new();
            for &p in &parts {
                if let Some(i) = expected.iter().position(|&q| q == p) {
                    expected.remove(i);
                } else {
                    expected.push(p);
                }
            }
            cancel_pairs(&mut parts);
            parts.sort_unstable();
            expected.sort_unstable();
            assert_eq!(parts, expected, "{n}");
        }
    }
}
