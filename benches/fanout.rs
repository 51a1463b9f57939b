//! `rowkey::fanout`, side by side in one run:
//!
//! - a 16-bucket salted read through a reader whose every request waits 5 ms before its rows (a
//!   store's round trip): all buckets at once and merged, against reading one bucket, and against
//!   reading the 16 buckets one after another;
//! - the merge in memory (no delay): a 16-bucket read merged back in key order, against draining
//!   the same 16 streams one after another, unmerged; once with a consumer that only counts the
//!   rows, once with one that decodes each row's key (as a reader of rows does); and against
//!   the merge's limit, the same streams merged by hand as HBaseWD's and Phoenix's clients do it
//!   (a `BinaryHeap` over the streams' head rows, by the key after the salt).
//!
//! Run with `cargo bench --bench fanout --features async`.

use std::cmp::{Ordering, Reverse};
use std::collections::{BTreeMap, BinaryHeap};
use std::future::Future;
use std::hint::black_box;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use futures::executor::block_on;
use futures::stream::StreamExt;
use rowkey::fanout::{read_plan, read_ranges};
use rowkey::{KeyRange, RowKey, Scan};

#[derive(RowKey)]
struct Event {
    #[rowkey(salt(buckets = 16))]
    user: u32,
    #[rowkey(desc)]
    ts: i64,
}

/// The rows of one range, each copied out of the table when the stream reaches it (as a client
/// decodes rows as they arrive).
struct Rows<'a>(std::collections::btree_map::Range<'a, Vec<u8>, ()>);

impl futures::Stream for Rows<'_> {
    type Item = Result<Vec<u8>, ()>;

    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Poll::Ready(self.0.next().map(|(key, _)| Ok(key.clone())))
    }
}

/// A future ready `delay` after its first poll; a thread sleeps and wakes it (no runtime).
struct Delay {
    until: Option<Instant>,
    delay: Duration,
    waker: Arc<Mutex<Option<Waker>>>,
}

impl Future for Delay {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        *self.waker.lock().unwrap() = Some(cx.waker().clone());
        match self.until {
            Some(t) if Instant::now() >= t => Poll::Ready(()),
            Some(_) => Poll::Pending,
            None => {
                self.until = Some(Instant::now() + self.delay);
                let (delay, waker) = (self.delay, self.waker.clone());
                std::thread::spawn(move || {
                    std::thread::sleep(delay);
                    if let Some(w) = waker.lock().unwrap().take() {
                        w.wake();
                    }
                });
                Poll::Pending
            }
        }
    }
}

fn delay(delay: Duration) -> Delay {
    Delay {
        until: None,
        delay,
        waker: Arc::default(),
    }
}

/// The rows of `range` in `table`, after `wait`.
fn reader<'a>(
    table: &'a BTreeMap<Vec<u8>, ()>,
    wait: Duration,
) -> impl FnMut(KeyRange) -> Pin<Box<dyn Future<Output = Result<Rows<'a>, ()>> + 'a>> + 'a {
    move |range: KeyRange| {
        let rows = Rows(table.range::<[u8], _>(&range));
        Box::pin(async move {
            if !wait.is_zero() {
                delay(wait).await;
            }
            Ok(rows)
        })
    }
}

/// The 16-bucket read of `plan` from `table` (no delay), merged in key order by `read_plan`.
fn merged_in_key_order<'a>(
    plan: &Scan<Event>,
    table: &'a BTreeMap<Vec<u8>, ()>,
) -> impl futures::Stream<Item = Result<Vec<u8>, ()>> + 'a {
    read_plan(plan, 16, reader(table, Duration::ZERO), |k: &Vec<u8>| k)
}

/// One stream's head row in the hand-written merge, ordered by its key after the salt, ties by
/// stream index.
struct Head {
    row: Vec<u8>,
    stream: usize,
    salt_len: usize,
}

impl Head {
    fn order(&self) -> (&[u8], usize) {
        (&self.row[self.salt_len..], self.stream)
    }
}

impl Ord for Head {
    fn cmp(&self, other: &Self) -> Ordering {
        self.order().cmp(&other.order())
    }
}

impl PartialOrd for Head {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Head {
    fn eq(&self, other: &Self) -> bool {
        self.order() == other.order()
    }
}

impl Eq for Head {}

/// The same streams as [`merged_in_key_order`] (one per range, from the same reader, no delay),
/// merged by hand as HBaseWD's and Phoenix's clients do it: a `BinaryHeap` over every stream's
/// head row by the key after the first `salt_len` bytes; the smallest is popped, then that
/// stream's next row pushed.
fn hand_written_merge<'a>(
    table: &'a BTreeMap<Vec<u8>, ()>,
    ranges: &'a [KeyRange],
    salt_len: usize,
) -> impl futures::Stream<Item = Result<Vec<u8>, ()>> + 'a {
    let open = async move {
        let mut read = reader(table, Duration::ZERO);
        let mut streams = Vec::with_capacity(ranges.len());
        let mut heads = BinaryHeap::with_capacity(ranges.len());
        for (stream, range) in ranges.iter().enumerate() {
            let mut rows = read(range.clone()).await.unwrap();
            if let Some(row) = rows.next().await {
                heads.push(Reverse(Head {
                    row: row.unwrap(),
                    stream,
                    salt_len,
                }));
            }
            streams.push(rows);
        }
        futures::stream::unfold(
            (streams, heads),
            move |(mut streams, mut heads)| async move {
                let Reverse(head) = heads.pop()?;
                if let Some(row) = streams[head.stream].next().await {
                    heads.push(Reverse(Head {
                        row: row.unwrap(),
                        stream: head.stream,
                        salt_len,
                    }));
                }
                Some((Ok(head.row), (streams, heads)))
            },
        )
    };
    futures::stream::once(open).flatten()
}

