//! Finitely presented commutative monoids, by rewriting.
//!
//! A presentation is a number of *symbols* and a list of *equations*
//! between monomials (exponent vectors). [`System::complete`] turns it into
//! a confluent rewriting system (Knuth and Bendix's completion, which for
//! commutative monoids is Buchberger's algorithm on binomials): every rule
//! `lhs -> rhs` has `lhs` greater than `rhs` in the monomial order of
//! `presentation` (degree, then the exponents from the last symbol), a
//! monomial is rewritten by subtracting a rule's `lhs` and adding its `rhs`
//! while some `lhs` divides it, and two monomials are equal in the monoid
//! exactly when they rewrite to the same *normal form*. The order is
//! compatible with products and well founded, so rewriting ends; the
//! completion adds the *critical pairs* (the two rewritings of the least
//! common multiple of two left sides) until every pair rewrites to one
//! normal form, the standard criterion of confluence.
//!
//! Each rule remembers the equations it was derived from (its
//! *provenance*), so that the equations behind the equality of two
//! monomials can be named ([`System::reduce_noting`]): the construction
//! (`adjoin`) drops such equations when it learns that two sums they make
//! equal are not.

use std::cmp::Ordering;

use super::presentation::monomial_order;

/// A set of equations, by their indices in the presentation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Provenance {
    words: Vec<u64>,
}

impl Provenance {
    fn single(i: usize, len: usize) -> Provenance {
        let mut p = Provenance {
            words: vec![0; len.div_ceil(64)],
        };
        p.words[i / 64] |= 1 << (i % 64);
        p
    }

    fn union_with(&mut self, other: &Provenance) {
        if self.words.len() < other.words.len() {
            self.words.resize(other.words.len(), 0);
        }
        for (a, b) in self.words.iter_mut().zip(&other.words) {
            *a |= b;
        }
    }

    /// The equations, in increasing order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        super::bits::set_bits(&self.words)
    }
}

/// A rewriting rule.
#[derive(Debug, Clone)]
struct Rule {
    lhs: Vec<u32>,
    rhs: Vec<u32>,
    /// The symbols with a positive exponent in `lhs` (the first 64).
    support: u64,
    from: Provenance,
}

/// A confluent rewriting system.
#[derive(Debug, Clone)]
pub(crate) struct System {
    rules: Vec<Rule>,
}

/// Why a completion was not finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Incomplete {
    /// It needed more rules than allowed.
    TooManyRules,
    /// The caller's `stop` asked for it to stop.
    Stopped,
}

/// Whether `a` divides `b` (every exponent at most `b`'s).
fn divides(a: &[u32], b: &[u32]) -> bool {
    a.iter().zip(b).all(|(x, y)| x <= y)
}

/// The symbols with a positive exponent (the first 64; beyond, all bits
/// set, so the mask never excludes wrongly).
fn support(m: &[u32]) -> u64 {
    let mut mask = 0u64;
    for (i, &x) in m.iter().enumerate() {
        if x > 0 {
            mask |= if i < 63 { 1 << i } else { 1 << 63 };
        }
    }
    mask
}

fn degree(m: &[u32]) -> u64 {
    m.iter().map(|&x| u64::from(x)).sum()
}

/// Rewrites `m` by `rules` (the live ones), noting their provenance.
fn rewrite(rules: &[Option<Rule>], m: &mut [u32], mut from: Option<&mut Provenance>) {
    let mut mask = support(m);
    'again: loop {
        for rule in rules.iter().flatten() {
            if rule.support & !mask == 0 && divides(&rule.lhs, m) {
                for (i, x) in m.iter_mut().enumerate() {
                    *x = *x - rule.lhs[i] + rule.rhs[i];
                }
                if let Some(from) = from.as_deref_mut() {
                    from.union_with(&rule.from);
                }
                mask = support(m);
                continue 'again;
            }
        }
        return;
    }
}

