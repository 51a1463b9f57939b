//! `encode_into`, `to_key` and `decode` of layouts without owned `String`/`Vec` fields make no heap
//! allocation. A counting global allocator counts the allocations of the measuring thread only, so
//! the test harness's own threads cannot disturb the count.

use std::alloc::{GlobalAlloc, Layout, System};
use std::borrow::Cow;
use std::cell::Cell;

use rowkey::RowKey;

struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            ALLOCATIONS.with(|a| a.set(a.get() + 1));
        }
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            ALLOCATIONS.with(|a| a.set(a.get() + 1));
        }
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The number of allocations `f` makes on this thread.
fn allocations<R>(f: impl FnOnce() -> R) -> (usize, R) {
    ALLOCATIONS.with(|a| a.set(0));
    COUNTING.with(|c| c.set(true));
    let r = f();
    COUNTING.with(|c| c.set(false));
    (ALLOCATIONS.with(Cell::get), r)
}

#[derive(RowKey, Debug, PartialEq, Clone, Copy)]
enum Kind {
    View,
    Click,
}

#[derive(RowKey, Debug, PartialEq)]
struct Fixed {
    user: u64,
    #[rowkey(desc)]
    ts: i64,
    kind: Kind,
    #[rowkey(width = 2)]
    shard: u32,
    score: f64,
    flag: bool,
    id: [u8; 4],
    #[rowkey(reverse)]
    seq: u32,
}

#[derive(RowKey, Debug, PartialEq)]
struct Borrowing<'a> {
    user: u64,
    #[rowkey(width = 8)]
    region: &'a str,
    tag: Cow<'a, str>,
    maybe: Option<i32>,
    #[rowkey(desc)]
    when: i64,
    host: &'a str,
}

#[test]
fn the_counter_sees_allocations() {
    let (n, v) = allocations(|| vec![1u8; 16]);
    assert_eq!((n, v.len()), (1, 16));
}

#[test]
fn fixed_layout_encode_to_key_and_decode_do_not_allocate() {
    let k = Fixed {
        user: 42,
        ts: 1_700_000_000_000,
        kind: Kind::Click,
        shard: 7,
        score: -1.5,
        flag: true,
        id: [1, 2, 3, 4],
        seq: 99,
    };
    let mut buf = [0u8; 64];
    let (n, len) = allocations(|| k.encode_into(&mut buf).unwrap());
    assert_eq!((n, len), (0, Fixed::LEN));
    let (n, arr) = allocations(|| k.to_key().unwrap());
    assert_eq!((n, arr.as_slice()), (0, &buf[..len]));
    let (n, back) = allocations(|| Fixed::decode(&arr).unwrap());
    assert_eq!((n, back), (0, k));
    let (n, err) = allocations(|| Fixed::decode(&arr[..5]).is_err());
    assert_eq!((n, err), (0, true));
}

#[test]
fn borrowed_layout_encode_and_decode_do_not_allocate() {
    let k = Borrowing {
        user: 1,
        region: "eu-west",
        tag: Cow::Borrowed("checkout"),
        maybe: Some(-3),
        when: 5,
        host: "web-17.example.com",
    };
    let mut buf = [0u8; 128];
    let (n, len) = allocations(|| k.encode_into(&mut buf).unwrap());
    assert_eq!(n, 0);
    let (n, back) = allocations(|| Borrowing::decode(&buf[..len]).unwrap());
    assert_eq!(n, 0);
    assert!(matches!(back.tag, Cow::Borrowed(_)));
    assert_eq!(back, k);
    let (n, len2) = allocations(|| k.encoded_len());
    assert_eq!((n, len2), (0, len));
}

/// Owned fields encode from where they are; text layouts format numbers in place.
#[derive(RowKey, Debug, PartialEq)]
struct Owned {
    tenant: String,
    #[rowkey(desc)]
    ts: i64,
    blob: Vec<u8>,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(text, delimiter = ":")]
struct Text<'a> {
    #[rowkey(salt(buckets = 10))]
    user: &'a str,
    #[rowkey(desc)]
    ts: u64,
    #[rowkey(width = 4)]
    shard: u32,
}

