//! The writer: builds a certificate by walking the check's obligations
//! from the root, with a solver answering every nimber it needs (see
//! "How the certificate is written" in the [module documentation](super)).

use std::collections::HashMap;

use super::check::parts_of;
use super::file::{Claim, ProofFile, encode, encode_metadata};
use super::{ProofError, ProofGame};
use crate::game::{Nimber, Reduced};
use crate::{Outcome, SearchError, Solver};

/// Writes a certificate of the nimber of the start position of the
/// solver's game, naming `generator` (e.g. `"grundy 0.1.0"`) as its
/// writer.
///
/// The obligations are those of the game built anew from the solver's
/// game's rules ([`ProofGame::from_rules`]), as the checker builds it; the
/// solver answers the nimbers (it keeps what it learns, so a solver that
/// has just found the start's nimber answers most at once).
///
/// # Example
///
/// ```
/// use sg_search::games::cram::Cram;
/// use sg_search::proof::{check, prove};
/// use sg_search::Solver;
///
/// let cram = Cram::<u64>::new(4, 5).unwrap();
/// let solver = Solver::new(&cram);
/// assert_eq!(solver.nimber(&cram.start()).unwrap(), 2);
/// let proof = prove(&solver, "an example").unwrap();
/// let checked = check(&proof.bytes).unwrap();
/// assert_eq!((checked.game.as_str(), checked.nimber), ("cram 4x5", 2));
/// ```
pub fn prove<G: ProofGame>(
    solver: &Solver<'_, G>,
    generator: &str,
) -> Result<ProofFile, ProofError> {
    let game = G::from_rules(&solver.game().rules())
        .map_err(|why| ProofError::Rules { game: G::NAME, why })?;
    let mut writer = Writer {
        game: &game,
        solver,
        promised: HashMap::new(),
        payload: Vec::new(),
        claims: 0,
        split: Vec::new(),
    };
    let mut parts = Vec::new();
    let mut nimber = parts_of(&game, &game.root(), &mut writer.split, &mut parts);
    for part in &parts {
        nimber ^= writer.promise(part)?;
    }
    writer.walk(parts)?;
    let metadata = encode_metadata(&game, nimber, writer.claims, generator);
    Ok(ProofFile {
        bytes: encode(&metadata, &writer.payload),
        nimber,
        claims: writer.claims,
    })
}

/// Where a promised claim is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// Its nimber is known; its witness is not built yet.
    Promised,
    /// Its walk is under way (on the stack).
    Open,
    /// Written to the payload.
    Written,
}

/// A component that will have a claim, and its nimber.
struct Promise {
    nimber: Nimber,
    state: State,
}

/// A claim being built: its witness, and the components its witness
/// relies on, to be written before it.
struct Frame<P> {
    /// `None` for the root, which is no claim.
    position: Option<P>,
    nimber: Nimber,
    witness: Vec<u32>,
    children: Vec<P>,
    next: usize,
}

/// An option of a claim: the position a move leads to, and its parts.
struct Option_<P> {
    next: P,
    known: Nimber,
    parts: Vec<P>,
}

struct Writer<'a, 's, 'g, G: ProofGame> {
    game: &'a G,
    solver: &'s Solver<'g, G>,
    /// Every component that has or will have a claim.
    promised: HashMap<G::Position, Promise>,
    payload: Vec<u8>,
    claims: u64,
    split: Vec<G::Position>,
}