/// Every row's key, in the order of `rows`.
fn keys<S: futures::Stream<Item = Result<Vec<u8>, ()>>>(rows: S) -> Vec<Vec<u8>> {
    block_on(rows.map(Result::unwrap).collect())
}

/// Every range read one after another, each drained before the next is asked for.
fn one_after_another(table: &BTreeMap<Vec<u8>, ()>, ranges: &[KeyRange], wait: Duration) -> usize {
    let mut read = reader(table, wait);
    block_on(async {
        let mut n = 0;
        for r in ranges {
            let rows = read(r.clone()).await.unwrap();
            n += consume(rows).await;
        }
        n
    })
}

/// Takes every row, decodes its key and counts the rows: a consumer that reads what it gets.
async fn consume_decoding<S: futures::Stream<Item = Result<Vec<u8>, ()>>>(rows: S) -> usize {
    rows.fold(0, |n, row| {
        let event = Event::decode(&row.unwrap()).unwrap();
        black_box((event.user, event.ts));
        async move { n + 1 }
    })
    .await
}

/// Every range read one after another and each row decoded, unmerged.
fn one_after_another_decoding(table: &BTreeMap<Vec<u8>, ()>, ranges: &[KeyRange]) -> usize {
    let mut read = reader(table, Duration::ZERO);
    block_on(async {
        let mut n = 0;
        for r in ranges {
            let rows = read(r.clone()).await.unwrap();
            n += consume_decoding(rows).await;
        }
        n
    })
}

/// Takes every row, each through `black_box` (so copying it out is not optimised away), and
/// counts them.
async fn consume<S: futures::Stream<Item = Result<Vec<u8>, ()>>>(rows: S) -> usize {
    rows.fold(0, |n, row| {
        black_box(row.unwrap());
        async move { n + 1 }
    })
    .await
}

fn fanout(c: &mut Criterion) {
    let table: BTreeMap<Vec<u8>, ()> = (0..16_000u32)
        .map(|i| {
            let key = Event {
                user: i % 1_000,
                ts: i64::from(i),
            };
            (key.to_vec().unwrap(), ())
        })
        .collect();
    let plan: Scan<Event> = Event::scan().into();
    let ranges: Vec<KeyRange> = plan.ranges().collect();
    assert_eq!(ranges.len(), 16);

    let wait = Duration::from_millis(5);
    let mut group = c.benchmark_group("salted read, 16 buckets, 5 ms per request");
    group.sample_size(20);
    group.bench_function("all buckets at once, merged (read_plan)", |b| {
        b.iter(|| {
            let rows = read_plan(&plan, 16, reader(&table, wait), |k: &Vec<u8>| k);
            black_box(block_on(consume(rows)))
        })
    });
    group.bench_function("one bucket", |b| {
        b.iter(|| {
            let rows = read_ranges(
                ranges[..1].to_vec(),
                1,
                1,
                reader(&table, wait),
                |k: &Vec<u8>| k,
            );
            black_box(block_on(consume(rows)))
        })
    });
    group.bench_function("16 buckets one after another", |b| {
        b.iter(|| black_box(one_after_another(&table, &ranges, wait)))
    });
    group.finish();

    // The hand-written merge is a fair limit only if it does the same work: the same rows, in the
    // same order.
    let salt_len = plan.salt_len();
    let by_read_plan = keys(merged_in_key_order(&plan, &table));
    assert_eq!(by_read_plan.len(), table.len());
    assert!(by_read_plan == keys(hand_written_merge(&table, &ranges, salt_len)));

    let mut group = c.benchmark_group("merge in memory, 16 buckets, 16,000 rows");
    group.bench_function("merged in key order (read_plan)", |b| {
        b.iter(|| black_box(block_on(consume(merged_in_key_order(&plan, &table)))))
    });
    group.bench_function("hand-written k-way merge (BinaryHeap)", |b| {
        b.iter(|| {
            let rows = hand_written_merge(&table, &ranges, salt_len);
            black_box(block_on(consume(rows)))
        })
    });
    group.bench_function("the same streams drained unmerged", |b| {
        b.iter(|| black_box(one_after_another(&table, &ranges, Duration::ZERO)))
    });
    group.bench_function("merged in key order, each row decoded", |b| {
        b.iter(|| {
            let rows = merged_in_key_order(&plan, &table);
            black_box(block_on(consume_decoding(rows)))
        })
    });
    group.bench_function(
        "hand-written k-way merge (BinaryHeap), each row decoded",
        |b| {
            b.iter(|| {
                let rows = hand_written_merge(&table, &ranges, salt_len);
                black_box(block_on(consume_decoding(rows)))
            })
        },
    );
    group.bench_function("the same streams drained unmerged, each row decoded", |b| {
        b.iter(|| black_box(one_after_another_decoding(&table, &ranges)))
    });
    group.finish();
}

criterion_group!(benches, fanout);
criterion_main!(benches);
