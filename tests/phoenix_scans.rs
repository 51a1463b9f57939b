//! Typed scans of `#[rowkey(phoenix)]` keys, by brute force: every plan over a small table of
//! every combination of a few values, with ranges and prefixes on each field after every run of
//! bound fields, holds every row it asks for, and `matches` is exactly the query. Phoenix leaves
//! out the separators before trailing NULLs, so a key may end where a plan's bound bytes go on:
//! these are the plans that would lose such rows if they started at the bound bytes as written.

use std::fmt::Debug;
use std::ops::Bound;

use rowkey::{KeyRange, RowKey, Scan};

/// Every kind of Phoenix column between the others: ascending and descending VARCHAR, a
/// nullable one in the middle, a descending fixed-width one, and a nullable last one.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
struct Row {
    a: String,
    #[rowkey(desc)]
    b: String,
    c: Option<String>,
    #[rowkey(desc)]
    d: i16,
    e: Option<String>,
}

/// A salted key (Phoenix's salt byte hashes the whole key after it), with a nullable
/// descending column, bound by value alone.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix, salt(buckets = 3))]
struct Salted {
    #[rowkey(desc)]
    x: Option<String>,
    y: Option<String>,
}

/// Nullable columns at the end, after an ascending VARCHAR: a key ends after its last value,
/// without the separators a plan writes after it.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
struct Trailing {
    a: String,
    b: Option<String>,
    c: Option<String>,
}

/// The same, salted: the salt byte hashes the key as written, its trailing NULLs left out.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix, salt(buckets = 3))]
struct TrailingSalted {
    a: String,
    b: Option<String>,
    c: Option<String>,
}

/// `CHAR(n)`, an unsigned column, and `VARBINARY` last.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix)]
struct Padded {
    #[rowkey(width = 3)]
    code: String,
    id: u8,
    payload: Vec<u8>,
}

const A: [&str; 3] = ["a", "ab", "b"];
const C: [Option<&str>; 3] = [None, Some("a"), Some("ab")];
const D: [i16; 3] = [-1, 0, 1];
const E: [Option<&str>; 3] = [None, Some("x"), Some("xy")];

/// Bounds of strings: the stored values and values between, below and above them, the empty
/// string, which a NOT NULL Phoenix column cannot hold (NULL to Phoenix), and strings holding
/// `00`, which a VARCHAR another column follows cannot hold.
const STR_BOUNDS: [&str; 9] = ["", "a", "aa", "ab", "b", "c", "\0", "a\0", "ab\0z"];

fn option_bounds(stored: [Option<&str>; 3]) -> Vec<Option<String>> {
    let mut v: Vec<Option<String>> = stored.iter().map(|s| s.map(String::from)).collect();
    // `Some("")` is no value Phoenix stores (it is NULL), nor is a string holding `00`: bounds
    // of them are placed by order.
    v.extend(["", "aa", "xa", "z", "\0", "a\0", "x\0y"].map(|s| Some(String::from(s))));
    v
}

/// Every pair of bounds on `values`: open, and each value included or excluded.
fn bound_pairs<T: Clone>(values: &[T]) -> Vec<(Bound<T>, Bound<T>)> {
    let mut one = vec![Bound::Unbounded];
    for v in values {
        one.push(Bound::Included(v.clone()));
        one.push(Bound::Excluded(v.clone()));
    }
    let mut pairs = Vec::new();
    for lo in &one {
        for hi in &one {
            pairs.push((lo.clone(), hi.clone()));
        }
    }
    pairs
}

fn within<T: PartialOrd + ?Sized>(v: &T, (lo, hi): (Bound<&T>, Bound<&T>)) -> bool {
    let above = match lo {
        Bound::Included(b) => v >= b,
        Bound::Excluded(b) => v > b,
        Bound::Unbounded => true,
    };
    let below = match hi {
        Bound::Included(b) => v <= b,
        Bound::Excluded(b) => v < b,
        Bound::Unbounded => true,
    };
    above && below
}

fn as_ref<T>(b: &(Bound<T>, Bound<T>)) -> (Bound<&T>, Bound<&T>) {
    (b.0.as_ref(), b.1.as_ref())
}

fn str_pair(
    b: &(Bound<&'static str>, Bound<&'static str>),
) -> (Bound<&'static str>, Bound<&'static str>) {
    *b
}