#[test]
fn owned_and_text_layouts_encode_without_allocating() {
    let mut buf = [0u8; 128];
    let owned = Owned {
        tenant: String::from("acme"),
        ts: 9,
        blob: vec![0, 1, 2],
    };
    let (n, len) = allocations(|| owned.encode_into(&mut buf).unwrap());
    assert_eq!(n, 0);
    assert_eq!(Owned::decode(&buf[..len]).unwrap(), owned);
    let text = Text {
        user: "alice",
        ts: 1_700_000_000_000,
        shard: 7,
    };
    let (n, len) = allocations(|| text.encode_into(&mut buf).unwrap());
    assert_eq!(n, 0);
    let (n, back) = allocations(|| Text::decode(&buf[..len]).unwrap());
    assert_eq!(n, 0);
    assert_eq!(back, text);
}

#[derive(RowKey, Debug, PartialEq)]
struct Salted<'a> {
    #[rowkey(salt(buckets = 16))]
    user: u64,
    #[rowkey(salt(buckets = 16))]
    name: Cow<'a, str>,
    ts: i64,
}

#[derive(RowKey, Debug, PartialEq)]
struct Hashed {
    #[rowkey(hash_prefix(len = 4))]
    user: u64,
    ts: i64,
}

#[derive(RowKey, Debug, PartialEq)]
#[rowkey(salt(buckets = 8, hash = "java"))]
struct WholeSalted {
    user: u64,
    ts: i64,
}

#[test]
fn prefixed_layouts_encode_and_decode_without_allocating() {
    let mut buf = [0u8; 64];
    let s = Salted {
        user: 7,
        name: Cow::Borrowed("n"),
        ts: 3,
    };
    let (n, len) = allocations(|| s.encode_into(&mut buf).unwrap());
    assert_eq!(n, 0);
    let (n, back) = allocations(|| Salted::decode(&buf[..len]).unwrap());
    assert_eq!((n, back), (0, s));
    let h = Hashed { user: 7, ts: 3 };
    let (n, key) = allocations(|| h.to_key().unwrap());
    assert_eq!(n, 0);
    let (n, back) = allocations(|| Hashed::decode(&key).unwrap());
    assert_eq!((n, back), (0, h));
    let w = WholeSalted { user: 1, ts: 2 };
    let (n, key) = allocations(|| w.to_key().unwrap());
    assert_eq!(n, 0);
    let (n, back) = allocations(|| WholeSalted::decode(&key).unwrap());
    assert_eq!((n, back), (0, w));
}

#[test]
fn single_range_scan_plans_do_not_allocate() {
    let (n, count) = allocations(|| {
        let plan = Fixed::scan().user(42).ts_range(5..1_700_000_000_000);
        let mut count = 0;
        for r in plan.ranges() {
            count += r.start().len() + r.stop().len();
        }
        count + usize::from(plan.matches(&[0; Fixed::LEN]))
    });
    assert_eq!(n, 0);
    assert!(count > 0);
    let (n, exact) = allocations(|| Hashed::scan().user(7).ts_range(..3).is_exact());
    assert_eq!((n, exact), (0, true));
    let (n, ranges) = allocations(|| Hashed::scan().user(7).ranges().len());
    assert_eq!((n, ranges), (0, 1));
}

/// Enum keys and tags write constant bytes in place.
#[derive(RowKey, Debug, PartialEq)]
#[rowkey(tag = b"k/")]
enum Tagged<'a> {
    User {
        id: u64,
    },
    #[rowkey(tag = b"o")]
    Order {
        user: u64,
        #[rowkey(desc)]
        ts: i64,
        host: &'a str,
    },
}

#[test]
fn enum_keys_encode_and_decode_without_allocating() {
    let k = Tagged::Order {
        user: 7,
        ts: 9,
        host: "web",
    };
    let mut buf = [0u8; 64];
    let (n, len) = allocations(|| k.encode_into(&mut buf).unwrap());
    assert_eq!((n, len), (0, 2 + 1 + 8 + 8 + 3));
    let (n, back) = allocations(|| Tagged::decode(&buf[..len]).unwrap());
    assert_eq!((n, back), (0, k));
    let (n, err) = allocations(|| Tagged::decode(b"k/x").is_err());
    assert_eq!((n, err), (0, true));
}
