//! Tame components: the type a component gets from the types of its
//! options, and the misère outcome of a sum of typed components (see
//! "Tame components" in the [module documentation](super) for the rules
//! and the proof that the outcome is right).

use crate::game::Nimber;

/// The type of a tame game: its normal-play nimber `n`, and whether it is
/// *big* (plays in sums as a nim position with a heap of 2 or more) or
/// *small* (as one whose heaps are all 0 or 1; then `n` is 0 or 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Tame {
    pub(crate) n: Nimber,
    pub(crate) big: bool,
}

impl Tame {
    /// The type of a game without a move (and of the empty sum).
    pub(crate) const ZERO: Tame = Tame { n: 0, big: false };

    /// The type of a sum: the nimbers XORed, big when either is.
    pub(crate) fn plus(self, other: Tame) -> Tame {
        Tame {
            n: self.n ^ other.n,
            big: self.big || other.big,
        }
    }

    /// Whether a sum of this type is a misère loss for the player to
    /// move: nimber 0 with a big part, nimber 1 with none (misère Nim).
    pub(crate) fn loses(self) -> bool {
        self.n == if self.big { 0 } else { 1 }
    }
}

/// What a component's options say, as the rules need it: whether an
/// option of each small and big type of nimber 0 and 1 exists (the mex of
/// the options' nimbers is kept by the caller).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct OptionTypes {
    small0: bool,
    small1: bool,
    big0: bool,
    big1: bool,
}

impl OptionTypes {
    /// Notes an option of type `t`.
    pub(crate) fn note(&mut self, t: Tame) {
        match (t.n, t.big) {
            (0, false) => self.small0 = true,
            (1, false) => self.small1 = true,
            (0, true) => self.big0 = true,
            (1, true) => self.big1 = true,
            _ => {}
        }
    }

