//! The definitions the tests check the engines against (feature
//! `testing`, and in this crate's own tests): the options of a heap under
//! an octal code, and misère play of a sum of heaps by its definition. Not
//! part of the stable API.

/// The options of a heap of `n` tokens under the `digits` of a code, from
/// the definition of the digits (bit 1: take all `i`; 2: take `i`, leave
/// one heap; 4: leave two; 8: leave three), each as the heaps left. The
/// tests' oracle, independent of the engines.
pub fn octal_options(digits: &[u8], n: u64) -> Vec<Vec<u64>> {
    let mut out = Vec::new();
    for (i, &d) in digits.iter().enumerate() {
        let i = i as u64;
        if d & 1 != 0 && n == i && n > 0 {
            out.push(vec![]);
        }
        if n <= i {
            continue;
        }
        let rest = n - i;
        if d & 2 != 0 && i > 0 {
            out.push(vec![rest]);
        }
        if d & 4 != 0 {
            out.extend((1..=rest / 2).map(|a| vec![a, rest - a]));
        }
        if d & 8 != 0 {
            for a in 1..=rest / 3 {
                out.extend((a..=(rest - a) / 2).map(|b| vec![a, b, rest - a - b]));
            }
        }
    }
    out
}

/// Misère outcomes of sums of heaps by the definition (the player who
/// cannot move wins), memoised on sorted sums with heaps of 0 dropped:
/// the tests' oracle, independent of the quotient code.
#[derive(Debug, Clone)]
pub struct MisereDefinition {
    /// The code's digits.
    pub digits: Vec<u8>,
    memo: std::collections::HashMap<Vec<u64>, bool>,
}

impl MisereDefinition {
    /// The definition for the code with these digits.
    pub fn new(digits: &[u8]) -> MisereDefinition {
        MisereDefinition {
            digits: digits.to_vec(),
            memo: std::collections::HashMap::new(),
        }
    }

    /// Whether the sum of `heaps` is lost by the player to move: it has a
    /// move, and every move leaves a sum the opponent wins (the depth is
    /// at most the tokens: keep sums small).
    pub fn lost(&mut self, heaps: &[u64]) -> bool {
        let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        if let Some(&lost) = self.memo.get(&key) {
            return lost;
        }
        let mut any_move = false;
        let mut lost = true;
        'heaps: for (i, &h) in key.iter().enumerate() {
            if i > 0 && key[i - 1] == h {
                continue;
            }
            for leaves in octal_options(&self.digits, h) {
                any_move = true;
                let mut next = key.clone();
                next.remove(i);
                next.extend(leaves);
                if self.lost(&next) {
                    lost = false;
                    break 'heaps;
                }
            }
        }
        let lost = any_move && lost;
        self.memo.insert(key, lost);
        lost
    }
}
