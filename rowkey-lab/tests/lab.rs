//! The key lab (`rowkey-lab`, DESIGN 13) against facts, not against itself: a time-first key under
//! auto-splitting puts each window's writes in one region; 16 salt buckets pre-split at their
//! boundaries share a window of uniform writes evenly; a region splits at its middle key, checked
//! against a replay by brute force; the advice fires on the seeds' bad keys and not on their fixed
//! ones; the report's counts add up and the heatmap holds every write.

#[path = "../../tests/common/mod.rs"]
mod common;

use common::Rng;
use rowkey::regions::Regions;
use rowkey::{limits, RowKey};
use rowkey_lab::{advise, advise_for, AdviceKind, Simulation};

/// The seeds' time-first event key, and its 16-bucket salt.
#[derive(RowKey)]
struct TimeFirst {
    ts_millis: u64,
    event_id: u32,
}

#[derive(RowKey)]
#[rowkey(salt(buckets = 16))]
struct Salted {
    ts_millis: u64,
    event_id: u32,
}

/// `Long.MAX_VALUE - ts` first, no prefix: newest first, and every write at the start.
#[derive(RowKey)]
struct NewestFirst {
    #[rowkey(desc)]
    ts: std::time::SystemTime,
    host: String,
}

/// The HBase book's `[md5(host)][md5(type)][ts]`.
#[derive(RowKey)]
struct Metric {
    #[rowkey(hash_prefix(len = 4))]
    host: String,
    #[rowkey(hash_prefix(len = 4))]
    kind: String,
    ts: u64,
}

const T0: u64 = 1_700_000_000_000;

#[test]
fn a_time_first_key_under_auto_splitting_puts_each_windows_writes_in_one_region() {
    let mut sim = Simulation::auto_split(1_000);
    let writes = 50_000u64;
    for i in 0..writes {
        let key = TimeFirst {
            ts_millis: T0 + i,
            event_id: (i % 7) as u32,
        };
        sim.write(T0 + i, &key.to_vec().unwrap());
    }
    let report = sim.report(2_500);
    assert_eq!(report.windows().len(), 20);
    // 50,000 rows split every 500 rows after the first 1,000: about 99 regions at the end.
    assert!(report.regions().len() > 90, "{}", report.regions().len());
    let mut after_first_split = 0;
    for w in report.windows() {
        assert_eq!(w.hottest_share(), 1.0, "window {}..{}", w.start(), w.end());
        after_first_split += usize::from(w.regions().len() > 1);
    }
    assert!(after_first_split >= 19, "{after_first_split}");
    assert_eq!(report.hottest_share(), 1.0);
    // The newest-first key is the mirror image: every write at the start of the key space.
    let mut sim = Simulation::auto_split(1_000);
    for i in 0..20_000u64 {
        let ts = std::time::UNIX_EPOCH + std::time::Duration::from_millis(T0 + i);
        sim.write(
            T0 + i,
            &NewestFirst {
                ts,
                host: "web-1".into(),
            }
            .to_vec()
            .unwrap(),
        );
    }
    let report = sim.report(1_000);
    assert!(report.windows().iter().all(|w| w.hottest_share() == 1.0));
    assert!(report
        .windows()
        .iter()
        .skip(1)
        .all(|w| w.hottest().unwrap().region == 0));
}

#[test]
fn sixteen_salt_buckets_presplit_share_a_window_of_uniform_writes_evenly() {
    let regions = Regions::new(Salted::split_keys(16)).unwrap();
    assert_eq!(regions.len(), 16);
    let mut sim = Simulation::presplit(regions);
    let mut rng = Rng(7);
    for i in 0..10_000u64 {
        let key = Salted {
            ts_millis: T0 + i,
            event_id: rng.next() as u32,
        };
        sim.write(i, &key.to_vec().unwrap());
    }
    let report = sim.report(10_000);
    let [window] = report.windows() else {
        panic!("{:?}", report.windows().len())
    };
    assert_eq!(window.writes(), 10_000);
    assert_eq!(window.regions().len(), 16);
    for r in window.regions() {
        let share = r.writes as f64 / 10_000.0;
        assert!(
            (1.0 / 20.0..=1.0 / 12.0).contains(&share),
            "region {}: {share}",
            r.region
        );
    }
    assert!(report.hottest_share() <= 1.0 / 12.0);
}

