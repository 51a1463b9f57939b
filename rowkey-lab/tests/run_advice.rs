//! The advice from a run (`Report::advise`) against counts taken here from the report's own
//! per-region writes and from the keys written, not from the advice code: the user's md5(host)
//! prefix of 20 hosts over 16 pre-split regions, a salt over three hosts, and a well-spread salt
//! that gets no advice. And the text report, which prints Unix milliseconds as dates.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::collections::HashSet;

use common::Rng;
use rowkey::hbase::to_string_binary;
use rowkey::regions::Regions;
use rowkey::{limits, RowKey};
use rowkey_lab::{advise_for, Advice, AdviceKind, Report, Simulation};

const T0: u64 = 1_700_000_000_000;

/// The user's key: `[md5(host)][host][ts]`, the HBase book's metric key on one field.
#[derive(RowKey)]
struct HostMetric {
    #[rowkey(hash_prefix(len = 4))]
    host: String,
    ts_millis: u64,
}

/// The same hosts behind a salt of the host alone.
#[derive(RowKey)]
struct HostSalted {
    #[rowkey(salt(buckets = 16))]
    host: String,
    ts_millis: u64,
}

/// A salt of the whole key: the event id spreads every write.
#[derive(RowKey)]
#[rowkey(salt(buckets = 16))]
struct Salted {
    ts_millis: u64,
    event_id: u32,
}

/// Each region's writes over the whole run, summed from the report's windows.
fn per_region(report: &Report) -> Vec<u64> {
    let mut counts = vec![0u64; report.regions().len() + 1];
    for w in report.windows() {
        for r in w.regions() {
            counts[r.region] += r.writes;
        }
    }
    counts
}

fn kinds(advice: &[Advice]) -> Vec<AdviceKind> {
    advice.iter().map(|a| a.kind).collect()
}

/// The distinct values of the keys' first `len` bytes.
fn distinct_heads(keys: &[Vec<u8>], len: usize) -> usize {
    keys.iter().map(|k| &k[..len]).collect::<HashSet<_>>().len()
}

/// 100,000 writes, one every 10 ms, host after host, into `splits`; the report in minutes.
fn run(splits: Vec<Vec<u8>>, key: impl Fn(String, u64) -> Vec<u8>) -> (Report, Vec<Vec<u8>>) {
    let mut sim = Simulation::presplit(Regions::new(splits).unwrap());
    let mut keys = Vec::new();
    for i in 0..100_000u64 {
        let ts = T0 + i * 10;
        let k = key(format!("host-{:02}", i % 20), ts);
        sim.write(ts, &k);
        keys.push(k);
    }
    (sim.report(60_000), keys)
}

#[test]
fn an_md5_prefix_of_twenty_hosts_over_sixteen_regions_leaves_regions_empty_and_some_hot() {
    // The layout alone has nothing to say: that is the issue.
    assert!(advise_for::<HostMetric>(limits::HBASE, 16).is_empty());
    let splits = HostMetric::split_keys(16);
    let (report, keys) = run(splits.clone(), |host, ts_millis| {
        HostMetric { host, ts_millis }.to_vec().unwrap()
    });
    let counts = per_region(&report);
    let writes: u64 = counts.iter().sum();
    assert_eq!(writes, 100_000);
    let empty = counts.iter().filter(|&&n| n == 0).count();
    // Over twice the even share of 1/16, busiest first.
    let mut hot: Vec<usize> = (0..16).filter(|&i| counts[i] * 16 > 2 * writes).collect();
    hot.sort_by_key(|&i| std::cmp::Reverse(counts[i]));
    assert!(empty > 0 && !hot.is_empty(), "{counts:?}");

    let advice = report.advise::<HostMetric>();
    let mut expected = vec![AdviceKind::EmptyRegions];
    expected.extend(hot.iter().map(|_| AdviceKind::HotRegion));
    expected.push(AdviceKind::FewDistinctPrefixes);
    assert_eq!(kinds(&advice), expected, "{advice:#?}");

    let problem = &advice[0].problem;
    let figure = format!("{empty} of 16 regions took none of the 100000 writes");
    assert!(problem.starts_with(&figure), "{problem}");
    let first_empty = counts.iter().position(|&n| n == 0).unwrap();
    assert!(
        problem.contains(&format!("region {first_empty} of 16")),
        "{problem}"
    );

    for (a, &i) in advice[1..].iter().zip(&hot) {
        let share = counts[i] as f64 / writes as f64 * 100.0;
        let start = to_string_binary(&splits[i - 1]);
        for words in [
            format!("region {i} of 16"),
            format!("(start key '{start}')"),
            format!("took {share:.1}% of the writes ({} of 100000)", counts[i]),
            "even share of 6.25% (1/16)".to_string(),
        ] {
            assert!(a.problem.contains(&words), "{words:?} not in {}", a.problem);
        }
        assert!(a.fix.contains("`HostMetric.host`"), "{}", a.fix);
    }

    let few = advice.last().unwrap();
    let values = distinct_heads(&keys, 4);
    assert_eq!(values, 20);
    assert_eq!(few.field.as_deref(), Some("HostMetric.host"));
    let figure = format!(
        "the hash prefix of `HostMetric.host` saw only {values} distinct values over 16 regions"
    );
    assert!(few.problem.starts_with(&figure), "{}", few.problem);
    assert!(
        few.problem.contains("it takes 54 values"),
        "{}",
        few.problem
    );
    assert!(few.fix.contains("salt(buckets = 16)"), "{}", few.fix);
    eprintln!(
        "{}",
        advice.iter().map(|a| format!("{a}\n")).collect::<String>()
    );
}

