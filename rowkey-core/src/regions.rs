//! A table pre-split into regions, as HBase and Bigtable split it: sorted split points, each
//! region the keys from one split point (inclusive) to the next (exclusive). Used to choose split
//! points for a prefixed layout and to see how a workload's keys fall over the regions.
//!
//! ```
//! use rowkey::regions::Regions;
//! let regions = Regions::new(vec![vec![0x40], vec![0x80], vec![0xC0]])?;
//! assert_eq!(regions.len(), 4);
//! assert_eq!(regions.region_of(&[0x00, 0xFF]), 0);
//! assert_eq!(regions.region_of(&[0x80]), 2);
//!
//! let mut counts = regions.counter();
//! for key in [[0x01], [0x41], [0x81], [0xC1]] {
//!     counts.add(&key);
//! }
//! assert_eq!(counts.counts(), &[1, 1, 1, 1]);
//! assert_eq!(counts.skew(), Some(1.0));
//! # Ok::<(), rowkey::regions::SplitError>(())
//! ```

use alloc::vec::Vec;
use core::fmt;

use crate::prefix::Prefix;

/// Split points that divide the key space of `prefix` into `regions` even parts.
/// See [`RowKey::split_keys`](crate::RowKey::split_keys), which also puts a tagged key's
/// tag in front of each point; the points here are of keys without a tag.
///
/// ```
/// use rowkey::regions::split_points;
/// use rowkey::{HashPrefix, Prefix, Salt, SaltHash};
/// let salt = |n| Prefix::Salt(Salt::new(n, SaltHash::Md5).unwrap());
/// // 16 buckets in 4 regions: boundaries at buckets 4, 8 and 12.
/// assert_eq!(split_points(salt(16), 4), [[4], [8], [12]]);
/// // More regions than buckets: halfway through each bucket (as if the rest were uniform).
/// assert_eq!(split_points(salt(2), 4), [vec![0, 0x80, 0, 0, 0], vec![1], vec![1, 0x80, 0, 0, 0]]);
/// // A 2-byte md5 prefix: evenly spaced values.
/// let hash = Prefix::Hash(HashPrefix::new(2).unwrap());
/// assert_eq!(split_points(hash, 4), [[0x40, 0x00], [0x80, 0x00], [0xC0, 0x00]]);
/// assert!(split_points(Prefix::None, 4).is_empty());
/// ```
///
/// A count past what the prefix can tell apart is clamped to it: a hash prefix of `L` bytes has
/// `256^L` values (text: `16^L` hex values), so `split_points` gives at most that many regions,
/// and never more than [`MAX_SPLIT_REGIONS`] (an absurd count such as `usize::MAX` gives that
/// many, instead of aborting on a list no memory holds).
///
/// ```
/// use rowkey::regions::{split_points, MAX_SPLIT_REGIONS};
/// use rowkey::{HashPrefix, Prefix};
/// let one_byte = Prefix::Hash(HashPrefix::new(1).unwrap());
/// assert_eq!(split_points(one_byte, 1000).len(), 255); // 256 values, 256 regions
/// assert_eq!(split_points(one_byte, usize::MAX).len(), 255);
/// let wide = Prefix::Hash(HashPrefix::new(8).unwrap());
/// assert_eq!(split_points(wide, usize::MAX).len(), MAX_SPLIT_REGIONS - 1);
/// ```
pub fn split_points(prefix: Prefix, regions: usize) -> Vec<Vec<u8>> {
    let regions = regions.min(MAX_SPLIT_REGIONS).min(distinct_regions(prefix));
    if regions <= 1 {
        return Vec::new();
    }
    let regions = regions as u128;
    match prefix {
        Prefix::None => Vec::new(),
        Prefix::Salt(salt) => {
            // Position i/regions of the way through [0, buckets): the bucket (text: its digits),
            // then the fraction of the way through it as 4 bytes, left out when the point is a
            // bucket boundary.
            let buckets = u128::from(salt.buckets());
            (1..regions)
                .map(|i| {
                    let scaled = i * buckets;
                    let bucket = (scaled / regions) as u8;
                    let frac = ((scaled % regions) << 32) / regions;
                    let mut point = alloc::vec![0; salt.encoded_len()];
                    salt.write_bucket(bucket, &mut point);
                    if frac != 0 {
                        point.extend_from_slice(&(frac as u32).to_be_bytes());
                    }
                    point
                })
                .collect()
        }
        // A hash prefix's form is its own (see `Salt`'s): split points are asked of a prefix
        // alone, with no key to ask a format of.
        Prefix::Hash(hash) if hash.is_text() => {
            // Evenly spaced values of up to 15 hex digits, in the layout's case.
            let digits = hash.prefix_len().min(15);
            let space: u128 = 1 << (4 * digits);
            let upper = hash.is_upper();
            (1..regions)
                .map(|i| {
                    let value = i * space / regions;
                    let hex = if upper {
                        alloc::format!("{value:0digits$X}")
                    } else {
                        alloc::format!("{value:0digits$x}")
                    };
                    hex.into_bytes()
                })
                .collect()
        }
        Prefix::Hash(hash) => {
            // Evenly spaced values of the prefix, read as a big-endian number of up to 8 bytes.
            let len = hash.prefix_len().min(8);
            let space: u128 = 1 << (8 * len);
            (1..regions)
                .map(|i| {
                    let value = (i * space / regions) as u64;
                    value.to_be_bytes()[8 - len..].to_vec()
                })
                .collect()
        }
    }
}