/// A table of keys and the rows they hold, sorted by key.
struct Table<K> {
    rows: Vec<(Vec<u8>, K)>,
    plans: usize,
}

impl<K: RowKey + Debug> Table<K> {
    fn new(rows: impl IntoIterator<Item = K>) -> Self {
        let mut rows: Vec<(Vec<u8>, K)> =
            rows.into_iter().map(|r| (r.to_vec().unwrap(), r)).collect();
        rows.sort_by(|x, y| x.0.cmp(&y.0));
        Table { rows, plans: 0 }
    }

    /// Checks one plan against the query `want`: no wanted row outside its ranges, `matches`
    /// exactly the query, and when the plan says it is exact, its ranges exactly the query too.
    fn check(&mut self, what: &dyn Fn() -> String, plan: Scan<K>, want: impl Fn(&K) -> bool) {
        self.plans += 1;
        let ranges: Vec<KeyRange> = plan.ranges().collect();
        for w in ranges.windows(2) {
            assert!(
                w[0].stop() <= w[1].start() && !w[0].stop().is_empty(),
                "{}: ranges overlap or are out of order: {ranges:?}",
                what()
            );
        }
        for (key, row) in &self.rows {
            let wanted = want(row);
            let inside = ranges.iter().any(|r| r.contains(key));
            assert!(
                !wanted || inside,
                "{}: lost {row:?} ({key:02X?}) outside {ranges:?}",
                what()
            );
            assert_eq!(plan.matches(key), wanted, "{}: matches({row:?})", what());
            if plan.is_exact() {
                assert_eq!(
                    inside,
                    wanted,
                    "{}: an exact plan's ranges hold {row:?} ({key:02X?}): {ranges:?}",
                    what()
                );
            }
        }
    }
}

fn rows() -> Vec<Row> {
    let mut rows = Vec::new();
    for a in A {
        for b in A {
            for c in C {
                for d in D {
                    for e in E {
                        rows.push(Row {
                            a: a.into(),
                            b: b.into(),
                            c: c.map(String::from),
                            d,
                            e: e.map(String::from),
                        });
                    }
                }
            }
        }
    }
    rows
}

#[test]
fn every_plan_of_phoenix_columns_holds_exactly_its_rows() {
    let mut t = Table::new(rows());
    let str_pairs = bound_pairs(&STR_BOUNDS);
    let c_pairs = bound_pairs(&option_bounds(C));
    let e_pairs = bound_pairs(&option_bounds(E));
    let d_pairs = bound_pairs(&[i16::MIN, -2, -1, 0, 1, 2, i16::MAX]);
    let own = |s: Option<&str>| s.map(String::from);

    t.check(&|| "all".into(), Row::scan().into(), |_| true);
    for r in &str_pairs {
        t.check(
            &|| format!("a in {r:?}"),
            Row::scan().a_range(str_pair(r)).into(),
            |x| within(x.a.as_str(), str_pair(r)),
        );
    }
    for p in STR_BOUNDS {
        t.check(
            &|| format!("a starts with {p:?}"),
            Row::scan().a_prefix(p).into(),
            |x| x.a.starts_with(p),
        );
    }
    for a in A {
        let s = || Row::scan().a(a);
        t.check(&|| format!("a = {a}"), s().into(), |x| x.a == a);
        for r in &str_pairs {
            t.check(
                &|| format!("a = {a}, b in {r:?}"),
                s().b_range(str_pair(r)).into(),
                |x| x.a == a && within(x.b.as_str(), str_pair(r)),
            );
        }
        for p in STR_BOUNDS {
            t.check(
                &|| format!("a = {a}, b starts with {p:?}"),
                s().b_prefix(p).into(),
                |x| x.a == a && x.b.starts_with(p),
            );
        }
        for b in A {
            let s = || s().b(b);
            let ab = |x: &Row| x.a == a && x.b == b;
            t.check(&|| format!("a = {a}, b = {b}"), s().into(), ab);
            for r in &c_pairs {
                t.check(
                    &|| format!("{a} {b}, c in {r:?}"),
                    s().c_range(as_ref(r)).into(),
                    |x| ab(x) && within(&x.c, as_ref(r)),
                );
            }
            for c in C {
                let s = || s().c(own(c));
                let abc = |x: &Row| ab(x) && x.c == own(c);
                t.check(&|| format!("{a} {b} {c:?}"), s().into(), abc);
                for r in &d_pairs {
                    t.check(
                        &|| format!("{a} {b} {c:?}, d in {r:?}"),
                        s().d_range(as_ref(r)).into(),
                        |x| abc(x) && within(&x.d, as_ref(r)),
                    );
                }
                for d in D {
                    let s = || s().d(d);
                    let abcd = |x: &Row| abc(x) && x.d == d;
                    t.check(&|| format!("{a} {b} {c:?} {d}"), s().into(), abcd);
                    for r in &e_pairs {
                        t.check(
                            &|| format!("{a} {b} {c:?} {d}, e in {r:?}"),
                            s().e_range(as_ref(r)).into(),
                            |x| abcd(x) && within(&x.e, as_ref(r)),
                        );
                    }
                    for e in E {
                        t.check(
                            &|| format!("{a} {b} {c:?} {d} {e:?}"),
                            s().e(own(e)).into(),
                            |x| abcd(x) && x.e == own(e),
                        );
                    }
                    // An IN list of every value, NULL among them, and of none.
                    t.check(
                        &|| format!("{a} {b} {c:?} {d}, e in all"),
                        s().e_in(E.map(own)).into(),
                        abcd,
                    );
                    t.check(
                        &|| format!("{a} {b} {c:?} {d}, e in none"),
                        s().e_in([]).into(),
                        |_| false,
                    );
                }
            }
            // NULL or not, several values of a middle column at once.
            t.check(
                &|| format!("{a} {b}, c in [None, ab]"),
                s().c_in([None, own(Some("ab"))]).d(0).into(),
                |x| ab(x) && (x.c.is_none() || x.c.as_deref() == Some("ab")) && x.d == 0,
            );
        }
    }
    // The empty string is no NOT NULL value: equal to it, nothing is.
    t.check(&|| "a = ''".into(), Row::scan().a("").into(), |_| false);
    assert!(t.plans > 25_000, "{} plans", t.plans);
}

