//! What a simulation saw, window by window: [`Report`] gives each window's writes per region and
//! the busiest region's share of them, the regions at the end, the key sizes, and the grid of
//! writes over time and key space that [`Heatmap`] draws.
//!
//! A window's regions are the table's regions at the window's start. A region that splits during
//! the window is counted whole: its daughters serve the same key range, and a key that sends every
//! write to the newest end of the key space sends them all to one region however often it splits.

// The crate is no_std; the lab runs on std.
use std::fmt;
use std::ops::Range;

use rowkey::regions::Regions;

use super::draw::{clock_of, time_text};
use super::heads::HeadCounts;
use super::heatmap::{Grid, Heatmap};
use super::simulation::{Simulation, Table};
use super::sizes::KeySizes;
use rowkey::RowKey;

/// The heatmap's rows: adjacent regions are drawn together beyond this many.
const MAX_BANDS: usize = 48;
/// The heatmap's columns: adjacent windows are drawn together beyond this many.
const MAX_COLUMNS: usize = 240;
/// The summary table's rows: a sample of the windows beyond this many.
const SHOWN_WINDOWS: usize = 12;

/// A simulation's report, cut into windows of time: see [`Simulation::report`].
///
/// `Display` prints the summary: writes, regions, the busiest region's share of each window (a
/// sample of the windows when there are many), and the key sizes against the stores' limits.
/// Window bounds that are Unix milliseconds (between the years 2001 and 2286) print as UTC dates
/// and times, as the heatmap's do; other times print as counts.
#[derive(Clone, Debug)]
pub struct Report {
    window: u64,
    windows: Vec<Window>,
    /// The regions at the end.
    table: Regions,
    sizes: KeySizes,
    auto_split: Option<u64>,
    grid: Grid,
    /// Each final region's writes over the whole run.
    totals: Vec<u64>,
    /// The distinct values of the keys' first bytes.
    heads: HeadCounts,
}

/// One window of time: the writes of `[start, end)` per region.
#[derive(Clone, Debug, PartialEq)]
pub struct Window {
    start: u64,
    end: u64,
    writes: u64,
    regions: Vec<RegionWrites>,
}

/// A region's writes in one window. `region` numbers the region by where it starts among the
/// regions at the end of the simulation ([`Report::regions`]): region `i` starts at split point
/// `i - 1`, region 0 at the start of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct RegionWrites {
    /// The region, by its start among the final regions.
    pub region: usize,
    /// Its writes in the window.
    pub writes: u64,
}

impl Simulation {
    /// The report of the writes so far, in windows of `window` units of time (0 counts as 1).
    pub fn report(&self, window: u64) -> Report {
        Report::new(self, window.max(1))
    }
}

impl Report {
    fn new(sim: &Simulation, window: u64) -> Report {
        let order = time_order(&sim.times);
        let (table, auto_split) = final_regions(sim.table());
        let placer = Placer::new(sim.table());
        let spans = window_spans(&sim.times, &order, window);
        let shape = GridShape::new(table.len(), spans.len());
        let mut grid = shape.grid(&spans, window, table.splits());
        let mut live = Live::new(sim.table());
        let mut windows = Vec::with_capacity(spans.len());
        let mut totals = vec![0; table.len()];
        for (w, (start, span)) in spans.into_iter().enumerate() {
            live.advance_to(start);
            let writes = &order[span];
            for &i in writes {
                let region = placer.final_region(&table, i);
                totals[region] += 1;
                grid.add(shape.column_of(w), shape.band_of(region));
            }
            let end = start.saturating_add(window);
            windows.push(Window::count(&live, &placer, &table, start, end, writes));
        }
        Report {
            window,
            windows,
            table,
            sizes: sim.sizes.clone(),
            auto_split,
            grid,
            totals,
            heads: sim.heads.counts(),
        }
    }

    /// The length of each window, in units of the simulation's time.
    pub fn window(&self) -> u64 {
        self.window
    }

    /// The windows that hold writes, in time order (a window without writes is left out).
    pub fn windows(&self) -> &[Window] {
        &self.windows
    }

    /// The split points at the end of the simulation: region `i` starts at `regions()[i - 1]`.
    pub fn regions(&self) -> &[Vec<u8>] {
        self.table.splits()
    }

    /// The median over the windows of the busiest region's share of that window's writes: 1.0
    /// when one region takes every write, 1/n when n regions share them evenly (0 without
    /// writes).
    pub fn hottest_share(&self) -> f64 {
        let mut shares: Vec<f64> = self.windows.iter().map(Window::hottest_share).collect();
        if shares.is_empty() {
            return 0.0;
        }
        shares.sort_by(f64::total_cmp);
        let n = shares.len();
        if n % 2 == 1 {
            shares[n / 2]
        } else {
            (shares[n / 2 - 1] + shares[n / 2]) / 2.0
        }
    }

    /// The lengths of the keys written, against the stores' limits.
    pub fn key_sizes(&self) -> &KeySizes {
        &self.sizes
    }

