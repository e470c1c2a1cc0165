//! The byte encoding of a [`KnightPattern`]: a header, the steps, the rays
//! with their bands and periods, then every stored value packed in 4 bits
//! (or 8 when some value exceeds 15); integers are LEB128 (zigzag for signed
//! ones). Decoding checks every bound and the description's invariants, but
//! does not prove it: that is [`KnightPattern::check`].

use super::{
    KnightPattern, Layer, MAX_BAND, MAX_BLOCK, MAX_DIRECTION, MAX_PERIOD, MAX_TILE, PatternError,
    Sector,
};

const MAGIC: &[u8; 4] = b"KPAT";
const VERSION: u8 = 1;

impl KnightPattern {
    /// The encoded description: a header, the steps, the rays with their
    /// bands and periods, then every stored value packed in 4 bits (or 8 when
    /// some value exceeds 15).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        put_u(&mut out, self.steps.len() as u64);
        for &(dx, dy) in &self.steps {
            put_i(&mut out, dx.into());
            put_i(&mut out, dy.into());
        }
        put_u(&mut out, self.block);
        put_u(&mut out, self.layers.len() as u64);
        for l in &self.layers {
            put_u(&mut out, l.a.into());
            put_u(&mut out, l.b.into());
            put_i(&mut out, l.lo);
            put_i(&mut out, l.hi);
            put_u(&mut out, l.period);
        }
        for s in &self.sectors {
            put_u(&mut out, s.px);
            put_u(&mut out, s.py);
        }
        let values = self.all_values();
        let wide = values.iter().any(|&v| v > 15);
        out.push(if wide { 8 } else { 4 });
        if wide {
            out.extend(values);
        } else {
            out.extend(
                values
                    .chunks(2)
                    .map(|c| c[0] | c.get(1).map_or(0, |v| v << 4)),
            );
        }
        out
    }

    fn all_values(&self) -> Vec<u8> {
        let mut v = self.block_values.clone();
        for l in &self.layers {
            v.extend_from_slice(&l.tile);
        }
        for s in &self.sectors {
            v.extend_from_slice(&s.tile);
        }
        v
    }

    /// Decodes and validates [`KnightPattern::to_bytes`]. A decoded pattern
    /// is well formed but not yet proved: run [`KnightPattern::check`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, PatternError> {
        let mut r = Reader { bytes, pos: 0 };
        if r.take(4)? != MAGIC || r.byte()? != VERSION {
            return Err(PatternError::Malformed("bad header"));
        }
        let n = r.u(64)?;
        let mut steps = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let dx = r.i(i32::MAX.into())? as i32;
            let dy = r.i(i32::MAX.into())? as i32;
            steps.push((dx, dy));
        }
        let block = r.u(MAX_BLOCK)?;
        let rays = r.u(1 << 10)? as usize;
        let mut layers = Vec::with_capacity(rays);
        for _ in 0..rays {
            let a = r.u(MAX_DIRECTION.into())? as u32;
            let b = r.u(MAX_DIRECTION.into())? as u32;
            let lo = r.i(MAX_BAND)?;
            let hi = r.i(MAX_BAND)?;
            let period = r.u(MAX_PERIOD)?;
            layers.push(Layer {
                a,
                b,
                lo,
                hi,
                period,
                tile: Vec::new(),
            });
        }
        let mut sectors = Vec::new();
        for _ in 1..rays.max(1) {
            let px = r.u(MAX_PERIOD)?;
            let py = r.u(MAX_PERIOD)?;
            sectors.push(Sector {
                px,
                py,
                tile: Vec::new(),
            });
        }
        let mut total = block * (block + 1) / 2;
        for l in &layers {
            total += (l.hi - l.lo + 1).max(0) as u64 * l.period;
        }
        for s in &sectors {
            total += s.px * s.py;
        }
        if total > MAX_TILE {
            return Err(PatternError::Invalid("too many stored values"));
        }
        let width = r.byte()?;
        let values: Vec<u8> = match width {
            8 => r.take(total as usize)?.to_vec(),
            4 => {
                let packed = r.take(total.div_ceil(2) as usize)?;
                (0..total as usize)
                    .map(|i| (packed[i / 2] >> (4 * (i % 2))) & 15)
                    .collect()
            }
            _ => return Err(PatternError::Malformed("bad value width")),
        };
        if r.pos != bytes.len() {
            return Err(PatternError::Malformed("trailing bytes"));
        }
        let mut it = values.into_iter();
        let block_values: Vec<u8> = it
            .by_ref()
            .take((block * (block + 1) / 2) as usize)
            .collect();
        for l in &mut layers {
            l.tile = it.by_ref().take(l.rows() * l.period as usize).collect();
        }
        for s in &mut sectors {
            s.tile = it.by_ref().take((s.px * s.py) as usize).collect();
        }
        let p = Self {
            steps,
            block,
            block_values,
            layers,
            sectors,
        };
        p.validate()?;
        Ok(p)
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], PatternError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or(PatternError::Malformed("unexpected end"))?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn byte(&mut self) -> Result<u8, PatternError> {
        Ok(self.take(1)?[0])
    }

    /// A LEB128 unsigned integer of at most `max`.
    fn u(&mut self, max: u64) -> Result<u64, PatternError> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return if v <= max {
                    Ok(v)
                } else {
                    Err(PatternError::Malformed("number out of range"))
                };
            }
        }
        Err(PatternError::Malformed("overlong number"))
    }

    /// A zigzag LEB128 signed integer of absolute value at most `max`.
    fn i(&mut self, max: i64) -> Result<i64, PatternError> {
        let z = self.u(u64::MAX)?;
        let v = ((z >> 1) as i64) ^ -((z & 1) as i64);
        if v.unsigned_abs() <= max.unsigned_abs() {
            Ok(v)
        } else {
            Err(PatternError::Malformed("number out of range"))
        }
    }
}

fn put_u(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8 & 0x7f) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn put_i(out: &mut Vec<u8>, v: i64) {
    put_u(out, ((v << 1) ^ (v >> 63)) as u64);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knight_pattern::tests::hyper;
    use crate::knight_pattern::{CHECK_LIMIT, LoadError};

    #[test]
    fn stored_bytes_certify_and_a_flipped_byte_does_not() {
        let bytes = hyper().to_bytes();
        let (loaded, _) = KnightPattern::load(&bytes, CHECK_LIMIT).unwrap();
        assert_eq!(&loaded, hyper());
        let mut bad = bytes;
        let last = bad.len() - 1;
        bad[last] ^= 1;
        assert!(matches!(
            KnightPattern::load(&bad, CHECK_LIMIT),
            Err(LoadError::Certificate(_))
        ));
    }

    #[test]
    fn bytes_round_trip_and_reject_garbage() {
        let p = hyper();
        let bytes = p.to_bytes();
        assert_eq!(KnightPattern::from_bytes(&bytes).as_ref(), Ok(p));
        for cut in 0..bytes.len() {
            assert!(KnightPattern::from_bytes(&bytes[..cut]).is_err());
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(KnightPattern::from_bytes(&longer).is_err());
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert!(KnightPattern::from_bytes(&bad).is_err());
    }
}
