//! `rowkey::fanout`: every range of a plan read through an async reader over an in-memory table
//! whose streams stall at random (they return `Pending` and wake themselves), compared with a
//! brute-force filter of the table: every row once, salted plans in the order of the key after the
//! salt, other plans in key order; errors surface and end the stream; the concurrency limit holds.
#![cfg(feature = "async")]

use std::cell::Cell;
use std::collections::BTreeMap;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use futures::executor::block_on;
use futures::stream::{Stream, StreamExt};
use rowkey::fanout::{read_plan, read_ranges};
use rowkey::{KeyRange, RowKey, Scan};

mod common;
use common::Rng;

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Salted {
    #[rowkey(salt(buckets = 8))]
    user: u32,
    #[rowkey(desc)]
    ts: i64,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(text, delimiter = ":")]
struct SaltedText {
    #[rowkey(salt(buckets = 12))]
    host: String,
    seq: u32,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Plain {
    user: u32,
    ts: u32,
}

type Table = BTreeMap<Vec<u8>, ()>;

/// Rows of one range that sometimes stall: `Pending`, with the waker woken at once, as a network
/// stream between packets.
struct Stalling {
    rows: std::vec::IntoIter<Vec<u8>>,
    rng: Rng,
    /// Streams open now, shared with the reader that counts them.
    open: Rc<Cell<usize>>,
    /// An error instead of the row at this index.
    fail_at: Option<usize>,
    at: usize,
}

impl Stream for Stalling {
    type Item = Result<Vec<u8>, String>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.rng.below(3) == 0 {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        if self.fail_at == Some(self.at) {
            return Poll::Ready(Some(Err(format!("row {} failed", self.at))));
        }
        self.at += 1;
        match self.rows.next() {
            Some(row) => Poll::Ready(Some(Ok(row))),
            None => {
                self.open.set(self.open.get() - 1);
                Poll::Ready(None)
            }
        }
    }
}

/// A reader over `table` whose calls stall once before answering, counting the streams open at
/// once (the most in `peak`).
struct Reader {
    table: Rc<Table>,
    open: Rc<Cell<usize>>,
    peak: Rc<Cell<usize>>,
    calls: Rc<Cell<usize>>,
    seed: u64,
    /// Fail the call for the range with this index, or fail that range's stream at a row.
    fail_call: Option<usize>,
    fail_row: Option<(usize, usize)>,
}

impl Reader {
    fn new(table: &Rc<Table>, seed: u64) -> Reader {
        Reader {
            table: table.clone(),
            open: Rc::default(),
            peak: Rc::default(),
            calls: Rc::default(),
            seed,
            fail_call: None,
            fail_row: None,
        }
    }