    /// The type of a component whose options (at least one, all typed)
    /// have the mex `n` and these types, or `None` if the rules give it
    /// none (the component is *wild*).
    pub(crate) fn decide(self, n: Nimber) -> Option<Tame> {
        let (big, valid) = match n {
            // Small exactly when an option is (1, small) (rule C0); a small
            // one has no option (1, big) (rule B). A big one has no option
            // (1, small) (rule A), which holds.
            0 => (!self.small1, !(self.small1 && self.big1)),
            // Small exactly when an option is (0, small) (rule C1), then
            // with no option (0, big) (rule B). A big one: no option (0,
            // small) (rule A), and its options of nimber 0 (the mex is 1)
            // are all (0, big) (rule D1).
            1 => (!self.small0, !(self.small0 && self.big0)),
            // Big; rules D1 and D0.
            _ => (
                true,
                (self.small1 || self.big0) && (self.small0 || self.big1),
            ),
        };
        valid.then_some(Tame { n, big })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A game given as its options, each a sum of games (indices of
    /// earlier games of the same list).
    type Games = Vec<Vec<Vec<usize>>>;

    /// A random game list: game `i` has up to `width` options, each a sum
    /// of up to two earlier games.
    fn random_games(count: usize, width: u64, seed: u64) -> Games {
        let mut state = seed;
        let mut next = move |below: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % below.max(1)
        };
        let mut games: Games = Vec::new();
        for i in 0..count {
            let options = if i == 0 { 0 } else { next(width + 1) };
            let list = (0..options)
                .map(|_| {
                    let parts = next(3) as usize;
                    (0..parts).map(|_| next(i as u64) as usize).collect()
                })
                .collect();
            games.push(list);
        }
        games
    }

    /// The type of every game of the list (`None`: wild, or an option
    /// with a wild part).
    fn types(games: &Games) -> Vec<Option<Tame>> {
        let mut types: Vec<Option<Tame>> = Vec::new();
        for options in games {
            let typed: Option<Vec<Tame>> = options
                .iter()
                .map(|parts| {
                    parts
                        .iter()
                        .try_fold(Tame::ZERO, |acc, &p| types[p].map(|t| acc.plus(t)))
                })
                .collect();
            let t = typed.and_then(|option_types| {
                if option_types.is_empty() {
                    return Some(Tame::ZERO);
                }
                let mut flags = OptionTypes::default();
                let mut seen = vec![false; option_types.len() + 1];
                for t in &option_types {
                    flags.note(*t);
                    if let Some(s) = seen.get_mut(t.n as usize) {
                        *s = true;
                    }
                }
                let mex = seen.iter().position(|s| !s).unwrap() as Nimber;
                flags.decide(mex)
            });
            types.push(t);
        }
        types
    }

    /// Whether the sum of the games `sum` (a sorted multiset) is a misère
    /// loss for the player to move, by the definition.
    fn loses(games: &Games, sum: Vec<usize>, memo: &mut HashMap<Vec<usize>, bool>) -> bool {
        if let Some(&l) = memo.get(&sum) {
            return l;
        }
        let mut any_move = false;
        let mut lose = true;
        for (i, &g) in sum.iter().enumerate() {
            for option in &games[g] {
                any_move = true;
                let mut next = sum.clone();
                next.remove(i);
                next.extend(option);
                next.sort_unstable();
                if loses(games, next, memo) {
                    lose = false;
                }
            }
        }
        // No move: the player to move wins.
        let lose = any_move && lose;
        memo.insert(sum, lose);
        lose
    }

    #[test]
    fn sums_of_typed_games_play_as_misere_nim() {
        let mut checked = 0;
        let mut wild = 0;
        let mut kinds = [0usize; 4];
        for seed in 0..120 {
            let games = random_games(12, 4, seed);
            let types = types(&games);
            let mut memo = HashMap::new();
            let typed: Vec<usize> = (0..games.len()).filter(|&g| types[g].is_some()).collect();
            wild += games.len() - typed.len();
            for t in types.iter().flatten() {
                kinds[usize::from(t.big) * 2 + usize::from(t.n > 1)] += 1;
            }
            // Every sum of up to two typed games, and of three for some
            // lists (their positions are many more).
            let third = if seed % 12 == 0 { typed.len() } else { 1 };
            for (a, &x) in typed.iter().enumerate() {
                for (b, &y) in typed.iter().enumerate().skip(a) {
                    for &z in typed.iter().skip(b).take(third) {
                        for sum in [vec![x], vec![x, y], vec![x, y, z]] {
                            let t = sum
                                .iter()
                                .fold(Tame::ZERO, |acc, &g| acc.plus(types[g].unwrap()));
                            let mut sorted = sum.clone();
                            sorted.sort_unstable();
                            assert_eq!(
                                loses(&games, sorted, &mut memo),
                                t.loses(),
                                "seed {seed}: {sum:?} of type {t:?}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        // Wild games, and typed games small, big of nimber 0 or 1 (unlike
        // a nim heap) and big of larger nimber, were all met.
        eprintln!("{checked} sums, {wild} wild, kinds {kinds:?}");
        assert!(checked > 10_000 && wild > 50, "{checked} sums, {wild} wild");
        assert!(
            kinds[0] > 100 && kinds[2] > 40 && kinds[3] > 100,
            "{kinds:?}"
        );
    }

    #[test]
    fn nim_heaps_have_their_types() {
        // *0, *1, *2 = {0, *1}, *3 = {0, *1, *2}.
        let mut flags = OptionTypes::default();
        flags.note(Tame::ZERO);
        assert_eq!(flags.decide(1), Some(Tame { n: 1, big: false }));
        flags.note(Tame { n: 1, big: false });
        assert_eq!(flags.decide(2), Some(Tame { n: 2, big: true }));
        // {*2}: nimber 0, big, a loss alone (the only move leaves *2, from
        // which the opponent leaves *1).
        let mut flags = OptionTypes::default();
        flags.note(Tame { n: 2, big: true });
        let t = flags.decide(0).unwrap();
        assert!(t.big && t.loses());
        // {*1, *1 + *2 + *3}: options (1, small) and (1, big), wild.
        let mut flags = OptionTypes::default();
        flags.note(Tame { n: 1, big: false });
        flags.note(Tame { n: 1, big: true });
        assert_eq!(flags.decide(0), None);
    }
}