/// The rule by brute force: the regions as sorted lists of rows; a region that reaches
/// `max_rows` rows splits before its middle row.
fn replay(max_rows: usize, keys: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut regions: Vec<Vec<Vec<u8>>> = vec![vec![]];
    let mut starts: Vec<Vec<u8>> = vec![vec![]];
    for key in keys {
        let r = starts.iter().rposition(|s| s <= key).unwrap();
        if regions[r].contains(key) {
            continue;
        }
        regions[r].push(key.clone());
        regions[r].sort();
        if regions[r].len() >= max_rows {
            let middle = regions[r].len() / 2;
            let upper = regions[r].split_off(middle);
            starts.insert(r + 1, upper[0].clone());
            regions.insert(r + 1, upper);
        }
    }
    starts.remove(0);
    starts
}

#[test]
fn regions_split_at_their_middle_key_as_a_brute_force_replay_does() {
    let mut rng = Rng(11);
    for (max_rows, n, alphabet) in [(2u64, 50, 4u64), (10, 2_000, 1_000), (64, 5_000, 100_000)] {
        let keys: Vec<Vec<u8>> = (0..n)
            .map(|_| format!("k{:06}", rng.below(alphabet)).into_bytes())
            .collect();
        let mut sim = Simulation::auto_split(max_rows);
        for (t, k) in keys.iter().enumerate() {
            sim.write(t as u64, k);
        }
        let report = sim.report(100);
        assert_eq!(
            report.regions(),
            replay(max_rows as usize, &keys),
            "{max_rows}"
        );
    }
    // The first split of 4 rows: at the third, "c" (the lower half keeps "a" and "b").
    let mut sim = Simulation::auto_split(4);
    for k in ["d", "a", "c", "b"] {
        sim.write(0, k.as_bytes());
    }
    assert_eq!(sim.report(1).regions(), [b"c".to_vec()]);
}

#[test]
fn the_reports_counts_add_up_and_the_heatmap_holds_every_write() {
    let mut sim = Simulation::auto_split(300);
    let mut rng = Rng(3);
    let mut times = Vec::new();
    for _ in 0..10_000 {
        // Out of order on purpose: the report sorts by time.
        let t = rng.below(100_000);
        times.push(t);
        sim.write(
            t,
            &TimeFirst {
                ts_millis: t,
                event_id: rng.next() as u32,
            }
            .to_vec()
            .unwrap(),
        );
    }
    let report = sim.report(1_000);
    let mut expected: Vec<u64> = times.iter().map(|t| t / 1_000 * 1_000).collect();
    expected.sort();
    expected.dedup();
    let starts: Vec<u64> = report.windows().iter().map(|w| w.start()).collect();
    assert_eq!(starts, expected);
    for w in report.windows() {
        let in_window = times
            .iter()
            .filter(|&&t| (w.start()..w.end()).contains(&t))
            .count() as u64;
        assert_eq!(w.writes(), in_window);
        assert_eq!(w.regions().iter().map(|r| r.writes).sum::<u64>(), in_window);
        // Every region of the window, in key order.
        assert!(w.regions().windows(2).all(|p| p[0].region < p[1].region));
    }
    let heatmap = report.heatmap::<TimeFirst>();
    let bands = heatmap.labels().len();
    let total: u64 = (0..heatmap.columns().len())
        .flat_map(|c| (0..bands).map(move |b| (c, b)))
        .map(|(c, b)| heatmap.writes(c, b))
        .sum();
    assert_eq!(total, 10_000);
    assert!(bands <= 48 && bands > 1);
    assert_eq!(heatmap.labels()[0], "start of table");
    // Labels are decoded start keys: the split points are whole keys of the layout.
    assert!(heatmap.labels()[1..]
        .iter()
        .all(|l| l.starts_with("ts_millis=") && l.contains("event_id=")));
    let svg = heatmap.to_svg();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(heatmap.labels().iter().all(|l| svg.contains(l.as_str())));
}

#[test]
fn a_report_of_no_writes_or_one_instant_is_whole() {
    let sim = Simulation::auto_split(0);
    let report = sim.report(0);
    assert!(report.windows().is_empty());
    assert_eq!(report.hottest_share(), 0.0);
    assert!(report.to_string().contains("0 writes"));
    assert!(report.heatmap::<TimeFirst>().to_svg().starts_with("<svg"));
    let mut sim = Simulation::presplit(Regions::new(vec![vec![0x80]]).unwrap());
    sim.write(u64::MAX, &[0x90]);
    sim.write(u64::MAX, &[]);
    let report = sim.report(u64::MAX);
    assert_eq!(report.windows().len(), 1);
    assert_eq!(report.hottest_share(), 0.5);
}