impl<G: ProofGame> Writer<'_, '_, '_, G> {
    /// The nimber of the part `part`, which will have a claim.
    fn promise(&mut self, part: &G::Position) -> Result<Nimber, ProofError> {
        if let Some(promise) = self.promised.get(part) {
            return Ok(promise.nimber);
        }
        let nimber = self.solver.nimber(part)?;
        self.promised.insert(
            part.clone(),
            Promise {
                nimber,
                state: State::Promised,
            },
        );
        Ok(nimber)
    }

    /// `known` XOR the nimbers of `parts`, if all are promised.
    fn promised_value(&self, known: Nimber, parts: &[G::Position]) -> Option<Nimber> {
        parts.iter().try_fold(known, |x, part| {
            self.promised.get(part).map(|promise| x ^ promise.nimber)
        })
    }

    /// The option of `position` by `mv`.
    fn option(&mut self, position: &G::Position, mv: &G::Move) -> Option_<G::Position> {
        let next = self.game.play(position, mv);
        let mut parts = Vec::new();
        let known = parts_of(self.game, &next, &mut self.split, &mut parts);
        Option_ { next, known, parts }
    }

    /// The first of `options` of nimber `t` whose parts are all promised
    /// already, else the first the solver says has nimber `t` (those whose
    /// largest part is smallest first); its parts promised. `None` if no
    /// option has nimber `t`.
    fn of_nimber(
        &mut self,
        options: &[Option_<G::Position>],
        t: Nimber,
    ) -> Result<Option<usize>, ProofError> {
        let mut pick = options
            .iter()
            .position(|o| self.promised_value(o.known, &o.parts) == Some(t));
        if pick.is_none() {
            for i in self.cheapest_first(options) {
                if self.has_nimber(&options[i], t)? {
                    pick = Some(i);
                    break;
                }
            }
        }
        if let Some(i) = pick {
            for part in &options[i].parts {
                self.promise(part)?;
            }
        }
        Ok(pick)
    }

    /// The indices of `options`, those whose largest part is smallest
    /// first (the order in which the search tries them, and the questions
    /// quickest to answer when the solver has to search).
    fn cheapest_first(&self, options: &[Option_<G::Position>]) -> Vec<usize> {
        let mut order: Vec<(u64, usize)> = options
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let largest = o.parts.iter().map(|p| self.game.size(p)).max();
                (largest.unwrap_or(0), i)
            })
            .collect();
        order.sort_unstable();
        order.into_iter().map(|(_, i)| i).collect()
    }

    /// Whether `option` has nimber `t`, by the solver.
    fn has_nimber(&self, option: &Option_<G::Position>, t: Nimber) -> Result<bool, ProofError> {
        Ok(self.solver.outcome(&option.next, t)? == Outcome::Lose)
    }

    /// The solver contradicts itself (a bug): no witness where its answers
    /// say there is one.
    fn inconsistent(&self, position: &G::Position, what: String) -> ProofError {
        ProofError::Inconsistent {
            position: self.game.show(position),
            what,
        }
    }

    /// Writes the claims of `roots` and of everything their witnesses
    /// rely on, each after all those its witness relies on.
    fn walk(&mut self, roots: Vec<G::Position>) -> Result<(), ProofError> {
        let mut stack = vec![Frame {
            position: None,
            nimber: 0,
            witness: Vec::new(),
            children: roots,
            next: 0,
        }];
        while let Some(top) = stack.last_mut() {
            if let Some(child) = top.children.get(top.next).cloned() {
                top.next += 1;
                let promise = self
                    .promised
                    .get_mut(&child)
                    .expect("a witness relies only on promised components");
                match promise.state {
                    State::Written => {}
                    State::Open => {
                        return Err(SearchError::Cycle {
                            position: self.game.show(&child),
                        }
                        .into());
                    }
                    State::Promised => {
                        promise.state = State::Open;
                        let nimber = promise.nimber;
                        let frame = self.frame(child, nimber)?;
                        stack.push(frame);
                    }
                }
                continue;
            }
            let frame = stack.pop().expect("the top frame");
            let Some(position) = frame.position else {
                continue;
            };
            let claim = Claim {
                position: self.game.code(&position),
                nimber: frame.nimber,
                witness: frame.witness,
            };
            self.payload = postcard::to_extend(&claim, std::mem::take(&mut self.payload))
                .expect("a claim serializes");
            self.claims += 1;
            self.promised
                .get_mut(&position)
                .expect("a claim is promised")
                .state = State::Written;
        }
        Ok(())
    }

    /// The witness of the claim that `position` has nimber `v`, and the
    /// components it relies on (all promised).
    fn frame(
        &mut self,
        position: G::Position,
        v: Nimber,
    ) -> Result<Frame<G::Position>, ProofError> {
        let game = self.game;
        let mut moves = Vec::new();
        game.moves(&position, &mut moves);
        let options: Vec<Option_<G::Position>> =
            moves.iter().map(|mv| self.option(&position, mv)).collect();
        let mut witness = Vec::with_capacity(v as usize + moves.len());
        let mut children = Vec::new();
        // (a) An option of each nimber below v: one whose parts are all
        // promised if there is one, else the first the solver finds.
        for j in 0..v {
            let i = self.of_nimber(&options, j)?.ok_or_else(|| {
                self.inconsistent(&position, format!("no option of nimber {j} below {v}"))
            })?;
            witness.push(i as u32);
            children.extend(options[i].parts.iter().cloned());
        }
        // (b) No option of nimber v.
        for option in &options {
            if let Some(x) = self.promised_value(option.known, &option.parts) {
                if x == v {
                    return Err(self.inconsistent(&position, format!("an option of nimber {v}")));
                }
                witness.push(0);
                children.extend(option.parts.iter().cloned());
                continue;
            }
            let relied_on = self.reply(v, option, &mut witness)?;
            children.extend(relied_on);
        }
        Ok(Frame {
            position: Some(position),
            nimber: v,
            witness,
            children,
            next: 0,
        })
    }

    /// Pushes the entry of (b) for `option`, one of whose parts is not
    /// promised (so the search may never have computed its nimber): `m + 1`
    /// for the move `m` of the option that plays in its largest part `D`
    /// not promised, as it lies in the option, to a position of nimber
    /// `v XOR x` (`x` the XOR of the others), which leaves the option at
    /// nimber `v`; or `0` when `D` has no such move (its nimber is below
    /// `v XOR x`) and all the parts are promised instead. Returns the
    /// components the entry relies on.
    fn reply(
        &mut self,
        v: Nimber,
        option: &Option_<G::Position>,
        witness: &mut Vec<u32>,
    ) -> Result<Vec<G::Position>, ProofError> {
        let game = self.game;
        let open = (0..option.parts.len())
            .filter(|&i| !self.promised.contains_key(&option.parts[i]))
            .max_by_key(|&i| (game.size(&option.parts[i]), std::cmp::Reverse(i)))
            .expect("a part not promised");
        let mut x = option.known;
        let mut relied_on = Vec::with_capacity(option.parts.len());
        for (i, part) in option.parts.iter().enumerate() {
            if i != open {
                x ^= self.promise(part)?;
                relied_on.push(part.clone());
            }
        }
        let target = v ^ x;
        let open = &option.parts[open];
        // The component of the option whose canonical form `open` is, as
        // it lies there: its moves are moves of the option.
        let mut split = Vec::new();
        game.split(&option.next, &mut split);
        let lying = split
            .into_iter()
            .find(|c| game.reduce(c) == Reduced::Canonical(open.clone()))
            .expect("a part is the canonical form of a component");
        let mut moves = Vec::new();
        game.moves(&lying, &mut moves);
        let replies: Vec<Option_<G::Position>> =
            moves.iter().map(|mv| self.option(&lying, mv)).collect();
        match self.of_nimber(&replies, target)? {
            Some(k) => {
                relied_on.extend(replies[k].parts.iter().cloned());
                let mut all = Vec::new();
                game.moves(&option.next, &mut all);
                let m = all
                    .iter()
                    .position(|mv| *mv == moves[k])
                    .expect("a move of a component is a move of the position");
                witness.push(m as u32 + 1);
            }
            None => {
                self.promise(open)?;
                relied_on.push(open.clone());
                witness.push(0);
            }
        }
        Ok(relied_on)
    }
}
