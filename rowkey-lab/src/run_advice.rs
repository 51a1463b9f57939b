//! Advice from what a simulation saw, where the layout alone is silent: the same layout spreads
//! or piles up the writes depending on the keys written. An md5 prefix of 20 hosts over 16
//! regions is a fine layout, and leaves regions empty because 20 values are too few to spread.
//! [`Report::advise`] says so from the run's whole-run figures, each finding with its numbers and
//! the fix.

// The crate is no_std; the lab runs on std.
use rowkey::hbase::to_string_binary;
use rowkey::{Prefix, RowKey};

use super::advice::{Advice, AdviceKind};
use super::heatmap::label;
use super::report::Report;

/// A region is hot when it takes more than this many times its even share of the writes (1/M of
/// them over M regions): one server doing twice the average's work bounds the table's write rate
/// at half of what M servers could take.
const HOT_FACTOR: u64 = 2;

/// Empty regions named one by one in the advice; the rest are counted.
const NAMED_EMPTY: usize = 4;

impl Report {
    /// What the run saw that [`advise_for`](super::advise_for) cannot know from the layout: the
    /// figures of the whole run (every window together), each finding with its numbers and the
    /// fix, regions named by their start keys as the HBase shell prints them
    /// (`Bytes.toStringBinary`) and decoded through `K`'s layout.
    ///
    /// - [`AdviceKind::EmptyRegions`]: regions that took no write at all.
    /// - [`AdviceKind::HotRegion`], one a region, busiest first: a region that took more than
    ///   twice its even share of the writes (2/M of them over M regions).
    /// - [`AdviceKind::FewDistinctPrefixes`]: `K`'s salt or hash prefix took too few distinct
    ///   values to spread the writes. A salt: fewer distinct buckets than the regions and than
    ///   its buckets (split at bucket boundaries, the regions beyond them take nothing). A hash
    ///   prefix, which places its values at random: fewer than the values it has and so few that
    ///   they leave a region empty on average (`M·(1 - 1/M)^V` rounds to 1 or more: fewer than
    ///   about `M·ln(2M)` values, 54 for 16 regions). The distinct values are counted exactly up
    ///   to 16,384, over a tag and prefix of up to 64 bytes; beyond either, nothing is said.
    ///
    /// The findings are about the keys written: a run without writes gives none, and a short
    /// run can leave regions empty that a longer one fills. A table that splits by itself has no
    /// empty region (each split leaves rows on both sides), and its hotspot is one of time
    /// ([`hottest_share`](Report::hottest_share) and [`advise`](super::advise) show it).
    ///
    /// ```
    /// use rowkey_lab::{AdviceKind, Simulation};
    /// use rowkey::regions::Regions;
    /// use rowkey::RowKey;
    ///
    /// /// `[md5(host)][host][ts]`: a fine layout, on three hosts.
    /// #[derive(RowKey)]
    /// struct Metric {
    ///     #[rowkey(hash_prefix(len = 4))]
    ///     host: String,
    ///     ts: u64,
    /// }
    ///
    /// let mut sim = Simulation::presplit(Regions::new(Metric::split_keys(8))?);
    /// for ts in 0..3_000u64 {
    ///     let host = format!("web-{}", ts % 3);
    ///     sim.write(ts, &Metric { host, ts }.to_vec()?);
    /// }
    /// let advice = sim.report(1_000).advise::<Metric>();
    /// let kinds: Vec<AdviceKind> = advice.iter().map(|a| a.kind).collect();
    /// assert_eq!(kinds[0], AdviceKind::EmptyRegions);
    /// assert!(advice[0].problem.starts_with("6 of 8 regions took none of the 3000 writes"));
    /// assert_eq!(kinds.last(), Some(&AdviceKind::FewDistinctPrefixes));
    /// assert_eq!(advice.last().unwrap().field.as_deref(), Some("Metric.host"));
    /// for a in &advice {
    ///     println!("{a}"); // the problem with its figures, then the fix
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn advise<K: RowKey>(&self) -> Vec<Advice> {
        let mut out = Vec::new();
        let writes: u64 = self.totals().iter().sum();
        if writes == 0 {
            return out;
        }
        empty_regions::<K>(self, writes, &mut out);
        hot_regions::<K>(self, writes, &mut out);
        few_distinct::<K>(self, &mut out);
        out
    }
}