    /// Writes over time and key space as an image, each band of regions labelled by its start
    /// key decoded through `K`'s layout ([`RowKey::explain_best_effort`]).
    pub fn heatmap<K: RowKey>(&self) -> Heatmap {
        Heatmap::new::<K>(&self.grid)
    }

    /// The table's regions at the end.
    pub(super) fn table(&self) -> &Regions {
        &self.table
    }

    /// Each final region's writes over the whole run, each write in the region that holds its
    /// key at the end.
    pub(super) fn totals(&self) -> &[u64] {
        &self.totals
    }

    /// The distinct values of the keys' first bytes.
    pub(super) fn heads(&self) -> &HeadCounts {
        &self.heads
    }
}

impl Window {
    /// The window `[start, end)` holding `writes` (indices of the simulation's writes), counted
    /// in the regions of `live`, the table at the window's start; each region is numbered by
    /// where it starts among the final regions, `table`.
    fn count(
        live: &Live<'_>,
        placer: &Placer<'_>,
        table: &Regions,
        start: u64,
        end: u64,
        writes: &[usize],
    ) -> Window {
        let mut counts = vec![0u64; live.len()];
        for &i in writes {
            counts[live.region_of(placer, i)] += 1;
        }
        let regions = counts
            .iter()
            .enumerate()
            .map(|(j, &writes)| RegionWrites {
                // A split point starts its region.
                region: table.region_of(live.start(j)),
                writes,
            })
            .collect();
        Window {
            start,
            end,
            writes: writes.len() as u64,
            regions,
        }
    }

    /// The window's first time.
    pub fn start(&self) -> u64 {
        self.start
    }

    /// The time after the window's last.
    pub fn end(&self) -> u64 {
        self.end
    }

    /// The writes in the window.
    pub fn writes(&self) -> u64 {
        self.writes
    }

    /// Every region of the table at the window's start, in key order, with its writes.
    pub fn regions(&self) -> &[RegionWrites] {
        &self.regions
    }

    /// The region with the most writes (the first of equals).
    pub fn hottest(&self) -> Option<RegionWrites> {
        self.regions
            .iter()
            .copied()
            .reduce(|a, b| if b.writes > a.writes { b } else { a })
    }

    /// The busiest region's share of the window's writes.
    pub fn hottest_share(&self) -> f64 {
        match self.hottest() {
            Some(h) if self.writes > 0 => h.writes as f64 / self.writes as f64,
            _ => 0.0,
        }
    }
}

/// The writes' indices in time order: as recorded when they already are, else sorted by time
/// (a stable sort: writes at the same time keep their order).
fn time_order(times: &[u64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..times.len()).collect();
    if !times.windows(2).all(|w| w[0] <= w[1]) {
        order.sort_by_key(|&i| times[i]);
    }
    order
}

/// The table's regions at the end, and the row count that splits a region when the table
/// splits itself.
fn final_regions(table: &Table) -> (Regions, Option<u64>) {
    match table {
        Table::Presplit { regions, .. } => (regions.clone(), None),
        Table::AutoSplit {
            regions, max_rows, ..
        } => (regions.clone(), Some(*max_rows)),
    }
}

/// The windows that hold writes: each one's start and its writes' positions in `order`.
fn window_spans(times: &[u64], order: &[usize], window: u64) -> Vec<(u64, Range<usize>)> {
    let mut spans = Vec::new();
    let mut at = 0;
    while at < order.len() {
        let index = times[order[at]] / window;
        let mut rest = at;
        while rest < order.len() && times[order[rest]] / window == index {
            rest += 1;
        }
        spans.push((index * window, at..rest));
        at = rest;
    }
    spans
}

/// How the heatmap's grid gathers the report: every write in its final region, adjacent regions
/// drawn together as at most [`MAX_BANDS`] bands, adjacent windows as at most [`MAX_COLUMNS`]
/// columns.
struct GridShape {
    regions: usize,
    bands: usize,
    windows: usize,
    columns: usize,
}

impl GridShape {
    fn new(regions: usize, windows: usize) -> GridShape {
        GridShape {
            regions,
            bands: regions.min(MAX_BANDS),
            windows,
            columns: windows.min(MAX_COLUMNS),
        }
    }

    /// The column of window `w` (of those that hold writes).
    fn column_of(&self, w: usize) -> usize {
        w * self.columns / self.windows
    }

    /// The band of final region `region`.
    fn band_of(&self, region: usize) -> usize {
        region * self.bands / self.regions
    }

    /// An empty grid: each column's time span (from its first window's start to its last
    /// window's end) and each band's first region.
    fn grid(&self, spans: &[(u64, Range<usize>)], window: u64, splits: &[Vec<u8>]) -> Grid {
        let columns = (0..self.columns)
            .map(|c| {
                // The windows `w` with `column_of(w) == c`.
                let first = (c * self.windows).div_ceil(self.columns);
                let last = ((c + 1) * self.windows).div_ceil(self.columns) - 1;
                (spans[first].0, spans[last].0.saturating_add(window))
            })
            .collect();
        let first_regions = (0..self.bands)
            .map(|b| (b * self.regions).div_ceil(self.bands))
            .collect();
        Grid::new(columns, first_regions, splits)
    }
}