/// The most regions [`split_points`] divides a key space into: far past any table a store would
/// pre-split (HBase advises tens to hundreds of regions per server), and small enough that the list
/// of points fits in memory.
pub const MAX_SPLIT_REGIONS: usize = 1 << 16;

/// How many regions the prefix can tell apart: every split point must be a different value.
fn distinct_regions(prefix: Prefix) -> usize {
    let bits = match prefix {
        Prefix::None => return 0,
        // The bucket, then 4 bytes of fraction through it (counted in u64: past a 32-bit usize).
        Prefix::Salt(salt) => {
            let count = u64::from(salt.buckets()) << 32;
            return usize::try_from(count).unwrap_or(usize::MAX);
        }
        Prefix::Hash(hash) if hash.is_text() => 4 * hash.prefix_len().min(15),
        Prefix::Hash(hash) => 8 * hash.prefix_len().min(8),
    };
    1usize.checked_shl(bits as u32).unwrap_or(usize::MAX)
}

/// Split points that are not strictly increasing, or an empty split point.
///
/// ```
/// use rowkey::regions::Regions;
/// let err = Regions::new(vec![vec![0x80], vec![0x40]]).unwrap_err();
/// assert!(err.to_string().contains("split point 1"));
/// assert!(Regions::new(vec![vec![0x40], vec![0x40]]).is_err()); // repeated
/// assert!(Regions::new(vec![vec![]]).is_err());                 // empty
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitError {
    index: usize,
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "split point {} is empty or not greater than the one before it",
            self.index
        )
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SplitError {}

/// A table split into regions by sorted split points.
///
/// ```
/// use rowkey::regions::Regions;
/// let regions = Regions::new(vec![b"g".to_vec(), b"p".to_vec()])?;
/// assert_eq!(regions.len(), 3);
/// assert_eq!(regions.region_of(b"apple"), 0);
/// assert_eq!(regions.region_of(b"g"), 1); // a split point starts its region
/// assert_eq!(regions.region_of(b"zebra"), 2);
/// # Ok::<(), rowkey::regions::SplitError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regions {
    splits: Vec<Vec<u8>>,
}