impl System {
    /// The confluent system of these equations, with at most `max_rules`
    /// rules at any time.
    ///
    /// Buchberger's algorithm: equations are rewritten and oriented into
    /// rules (a rule whose left side the new one divides becomes an
    /// equation again); the critical pairs of the live rules are taken by
    /// increasing degree of their least common multiple, skipped when the
    /// left sides are coprime or when a third rule's left side divides the
    /// multiple and both its pairs are already resolved (Buchberger's two
    /// criteria).
    pub(crate) fn complete(
        equations: &[(Vec<u32>, Vec<u32>)],
        max_rules: usize,
        stop: &mut dyn FnMut() -> bool,
    ) -> Result<System, Incomplete> {
        use std::cmp::Reverse;
        use std::collections::{BinaryHeap, HashSet};
        let count = equations.len();
        let mut rules: Vec<Option<Rule>> = Vec::new();
        let mut live = 0usize;
        let mut waiting: Vec<(Vec<u32>, Vec<u32>, Provenance)> = equations
            .iter()
            .enumerate()
            .rev()
            .map(|(i, (a, b))| (a.clone(), b.clone(), Provenance::single(i, count)))
            .collect();
        let mut pairs: BinaryHeap<Reverse<(u64, usize, usize)>> = BinaryHeap::new();
        let mut pending: HashSet<(usize, usize)> = HashSet::new();
        let mut steps = 0usize;
        loop {
            // Equations first: each becomes a rule, or vanishes.
            while let Some((mut a, mut b, mut from)) = waiting.pop() {
                rewrite(&rules, &mut a, Some(&mut from));
                rewrite(&rules, &mut b, Some(&mut from));
                let (lhs, rhs) = match monomial_order(&a, &b) {
                    Ordering::Equal => continue,
                    Ordering::Greater => (a, b),
                    Ordering::Less => (b, a),
                };
                for slot in &mut rules {
                    if slot.as_ref().is_some_and(|r| divides(&lhs, &r.lhs)) {
                        let rule = slot.take().expect("live");
                        live -= 1;
                        waiting.push((rule.lhs, rule.rhs, rule.from));
                    }
                }
                let id = rules.len();
                for (i, other) in rules.iter().enumerate() {
                    let Some(other) = other else { continue };
                    if lhs.iter().zip(&other.lhs).all(|(x, y)| *x == 0 || *y == 0) {
                        continue;
                    }
                    let lcm = degree(
                        &lhs.iter()
                            .zip(&other.lhs)
                            .map(|(x, y)| *x.max(y))
                            .collect::<Vec<_>>(),
                    );
                    pairs.push(Reverse((lcm, i, id)));
                    pending.insert((i, id));
                }
                rules.push(Some(Rule {
                    support: support(&lhs),
                    lhs,
                    rhs,
                    from,
                }));
                live += 1;
                if live > max_rules {
                    return Err(Incomplete::TooManyRules);
                }
            }
            steps += 1;
            if steps.is_multiple_of(256) && stop() {
                return Err(Incomplete::Stopped);
            }
            // Then the least critical pair still standing.
            let Some(Reverse((_, i, j))) = pairs.pop() else {
                break;
            };
            pending.remove(&(i, j));
            let (Some(a), Some(b)) = (&rules[i], &rules[j]) else {
                continue;
            };
            let lcm: Vec<u32> = a.lhs.iter().zip(&b.lhs).map(|(x, y)| *x.max(y)).collect();
            // The chain criterion.
            let chained = rules.iter().enumerate().any(|(k, c)| {
                k != i
                    && k != j
                    && c.as_ref().is_some_and(|c| divides(&c.lhs, &lcm))
                    && !pending.contains(&(i.min(k), i.max(k)))
                    && !pending.contains(&(j.min(k), j.max(k)))
            });
            if chained {
                continue;
            }
            let one: Vec<u32> = (0..lcm.len())
                .map(|s| lcm[s] - a.lhs[s] + a.rhs[s])
                .collect();
            let other: Vec<u32> = (0..lcm.len())
                .map(|s| lcm[s] - b.lhs[s] + b.rhs[s])
                .collect();
            let mut from = a.from.clone();
            from.union_with(&b.from);
            waiting.push((one, other, from));
        }
        // Right sides in normal form.
        let mut system = System {
            rules: Vec::with_capacity(live),
        };
        let finished: Vec<Option<Rule>> = rules;
        for rule in finished.iter().flatten() {
            let mut rhs = rule.rhs.clone();
            let mut from = rule.from.clone();
            rewrite(&finished, &mut rhs, Some(&mut from));
            system.rules.push(Rule {
                lhs: rule.lhs.clone(),
                rhs,
                support: rule.support,
                from,
            });
        }
        Ok(system)
    }

