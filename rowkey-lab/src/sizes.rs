//! The lengths of the keys written, against the stores' limits ([`rowkey::limits`]):
//! a key that one store takes may be refused by another.

// The crate is no_std; the lab runs on std.
use std::fmt;

use rowkey::limits;

/// Lengths up to this are counted one by one; longer keys (longer than any store's limit) are
/// counted together, with the longest kept exactly.
const EXACT: usize = 1 << 16;

/// The stores whose limits the report compares against, by name.
pub(super) const STORES: [(&str, usize); 5] = [
    ("DynamoDB sort key", limits::DYNAMODB_SORT_KEY),
    ("Bigtable", limits::BIGTABLE),
    ("TiKV", limits::TIKV),
    ("FoundationDB", limits::FOUNDATIONDB),
    ("HBase", limits::HBASE),
];

/// The distribution of key lengths in bytes.
///
/// ```
/// use rowkey_lab::Simulation;
/// let mut sim = Simulation::auto_split(1_000);
/// sim.write(0, &[0; 10]);
/// sim.write(1, &[0; 5000]);
/// let report = sim.report(10);
/// let sizes = report.key_sizes();
/// assert_eq!((sizes.min(), sizes.max()), (10, 5000));
/// assert_eq!(sizes.longer_than(rowkey::limits::BIGTABLE), 1);
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
pub struct KeySizes {
    /// `counts[n]`: keys of `n` bytes, for `n < EXACT`.
    counts: Vec<u64>,
    /// Keys of `EXACT` bytes or more.
    longer: u64,
    max: usize,
    total: u64,
    bytes: u64,
}

impl KeySizes {
    #[inline]
    pub(super) fn add(&mut self, len: usize) {
        if len < EXACT {
            if len >= self.counts.len() {
                self.counts.resize(len + 1, 0);
            }
            self.counts[len] += 1;
        } else {
            self.longer += 1;
        }
        self.max = self.max.max(len);
        self.total += 1;
        self.bytes = self.bytes.saturating_add(len as u64);
    }

    /// The number of keys.
    pub fn count(&self) -> u64 {
        self.total
    }

    /// The shortest key's length (0 with no keys).
    pub fn min(&self) -> usize {
        self.counts.iter().position(|&c| c > 0).unwrap_or(self.max)
    }

    /// The longest key's length.
    pub fn max(&self) -> usize {
        self.max
    }

    /// The mean length (0 with no keys).
    pub fn mean(&self) -> f64 {
        if self.total == 0 {
            return 0.0;
        }
        self.bytes as f64 / self.total as f64
    }

    /// The length that `q` (0 to 1) of the keys do not exceed: `percentile(0.5)` is the median,
    /// `percentile(0.99)` the 99th percentile.
    pub fn percentile(&self, q: f64) -> usize {
        let rank = ((q.clamp(0.0, 1.0) * self.total as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (len, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                return len;
            }
        }
        self.max
    }

    /// How many keys are longer than `limit` bytes (a store's limit from
    /// [`rowkey::limits`]).
    pub fn longer_than(&self, limit: usize) -> u64 {
        let exact: u64 = self.counts.iter().skip(limit.saturating_add(1)).sum();
        exact + if limit < EXACT { self.longer } else { 0 }
    }
}

impl fmt::Display for KeySizes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "key sizes: min {}, median {}, p99 {}, max {} bytes (mean {:.1})",
            self.min(),
            self.percentile(0.5),
            self.percentile(0.99),
            self.max(),
            self.mean()
        )?;
        let over: Vec<String> = STORES
            .iter()
            .filter(|(_, limit)| self.longer_than(*limit) > 0)
            .map(|(store, limit)| format!("{} over {store}'s {limit}", self.longer_than(*limit)))
            .collect();
        if over.is_empty() {
            f.write_str("; every key fits every store's limit (DynamoDB sort key 1024 and up)")
        } else {
            write!(f, "; keys too long: {}", over.join(", "))
        }
    }
}

impl fmt::Debug for KeySizes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeySizes")
            .field("count", &self.total)
            .field("min", &self.min())
            .field("max", &self.max)
            .field("mean", &self.mean())
            .finish()
    }
}
