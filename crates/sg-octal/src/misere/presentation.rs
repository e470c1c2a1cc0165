//! The presentation of a quotient by generators and relations, in the
//! notation of Plambeck and Siegel: `<a, b, c | a^2 = 1, b^3 = b, bc = ab,
//! c^2 = b^2>`, and every element as a word (its normal form).
//!
//! The generators are the images of the heaps that were adjoined as
//! generators, named `a`, `b`, `c`, ... in order of their heaps (after
//! `z`: `a1`, `b1`, ..., `z1`, `a2`, ...). Monomials are ordered by degree,
//! then, among monomials of one degree, by the exponent of the *last*
//! generator (the smaller first), then of the one before, and so on: a
//! monomial order (kept by products, well founded), under which a word
//! prefers the earlier generators (`ab` before `bc`, `b^2` before `c^2`).
//!
//! The *normal form* of an element is its least monomial. Normal forms are
//! closed under division (if `uv` is the least monomial of its element
//! and `u'` represented `u`'s element with `u' < u`, then `u'v < uv` would
//! represent it too), so they are found degree by degree, each degree's
//! candidates being the normal forms of the degree before times one
//! generator. A candidate all of whose divisors by one generator are normal
//! forms and whose element already has a normal form is a *corner*: the
//! least monomials that are not normal forms. The relations `corner =
//! normal form` present the monoid: every monomial that is not a normal
//! form is a multiple of a corner, so rewriting corners (which lowers the
//! monomial) brings any monomial to the normal form of its element, and
//! two monomials with the same element are therefore equal under the
//! relations.

use std::cmp::Ordering;
use std::collections::HashMap;

use super::monoid::{Element, IDENTITY, Monoid};

/// A quotient presented by generators and relations, with the normal form
/// of every element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Presentation {
    names: Vec<String>,
    /// The exponents of the normal form of each element.
    normal_forms: Vec<Vec<u32>>,
    /// `(corner, normal form)`, in increasing order of the corner.
    relations: Vec<(Vec<u32>, Vec<u32>)>,
}

impl Presentation {
    /// The presentation of `monoid` with these generators (elements that
    /// generate it).
    pub fn new(monoid: &Monoid, generators: &[Element]) -> Presentation {
        let r = generators.len();
        let order = monoid.order();
        let mut normal_forms: Vec<Option<Vec<u32>>> = vec![None; order];
        let mut is_normal: HashMap<Vec<u32>, Element> = HashMap::new();
        let one = vec![0u32; r];
        normal_forms[usize::from(IDENTITY)] = Some(one.clone());
        is_normal.insert(one.clone(), IDENTITY);
        let mut frontier = vec![one];
        let mut relations = Vec::new();
        while !frontier.is_empty() {
            let mut candidates: Vec<Vec<u32>> = frontier
                .iter()
                .flat_map(|m| {
                    (0..r).map(move |j| {
                        let mut c = m.clone();
                        c[j] += 1;
                        c
                    })
                })
                .collect();
            candidates.sort_by(|a, b| monomial_order(a, b));
            candidates.dedup();
            let mut next = Vec::new();
            for c in candidates {
                // Every divisor by one generator must be a normal form.
                let mut element = None;
                let mut minimal = true;
                for j in 0..r {
                    if c[j] == 0 {
                        continue;
                    }
                    let mut d = c.clone();
                    d[j] -= 1;
                    match is_normal.get(&d) {
                        Some(&x) => element = Some(monoid.mul(x, generators[j])),
                        None => {
                            minimal = false;
                            break;
                        }
                    }
                }
                if !minimal {
                    continue;
                }
                let x = element.expect("a candidate has a generator");
                match &normal_forms[usize::from(x)] {
                    Some(nf) => relations.push((c, nf.clone())),
                    None => {
                        normal_forms[usize::from(x)] = Some(c.clone());
                        is_normal.insert(c.clone(), x);
                        next.push(c);
                    }
                }
            }
            frontier = next;
        }
        Presentation {
            names: (0..r).map(generator_name).collect(),
            normal_forms: normal_forms
                .into_iter()
                .map(|nf| nf.expect("the generators generate the monoid"))
                .collect(),
            relations,
        }
    }

    /// The relations as exponent pairs `(corner, normal form)`.
    pub(crate) fn relation_pairs(&self) -> &[(Vec<u32>, Vec<u32>)] {
        &self.relations
    }

    /// The exponents of the normal form of `x`.
    pub(crate) fn exponents(&self, x: Element) -> &[u32] {
        &self.normal_forms[usize::from(x)]
    }

    /// The generators' names: `a`, `b`, ...
    pub fn generators(&self) -> &[String] {
        &self.names
    }

    /// The normal form of `x` as a word: `1`, `a`, `ab^2`, ...
    pub fn word(&self, x: Element) -> String {
        self.show(&self.normal_forms[usize::from(x)])
    }

    /// The relations, each `corner = normal form`: `a^2 = 1`, `bc = ab`.
    pub fn relations(&self) -> Vec<String> {
        self.relations
            .iter()
            .map(|(u, v)| format!("{} = {}", self.show(u), self.show(v)))
            .collect()
    }

    /// The elements sorted by their normal forms (the monomial order).
    pub fn elements_in_order(&self) -> Vec<Element> {
        let mut list: Vec<Element> = (0..self.normal_forms.len() as Element).collect();
        list.sort_by(|&a, &b| {
            monomial_order(
                &self.normal_forms[usize::from(a)],
                &self.normal_forms[usize::from(b)],
            )
        });
        list
    }

    fn show(&self, exponents: &[u32]) -> String {
        let mut out = String::new();
        for (name, &e) in self.names.iter().zip(exponents) {
            match e {
                0 => {}
                1 => out.push_str(name),
                _ => out.push_str(&format!("{name}^{e}")),
            }
        }
        if out.is_empty() {
            out.push('1');
        }
        out
    }
}

impl std::fmt::Display for Presentation {
    /// `<a, b | a^2 = 1, b^3 = b>`; the trivial quotient (no generator) is
    /// `<1>`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.names.is_empty() {
            return f.write_str("<1>");
        }
        write!(f, "<{}", self.names.join(", "))?;
        let relations = self.relations();
        if !relations.is_empty() {
            write!(f, " | {}", relations.join(", "))?;
        }
        f.write_str(">")
    }
}

/// The name of generator `i`: `a` to `z`, then `a1` to `z1`, `a2`, ...
fn generator_name(i: usize) -> String {
    let letter = (b'a' + (i % 26) as u8) as char;
    match i / 26 {
        0 => letter.to_string(),
        round => format!("{letter}{round}"),
    }
}

/// Degree, then the exponent of the last generator (smaller first), then
/// the one before, ...
pub(crate) fn monomial_order(a: &[u32], b: &[u32]) -> Ordering {
    let degree = |m: &[u32]| m.iter().map(|&e| u64::from(e)).sum::<u64>();
    degree(a)
        .cmp(&degree(b))
        .then_with(|| a.iter().rev().cmp(b.iter().rev()))
}