/// Region `i` of the report's final regions, named by its start key as the HBase shell prints
/// it (`STARTKEY => '...'`, `Bytes.toStringBinary`) and decoded through `K`'s layout, when the
/// decoded words say more than the bytes (a hash prefix decodes to its own bytes).
fn region_name<K: RowKey>(report: &Report, i: usize) -> String {
    let regions = report.table();
    let start = regions.bounds(i).map_or(&[][..], |(start, _)| start);
    let decoded = label::<K>(start);
    if start.is_empty() {
        return format!("region 0 of {} ({decoded})", regions.len());
    }
    let shell = to_string_binary(start);
    if decoded.contains(&shell) {
        format!("region {i} of {} (start key '{shell}')", regions.len())
    } else {
        format!(
            "region {i} of {} (start key '{shell}', {decoded})",
            regions.len()
        )
    }
}

/// The fields `K`'s prefix is computed from, as the advice names them: `` `Key.field` ``, joined
/// by "and", or "the whole key" for a whole-key salt.
fn sources<K: RowKey>() -> String {
    let layout = &K::LAYOUT;
    if layout.whole_key_salt {
        return "the whole key".into();
    }
    let names: Vec<String> = layout
        .prefix_sources
        .iter()
        .map(|field| format!("`{}.{field}`", layout.name))
        .collect();
    names.join(" and ")
}

/// The one field `K`'s prefix is computed from, when it is one field.
fn source_field<K: RowKey>() -> Option<String> {
    match K::LAYOUT.prefix_sources {
        [field] if !K::LAYOUT.whole_key_salt => Some(format!("{}.{field}", K::LAYOUT.name)),
        _ => None,
    }
}

fn empty_regions<K: RowKey>(report: &Report, writes: u64, out: &mut Vec<Advice>) {
    let totals = report.totals();
    let empty: Vec<usize> = (0..totals.len()).filter(|&i| totals[i] == 0).collect();
    if empty.is_empty() {
        return;
    }
    let (n, m) = (empty.len(), totals.len());
    let mut named: Vec<String> = empty
        .iter()
        .take(NAMED_EMPTY)
        .map(|&i| region_name::<K>(report, i))
        .collect();
    if n > NAMED_EMPTY {
        named.push(format!("and {} more", n - NAMED_EMPTY));
    }
    out.push(Advice {
        kind: AdviceKind::EmptyRegions,
        field: None,
        problem: format!(
            "{n} of {m} regions took none of the {writes} writes: {}. Their servers idle while \
             {} regions take every write.",
            named.join("; "),
            m - n
        ),
        fix: "spread the keys over more values in front (a salt or hash prefix of fields that \
              take many values; see `FewDistinctPrefixes` when the run saw few), or pre-split at \
              points taken from the keys written (a sample of real keys, or the store's own split \
              points once it holds data) rather than points that assume uniform keys, or into \
              fewer regions."
            .into(),
    });
}

fn hot_regions<K: RowKey>(report: &Report, writes: u64, out: &mut Vec<Advice>) {
    let totals = report.totals();
    let m = totals.len() as u64;
    let mut hot: Vec<usize> = (0..totals.len())
        .filter(|&i| totals[i] * m > HOT_FACTOR * writes)
        .collect();
    // Busiest first; equals in key order.
    hot.sort_by_key(|&i| std::cmp::Reverse(totals[i]));
    let fix = if K::LAYOUT.prefix.is_none() {
        "the region's keys crowd one range of the key space: lead with a salt or hash prefix of \
         fields that take many values, or pre-split at points taken from real keys so that the \
         range is shared (HBase: `split` the region at a key inside it)."
            .to_string()
    } else {
        format!(
            "a few values of {} take more of the writes than the prefix can spread (a busy \
             host, or too few values: see `FewDistinctPrefixes`): put a field that varies between \
             their writes, such as an event id or a time bucket, in the salt or hash too, at the \
             cost of reading one value's rows from every region.",
            sources::<K>()
        )
    };
    for i in hot {
        let share = totals[i] as f64 / writes as f64;
        out.push(Advice {
            kind: AdviceKind::HotRegion,
            field: None,
            problem: format!(
                "{} took {:.1}% of the writes ({} of {writes}), {:.1} times its even share of \
                 {:.2}% (1/{m}): its server works that much harder than the average, and bounds \
                 the table's write rate.",
                region_name::<K>(report, i),
                share * 100.0,
                totals[i],
                share * m as f64,
                100.0 / m as f64
            ),
            fix: fix.clone(),
        });
    }
}