#[test]
fn key_sizes_are_counted_against_the_stores_limits() {
    let mut sim = Simulation::presplit(Regions::new(vec![]).unwrap());
    for len in [10usize, 10, 20, 2_000, 5_000, 40_000, 100_000] {
        sim.write(0, &vec![b'k'; len]);
    }
    let report = sim.report(1);
    let sizes = report.key_sizes();
    assert_eq!((sizes.count(), sizes.min(), sizes.max()), (7, 10, 100_000));
    assert_eq!(sizes.percentile(0.5), 2_000);
    assert_eq!(sizes.longer_than(limits::DYNAMODB_SORT_KEY), 4);
    assert_eq!(sizes.longer_than(limits::BIGTABLE), 3);
    assert_eq!(sizes.longer_than(limits::HBASE), 2);
    let text = report.to_string();
    assert!(text.contains("2 over HBase's 32767"), "{text}");
}

#[test]
fn advice_fires_on_the_seeds_bad_keys_and_not_on_their_fixed_ones() {
    let kinds = |advice: Vec<rowkey_lab::Advice>| advice.iter().map(|a| a.kind).collect::<Vec<_>>();
    assert_eq!(kinds(advise::<TimeFirst>()), [AdviceKind::CounterFirst]);
    assert_eq!(kinds(advise::<NewestFirst>()), [AdviceKind::TimeFirst]);
    assert!(advise::<Salted>().is_empty());
    assert!(advise::<Metric>().is_empty());
    let advice = advise::<NewestFirst>();
    let text = advice[0].to_string();
    assert!(text.starts_with("NewestFirst.ts: "), "{text}");
    assert!(
        text.contains("start of the key space") && text.contains("salt"),
        "{text}"
    );

    // A time first in a nested key, and behind a reversed or hashed field.
    #[derive(RowKey)]
    struct When {
        at: std::time::SystemTime,
    }
    #[derive(RowKey)]
    struct Nested {
        when: When,
        id: u32,
    }
    #[derive(RowKey)]
    struct Reversed {
        #[rowkey(reverse)]
        seq: u64,
    }
    #[derive(RowKey)]
    struct HashedFirst {
        user: rowkey::Hashed<4>,
        ts: u64,
    }
    assert_eq!(
        advise::<Nested>()[0].field.as_deref(),
        Some("Nested.when.at")
    );
    assert!(advise::<Reversed>().is_empty());
    assert!(advise::<HashedFirst>().is_empty());

    // What needs the store and the table.
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16))]
    struct Page {
        user: u64,
        url: String,
    }
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 16), max_len = 1024)]
    struct Bounded {
        user: u64,
        url: String,
    }
    assert_eq!(
        kinds(advise_for::<Page>(limits::BIGTABLE, 16)),
        [AdviceKind::KeyTooLong]
    );
    assert!(advise_for::<Bounded>(limits::BIGTABLE, 16).is_empty());
    // Three regions a bucket split each bucket as if the user ids were uniform over 64 bits.
    assert_eq!(
        kinds(advise_for::<Bounded>(limits::BIGTABLE, 48)),
        [AdviceKind::RegionsBeyondPrefix]
    );
    assert_eq!(
        kinds(advise_for::<Bounded>(limits::BIGTABLE, 24)),
        [AdviceKind::UnevenBuckets, AdviceKind::RegionsBeyondPrefix]
    );
    assert!(advise_for::<Bounded>(limits::BIGTABLE, 4).is_empty()); // 4 buckets a region
    assert!(advise_for::<Salted>(limits::DYNAMODB_SORT_KEY, 0).is_empty()); // 13 bytes
}

/// The seed's Korean message key, `230611:063031:1231231`: a day and a time of day first, as
/// text; and the same key behind the uppercase MD5 prefix of its id.

#[test]
fn advice_on_the_time_first_text_key_and_its_md5_prefixed_fix() {
    use chrono::{NaiveDate, NaiveTime};

    #[derive(RowKey)]
    #[rowkey(text, delimiter = ":")]
    struct Message {
        #[rowkey(format = "%y%m%d")]
        day: NaiveDate,
        #[rowkey(format = "%H%M%S")]
        time: NaiveTime,
        #[rowkey(width = 7)]
        id: u32,
    }

    #[derive(RowKey)]
    #[rowkey(text, delimiter = ":")]
    struct Prefixed {
        #[rowkey(format = "%y%m%d")]
        day: NaiveDate,
        #[rowkey(format = "%H%M%S")]
        time: NaiveTime,
        #[rowkey(width = 7, hash_prefix(len = 8, upper))]
        id: u32,
    }

    let advice = advise::<Message>();
    assert_eq!(advice.len(), 1);
    assert_eq!(
        (advice[0].kind, advice[0].field.as_deref()),
        (AdviceKind::TimeFirst, Some("Message.day"))
    );
    assert!(advise::<Prefixed>().is_empty());
}

