//! Helpers shared by the integration tests. Each test binary uses only some of them.
#![allow(dead_code)]

use std::ops::Bound;

/// Whether the long soak runs are asked for: `ROWKEY_SOAK` set to anything but `0`. Without it
/// the heavy tests run a size that keeps `cargo test --workspace` quick.
pub fn soak() -> bool {
    std::env::var_os("ROWKEY_SOAK").is_some_and(|v| v != "0")
}

/// `fast` normally, `soak` under `ROWKEY_SOAK`.
pub fn scaled(fast: usize, soak: usize) -> usize {
    if self::soak() {
        soak
    } else {
        fast
    }
}

/// xorshift64*: deterministic, so a failing test replays with the same inputs.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// An index below `n`.
    pub fn index(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A byte, biased towards the ones the formats give meaning to.
    pub fn byte(&mut self) -> u8 {
        const SPECIAL: [u8; 6] = [0x00, 0x01, 0xFE, 0xFF, 0x80, 0x7F];
        if self.index(3) == 0 {
            SPECIAL[self.index(SPECIAL.len())]
        } else {
            self.next() as u8
        }
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.index(items.len())]
    }

    /// Up to `max` characters of `alphabet`.
    pub fn string(&mut self, alphabet: &[char], max: u64) -> String {
        (0..self.below(max + 1))
            .map(|_| *self.pick(alphabet))
            .collect()
    }

    /// `v` as an inclusive, exclusive or no bound.
    pub fn bound<T>(&mut self, v: T) -> Bound<T> {
        match self.below(3) {
            0 => Bound::Included(v),
            1 => Bound::Excluded(v),
            _ => Bound::Unbounded,
        }
    }

    /// A range whose ends are each inclusive, exclusive or open, with values from `draw`.
    pub fn range<T>(&mut self, mut draw: impl FnMut(&mut Rng) -> T) -> (Bound<T>, Bound<T>) {
        let lo = draw(self);
        let lo = self.bound(lo);
        let hi = draw(self);
        let hi = self.bound(hi);
        (lo, hi)
    }
}

/// Whether `v` lies between `lo` and `hi`: the predicate scans are checked against, written
/// without the key encoding.
pub fn in_bounds<T: PartialOrd>(v: &T, lo: &Bound<T>, hi: &Bound<T>) -> bool {
    (match lo {
        Bound::Included(l) => v >= l,
        Bound::Excluded(l) => v > l,
        Bound::Unbounded => true,
    }) && (match hi {
        Bound::Included(h) => v <= h,
        Bound::Excluded(h) => v < h,
        Bound::Unbounded => true,
    })
}

/// [`in_bounds`] for a range as [`Rng::range`] draws it.
pub fn in_range<T: PartialOrd>(v: &T, (lo, hi): &(Bound<T>, Bound<T>)) -> bool {
    in_bounds(v, lo, hi)
}

/// A key `K` accepts must be the one key of its value: `Ok` when `bytes` do not decode as a `K`,
/// or encode back to exactly themselves.
pub fn decodes_to_its_own_key<K>(bytes: &[u8]) -> Result<(), String>
where
    K: rowkey::RowKey + for<'k> rowkey::DecodeKey<'k> + std::fmt::Debug,
{
    match K::decode(bytes) {
        Err(_) => Ok(()),
        Ok(v) => match v.to_vec() {
            Ok(again) if again == bytes => Ok(()),
            other => Err(format!(
                "{bytes:02X?} decodes to {v:?}, which encodes as {other:02X?}"
            )),
        },
    }
}

/// proptest's configuration for `cases` cases, writing no failure files into the tree.
pub fn proptest_config(cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        cases,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    }
}

/// Reads `plan` from `rows` (keys and the values they hold) and checks it against `pred`, the
/// query over values: the rows the plan reads and matches are exactly the wanted ones, in key
/// order; an exact plan reads nothing else; `matches` agrees with `pred` on every fifth key.
pub fn check_scan<K: ?Sized, V: PartialEq + std::fmt::Debug>(
    rows: &std::collections::BTreeMap<Vec<u8>, V>,
    plan: &rowkey::Scan<K>,
    pred: &dyn Fn(&V) -> bool,
    what: &str,
) {
    let read: Vec<(&Vec<u8>, &V)> = plan
        .ranges()
        .flat_map(|r| rows.range::<[u8], _>(&r))
        .collect();
    let got: Vec<&V> = read
        .iter()
        .filter(|(k, _)| plan.matches(k))
        .map(|(_, v)| *v)
        .collect();
    let expected: Vec<&V> = rows.values().filter(|v| pred(v)).collect();
    assert!(
        got == expected,
        "{what}: {plan:?}: got {} rows, wanted {}",
        got.len(),
        expected.len()
    );
    if plan.is_exact() {
        assert_eq!(
            read.len(),
            expected.len(),
            "{what}: an exact plan read extra rows"
        );
    }
    for (k, v) in rows.iter().step_by(5) {
        assert_eq!(plan.matches(k), pred(v), "{what}: matches {v:?}");
    }
}
