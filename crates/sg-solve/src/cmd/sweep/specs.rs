//! The games a sweep's SPECs name (codes, games' names, patterns and
//! files of them), and a game's name in the sweep's files and lines.

use sg_octal::Rules;
use std::path::Path;

/// The most games one sweep names (2^20: `0.ddddddd` names 8^7 = 2^21,
/// `0.hhhhh` exactly 2^20). Listing them takes about 100 MB and a second,
/// in every task of a sharded sweep.
const MAX_GAMES: usize = 1 << 20;

/// The games SPECs name, sorted by code, each once; a message for a SPEC
/// that names none.
pub(super) fn games_of(specs: &[String]) -> Result<Vec<Rules>, String> {
    let mut codes: Vec<String> = Vec::new();
    for spec in specs {
        if let Some(path) = spec.strip_prefix('@') {
            let text = read_spec_file(path)?;
            for (n, line) in text.lines().enumerate() {
                let line = line.split('#').next().unwrap_or("").trim();
                if line.is_empty() {
                    continue;
                }
                expand(line, &mut codes).map_err(|e| {
                    format!(
                        "{}, line {}: {e}",
                        sg_text::shown_path(Path::new(path)),
                        n + 1
                    )
                })?;
            }
        } else {
            expand(spec, &mut codes)?;
        }
        if codes.len() > MAX_GAMES {
            return Err(format!("more than {MAX_GAMES} games in one sweep"));
        }
    }
    if codes.is_empty() {
        return Err(format!(
            "{}: no game named (the files of codes hold none)",
            specs
                .iter()
                .map(|s| sg_text::quote(s))
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    let mut games: Vec<(String, Rules)> = codes
        .iter()
        .map(|code| {
            let rules = Rules::parse(code).map_err(|e| format!("{}: {e}", sg_text::quote(code)))?;
            Ok((rules.to_string(), rules))
        })
        .collect::<Result<_, String>>()?;
    games.sort_by(|a, b| a.0.cmp(&b.0));
    games.dedup_by(|a, b| a.0 == b.0);
    Ok(games.into_iter().map(|(_, rules)| rules).collect())
}

/// The text of the file of codes `@path`: a regular file (a FIFO or a
/// device is refused, never read and waited on).
fn read_spec_file(path: &str) -> Result<String, String> {
    if path.is_empty() {
        return Err("@ names no file: write @FILE, a file of codes".to_owned());
    }
    let shown = sg_text::shown_path(Path::new(path));
    let meta = std::fs::metadata(path).map_err(|e| format!("@{shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("@{shown}: not a regular file"));
    }
    std::fs::read_to_string(path).map_err(|e| format!("@{shown}: {e}"))
}

/// The name of a game in a sweep's files and lines: its canonical code
/// with the hexadecimal digits in capitals (`4.0D`, `0.F1`), so that a
/// name read back as a spec is that game, never a pattern (in a spec,
/// `d` and `h` are a pattern's places).
pub(super) fn name(rules: &Rules) -> String {
    let code = rules.to_string();
    match code.split_once('.') {
        Some((whole, digits)) if digits.bytes().all(|b| b.is_ascii_hexdigit()) => {
            format!("{whole}.{}", digits.to_ascii_uppercase())
        }
        _ => code,
    }
}

/// Appends the codes of a code, a name or a pattern.
fn expand(spec: &str, codes: &mut Vec<String>) -> Result<(), String> {
    let places = spec.bytes().filter(|b| matches!(b, b'd' | b'h')).count();
    // A word without a point is a game's name (`dawsons-kayles`,
    // `grundys-game`), never a pattern: a pattern has a point.
    if places == 0 || !spec.contains('.') {
        codes.push(spec.to_owned());
        return Ok(());
    }
    let Some((whole, _)) = spec.split_once('.') else {
        return Err(format!(
            "{}: a pattern is a code with `d` or `h` for its digits, e.g. 0.ddd",
            sg_text::quote(spec)
        ));
    };
    if whole.bytes().any(|b| matches!(b, b'd' | b'h')) {
        return Err(format!(
            "{}: the digit before the point is 0 or 4, not a pattern",
            sg_text::quote(spec)
        ));
    }
    let radix: Vec<u32> = spec
        .bytes()
        .filter_map(|b| match b {
            b'd' => Some(8),
            b'h' => Some(16),
            _ => None,
        })
        .collect();
    let total = radix
        .iter()
        .try_fold(1u64, |n, &r| n.checked_mul(u64::from(r)))
        .filter(|&n| n <= MAX_GAMES as u64)
        .ok_or_else(|| {
            format!(
                "{}: names {} games, more than {MAX_GAMES}",
                sg_text::quote(spec),
                match radix
                    .iter()
                    .try_fold(1u64, |n, &r| n.checked_mul(u64::from(r)))
                {
                    Some(n) => n.to_string(),
                    None => "2^64 or more".to_owned(),
                }
            )
        })?;
    for mut index in 0..total {
        let mut digits = vec![0u32; radix.len()];
        for (slot, &r) in digits.iter_mut().zip(&radix).rev() {
            *slot = (index % u64::from(r)) as u32;
            index /= u64::from(r);
        }
        let mut next = digits.into_iter();
        let code: String = spec
            .chars()
            .map(|c| match c {
                'd' | 'h' => std::char::from_digit(next.next().expect("a digit a place"), 16)
                    .expect("a digit")
                    .to_ascii_uppercase(),
                c => c,
            })
            .collect();
        codes.push(code);
    }
    Ok(())
}