/// Where each write landed in the final regions.
enum Placer<'s> {
    Presplit(&'s [u32]),
    AutoSplit { keys: &'s [u8], ends: &'s [usize] },
}

impl<'s> Placer<'s> {
    fn new(table: &'s Table) -> Placer<'s> {
        match table {
            Table::Presplit { hits, .. } => Placer::Presplit(hits),
            Table::AutoSplit { keys, ends, .. } => Placer::AutoSplit { keys, ends },
        }
    }

    fn key(&self, i: usize) -> &'s [u8] {
        match self {
            Placer::Presplit(_) => &[],
            Placer::AutoSplit { keys, ends } => {
                let start = if i == 0 { 0 } else { ends[i - 1] };
                &keys[start..ends[i]]
            }
        }
    }

    fn final_region(&self, regions: &Regions, i: usize) -> usize {
        match self {
            Placer::Presplit(hits) => hits[i] as usize,
            Placer::AutoSplit { .. } => regions.region_of(self.key(i)),
        }
    }
}

/// The regions as they stand at a moment: fixed, or split by the splits before it.
struct Live<'s> {
    /// Splits in time order, and how many of them have happened.
    pending: Vec<&'s (u64, Vec<u8>)>,
    applied: usize,
    regions: Regions,
}

impl<'s> Live<'s> {
    fn new(table: &'s Table) -> Live<'s> {
        match table {
            Table::Presplit { regions, .. } => Live {
                pending: Vec::new(),
                applied: 0,
                regions: regions.clone(),
            },
            Table::AutoSplit { splits, .. } => {
                let mut pending: Vec<&(u64, Vec<u8>)> = splits.iter().collect();
                pending.sort_by_key(|(t, _)| *t);
                Live {
                    pending,
                    applied: 0,
                    regions: Regions::new(Vec::new()).unwrap_or_else(|_| unreachable!()),
                }
            }
        }
    }

    /// Applies every split that happened before `t`.
    fn advance_to(&mut self, t: u64) {
        let mut points = None;
        while let Some((at, point)) = self.pending.get(self.applied).copied() {
            if *at >= t {
                break;
            }
            let points = points.get_or_insert_with(|| self.regions.splits().to_vec());
            if let Err(i) = points.binary_search(point) {
                points.insert(i, point.clone());
            }
            self.applied += 1;
        }
        // Split points are distinct and sorted, each above the start of the table.
        if let Some(Ok(regions)) = points.map(Regions::new) {
            self.regions = regions;
        }
    }

    fn len(&self) -> usize {
        self.regions.len()
    }

    fn start(&self, j: usize) -> &[u8] {
        self.regions.bounds(j).map_or(&[], |(start, _)| start)
    }

    fn region_of(&self, placer: &Placer<'_>, i: usize) -> usize {
        match placer {
            Placer::Presplit(hits) => hits[i] as usize,
            Placer::AutoSplit { .. } => self.regions.region_of(placer.key(i)),
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let writes: u64 = self.windows.iter().map(|w| w.writes).sum();
        let regions = self.table.len();
        // The heatmap's rule: Unix milliseconds print as UTC dates, other times as counts.
        let clock = clock_of(self.windows.iter().map(|w| (w.start, w.end)));
        let unit = if clock.is_some() { "ms" } else { "units" };
        write!(
            f,
            "{writes} writes in {} windows of {} {unit}, {regions} regions at the end",
            self.windows.len(),
            self.window
        )?;
        match self.auto_split {
            Some(rows) => writeln!(f, " (splitting at {rows} rows)")?,
            None => writeln!(f, " (pre-split)")?,
        }
        writeln!(
            f,
            "busiest region's share of a window's writes: median {:.3} (1.000: one region takes \
             every write; {:.3}: even over the {regions} regions)",
            self.hottest_share(),
            1.0 / regions as f64
        )?;
        // At most 12 rows: the first and last windows and an even sample between, said so.
        let n = self.windows.len();
        let shown: Vec<usize> = if n <= SHOWN_WINDOWS {
            (0..n).collect()
        } else {
            writeln!(
                f,
                "a sample of the windows: {SHOWN_WINDOWS} of {n}, the first, the last and \
                 evenly between (`Report::windows` has them all)"
            )?;
            (0..SHOWN_WINDOWS)
                .map(|k| k * (n - 1) / (SHOWN_WINDOWS - 1))
                .collect()
        };
        let zone = if clock.is_some() { " (UTC)" } else { "" };
        writeln!(
            f,
            "| window{zone} | writes | regions | busiest region | its share |"
        )?;
        writeln!(f, "|---|---|---|---|---|")?;
        for i in shown {
            let w = &self.windows[i];
            let hottest = w.hottest().map_or(0, |h| h.region);
            writeln!(
                f,
                "| {} to {} | {} | {} | {hottest} | {:.3} |",
                time_text(w.start, clock),
                time_text(w.end, clock),
                w.writes,
                w.regions.len(),
                w.hottest_share()
            )?;
        }
        writeln!(f, "{}", self.sizes)
    }
}