impl Regions {
    /// Regions bounded by `splits`, which must be non-empty byte strings in strictly increasing
    /// order. No split points make one region.
    ///
    /// ```
    /// use rowkey::regions::Regions;
    /// assert_eq!(Regions::new(vec![vec![0x80]])?.len(), 2);
    /// assert_eq!(Regions::new(vec![])?.len(), 1); // the whole table
    /// assert!(Regions::new(vec![vec![0x80], vec![0x40]]).is_err()); // out of order
    /// # Ok::<(), rowkey::regions::SplitError>(())
    /// ```
    pub fn new(splits: Vec<Vec<u8>>) -> Result<Regions, SplitError> {
        for (index, s) in splits.iter().enumerate() {
            if s.is_empty() || (index > 0 && splits[index - 1] >= *s) {
                return Err(SplitError { index });
            }
        }
        Ok(Regions { splits })
    }

    /// The number of regions: one more than the split points.
    ///
    /// ```
    /// use rowkey::regions::Regions;
    /// let regions = Regions::new(vec![vec![0x40], vec![0x80], vec![0xC0]])?;
    /// assert_eq!(regions.len(), 4);
    /// assert_eq!(regions.len(), regions.splits().len() + 1);
    /// # Ok::<(), rowkey::regions::SplitError>(())
    /// ```
    pub fn len(&self) -> usize {
        self.splits.len() + 1
    }

    /// Always false: a table has at least one region.
    ///
    /// ```
    /// use rowkey::regions::Regions;
    /// let one = Regions::new(vec![])?;
    /// assert!(!one.is_empty());
    /// assert_eq!(one.len(), 1);
    /// # Ok::<(), rowkey::regions::SplitError>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The split points.
    ///
    /// ```
    /// use rowkey::regions::Regions;
    /// let splits = vec![vec![0x40], vec![0x80]];
    /// let regions = Regions::new(splits.clone())?;
    /// assert_eq!(regions.splits(), splits.as_slice());
    /// # Ok::<(), rowkey::regions::SplitError>(())
    /// ```
    pub fn splits(&self) -> &[Vec<u8>] {
        &self.splits
    }

    /// The region that holds `key`.
    ///
    /// ```
    /// use rowkey::regions::Regions;
    /// let regions = Regions::new(vec![vec![0x40], vec![0x80]])?;
    /// assert_eq!(regions.region_of(&[]), 0);
    /// assert_eq!(regions.region_of(&[0x3F, 0xFF]), 0);
    /// assert_eq!(regions.region_of(&[0x40]), 1); // split points are inclusive starts
    /// assert_eq!(regions.region_of(&[0xFF]), 2);
    /// # Ok::<(), rowkey::regions::SplitError>(())
    /// ```
    pub fn region_of(&self, key: &[u8]) -> usize {
        self.splits.partition_point(|s| s.as_slice() <= key)
    }

    /// The start of region `i` (inclusive; empty for the first) and its end (exclusive; empty for
    /// the last), or `None` past the last region.
    ///
    /// ```
    /// use rowkey::regions::Regions;
    /// let regions = Regions::new(vec![vec![0x40], vec![0x80]])?;
    /// assert_eq!(regions.bounds(0), Some((&[][..], &[0x40][..])));
    /// assert_eq!(regions.bounds(1), Some((&[0x40][..], &[0x80][..])));
    /// assert_eq!(regions.bounds(2), Some((&[0x80][..], &[][..])));
    /// assert_eq!(regions.bounds(3), None);
    /// # Ok::<(), rowkey::regions::SplitError>(())
    /// ```
    pub fn bounds(&self, i: usize) -> Option<(&[u8], &[u8])> {
        if i >= self.len() {
            return None;
        }
        let start = if i == 0 {
            &[][..]
        } else {
            &self.splits[i - 1][..]
        };
        let end = self.splits.get(i).map_or(&[][..], |s| &s[..]);
        Some((start, end))
    }