    /// Rewrites `m` to its normal form.
    pub(crate) fn reduce(&self, m: &mut [u32]) {
        let mut mask = support(m);
        'again: loop {
            for rule in &self.rules {
                if rule.support & !mask == 0 && divides(&rule.lhs, m) {
                    for (i, x) in m.iter_mut().enumerate() {
                        *x = *x - rule.lhs[i] + rule.rhs[i];
                    }
                    mask = support(m);
                    continue 'again;
                }
            }
            return;
        }
    }

    /// Rewrites `m` to its normal form, adding to `from` the equations the
    /// rules used were derived from.
    pub(crate) fn reduce_noting(&self, m: &mut [u32], from: &mut Provenance) {
        let mut mask = support(m);
        'again: loop {
            for rule in &self.rules {
                if rule.support & !mask == 0 && divides(&rule.lhs, m) {
                    for (i, x) in m.iter_mut().enumerate() {
                        *x = *x - rule.lhs[i] + rule.rhs[i];
                    }
                    from.union_with(&rule.from);
                    mask = support(m);
                    continue 'again;
                }
            }
            return;
        }
    }

    /// The number of rules.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.rules.len()
    }

    /// Whether every critical pair of the rules rewrites to one normal
    /// form (the system is confluent): for tests.
    #[cfg(test)]
    pub(crate) fn is_confluent(&self) -> bool {
        for a in &self.rules {
            for b in &self.rules {
                let lcm: Vec<u32> = a.lhs.iter().zip(&b.lhs).map(|(x, y)| *x.max(y)).collect();
                let mut one: Vec<u32> = (0..lcm.len())
                    .map(|s| lcm[s] - a.lhs[s] + a.rhs[s])
                    .collect();
                let mut other: Vec<u32> = (0..lcm.len())
                    .map(|s| lcm[s] - b.lhs[s] + b.rhs[s])
                    .collect();
                self.reduce(&mut one);
                self.reduce(&mut other);
                if one != other {
                    return false;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The normal forms of all monomials with exponents below `bound`, by
    /// the system: their number, the order of the presented monoid when
    /// every symbol's powers repeat below `bound`.
    fn count_classes(system: &System, symbols: usize, bound: u32) -> usize {
        let mut seen = std::collections::HashSet::new();
        let total = (bound as usize).pow(symbols as u32);
        for code in 0..total {
            let mut m: Vec<u32> = (0..symbols)
                .map(|i| ((code / (bound as usize).pow(i as u32)) % bound as usize) as u32)
                .collect();
            system.reduce(&mut m);
            seen.insert(m);
        }
        seen.len()
    }

    #[test]
    fn cyclic_groups_and_their_products() {
        // <a | a^3 = 1>: 3 elements; <a, b | a^2 = 1, b^2 = 1>: 4.
        let s = System::complete(&[(vec![3], vec![0])], 100, &mut || false).unwrap();
        assert_eq!(count_classes(&s, 1, 7), 3);
        let s = System::complete(
            &[(vec![2, 0], vec![0, 0]), (vec![0, 2], vec![0, 0])],
            100,
            &mut || false,
        )
        .unwrap();
        assert_eq!(count_classes(&s, 2, 5), 4);
        // a^2 = b^2 = 1 and a = b: 2 elements.
        let s = System::complete(
            &[
                (vec![2, 0], vec![0, 0]),
                (vec![0, 2], vec![0, 0]),
                (vec![1, 0], vec![0, 1]),
            ],
            100,
            &mut || false,
        )
        .unwrap();
        assert_eq!(count_classes(&s, 2, 5), 2);
    }

    /// The provenance of two equal normal forms is enough: the equations it
    /// names, alone, make the two monomials equal.
    #[test]
    fn provenance_names_enough_equations() {
        let mut rng = sg_nimber::testing::SplitMix64::new(0x5eed_0012);
        let mut checked = 0;
        for _ in 0..200 {
            let symbols = 2 + rng.below(2) as usize;
            let mut eqs: Vec<(Vec<u32>, Vec<u32>)> = (0..symbols)
                .map(|i| {
                    let mut a = vec![0; symbols];
                    let mut b = vec![0; symbols];
                    b[i] = rng.below(2) as u32;
                    a[i] = b[i] + 1 + rng.below(2) as u32;
                    (a, b)
                })
                .collect();
            for _ in 0..1 + rng.below(3) {
                let a: Vec<u32> = (0..symbols).map(|_| rng.below(3) as u32).collect();
                let b: Vec<u32> = (0..symbols).map(|_| rng.below(3) as u32).collect();
                eqs.push((a, b));
            }
            let s = System::complete(&eqs, 10_000, &mut || false).unwrap();
            for _ in 0..20 {
                let x: Vec<u32> = (0..symbols).map(|_| rng.below(4) as u32).collect();
                let y: Vec<u32> = (0..symbols).map(|_| rng.below(4) as u32).collect();
                let (mut nx, mut ny) = (x.clone(), y.clone());
                let mut from = Provenance::default();
                s.reduce_noting(&mut nx, &mut from);
                s.reduce_noting(&mut ny, &mut from);
                if nx != ny || x == y {
                    continue;
                }
                let named: Vec<(Vec<u32>, Vec<u32>)> =
                    from.iter().map(|i| eqs[i].clone()).collect();
                let t = System::complete(&named, 10_000, &mut || false).unwrap();
                let (mut tx, mut ty) = (x.clone(), y.clone());
                t.reduce(&mut tx);
                t.reduce(&mut ty);
                assert_eq!(tx, ty, "{eqs:?}: {x:?} = {y:?} by {named:?}");
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked} equalities checked");
    }

    /// Random presentations: two monomials have one normal form exactly
    /// when the union-find closure of the equations (every product of an
    /// equation with a monomial, within bounds) makes them equal.
    #[test]
    fn normal_forms_are_the_congruence_classes() {
        let mut rng = sg_nimber::testing::SplitMix64::new(0x5eed_0011);
        for _ in 0..40 {
            let symbols = 1 + rng.below(3) as usize;
            let bound = 6u32;
            let mut eqs: Vec<(Vec<u32>, Vec<u32>)> = (0..symbols)
                .map(|i| {
                    let mut a = vec![0; symbols];
                    let mut b = vec![0; symbols];
                    let index = rng.below(3) as u32;
                    a[i] = index + 1 + rng.below(2) as u32;
                    b[i] = index;
                    (a, b)
                })
                .collect();
            for _ in 0..rng.below(3) {
                let a: Vec<u32> = (0..symbols).map(|_| rng.below(3) as u32).collect();
                let b: Vec<u32> = (0..symbols).map(|_| rng.below(3) as u32).collect();
                eqs.push((a, b));
            }
            let s = System::complete(&eqs, 10_000, &mut || false).unwrap();
            assert!(s.len() <= 10_000);
            assert!(s.is_confluent(), "{eqs:?}");
            // Union-find over the box of exponents below `big`.
            let big = 3 * bound;
            let total = (big as usize).pow(symbols as u32);
            let code = |m: &[u32]| {
                m.iter()
                    .enumerate()
                    .map(|(i, &x)| x as usize * (big as usize).pow(i as u32))
                    .sum::<usize>()
            };
            let mut parent: Vec<usize> = (0..total).collect();
            fn find(p: &mut [usize], x: usize) -> usize {
                let mut r = x;
                while p[r] != r {
                    r = p[r];
                }
                let mut y = x;
                while p[y] != r {
                    let next = p[y];
                    p[y] = r;
                    y = next;
                }
                r
            }
            for c in 0..total {
                let m: Vec<u32> = (0..symbols)
                    .map(|i| ((c / (big as usize).pow(i as u32)) % big as usize) as u32)
                    .collect();
                for (a, b) in &eqs {
                    let x: Vec<u32> = m.iter().zip(a).map(|(p, q)| p + q).collect();
                    let y: Vec<u32> = m.iter().zip(b).map(|(p, q)| p + q).collect();
                    if x.iter().chain(&y).all(|&e| e < big) {
                        let (rx, ry) = (find(&mut parent, code(&x)), find(&mut parent, code(&y)));
                        parent[rx] = ry;
                    }
                }
            }
            // Compare on the monomials below `bound` (far from the box's
            // edge, so the closure within the box is the congruence there).
            let small = (bound as usize).pow(symbols as u32);
            let monomials: Vec<Vec<u32>> = (0..small)
                .map(|c| {
                    (0..symbols)
                        .map(|i| ((c / (bound as usize).pow(i as u32)) % bound as usize) as u32)
                        .collect()
                })
                .collect();
            for x in &monomials {
                for y in &monomials {
                    let (mut nx, mut ny) = (x.clone(), y.clone());
                    s.reduce(&mut nx);
                    s.reduce(&mut ny);
                    let same = find(&mut parent, code(x)) == find(&mut parent, code(y));
                    if same {
                        assert_eq!(nx, ny, "{eqs:?}: {x:?} {y:?}");
                    }
                    if nx == ny && !same {
                        // Equal by rewriting: the closure may need room
                        // beyond the box; only a disagreement within
                        // small exponents is an error.
                        assert!(
                            x.iter().chain(y.iter()).any(|&e| e + 2 * bound > big),
                            "{eqs:?}: {x:?} {y:?}"
                        );
                    }
                }
            }
        }
    }
}