#[test]
fn a_salt_of_twenty_hosts_says_how_many_buckets_it_saw() {
    let splits = HostSalted::split_keys(16);
    let (report, keys) = run(splits, |host, ts_millis| {
        HostSalted { host, ts_millis }.to_vec().unwrap()
    });
    let counts = per_region(&report);
    let buckets = distinct_heads(&keys, 1);
    // One region a bucket: the regions written are the buckets seen.
    assert_eq!(counts.iter().filter(|&&n| n > 0).count(), buckets);
    assert!(buckets < 16, "{buckets}");
    let advice = report.advise::<HostSalted>();
    let few: Vec<&Advice> = advice
        .iter()
        .filter(|a| a.kind == AdviceKind::FewDistinctPrefixes)
        .collect();
    let [few] = few[..] else {
        panic!("{advice:#?}")
    };
    let figure = format!("the salt of `HostSalted.host` saw only {buckets} distinct buckets of its 16, over 16 regions");
    assert!(few.problem.starts_with(&figure), "{}", few.problem);
    assert_eq!(advice[0].kind, AdviceKind::EmptyRegions);
    let empty = 16 - buckets;
    assert!(advice[0]
        .problem
        .starts_with(&format!("{empty} of 16 regions")));
    // A salted region is named by its bucket too.
    let e = counts.iter().position(|&n| n == 0).unwrap();
    let name = match e {
        0 => "region 0 of 16 (bucket 0 of 16)".to_string(),
        _ => format!(
            "region {e} of 16 (start key '{}', bucket {e} of 16)",
            to_string_binary(&[e as u8])
        ),
    };
    assert!(
        advice[0].problem.contains(&name),
        "{name} not in {}",
        advice[0].problem
    );
}

#[test]
fn a_salt_of_the_whole_key_over_many_ids_gets_no_advice_from_its_run() {
    let (report, keys) = run(Salted::split_keys(16), |_, ts_millis| {
        let event_id = (ts_millis.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as u32;
        Salted {
            ts_millis,
            event_id,
        }
        .to_vec()
        .unwrap()
    });
    assert_eq!(distinct_heads(&keys, 1), 16);
    let counts = per_region(&report);
    assert!(
        counts.iter().all(|&n| n > 0 && n * 16 <= 2 * 100_000),
        "{counts:?}"
    );
    assert!(report.advise::<Salted>().is_empty());
    assert!(advise_for::<Salted>(limits::HBASE, 16).is_empty());
}

#[test]
fn a_run_without_writes_or_regions_to_spread_over_gets_no_advice() {
    let report = Simulation::auto_split(10).report(1);
    assert!(report.advise::<HostMetric>().is_empty());
    // One region: nothing is empty, hot or too narrow beside it.
    let mut sim = Simulation::presplit(Regions::new(Vec::new()).unwrap());
    sim.write(
        T0,
        &HostMetric {
            host: "a".into(),
            ts_millis: T0,
        }
        .to_vec()
        .unwrap(),
    );
    assert!(sim.report(1_000).advise::<HostMetric>().is_empty());
    // A table that splits by itself leaves no region empty.
    let mut sim = Simulation::auto_split(100);
    let mut rng = Rng(1);
    for i in 0..5_000u64 {
        let key = HostMetric {
            host: format!("host-{}", rng.below(1_000)),
            ts_millis: T0 + i,
        };
        sim.write(T0 + i, &key.to_vec().unwrap());
    }
    let advice = sim.report(1_000).advise::<HostMetric>();
    assert!(advice.is_empty(), "{advice:#?}");
}

#[test]
fn the_text_report_prints_unix_milliseconds_as_dates_and_other_times_as_counts() {
    let mut sim = Simulation::auto_split(1_000);
    for i in 0..30u64 {
        sim.write(T0 + i * 1_000, &(T0 + i * 1_000).to_be_bytes());
    }
    let text = sim.report(10_000).to_string();
    // `date -u -d @1700000000`: 2023-11-14 22:13:20, as the heatmap's tooltips print it.
    for words in [
        "3 windows of 10000 ms",
        "| window (UTC) |",
        "| 2023-11-14 22:13:20 to 2023-11-14 22:13:30 |",
        "| 2023-11-14 22:13:40 to 2023-11-14 22:13:50 |",
    ] {
        assert!(text.contains(words), "{words:?} not in {text}");
    }
    assert!(!text.contains("1700000000000"), "{text}");

    let mut sim = Simulation::auto_split(1_000);
    for t in 0..30u64 {
        sim.write(t, &t.to_be_bytes());
    }
    let text = sim.report(10).to_string();
    assert!(
        text.contains("| window |") && text.contains("| 10 to 20 |"),
        "{text}"
    );
    assert!(text.contains("windows of 10 units"), "{text}");
}