/// The seeds' event key behind 8 buckets, the count that users pre-split into 16 regions.
#[derive(RowKey)]
#[rowkey(salt(buckets = 8))]
struct Salted8 {
    ts_millis: u64,
    event_id: u32,
}

#[test]
fn more_regions_than_salt_buckets_leave_regions_empty_and_the_advice_says_so() {
    let splits = Salted8::split_keys(16);
    // Halfway through bucket 0: a timestamp of 2^63 ms, which no row reaches.
    assert_eq!(splits[0], [0x00, 0x80, 0x00, 0x00, 0x00]);
    let mut sim = Simulation::presplit(Regions::new(splits).unwrap());
    let mut rng = Rng(5);
    for i in 0..100_000u64 {
        let key = Salted8 {
            ts_millis: T0 + i * 10,
            event_id: rng.next() as u32,
        };
        sim.write(T0 + i * 10, &key.to_vec().unwrap());
    }
    let report = sim.report(1_000_000);
    let mut per_region = [0u64; 16];
    for w in report.windows() {
        for r in w.regions() {
            per_region[r.region] += r.writes;
        }
    }
    let empty = per_region.iter().filter(|&&n| n == 0).count();
    assert_eq!(empty, 8, "{per_region:?}");
    // The busiest region takes about 1/8 of the writes, twice the 1/16 of an even spread.
    let busiest = *per_region.iter().max().unwrap() as f64 / 100_000.0;
    eprintln!("8 buckets over 16 regions: the busiest region took {busiest:.4} of the writes");
    assert!((0.12..0.14).contains(&busiest), "{busiest}");

    let advice = advise_for::<Salted8>(limits::HBASE, 16);
    let [beyond] = &advice[..] else {
        panic!("{advice:?}")
    };
    assert_eq!(beyond.kind, AdviceKind::RegionsBeyondPrefix);
    assert_eq!(beyond.field.as_deref(), Some("Salted8.ts_millis"));
    let text = beyond.to_string();
    for words in [
        r"`Salted8::split_keys(16)`",
        r"`\x00\x80\x00\x00\x00`",
        "as if the rest of the key were uniform",
        "about 8 of the 16 regions stay empty",
        "salt(buckets = 16)",
        "real distribution",
    ] {
        assert!(text.contains(words), "{words:?} not in {text}");
    }
    // As many regions as buckets, or fewer that divide them: nothing to say.
    assert!(advise_for::<Salted8>(limits::HBASE, 8).is_empty());
    assert!(advise_for::<Salted8>(limits::HBASE, 4).is_empty());
    // 12 regions: uneven, and beyond the buckets.
    let kinds: Vec<AdviceKind> = advise_for::<Salted8>(limits::HBASE, 12)
        .iter()
        .map(|a| a.kind)
        .collect();
    assert_eq!(
        kinds,
        [AdviceKind::UnevenBuckets, AdviceKind::RegionsBeyondPrefix]
    );
}

#[test]
fn the_advice_on_regions_beyond_the_prefix_says_when_it_cannot_tell() {
    /// Nothing after the salt reads as a time: the advice cannot say how many regions idle.
    #[derive(RowKey)]
    #[rowkey(salt(buckets = 4))]
    struct ById {
        account: String,
    }
    let words = beyond_prefix(advise_for::<ById>(limits::HBASE, 8));
    assert!(
        words.contains("rarely uniform") && words.contains("up to 4 of the 8"),
        "{words}"
    );

    /// A one-byte hash prefix has 256 values: 300 regions cannot be told apart.
    #[derive(RowKey)]
    struct Hashed1 {
        #[rowkey(hash_prefix(len = 1))]
        host: String,
        ts: u64,
    }
    assert!(advise_for::<Hashed1>(limits::HBASE, 256).is_empty());
    let words = beyond_prefix(advise_for::<Hashed1>(limits::HBASE, 300));
    assert!(
        words.contains("only 256 values") && words.contains("hash_prefix(len = 2)"),
        "{words}"
    );
}

/// The words of `advice`, which must be one `RegionsBeyondPrefix`.
fn beyond_prefix(advice: Vec<rowkey_lab::Advice>) -> String {
    let [one] = &advice[..] else {
        panic!("{advice:?}")
    };
    assert_eq!(one.kind, AdviceKind::RegionsBeyondPrefix);
    one.to_string()
}