#[test]
fn salted_phoenix_plans_find_the_bucket_of_the_whole_key() {
    let values = [None, Some("p"), Some("pq")];
    let mut all = Vec::new();
    for x in values {
        for y in values {
            if x.is_some() || y.is_some() {
                all.push(Salted {
                    x: x.map(String::from),
                    y: y.map(String::from),
                });
            }
        }
    }
    let mut t = Table::new(all);
    for x in values {
        let own = |s: Option<&str>| s.map(String::from);
        t.check(
            &|| format!("x = {x:?}"),
            Salted::scan().x(own(x)).into(),
            |k| k.x == own(x),
        );
        for y in values {
            let plan = Salted::scan().x(own(x)).y(own(y));
            // A point plan reads one bucket: the one of the key as Phoenix writes it.
            if x.is_some() || y.is_some() {
                assert_eq!(plan.ranges().count(), 1, "{x:?} {y:?}");
            }
            t.check(&|| format!("{x:?} {y:?}"), plan.into(), |k| {
                k.x == own(x) && k.y == own(y)
            });
            let ranges = bound_pairs(&option_bounds(values));
            for r in &ranges {
                t.check(
                    &|| format!("x = {x:?}, y in {r:?}"),
                    Salted::scan().x(own(x)).y_range(as_ref(r)).into(),
                    |k| k.x == own(x) && within(&k.y, as_ref(r)),
                );
            }
        }
    }
}