    fn read(
        &self,
    ) -> impl FnMut(KeyRange) -> Pin<Box<dyn std::future::Future<Output = Result<Stalling, String>>>>
    {
        let (table, open, peak, calls) = (
            self.table.clone(),
            self.open.clone(),
            self.peak.clone(),
            self.calls.clone(),
        );
        let (seed, fail_call, fail_row) = (self.seed, self.fail_call, self.fail_row);
        move |range: KeyRange| {
            let call = calls.get();
            calls.set(call + 1);
            open.set(open.get() + 1);
            peak.set(peak.get().max(open.get()));
            let rows: Vec<Vec<u8>> = table
                .range::<[u8], _>(&range)
                .map(|(k, _)| k.clone())
                .collect();
            let stream = Stalling {
                rows: rows.into_iter(),
                // Never 0: the generator would stay at 0 and stall forever.
                rng: Rng((seed << 20 | call as u64) * 2 + 1),
                open: open.clone(),
                fail_at: fail_row.filter(|&(c, _)| c == call).map(|(_, row)| row),
                at: 0,
            };
            let failed = fail_call == Some(call);
            let mut stream = Some(stream);
            let mut stalled = false;
            Box::pin(futures::future::poll_fn(move |cx| {
                if !stalled {
                    stalled = true;
                    cx.waker().wake_by_ref();
                    return Poll::Pending;
                }
                Poll::Ready(match (failed, stream.take()) {
                    (false, Some(stream)) => Ok(stream),
                    _ => Err(format!("call {call} failed")),
                })
            }))
        }
    }
}

fn table<K: RowKey>(rows: impl Iterator<Item = K>) -> Rc<Table> {
    Rc::new(rows.map(|k| (k.to_vec().unwrap(), ())).collect())
}

/// Reads `plan` through a fresh reader, checks it returned every matching row of `table` once
/// in the expected order, and gives the peak of streams open at once.
fn check<K: ?Sized>(table: &Rc<Table>, plan: &Scan<K>, concurrency: usize, seed: u64) -> usize {
    let reader = Reader::new(table, seed);
    let rows: Vec<Vec<u8>> = block_on(
        read_plan(plan, concurrency, reader.read(), |k: &Vec<u8>| k)
            .map(|r| r.expect("no errors"))
            .collect(),
    );
    let salt = plan.salt_len();
    let mut expected: Vec<Vec<u8>> = table.keys().filter(|k| plan.matches(k)).cloned().collect();
    expected.sort_by(|a, b| a[salt..].cmp(&b[salt..]));
    assert_eq!(rows, expected, "rows of {plan:?}");
    assert_eq!(reader.open.get(), 0, "every stream read to its end");
    assert_eq!(
        reader.calls.get(),
        plan.ranges().len(),
        "one call per range"
    );
    reader.peak.get()
}

#[test]
fn salted_plans_come_back_in_order_after_the_salt() {
    let mut rng = Rng(1);
    let rows = (0..3_000).map(|_| Salted {
        user: rng.below(200) as u32,
        ts: rng.below(4_000) as i64 - 2_000,
    });
    let table = table(rows);
    for i in 0..60 {
        let users = rng.range(|r| r.below(220) as u32);
        let plan: Scan<Salted> = match i % 3 {
            0 => Salted::scan().user_range(users).into(),
            1 => {
                let list: Vec<u32> = (0..rng.below(6)).map(|_| rng.below(220) as u32).collect();
                Salted::scan().user_in(list).into()
            }
            _ => Salted::scan().into(),
        };
        // A limit below the bucket count still reads every bucket at once: the merge needs the
        // next row of each.
        let peak = check(&table, &plan, 1 + rng.index(10), i);
        assert!(peak <= 8, "one stream per bucket at most, saw {peak}");
    }
}

#[test]
fn salted_text_plans_skip_the_digits_and_the_delimiter() {
    let mut rng = Rng(2);
    let hosts: Vec<String> = (0..40).map(|i| format!("web-{i}")).collect();
    let rows = (0..2_000).map(|_| SaltedText {
        host: rng.pick(&hosts).clone(),
        seq: rng.below(1_000) as u32,
    });
    let table = table(rows);
    for i in 0..30 {
        let picked: Vec<&str> = (0..rng.below(5))
            .map(|_| rng.pick(&hosts).as_str())
            .collect();
        let plan: Scan<SaltedText> = if i % 2 == 0 {
            SaltedText::scan().host_in(picked).into()
        } else {
            SaltedText::scan().into()
        };
        assert_eq!(plan.salt_len(), 3, "two digits and ':'");
        check(&table, &plan, 4, 100 + i);
    }
}

#[test]
fn unsalted_plans_come_back_in_range_order_within_the_limit() {
    let mut rng = Rng(3);
    let rows = (0..3_000).map(|_| Plain {
        user: rng.below(300) as u32,
        ts: rng.below(1_000) as u32,
    });
    let table = table(rows);
    for i in 0..60 {
        let list: Vec<u32> = (0..rng.below(30)).map(|_| rng.below(320) as u32).collect();
        let plan: Scan<Plain> = Plain::scan().user_in(list).into();
        let limit = 1 + rng.index(6);
        let peak = check(&table, &plan, limit, 200 + i);
        assert!(peak <= limit, "limit {limit}, {peak} streams open at once");
    }
}

#[test]
fn ranges_are_read_ahead_up_to_the_limit() {
    // Ten ranges, limit 4: the first poll calls the reader for four of them.
    let table = table((0..10u32).map(|user| Plain {
        user: user * 2,
        ts: 0,
    }));
    let plan: Scan<Plain> = Plain::scan().user_in((0..10).map(|u| u * 2)).into();
    assert_eq!(plan.ranges().len(), 10);
    let reader = Reader::new(&table, 9);
    let mut stream = read_plan(&plan, 4, reader.read(), |k: &Vec<u8>| k);
    let waker = futures::task::noop_waker();
    let mut cx = Context::from_waker(&waker);
    let _ = Pin::new(&mut stream).poll_next(&mut cx);
    assert_eq!(reader.calls.get(), 4);
}

#[test]
fn a_failed_call_or_row_is_the_last_item() {
    let mut rng = Rng(4);
    let rows = (0..500).map(|_| Salted {
        user: rng.below(50) as u32,
        ts: rng.below(100) as i64,
    });
    let table = table(rows);
    let plan: Scan<Salted> = Salted::scan().into();
    for (fail_call, fail_row) in [(Some(3), None), (None, Some((5, 2))), (Some(0), None)] {
        let mut reader = Reader::new(&table, 5);
        reader.fail_call = fail_call;
        reader.fail_row = fail_row;
        let items: Vec<Result<Vec<u8>, String>> =
            block_on(read_plan(&plan, 8, reader.read(), |k: &Vec<u8>| k).collect());
        let errors: Vec<&String> = items.iter().filter_map(|r| r.as_ref().err()).collect();
        assert_eq!(errors.len(), 1, "{fail_call:?} {fail_row:?}: {errors:?}");
        assert!(items.last().unwrap().is_err(), "the error ends the stream");
        let want = match (fail_call, fail_row) {
            (Some(c), _) => format!("call {c} failed"),
            (_, Some((_, r))) => format!("row {r} failed"),
            _ => unreachable!(),
        };
        assert_eq!(errors[0], &want);
    }
}

#[test]
fn read_ranges_groups_by_salt_bytes() {
    // Two buckets, two ranges each: merged by the byte after the salt.
    let keys: Vec<Vec<u8>> = vec![vec![0, 1], vec![0, 5], vec![0, 9], vec![1, 2], vec![1, 6]];
    let table: Rc<Table> = Rc::new(keys.iter().map(|k| (k.clone(), ())).collect());
    let ranges = vec![
        KeyRange::new(&[0, 0], &[0, 4]),
        KeyRange::new(&[0, 5], &[0, 10]),
        KeyRange::new(&[1], &[2]),
    ];
    let reader = Reader::new(&table, 6);
    let rows: Vec<Vec<u8>> = block_on(
        read_ranges(ranges, 1, 1, reader.read(), |k: &Vec<u8>| k)
            .map(Result::unwrap)
            .collect(),
    );
    assert_eq!(
        rows,
        [vec![0, 1], vec![1, 2], vec![0, 5], vec![1, 6], vec![0, 9]]
    );
}

#[test]
fn an_error_right_after_a_returned_row_comes_next_and_no_row_is_lost() {
    // Streams that never stall, so the merge reads each winner's next row right after returning
    // its row: bucket 0's stream fails after its rows, and that error must follow its last row.
    let keys: Vec<Vec<u8>> = vec![vec![0, 1], vec![0, 5], vec![1, 2], vec![1, 3], vec![1, 9]];
    let ranges = vec![KeyRange::new(&[0], &[1]), KeyRange::new(&[1], &[2])];
    let read = |range: KeyRange| {
        let mut items: Vec<Result<Vec<u8>, String>> = keys
            .iter()
            .filter(|k| range.contains(k))
            .map(|k| Ok(k.clone()))
            .collect();
        if range.start() == [0] {
            items.push(Err("bucket 0 failed".to_string()));
        }
        futures::future::ready(Ok::<_, String>(futures::stream::iter(items)))
    };
    let items: Vec<Result<Vec<u8>, String>> =
        block_on(read_ranges(ranges, 1, 2, read, |k: &Vec<u8>| k).collect());
    // In the order after the salt: 01 (bucket 0), 02, 03 (bucket 1), 05 (bucket 0, its last),
    // then bucket 0's error ends the stream.
    assert_eq!(
        items,
        [
            Ok(vec![0, 1]),
            Ok(vec![1, 2]),
            Ok(vec![1, 3]),
            Ok(vec![0, 5]),
            Err("bucket 0 failed".to_string()),
        ]
    );
}
