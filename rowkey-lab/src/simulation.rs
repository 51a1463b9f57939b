//! A table under a stream of writes: [`Simulation`] keeps each write's time and where it landed,
//! with regions fixed in advance or splitting by themselves as HBase's do; [`Report`](super::Report)
//! cuts the record into time windows.

// The crate is no_std; the lab runs on std.
use std::collections::BTreeSet;
use std::fmt;

use rowkey::regions::Regions;

use super::heads::Heads;
use super::sizes::KeySizes;

/// A simulated table: writes go in as `(time, key)`, a [`Report`](super::Report) comes out.
///
/// ```
/// use rowkey_lab::Simulation;
/// use rowkey::regions::Regions;
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// #[rowkey(salt(buckets = 4))]
/// struct Event { ts: u64 }
///
/// let mut sim = Simulation::presplit(Regions::new(Event::split_keys(4))?);
/// for ts in 0..1_000u64 {
///     sim.write(ts, &Event { ts }.to_vec()?);
/// }
/// let report = sim.report(100);
/// assert_eq!(report.windows().len(), 10);
/// assert!(report.hottest_share() < 0.4); // the salt spreads each window over the 4 regions
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Simulation {
    table: Table,
    /// Each write's time, in the order written.
    pub(super) times: Vec<u64>,
    pub(super) sizes: KeySizes,
    /// The distinct values of the keys' first bytes, for the advice on a salt or hash prefix.
    pub(super) heads: Heads,
}

/// How the table's regions come about.
pub(super) enum Table {
    /// Regions fixed in advance; each write's region is recorded as it is written.
    Presplit { regions: Regions, hits: Vec<u32> },
    /// One region at first; a region that holds `max_rows` rows splits at its middle key.
    AutoSplit {
        max_rows: u64,
        regions: Regions,
        /// The rows of each current region.
        rows: Vec<BTreeSet<Vec<u8>>>,
        /// Every split, in the order it happened: the time of the write that caused it, and the
        /// split point.
        splits: Vec<(u64, Vec<u8>)>,
        /// Every write's key, one after another (`ends[i]` is where the i-th ends), so that a
        /// report can place each write among the regions of its window.
        keys: Vec<u8>,
        ends: Vec<usize>,
    },
}

impl Simulation {
    /// A table of one region that splits as HBase's size-based policy does: a region holding
    /// `max_rows` rows (distinct keys) splits at its middle key, the lower half keeping the keys
    /// below it. `max_rows` below 2 counts as 2 (a region of one row has no middle).
    ///
    /// ```
    /// use rowkey_lab::Simulation;
    /// let mut sim = Simulation::auto_split(4);
    /// for k in [b"a", b"b", b"c", b"d"] {
    ///     sim.write(0, k);
    /// }
    /// // Four rows: the region split at its middle key, "c".
    /// assert_eq!(sim.report(1).regions(), [b"c".to_vec()]);
    /// ```
    pub fn auto_split(max_rows: u64) -> Simulation {
        Simulation::new(Table::AutoSplit {
            max_rows: max_rows.max(2),
            regions: Regions::new(Vec::new()).unwrap_or_else(|_| unreachable!("no split points")),
            rows: vec![BTreeSet::new()],
            splits: Vec::new(),
            keys: Vec::new(),
            ends: Vec::new(),
        })
    }

    /// A table pre-split into `regions` that never change: from
    /// [`RowKey::split_keys`](rowkey::RowKey::split_keys), a store's split points or samples.
    pub fn presplit(regions: Regions) -> Simulation {
        Simulation::new(Table::Presplit {
            regions,
            hits: Vec::new(),
        })
    }

    fn new(table: Table) -> Simulation {
        Simulation {
            table,
            times: Vec::new(),
            sizes: KeySizes::default(),
            heads: Heads::default(),
        }
    }

    /// Records a write of `key` at time `t` (any clock: milliseconds, a sequence number). The
    /// same key written again is the same row, another write to it.
    #[inline]
    pub fn write(&mut self, t: u64, key: &[u8]) {
        self.times.push(t);
        self.sizes.add(key.len());
        self.heads.add(key);
        match &mut self.table {
            Table::Presplit { regions, hits } => {
                // At most `MAX_SPLIT_REGIONS`-scale counts of regions: an index fits in u32.
                hits.push(regions.region_of(key) as u32);
            }
            Table::AutoSplit {
                max_rows,
                regions,
                rows,
                splits,
                keys,
                ends,
            } => {
                keys.extend_from_slice(key);
                ends.push(keys.len());
                let r = regions.region_of(key);
                let region = &mut rows[r];
                if region.contains(key) {
                    return;
                }
                region.insert(key.to_vec());
                if region.len() as u64 >= *max_rows {
                    // The middle row starts the upper half; it is above the region's first row,
                    // so above its start, and below the next region's start.
                    let middle = region.iter().nth(region.len() / 2).cloned();
                    if let Some(middle) = middle {
                        let upper = region.split_off(&middle);
                        rows.insert(r + 1, upper);
                        let mut points = regions.splits().to_vec();
                        points.insert(r, middle.clone());
                        if let Ok(split) = Regions::new(points) {
                            *regions = split;
                        }
                        splits.push((t, middle));
                    }
                }
            }
        }
    }

    /// The number of writes recorded.
    pub fn writes(&self) -> usize {
        self.times.len()
    }

    pub(super) fn table(&self) -> &Table {
        &self.table
    }
}

impl fmt::Debug for Simulation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Simulation");
        match &self.table {
            Table::Presplit { regions, .. } => d.field("presplit_regions", &regions.len()),
            Table::AutoSplit {
                max_rows, regions, ..
            } => d
                .field("auto_split_at_rows", max_rows)
                .field("regions", &regions.len()),
        };
        d.field("writes", &self.times.len()).finish()
    }
}