#[test]
fn char_and_varbinary_plans_hold_exactly_their_rows() {
    let codes = ["a", "a b", "ab", "b"];
    let payloads: [&[u8]; 5] = [b"\x00", b"\x01", b"\x01\x00", b"\x01\x00\x00", b"\xFF"];
    let mut all = Vec::new();
    for code in codes {
        for id in [0u8, 1, 127] {
            for p in payloads {
                all.push(Padded {
                    code: code.into(),
                    id,
                    payload: p.to_vec(),
                });
            }
        }
    }
    let mut t = Table::new(all);
    for p in ["", "a", "a ", "ab", "b", "abcd"] {
        t.check(
            &|| format!("code starts with {p:?}"),
            Padded::scan().code_prefix(p).into(),
            |k| k.code.starts_with(p),
        );
    }
    let ids = bound_pairs(&[0u8, 1, 127, 128, 255]);
    for code in codes {
        for r in &ids {
            t.check(
                &|| format!("{code}, id in {r:?}"),
                Padded::scan().code(code).id_range(as_ref(r)).into(),
                |k| k.code == code && within(&k.id, as_ref(r)),
            );
        }
        let bytes: Vec<Vec<u8>> = [
            &b""[..],
            b"\x00",
            b"\x01",
            b"\x01\x00",
            b"\x01\x00\x00",
            b"\x02",
        ]
        .map(<[u8]>::to_vec)
        .into();
        for r in bound_pairs(&bytes) {
            let r = (
                r.0.as_ref().map(Vec::as_slice),
                r.1.as_ref().map(Vec::as_slice),
            );
            t.check(
                &|| format!("{code} 1, payload in {r:?}"),
                Padded::scan().code(code).id(1).payload_range(r).into(),
                |k| k.code == code && k.id == 1 && within(k.payload.as_slice(), r),
            );
        }
        for p in [&b""[..], b"\x01", b"\x01\x00"] {
            t.check(
                &|| format!("{code} 1, payload starts with {p:?}"),
                Padded::scan().code(code).id(1).payload_prefix(p).into(),
                |k| k.code == code && k.id == 1 && k.payload.starts_with(p),
            );
        }
    }
}

/// Every plan of a key of three columns `a: String, b: Option<String>, c: Option<String>`.
macro_rules! check_trailing {
    ($key:ident) => {{
        let strs = ["a", "ab", "b"];
        let nullable = [None, Some("a"), Some("ab")];
        let own = |s: Option<&str>| s.map(String::from);
        let mut all = Vec::new();
        for a in strs {
            for b in nullable {
                for c in nullable {
                    all.push($key {
                        a: a.into(),
                        b: own(b),
                        c: own(c),
                    });
                }
            }
        }
        let mut t = Table::new(all);
        let str_pairs = bound_pairs(&STR_BOUNDS);
        let opt_pairs = bound_pairs(&option_bounds(nullable));
        for r in &str_pairs {
            t.check(
                &|| format!("a in {r:?}"),
                $key::scan().a_range(str_pair(r)).into(),
                |k| within(k.a.as_str(), str_pair(r)),
            );
        }
        for a in strs {
            t.check(&|| format!("a = {a}"), $key::scan().a(a).into(), |k| {
                k.a == a
            });
            for p in STR_BOUNDS {
                t.check(
                    &|| format!("a starts with {p:?}"),
                    $key::scan().a_prefix(p).into(),
                    |k| k.a.starts_with(p),
                );
            }
            for r in &opt_pairs {
                t.check(
                    &|| format!("{a}, b in {r:?}"),
                    $key::scan().a(a).b_range(as_ref(r)).into(),
                    |k| k.a == a && within(&k.b, as_ref(r)),
                );
            }
            for b in nullable {
                t.check(
                    &|| format!("{a} {b:?}"),
                    $key::scan().a(a).b(own(b)).into(),
                    |k| k.a == a && k.b == own(b),
                );
                for r in &opt_pairs {
                    t.check(
                        &|| format!("{a} {b:?}, c in {r:?}"),
                        $key::scan().a(a).b(own(b)).c_range(as_ref(r)).into(),
                        |k| k.a == a && k.b == own(b) && within(&k.c, as_ref(r)),
                    );
                }
                for c in nullable {
                    t.check(
                        &|| format!("{a} {b:?} {c:?}"),
                        $key::scan().a(a).b(own(b)).c(own(c)).into(),
                        |k| k.a == a && k.b == own(b) && k.c == own(c),
                    );
                }
                t.check(
                    &|| format!("{a} {b:?}, c in all"),
                    $key::scan().a(a).b(own(b)).c_in(nullable.map(own)).into(),
                    |k| k.a == a && k.b == own(b),
                );
            }
        }
        t.plans
    }};
}

#[test]
fn plans_take_the_keys_that_end_before_their_trailing_nulls() {
    assert!(check_trailing!(Trailing) > 2_000);
}

#[test]
fn salted_point_plans_hash_the_key_without_its_trailing_nulls() {
    assert!(check_trailing!(TrailingSalted) > 2_000);
}