/// The value of the attribute `name` of the svg's root element.
fn root_attribute(svg: &str, name: &str) -> u64 {
    let root = &svg[..svg.find('>').unwrap()];
    let at = root.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
    root[at..].split('"').next().unwrap().parse().unwrap()
}

/// A salted table pre-split at its buckets, written one row every 10 ms from `T0`.
fn salted_heatmap(regions: usize, writes: u64) -> rowkey_lab::Heatmap {
    let mut sim = Simulation::presplit(Regions::new(Salted::split_keys(regions)).unwrap());
    let mut rng = Rng(9);
    for i in 0..writes {
        let t = T0 + i * 10;
        let key = Salted {
            ts_millis: t,
            event_id: rng.next() as u32,
        };
        sim.write(t, &key.to_vec().unwrap());
    }
    sim.report(60_000).heatmap::<Salted>()
}

#[test]
fn the_heatmap_shows_buckets_dates_a_colour_scale_and_each_cells_writes() {
    let heatmap = salted_heatmap(16, 20_000);
    // The first region of a salted table is bucket 0, not the start of the table.
    assert_eq!(heatmap.labels()[0], "bucket 0 of 16");
    assert_eq!(heatmap.labels()[1], "bucket 1 of 16");
    let svg = heatmap.to_svg();
    // Times are Unix milliseconds: the axis shows UTC dates and times. The first window starts
    // at the minute before T0 (`date -u -d @1699999980`: 2023-11-14 22:13:00).
    assert!(svg.contains(">22:13:00<") && svg.contains(">2023-11-14<"));
    assert!(svg.contains("time (UTC)"));
    assert!(!svg.contains("t=1699999980000"));
    // Each cell's key range, time window and writes, as a tooltip.
    let writes = heatmap.writes(0, 0);
    assert!(writes > 0);
    let tooltip = format!(
        "<title>region 0 of 16\nkeys from bucket 0 of 16 to bucket 1 of 16\n\
         time 2023-11-14 22:13:00 to 2023-11-14 22:14:00 UTC\n{writes} writes</title>"
    );
    assert!(svg.contains(&tooltip), "{tooltip}");
    let cells = svg.matches("<rect").count();
    let tooltips = svg.matches("writes</title></rect>").count();
    let nonzero = (0..heatmap.columns().len())
        .flat_map(|c| (0..16).map(move |b| (c, b)))
        .filter(|&(c, b)| heatmap.writes(c, b) > 0)
        .count();
    assert_eq!(tooltips, nonzero);
    assert!(cells > nonzero);
    // The colour scale: its numbers from 0 to the busiest cell's writes.
    let heatmap_ref = &heatmap;
    let max = (0..heatmap.columns().len())
        .flat_map(|c| (0..16).map(move |b| heatmap_ref.writes(c, b)))
        .max()
        .unwrap();
    assert!(svg.contains("writes per cell:"));
    assert!(svg.contains(&format!(">{max}</text>")), "{max}");
    assert!(svg.contains("linearGradient"));
    // A plain clock: counts, no dates.
    let plain = heatmap.clone().clock(None).to_svg();
    assert!(plain.contains(">t=1699999980000<") && !plain.contains("UTC"));
}

#[test]
fn the_heatmaps_height_follows_the_number_of_regions() {
    let few = salted_heatmap(4, 2_000).to_svg();
    let some = salted_heatmap(16, 2_000).to_svg();
    let many = salted_heatmap(64, 2_000).to_svg();
    let (few, some, many) = (
        root_attribute(&few, "height"),
        root_attribute(&some, "height"),
        root_attribute(&many, "height"),
    );
    assert!(few < some && some < many, "{few} {some} {many}");
    // Four regions are not a thin strip at the top of a tall picture, nor 48 bands a squeeze.
    assert!(few >= 300 && many <= 900, "{few} {many}");
}

#[test]
fn the_report_says_when_its_table_shows_a_sample_of_the_windows() {
    let mut sim = Simulation::auto_split(1_000);
    for t in 0..30u64 {
        sim.write(t, &t.to_be_bytes());
    }
    assert!(!sim.report(3).to_string().contains("a sample"));
    let text = sim.report(1).to_string();
    assert!(text.contains("a sample of the windows: 12 of 30"), "{text}");
    assert_eq!(text.matches("\n| ").count(), 13); // the header and 12 windows
}
