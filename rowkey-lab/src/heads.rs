//! How many distinct values the keys' first bytes took: what a salt or a hash prefix saw, counted
//! as the writes go in. A [`Simulation`](super::Simulation) takes bytes and does not know the
//! layout, so it counts heads of every length at once, and the advice asks for the length of the
//! layout's tag and prefix afterwards ([`Report::advise`](super::Report::advise)).
//!
//! The memory is bounded: at most [`MAX_HEADS`] distinct heads of at most [`MAX_HEAD_LEN`] bytes.
//! When a write would keep one more, the heads kept get shorter (to the longest length whose
//! distinct heads fit), since longer heads only tell more keys apart: a time or an id after the
//! prefix makes nearly every key's head its own, but not its first few bytes.

// The crate is no_std; the lab runs on std.
use std::collections::HashSet;

/// The most distinct heads kept. The advice needs an exact count only while it is small against
/// the regions: a hash prefix needs about `M·ln(2M)` values to spread over `M` regions (1,500
/// regions need about 12,000), a salt at most 256.
pub(super) const MAX_HEADS: usize = 16_384;

/// The longest head kept: room for a tag and a 32-digit text hash prefix.
pub(super) const MAX_HEAD_LEN: usize = 64;

/// The distinct heads of the keys written, as long as fits.
#[derive(Debug)]
pub(super) struct Heads {
    /// The length of the heads kept: each key's first `len` bytes (all of a shorter key).
    len: usize,
    seen: HashSet<Box<[u8]>>,
}

impl Default for Heads {
    fn default() -> Heads {
        Heads {
            len: MAX_HEAD_LEN,
            seen: HashSet::new(),
        }
    }
}

impl Heads {
    #[inline]
    pub(super) fn add(&mut self, key: &[u8]) {
        let head = &key[..key.len().min(self.len)];
        // Most writes repeat a head already kept: look before allocating.
        if self.seen.contains(head) {
            return;
        }
        self.seen.insert(head.into());
        if self.seen.len() > MAX_HEADS {
            self.shorten();
        }
    }

    /// Keeps shorter heads: the longest length whose distinct heads are at most [`MAX_HEADS`].
    /// Every length below the current one is tried on the heads kept, which hold all the
    /// distinct shorter heads; length 0 (one empty head) always fits.
    fn shorten(&mut self) {
        let counts = self.counts();
        let len = (0..self.len)
            .rev()
            .find(|&n| counts.by_len[n] <= MAX_HEADS)
            .unwrap_or(0);
        self.seen = self
            .seen
            .iter()
            .map(|head| head[..head.len().min(len)].into())
            .collect();
        self.len = len;
    }

    /// The number of distinct heads of each length up to the one kept.
    pub(super) fn counts(&self) -> HeadCounts {
        let mut heads: Vec<&[u8]> = self.seen.iter().map(|h| &h[..]).collect();
        heads.sort_unstable();
        // Sorted, heads equal in their first n bytes sit together: the neighbours that differ
        // there (their common prefix is shorter than n) start a new value.
        let mut by_len = vec![usize::from(!heads.is_empty()); self.len + 1];
        for pair in heads.windows(2) {
            let common = pair[0]
                .iter()
                .zip(pair[1])
                .take_while(|(a, b)| a == b)
                .count();
            for count in &mut by_len[common + 1..] {
                *count += 1;
            }
        }
        HeadCounts { by_len }
    }
}

/// The distinct values the keys' first bytes took, for each length counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct HeadCounts {
    /// `by_len[n]`: the distinct values of the keys' first `n` bytes (a shorter key whole).
    by_len: Vec<usize>,
}

impl HeadCounts {
    /// The distinct values of the keys' first `len` bytes; `None` when not counted: more than
    /// [`MAX_HEADS`] of them, or `len` over [`MAX_HEAD_LEN`].
    pub(super) fn distinct(&self, len: usize) -> Option<usize> {
        self.by_len.get(len).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The distinct heads of `keys` of each length, by brute force.
    fn brute(keys: &[Vec<u8>], len: usize) -> usize {
        keys.iter()
            .map(|k| &k[..k.len().min(len)])
            .collect::<HashSet<_>>()
            .len()
    }

    #[test]
    fn distinct_heads_of_every_length_match_a_brute_force_count() {
        let keys: Vec<Vec<u8>> = [&b"ab"[..], b"abc", b"abd", b"b", b"", b"abc", b"ba"]
            .iter()
            .map(|k| k.to_vec())
            .collect();
        let mut heads = Heads::default();
        for k in &keys {
            heads.add(k);
        }
        let counts = heads.counts();
        for len in 0..=4 {
            assert_eq!(counts.distinct(len), Some(brute(&keys, len)), "{len}");
        }
        assert_eq!(Heads::default().counts().distinct(3), Some(0));
    }

    #[test]
    fn past_the_cap_heads_get_shorter_and_short_ones_stay_exact() {
        // 20 values in front, then a counter that makes every key its own.
        let keys: Vec<Vec<u8>> = (0..(MAX_HEADS as u64 * 3))
            .map(|i| {
                let mut key = vec![(i % 20) as u8, 0xAB];
                key.extend_from_slice(&i.to_be_bytes());
                key
            })
            .collect();
        let mut heads = Heads::default();
        for k in &keys {
            heads.add(k);
        }
        let counts = heads.counts();
        assert_eq!(counts.distinct(1), Some(20));
        assert_eq!(counts.distinct(2), Some(20));
        // The longest length kept has at most the cap; the next one has more.
        let kept = heads.len;
        assert!(kept < 10, "{kept}");
        assert_eq!(counts.distinct(kept), Some(brute(&keys, kept)));
        assert!(brute(&keys, kept) <= MAX_HEADS && brute(&keys, kept + 1) > MAX_HEADS);
        assert_eq!(counts.distinct(kept + 1), None);
        assert!(heads.seen.len() <= MAX_HEADS);
    }
}