    /// A counter of keys per region.
    ///
    /// ```
    /// use rowkey::regions::Regions;
    /// let regions = Regions::new(vec![vec![0x80]])?;
    /// let mut counts = regions.counter();
    /// assert_eq!(counts.counts(), &[0, 0]);
    /// counts.add(&[0x90]);
    /// assert_eq!(counts.counts(), &[0, 1]);
    /// # Ok::<(), rowkey::regions::SplitError>(())
    /// ```
    pub fn counter(&self) -> RegionCounts<'_> {
        RegionCounts {
            regions: self,
            counts: alloc::vec![0; self.len()],
        }
    }
}

/// How many keys fall in each region.
///
/// ```
/// use rowkey::regions::Regions;
/// // Sequential keys all land in the last region: a hotspot.
/// let regions = Regions::new(vec![vec![0x40], vec![0x80], vec![0xC0]])?;
/// let mut counts = regions.counter();
/// for seq in 0xF0u8..0xF8 {
///     counts.add(&[seq]);
/// }
/// assert_eq!(counts.counts(), &[0, 0, 0, 8]);
/// assert_eq!(counts.skew(), Some(4.0)); // 8 over a mean of 2
/// # Ok::<(), rowkey::regions::SplitError>(())
/// ```
#[derive(Clone, Debug)]
pub struct RegionCounts<'r> {
    regions: &'r Regions,
    counts: Vec<u64>,
}

impl RegionCounts<'_> {
    /// Counts `key` in its region.
    ///
    /// ```
    /// use rowkey::regions::Regions;
    /// let regions = Regions::new(vec![b"m".to_vec()])?;
    /// let mut counts = regions.counter();
    /// for key in ["apple", "kiwi", "mango", "pear", "plum"] {
    ///     counts.add(key.as_bytes());
    /// }
    /// assert_eq!(counts.counts(), &[2, 3]);
    /// # Ok::<(), rowkey::regions::SplitError>(())
    /// ```
    pub fn add(&mut self, key: &[u8]) {
        let i = self.regions.region_of(key);
        self.counts[i] += 1;
    }

    /// The count of each region, in region order.
    ///
    /// ```
    /// use rowkey::regions::Regions;
    /// let regions = Regions::new(vec![vec![0x80]])?;
    /// let mut counts = regions.counter();
    /// counts.add(&[0x00]);
    /// counts.add(&[0x80]);
    /// counts.add(&[0x81]);
    /// assert_eq!(counts.counts(), &[1, 2]);
    /// # Ok::<(), rowkey::regions::SplitError>(())
    /// ```
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// The number of keys counted.
    ///
    /// ```
    /// use rowkey::regions::Regions;
    /// let regions = Regions::new(vec![vec![0x80]])?;
    /// let mut counts = regions.counter();
    /// assert_eq!(counts.total(), 0);
    /// counts.add(&[0x01]);
    /// counts.add(&[0x02]);
    /// assert_eq!(counts.total(), 2);
    /// # Ok::<(), rowkey::regions::SplitError>(())
    /// ```
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The busiest region's count over the mean: 1.0 is perfectly even; a value near the number
    /// of regions means one region takes everything (a hotspot). `None` before any key.
    ///
    /// ```
    /// use rowkey::regions::Regions;
    /// let regions = Regions::new(vec![vec![0x80]])?;
    /// let mut counts = regions.counter();
    /// assert_eq!(counts.skew(), None);
    /// counts.add(&[0x01]);
    /// assert_eq!(counts.skew(), Some(2.0)); // 1 over a mean of 0.5: everything on one of 2
    /// counts.add(&[0x81]);
    /// assert_eq!(counts.skew(), Some(1.0));
    /// # Ok::<(), rowkey::regions::SplitError>(())
    /// ```
    pub fn skew(&self) -> Option<f64> {
        let total = self.total();
        if total == 0 {
            return None;
        }
        let max = self.counts.iter().copied().max().unwrap_or(0);
        let mean = total as f64 / self.counts.len() as f64;
        Some(max as f64 / mean)
    }
}
