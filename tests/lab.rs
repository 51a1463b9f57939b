//! The key lab (`rowkey::lab`, DESIGN 13) against facts, not against itself: a time-first key under
//! auto-splitting puts each window's writes in one region; 16 salt buckets pre-split at their
//! boundaries share a window of uniform writes evenly; a region splits at its middle key, checked
//! against a replay by brute force; the advice fires on the seeds' bad keys and not on their fixed
//! ones; the report's counts add up and the heatmap holds every write.

mod common;

use common::Rng;
use rowkey::lab::{advise, advise_for, AdviceKind, Simulation};
use rowkey::regions::Regions;
use rowkey::{limits, RowKey};

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
    let kinds =
        |advice: Vec<rowkey::lab::Advice>| advice.iter().map(|a| a.kind).collect::<Vec<_>>();
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
    assert!(advise_for::<Bounded>(limits::BIGTABLE, 48).is_empty());
    assert_eq!(
        kinds(advise_for::<Bounded>(limits::BIGTABLE, 24)),
        [AdviceKind::UnevenBuckets]
    );
    assert!(advise_for::<Bounded>(limits::BIGTABLE, 4).is_empty()); // 4 buckets a region
    assert!(advise_for::<Salted>(limits::DYNAMODB_SORT_KEY, 0).is_empty()); // 13 bytes
}

/// The seed's Korean message key, `230611:063031:1231231`: a day and a time of day first, as
/// text; and the same key behind the uppercase MD5 prefix of its id.
#[cfg(feature = "chrono")]
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