fn few_distinct<K: RowKey>(report: &Report, out: &mut Vec<Advice>) {
    let layout = &K::LAYOUT;
    let m = report.table().len();
    // The prefix follows the tag: the keys' first bytes up to its end are what it took.
    let head = layout.tag.encoded_len() + layout.prefix.encoded_len();
    let Some(seen) = report.heads().distinct(head) else {
        return;
    };
    if m < 2 {
        return;
    }
    let problem = match layout.prefix {
        Prefix::Salt(salt) => {
            let buckets = usize::from(salt.buckets());
            if seen >= buckets.min(m) {
                return;
            }
            format!(
                "the salt of {} saw only {seen} distinct buckets of its {buckets}, over {m} \
                 regions: split at bucket boundaries, at most {seen} of the {m} regions take a \
                 write. A salt spreads the writes no wider than the values of the fields it \
                 hashes.",
                sources::<K>()
            )
        }
        Prefix::Hash(hash) => {
            let base: u128 = if hash.is_text() { 16 } else { 256 };
            let values = u32::try_from(hash.prefix_len())
                .ok()
                .and_then(|len| base.checked_pow(len))
                .unwrap_or(u128::MAX);
            let needed = values_to_fill(m);
            if seen as u128 >= values || seen >= needed {
                return;
            }
            format!(
                "the hash prefix of {} saw only {seen} distinct values over {m} regions: a hash \
                 places values at random, and {seen} values over {m} regions leave about {:.1} \
                 regions empty and crowd others (it takes {needed} values to expect none \
                 empty). A hash spreads the writes no wider than the values of the fields it \
                 hashes.",
                sources::<K>(),
                expected_empty(m, seen)
            )
        }
        _ => return,
    };
    out.push(Advice {
        kind: AdviceKind::FewDistinctPrefixes,
        field: source_field::<K>(),
        problem,
        fix: format!(
            "hash or salt fields that together take many more values than the {m} regions: add \
             one that varies between writes (an event id, a time bucket) to the prefix, or salt \
             the whole key (`#[rowkey(salt(buckets = {m}))]` on the key), at the cost of reading \
             one value's rows from every region; or pre-split into fewer regions."
        ),
    });
}

/// The regions left empty on average when `values` distinct values fall at random into
/// `regions`: `M·(1 - 1/M)^V`.
fn expected_empty(regions: usize, values: usize) -> f64 {
    let m = regions as f64;
    m * (1.0 - 1.0 / m).powf(values as f64)
}

/// The fewest values that, falling at random into `regions` (2 or more), leave under half a
/// region empty on average: about `M·ln(2M)`, 54 for 16 regions.
fn values_to_fill(regions: usize) -> usize {
    let m = regions as f64;
    let estimate = ((0.5 / m).ln() / (1.0 - 1.0 / m).ln()).floor() as usize;
    // The closed form, put right where floating point lands beside the boundary.
    (estimate.saturating_sub(1)..)
        .find(|&v| expected_empty(regions, v) < 0.5)
        .unwrap_or(estimate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_values_a_hash_needs_leave_under_half_a_region_empty() {
        for (regions, needed) in [(2, 3), (16, 54), (100, 528)] {
            assert_eq!(values_to_fill(regions), needed, "{regions}");
            assert!(expected_empty(regions, needed) < 0.5);
            assert!(expected_empty(regions, needed - 1) >= 0.5);
        }
        // 20 hosts over 16 regions: about 4.4 regions without a host.
        assert_eq!(format!("{:.1}", expected_empty(16, 20)), "4.4");
    }
}
