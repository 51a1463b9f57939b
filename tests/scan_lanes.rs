//! The fixed-layout lane of scan planning against brute force and against the general planner.
//!
//! `Edge` is a fixed layout without a prefix, so its typed builder plans in the fixed lane (bytes in
//! arrays of the key's length). Every query is checked against a plain-Rust predicate over a key
//! set made of the values where byte arithmetic goes wrong: 00 and FF bytes, signed MIN and MAX,
//! the edges of a 2-byte width, and bounds outside that width. The same query is also planned by
//! the general planner (the hidden `Scan` the lane hands over to), and both plans must be the same
//! ranges byte for byte.

use std::ops::Bound;

use rowkey::__private::{Bind, Scan, ScanLayout, ValueOrder};
use rowkey::{FieldMode, KeyRange, Prefix, RowKey};

mod common;
use common::{in_bounds, Rng};

#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
struct Edge {
    a: u8,
    #[rowkey(desc)]
    b: i16,
    #[rowkey(width = 2)]
    c: u32,
}

/// The general planner's description of `Edge`, and the modes the derive gives its fields.
static LAYOUT: ScanLayout = ScanLayout::new(Prefix::None, &[false, false, false], false, true);
const A: FieldMode = FieldMode::INNER;
const B: FieldMode = FieldMode::INNER.with_desc();
const C: FieldMode = FieldMode::LAST.with_width(2);

const AS: [u8; 6] = [0, 1, 2, 127, 254, 255];
const BS: [i16; 8] = [i16::MIN, i16::MIN + 1, -2, -1, 0, 1, i16::MAX - 1, i16::MAX];
const CS: [u32; 7] = [0, 1, 2, 0xFF, 0x100, 0xFFFE, 0xFFFF];
/// Bounds for `c` also go past its 2-byte width.
const C_BOUNDS: [u32; 10] = [
    0,
    1,
    0xFF,
    0x100,
    0xFFFE,
    0xFFFF,
    0x1_0000,
    70_000,
    u32::MAX,
    2,
];

fn keys() -> Vec<(Edge, Vec<u8>)> {
    let mut keys = Vec::new();
    for &a in &AS {
        for &b in &BS {
            for &c in &CS {
                let e = Edge { a, b, c };
                keys.push((e, e.to_vec().unwrap()));
            }
        }
    }
    keys
}

fn bounds_of<T: Clone>(rng: &mut Rng, values: &[T]) -> (Bound<T>, Bound<T>) {
    let lo = rng.pick(values).clone();
    let hi = rng.pick(values).clone();
    (rng.bound(lo), rng.bound(hi))
}

fn bounds<T: Copy>(rng: &mut Rng, values: &[T]) -> (Bound<T>, Bound<T>) {
    let lo = *rng.pick(values);
    let hi = *rng.pick(values);
    (rng.bound(lo), rng.bound(hi))
}

fn as_ref<T>(b: &(Bound<T>, Bound<T>)) -> (Bound<&T>, Bound<&T>) {
    (b.0.as_ref(), b.1.as_ref())
}

/// A test on encoded keys.
type KeyTest = Box<dyn Fn(&[u8]) -> bool>;

/// One query three ways: the typed builder (the fixed lane, or the general one after an IN list),
/// the general planner by hand, and the predicate.
struct Query {
    what: String,
    typed: Scan<Edge>,
    /// `matches` of the typed final state before it is converted into a `Scan`.
    typed_matches: KeyTest,
    general: Scan<Edge>,
    pred: Box<dyn Fn(&Edge) -> bool>,
}

fn query(rng: &mut Rng, i: usize) -> Query {
    let a = *rng.pick(&AS);
    let b = *rng.pick(&BS);
    let c = *rng.pick(&C_BOUNDS);
    let general = || <Scan<Edge> as Bind>::start(&LAYOUT);
    match i % 8 {
        0 => {
            let typed = Edge::scan().a(a);
            Query {
                what: format!("a({a})"),
                typed_matches: Box::new({
                    let t = Edge::scan().a(a);
                    move |k| t.matches(k)
                }),
                typed: typed.into(),
                general: general().bind_eq(&a, A),
                pred: Box::new(move |e| e.a == a),
            }
        }
        1 => {
            let r = bounds(rng, &BS);
            let typed = Edge::scan().a(a).b_range(r);
            Query {
                what: format!("a({a}).b_range({r:?})"),
                typed_matches: Box::new({
                    let t = typed.clone();
                    move |k| t.matches(k)
                }),
                typed: typed.into(),
                general: general().bind_eq(&a, A).bind_range(
                    as_ref(&r).0,
                    as_ref(&r).1,
                    B,
                    ValueOrder::UNKNOWN,
                ),
                pred: Box::new(move |e| e.a == a && in_bounds(&e.b, &r.0, &r.1)),
            }
        }
        2 => {
            let r = bounds(rng, &C_BOUNDS);
            let typed = Edge::scan().a(a).b(b).c_range(r);
            Query {
                what: format!("a({a}).b({b}).c_range({r:?})"),
                typed_matches: Box::new({
                    let t = typed.clone();
                    move |k| t.matches(k)
                }),
                typed: typed.into(),
                general: general().bind_eq(&a, A).bind_eq(&b, B).bind_range(
                    as_ref(&r).0,
                    as_ref(&r).1,
                    C,
                    ValueOrder::UNKNOWN,
                ),
                pred: Box::new(move |e| e.a == a && e.b == b && in_bounds(&e.c, &r.0, &r.1)),
            }
        }
        3 => {
            let r = bounds(rng, &AS);
            let typed = Edge::scan().a_range(r);
            Query {
                what: format!("a_range({r:?})"),
                typed_matches: Box::new({
                    let t = typed.clone();
                    move |k| t.matches(k)
                }),
                typed: typed.into(),
                general: general().bind_range(as_ref(&r).0, as_ref(&r).1, A, ValueOrder::UNKNOWN),
                pred: Box::new(move |e| in_bounds(&e.a, &r.0, &r.1)),
            }
        }
        4 => {
            let typed = Edge::scan().a(a).b(b).c(c);
            Query {
                what: format!("a({a}).b({b}).c({c})"),
                typed_matches: Box::new({
                    let t = typed.clone();
                    move |k| t.matches(k)
                }),
                typed: typed.into(),
                general: general().bind_eq(&a, A).bind_eq(&b, B).bind_eq(&c, C),
                pred: Box::new(move |e| e.a == a && e.b == b && e.c == c),
            }
        }
        5 => {
            // IN lists on two fields, then a range on the third: a cross product of alternatives.
            let list_a: Vec<u8> = (0..rng.below(4)).map(|_| *rng.pick(&AS)).collect();
            let list_b: Vec<i16> = (0..rng.below(4)).map(|_| *rng.pick(&BS)).collect();
            let r = bounds(rng, &C_BOUNDS);
            let typed = Edge::scan()
                .a_in(list_a.clone())
                .b_in(list_b.clone())
                .c_range(r);
            let (la, lb) = (list_a.clone(), list_b.clone());
            Query {
                what: format!("a_in({list_a:?}).b_in({list_b:?}).c_range({r:?})"),
                typed_matches: Box::new({
                    let t = typed.clone();
                    move |k| t.matches(k)
                }),
                typed: typed.into(),
                general: general()
                    .bind_in(list_a.clone(), A)
                    .bind_in(list_b.clone(), B)
                    .bind_range(as_ref(&r).0, as_ref(&r).1, C, ValueOrder::UNKNOWN),
                pred: Box::new(move |e| {
                    la.contains(&e.a) && lb.contains(&e.b) && in_bounds(&e.c, &r.0, &r.1)
                }),
            }
        }
        6 => {
            // An IN list, then equalities (one of them maybe too wide for its width).
            let list: Vec<u8> = (0..rng.below(5)).map(|_| *rng.pick(&AS)).collect();
            let state = Edge::scan().a_in(list.clone()).b(b);
            let l2 = list.clone();
            let point = rng.below(2) == 1;
            let (typed, typed_matches, general, what): (Scan<Edge>, KeyTest, Scan<Edge>, String) =
                if !point {
                    let t = state.clone();
                    (
                        state.into(),
                        Box::new(move |k| t.matches(k)),
                        general().bind_in(list.clone(), A).bind_eq(&b, B),
                        format!("a_in({list:?}).b({b})"),
                    )
                } else {
                    let done = state.c(c);
                    let t = done.clone();
                    (
                        done.into(),
                        Box::new(move |k| t.matches(k)),
                        general()
                            .bind_in(list.clone(), A)
                            .bind_eq(&b, B)
                            .bind_eq(&c, C),
                        format!("a_in({list:?}).b({b}).c({c})"),
                    )
                };
            Query {
                what,
                typed,
                typed_matches,
                general,
                pred: Box::new(move |e| l2.contains(&e.a) && e.b == b && (!point || e.c == c)),
            }
        }
        _ => {
            let list: Vec<u8> = (0..rng.below(4)).map(|_| *rng.pick(&AS)).collect();
            let r = bounds(rng, &BS);
            let typed = Edge::scan().a_in(list.clone()).b_range(r);
            let l2 = list.clone();
            Query {
                what: format!("a_in({list:?}).b_range({r:?})"),
                typed_matches: Box::new({
                    let t = typed.clone();
                    move |k| t.matches(k)
                }),
                typed: typed.into(),
                general: general().bind_in(list.clone(), A).bind_range(
                    as_ref(&r).0,
                    as_ref(&r).1,
                    B,
                    ValueOrder::UNKNOWN,
                ),
                pred: Box::new(move |e| l2.contains(&e.a) && in_bounds(&e.b, &r.0, &r.1)),
            }
        }
    }
}

fn contains(ranges: &[KeyRange], key: &[u8]) -> bool {
    ranges.iter().any(|r| r.contains(key))
}

#[test]
fn fixed_lane_plans_match_brute_force_and_the_general_planner() {
    let keys = keys();
    let mut rng = Rng(0xED6E);
    let mut matched = 0;
    for i in 0..20_000 {
        let q = query(&mut rng, i);
        let typed: Vec<KeyRange> = q.typed.ranges().collect();
        let general: Vec<KeyRange> = q.general.ranges().collect();
        assert_eq!(typed, general, "{}: the lanes plan differently", q.what);
        assert!(q.typed.is_exact() && q.general.is_exact(), "{}", q.what);
        for (e, k) in &keys {
            let want = (q.pred)(e);
            matched += usize::from(want);
            assert_eq!(
                contains(&typed, k),
                want,
                "{}: ranges {typed:?} and key {e:?}",
                q.what
            );
            assert_eq!(q.typed.matches(k), want, "{}: matches {e:?}", q.what);
            assert_eq!(
                (q.typed_matches)(k),
                want,
                "{}: state matches {e:?}",
                q.what
            );
            assert_eq!(
                q.general.matches(k),
                want,
                "{}: general matches {e:?}",
                q.what
            );
        }
    }
    assert!(
        matched > 100_000,
        "the queries matched too few keys: {matched}"
    );
}

#[test]
fn bounds_past_a_width_are_clamped_not_empty() {
    // `c` holds at most 0xFFFF: an upper bound above that is no bound at all.
    let plan = Edge::scan().a(1).b(2).c_range(..u32::MAX);
    let top = Edge {
        a: 1,
        b: 2,
        c: 0xFFFF,
    }
    .to_vec()
    .unwrap();
    assert!(plan.matches(&top));
    assert_eq!(plan.ranges().count(), 1);
    // A lower bound above it leaves nothing.
    assert_eq!(Edge::scan().a(1).b(2).c_range(70_000..).ranges().count(), 0);
    // On a narrowed signed field, a lower bound below its minimum is no bound either.
    #[derive(RowKey)]
    struct Narrow {
        #[rowkey(width = 1)]
        v: i32,
    }
    let plan = Narrow::scan().v_range(-1_000..=-128);
    assert!(plan.matches(&Narrow { v: -128 }.to_vec().unwrap()));
    assert!(!plan.matches(&Narrow { v: -127 }.to_vec().unwrap()));
}

#[test]
fn an_exclusive_bound_at_the_last_key_matches_nothing() {
    // After FF there is no key: the plan must not wrap around to the whole table.
    let plan = Edge::scan().a_range((Bound::Excluded(255), Bound::Unbounded));
    assert_eq!(plan.ranges().count(), 0);
    let general = <Scan<Edge> as Bind>::start(&LAYOUT).bind_range(
        Bound::Excluded(&255u8),
        Bound::Unbounded,
        A,
        ValueOrder::UNKNOWN,
    );
    assert_eq!(general.ranges().count(), 0);
    assert!(!general.matches(&Edge { a: 255, b: 0, c: 0 }.to_vec().unwrap()));
}

/// Padded string and bytes fields, with range bounds that have no encoding of their own: longer
/// than the width, or ending in `00`. `Padded` is fixed (the fixed lane hands such bounds over),
/// `PaddedTail` is not (the general planner), and `PaddedDesc` stores its bytes inverted.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Padded {
    #[rowkey(width = 3)]
    code: String,
    n: u8,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct PaddedTail {
    #[rowkey(width = 3)]
    code: Vec<u8>,
    tail: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct PaddedDesc {
    #[rowkey(width = 3, desc)]
    code: Vec<u8>,
    n: u8,
}

/// Every byte string over `alphabet` of at most `max` bytes.
fn strings(alphabet: &[u8], max: usize) -> Vec<Vec<u8>> {
    let mut all = vec![Vec::new()];
    let mut last = vec![Vec::new()];
    for _ in 0..max {
        last = last
            .iter()
            .flat_map(|s| {
                alphabet.iter().map(move |&b| {
                    let mut t = s.clone();
                    t.push(b);
                    t
                })
            })
            .collect();
        all.extend(last.iter().cloned());
    }
    all
}

#[test]
fn bounds_on_padded_fields_without_an_encoding_lose_no_rows() {
    let alphabet = [0x00, b'a', b'b', 0x7F];
    // Stored contents: at most 3 bytes, not ending in 00 (that would read back as padding).
    let contents: Vec<Vec<u8>> = strings(&alphabet, 3)
        .into_iter()
        .filter(|c| c.last() != Some(&0))
        .collect();
    // Bounds: up to 5 bytes, so longer than the width and ending in 00 included.
    let bounds = strings(&alphabet, 5);
    let mut rng = Rng(0xBADD);
    let mut matched = 0usize;
    for _ in 0..3_000 {
        let (lo, hi) = bounds_of(&mut rng, &bounds);
        let wanted = |c: &[u8]| in_bounds(&c.to_vec(), &lo, &hi);
        let to_str = |b: &Bound<Vec<u8>>| b.clone().map(|v| String::from_utf8(v).unwrap());
        let (slo, shi) = (to_str(&lo), to_str(&hi));
        let fixed: Scan<Padded> = Padded::scan()
            .code_range((
                slo.as_ref().map(String::as_str),
                shi.as_ref().map(String::as_str),
            ))
            .into();
        let as_slices = (
            lo.as_ref().map(Vec::as_slice),
            hi.as_ref().map(Vec::as_slice),
        );
        let tail: Scan<PaddedTail> = PaddedTail::scan().code_range(as_slices).into();
        let desc: Scan<PaddedDesc> = PaddedDesc::scan().code_range(as_slices).into();
        for c in &contents {
            let want = wanted(c);
            matched += usize::from(want);
            let s = String::from_utf8(c.clone()).unwrap();
            let k = Padded { code: s, n: 1 }.to_vec().unwrap();
            let ranges: Vec<KeyRange> = fixed.ranges().collect();
            assert_eq!(contains(&ranges, &k), want, "fixed {lo:?}..{hi:?}: {c:?}");
            assert_eq!(
                fixed.matches(&k),
                want,
                "fixed matches {lo:?}..{hi:?}: {c:?}"
            );
            let k = PaddedTail {
                code: c.clone(),
                tail: "x".into(),
            }
            .to_vec()
            .unwrap();
            let ranges: Vec<KeyRange> = tail.ranges().collect();
            assert_eq!(contains(&ranges, &k), want, "general {lo:?}..{hi:?}: {c:?}");
            let k = PaddedDesc {
                code: c.clone(),
                n: 1,
            }
            .to_vec()
            .unwrap();
            let ranges: Vec<KeyRange> = desc.ranges().collect();
            assert_eq!(contains(&ranges, &k), want, "desc {lo:?}..{hi:?}: {c:?}");
            assert_eq!(desc.matches(&k), want, "desc matches {lo:?}..{hi:?}: {c:?}");
        }
    }
    assert!(
        matched > 10_000,
        "the bounds matched too few contents: {matched}"
    );
}

#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
struct Optional {
    #[rowkey(width = 1)]
    v: Option<i16>,
    n: u8,
}

#[test]
fn option_bounds_outside_a_width_clamp_or_stand_after_none() {
    let values = [None, Some(-128), Some(-1), Some(0), Some(127)];
    let keys: Vec<(Option<i16>, Vec<u8>)> = values
        .iter()
        .map(|&v| (v, Optional { v, n: 1 }.to_vec().unwrap()))
        .collect();
    // Some(1000) is above every value a 1-byte field stores, None included.
    let below: Scan<Optional> = Optional::scan().v_range(..Some(1000)).into();
    let above: Scan<Optional> = Optional::scan().v_range(Some(1000)..).into();
    for (v, k) in &keys {
        assert!(below.matches(k), "..Some(1000) holds {v:?}");
        assert!(
            below.ranges().any(|r| r.contains(k)),
            "..Some(1000) scans {v:?}"
        );
        assert!(!above.matches(k), "Some(1000).. holds nothing, not {v:?}");
    }
    assert_eq!(above.ranges().count(), 0);
    // Some(-1000) is below every stored Some but above None: it stands right after None.
    let from_low: Scan<Optional> = Optional::scan().v_range(Some(-1000)..).into();
    let to_low: Scan<Optional> = Optional::scan().v_range(..=Some(-1000)).into();
    for (v, k) in &keys {
        let some = v.is_some();
        assert_eq!(from_low.matches(k), some, "Some(-1000).. on {v:?}");
        assert_eq!(
            from_low.ranges().any(|r| r.contains(k)),
            some,
            "scan of Some(-1000).. on {v:?}"
        );
        assert_eq!(to_low.matches(k), !some, "..=Some(-1000) on {v:?}");
        assert_eq!(
            to_low.ranges().any(|r| r.contains(k)),
            !some,
            "scan of ..=Some(-1000) on {v:?}"
        );
    }
}

/// `f_prefix` on byte fields in every form they take: raw at the end of the key, escaped inside
/// it, inverted by `desc`, and padded to a width, checked over every short content and prefix
/// built from the bytes that carry meaning (00, 01, FE, FF).
mod prefixes {
    use super::*;

    #[derive(RowKey, Debug, Clone, PartialEq)]
    struct Last {
        a: u8,
        tail: Vec<u8>,
    }

    #[derive(RowKey, Debug, Clone, PartialEq)]
    struct Inner {
        tag: Vec<u8>,
        n: u8,
    }

    #[derive(RowKey, Debug, Clone, PartialEq)]
    struct InnerDesc {
        #[rowkey(desc)]
        tag: Vec<u8>,
        n: u8,
    }

    #[derive(RowKey, Debug, Clone, PartialEq)]
    struct LastDesc {
        a: u8,
        #[rowkey(desc)]
        tail: Vec<u8>,
    }

    #[derive(RowKey, Debug, Clone, PartialEq)]
    struct Padded {
        #[rowkey(width = 3)]
        code: Vec<u8>,
        n: u8,
    }

    #[derive(RowKey, Debug, Clone, PartialEq)]
    struct PaddedDesc {
        #[rowkey(width = 3, desc)]
        code: Vec<u8>,
        n: u8,
    }

    const ALPHABET: [u8; 5] = [0x00, 0x01, b'a', 0xFE, 0xFF];

    fn check<K: RowKey>(
        what: &str,
        contents: &[Vec<u8>],
        key: impl Fn(&[u8]) -> K,
        plan: impl Fn(&[u8]) -> Scan<K>,
    ) {
        let keys: Vec<(Vec<u8>, Vec<u8>)> = contents
            .iter()
            .map(|c| (c.clone(), key(c).to_vec().unwrap()))
            .collect();
        for p in strings(&ALPHABET, 3) {
            let plan = plan(&p);
            let ranges: Vec<KeyRange> = plan.ranges().collect();
            for (c, k) in &keys {
                let want = c.starts_with(&p);
                assert_eq!(
                    contains(&ranges, k),
                    want,
                    "{what} prefix {p:02X?}, content {c:02X?}"
                );
                assert_eq!(
                    plan.matches(k),
                    want,
                    "{what} matches, prefix {p:02X?}, content {c:02X?}"
                );
            }
        }
    }

    fn check_ranges<K: RowKey>(
        what: &str,
        contents: &[Vec<u8>],
        key: impl Fn(&[u8]) -> K,
        plan: impl Fn(Bound<&[u8]>, Bound<&[u8]>) -> Scan<K>,
    ) {
        let keys: Vec<(Vec<u8>, Vec<u8>)> = contents
            .iter()
            .map(|c| (c.clone(), key(c).to_vec().unwrap()))
            .collect();
        let bounds = strings(&ALPHABET, 2);
        let sides = |v: &Vec<u8>| {
            [
                Bound::Included(v.clone()),
                Bound::Excluded(v.clone()),
                Bound::Unbounded,
            ]
        };
        for a in &bounds {
            for b in &bounds {
                for lo in sides(a) {
                    for hi in sides(b) {
                        let plan = plan(
                            lo.as_ref().map(Vec::as_slice),
                            hi.as_ref().map(Vec::as_slice),
                        );
                        let ranges: Vec<KeyRange> = plan.ranges().collect();
                        for (c, k) in &keys {
                            let want = in_bounds(c, &lo, &hi);
                            assert_eq!(
                                contains(&ranges, k),
                                want,
                                "{what} {lo:02X?}..{hi:02X?}: {c:02X?}"
                            );
                            assert_eq!(
                                plan.matches(k),
                                want,
                                "{what} matches {lo:02X?}..{hi:02X?}: {c:02X?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn ranges_on_every_form_of_a_byte_field_are_exact() {
        let any: Vec<Vec<u8>> = strings(&ALPHABET, 3);
        check_ranges(
            "last",
            &any,
            |c| Last {
                a: 7,
                tail: c.to_vec(),
            },
            |lo, hi| Last::scan().a(7).tail_range((lo, hi)).into(),
        );
        check_ranges(
            "last desc",
            &any,
            |c| LastDesc {
                a: 7,
                tail: c.to_vec(),
            },
            |lo, hi| LastDesc::scan().a(7).tail_range((lo, hi)).into(),
        );
        check_ranges(
            "inner",
            &any,
            |c| Inner {
                tag: c.to_vec(),
                n: 1,
            },
            |lo, hi| Inner::scan().tag_range((lo, hi)).into(),
        );
        check_ranges(
            "inner desc",
            &any,
            |c| InnerDesc {
                tag: c.to_vec(),
                n: 1,
            },
            |lo, hi| InnerDesc::scan().tag_range((lo, hi)).into(),
        );
    }

    #[test]
    fn prefixes_on_every_form_of_a_byte_field_are_exact() {
        let any: Vec<Vec<u8>> = strings(&ALPHABET, 3);
        let padded: Vec<Vec<u8>> = any
            .iter()
            .filter(|c| c.last() != Some(&0))
            .cloned()
            .collect();
        check(
            "last",
            &any,
            |c| Last {
                a: 7,
                tail: c.to_vec(),
            },
            |p| Last::scan().a(7).tail_prefix(p).into(),
        );
        check(
            "last desc",
            &any,
            |c| LastDesc {
                a: 7,
                tail: c.to_vec(),
            },
            |p| LastDesc::scan().a(7).tail_prefix(p).into(),
        );
        check(
            "inner",
            &any,
            |c| Inner {
                tag: c.to_vec(),
                n: 1,
            },
            |p| Inner::scan().tag_prefix(p).into(),
        );
        check(
            "inner desc",
            &any,
            |c| InnerDesc {
                tag: c.to_vec(),
                n: 1,
            },
            |p| InnerDesc::scan().tag_prefix(p).into(),
        );
        check(
            "padded",
            &padded,
            |c| Padded {
                code: c.to_vec(),
                n: 1,
            },
            |p| Padded::scan().code_prefix(p).into(),
        );
        check(
            "padded desc",
            &padded,
            |c| PaddedDesc {
                code: c.to_vec(),
                n: 1,
            },
            |p| PaddedDesc::scan().code_prefix(p).into(),
        );
    }
}

#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
struct Reading {
    x: f64,
    n: u8,
}

/// Float bounds follow the order keys sort in, `total_cmp`'s (DESIGN §5): -0.0 is below 0.0, a
/// negative NaN below every number and a positive NaN above.
#[test]
fn float_ranges_follow_total_cmp() {
    let values = [
        f64::NEG_INFINITY,
        -1.5,
        -0.0,
        0.0,
        2.5,
        f64::INFINITY,
        f64::NAN,
        -f64::NAN,
    ];
    let lows = [-0.0, 0.0, -1.5, f64::NAN, -f64::NAN];
    for &lo in &lows {
        for &hi in &lows {
            let plan = Reading::scan().x_range(lo..hi);
            for &v in &values {
                let want = v.total_cmp(&lo).is_ge() && v.total_cmp(&hi).is_lt();
                let k = Reading { x: v, n: 1 }.to_vec().unwrap();
                assert_eq!(plan.matches(&k), want, "{lo}..{hi} on {v}");
                assert_eq!(
                    plan.ranges().any(|r| r.contains(&k)),
                    want,
                    "scan {lo}..{hi} on {v}"
                );
            }
        }
    }
}

/// A layout whose keys vary in length, in the array lane: an escaped string inside, a fixed field
/// last.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Inner {
    a: u8,
    s: String,
    #[rowkey(desc)]
    t: i16,
}

/// The string last, its raw bytes ending the key: a longer one is a greater value, not the same
/// one with more after it.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct Last {
    a: u8,
    s: String,
}

static INNER: ScanLayout = ScanLayout::new(Prefix::None, &[false, false, false], false, false);
static LAST: ScanLayout = ScanLayout::new(Prefix::None, &[false, false], false, false);
const S_INNER: FieldMode = FieldMode::INNER;
const S_LAST: FieldMode = FieldMode::LAST;
const T: FieldMode = FieldMode::LAST.with_desc();

/// Strings around the escape and terminator bytes, prefixes of each other, and one longer than
/// the lane's arrays hold.
fn lane_strings() -> Vec<String> {
    let long = "x".repeat(rowkey::__private::LANE_CAPACITY + 3);
    [
        "",
        "a",
        "a\0",
        "a\0b",
        "ab",
        "abc",
        "b",
        "\u{ff}",
        "\0",
        "\u{7f}\u{7f}",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([long.clone(), long + "y"])
    .collect()
}

const TS: [i16; 5] = [i16::MIN, -1, 0, 1, i16::MAX];
const A_VAR: [u8; 3] = [0, 1, 255];

/// One query on both variable layouts: the typed state (the array lane), the general planner by
/// hand, and the predicates.
struct VarQuery {
    what: String,
    inner: (Scan<Inner>, Scan<Inner>, KeyTest),
    last: (Scan<Last>, Scan<Last>, KeyTest),
    inner_pred: Box<dyn Fn(&Inner) -> bool>,
    last_pred: Box<dyn Fn(&Last) -> bool>,
}

fn var_query(rng: &mut Rng, i: usize, strings: &[String]) -> VarQuery {
    let a = *rng.pick(&A_VAR);
    let s = rng.pick(strings).clone();
    let t = *rng.pick(&TS);
    let inner = || <Scan<Inner> as Bind>::start(&INNER).bind_eq(&a, A);
    let last = || <Scan<Last> as Bind>::start(&LAST).bind_eq(&a, A);
    match i % 6 {
        0 => {
            let (si, sl) = (Inner::scan().a(a), Last::scan().a(a));
            VarQuery {
                what: format!("a({a})"),
                inner: (si.clone().into(), inner(), Box::new(move |k| si.matches(k))),
                last: (sl.clone().into(), last(), Box::new(move |k| sl.matches(k))),
                inner_pred: Box::new(move |e| e.a == a),
                last_pred: Box::new(move |e| e.a == a),
            }
        }
        1 => {
            // The whole key of `Last`: that key alone.
            let (si, sl) = (Inner::scan().a(a).s(&s), Last::scan().a(a).s(&s));
            let (s1, s2) = (s.clone(), s.clone());
            VarQuery {
                what: format!("a({a}).s({s:?})"),
                inner: (
                    si.clone().into(),
                    inner().bind_eq(s.as_str(), S_INNER),
                    Box::new(move |k| si.matches(k)),
                ),
                last: (
                    sl.clone().into(),
                    last().bind_eq(s.as_str(), S_LAST),
                    Box::new(move |k| sl.matches(k)),
                ),
                inner_pred: Box::new(move |e| e.a == a && e.s == s1),
                last_pred: Box::new(move |e| e.a == a && e.s == s2),
            }
        }
        2 => {
            let si = Inner::scan().a(a).s(&s).t(t);
            let s1 = s.clone();
            VarQuery {
                what: format!("a({a}).s({s:?}).t({t})"),
                inner: (
                    si.clone().into(),
                    inner().bind_eq(s.as_str(), S_INNER).bind_eq(&t, T),
                    Box::new(move |k| si.matches(k)),
                ),
                last: (
                    Last::scan().into(),
                    <Scan<Last> as Bind>::start(&LAST),
                    Box::new(|_| true),
                ),
                inner_pred: Box::new(move |e| e.a == a && e.s == s1 && e.t == t),
                last_pred: Box::new(|_| true),
            }
        }
        3 | 4 => {
            let r = bounds_of(rng, strings);
            let rr = (
                r.0.as_ref().map(String::as_str),
                r.1.as_ref().map(String::as_str),
            );
            let (si, sl) = (
                Inner::scan().a(a).s_range(rr),
                Last::scan().a(a).s_range(rr),
            );
            let (r1, r2) = (r.clone(), r.clone());
            VarQuery {
                what: format!("a({a}).s_range({r:?})"),
                inner: (
                    si.clone().into(),
                    inner().bind_range(rr.0, rr.1, S_INNER, ValueOrder::UNKNOWN),
                    Box::new(move |k| si.matches(k)),
                ),
                last: (
                    sl.clone().into(),
                    last().bind_range(rr.0, rr.1, S_LAST, ValueOrder::UNKNOWN),
                    Box::new(move |k| sl.matches(k)),
                ),
                inner_pred: Box::new(move |e| e.a == a && in_bounds(&e.s, &r1.0, &r1.1)),
                last_pred: Box::new(move |e| e.a == a && in_bounds(&e.s, &r2.0, &r2.1)),
            }
        }
        _ => {
            let r = bounds(rng, &TS);
            let si = Inner::scan().a(a).s(&s).t_range(r);
            let s1 = s.clone();
            VarQuery {
                what: format!("a({a}).s({s:?}).t_range({r:?})"),
                inner: (
                    si.clone().into(),
                    inner().bind_eq(s.as_str(), S_INNER).bind_range(
                        as_ref(&r).0,
                        as_ref(&r).1,
                        T,
                        ValueOrder::UNKNOWN,
                    ),
                    Box::new(move |k| si.matches(k)),
                ),
                last: (
                    Last::scan().into(),
                    <Scan<Last> as Bind>::start(&LAST),
                    Box::new(|_| true),
                ),
                inner_pred: Box::new(move |e| e.a == a && e.s == s1 && in_bounds(&e.t, &r.0, &r.1)),
                last_pred: Box::new(|_| true),
            }
        }
    }
}

/// Checks one lane's plan against the general planner and the predicate over `keys`.
fn check_var<K>(what: &str, plan: &(Scan<K>, Scan<K>, KeyTest), keys: &[(bool, Vec<u8>)]) -> usize {
    let (typed, general, state_matches) = plan;
    let ranges: Vec<KeyRange> = typed.ranges().collect();
    assert_eq!(
        ranges,
        general.ranges().collect::<Vec<_>>(),
        "{what}: the lanes plan differently"
    );
    assert!(typed.is_exact() && general.is_exact(), "{what}");
    let mut matched = 0;
    for (want, k) in keys {
        matched += usize::from(*want);
        assert_eq!(
            contains(&ranges, k),
            *want,
            "{what}: ranges {ranges:?} and key {k:02X?}"
        );
        assert_eq!(typed.matches(k), *want, "{what}: matches {k:02X?}");
        assert_eq!(state_matches(k), *want, "{what}: state matches {k:02X?}");
        assert_eq!(
            general.matches(k),
            *want,
            "{what}: general matches {k:02X?}"
        );
    }
    matched
}

#[test]
fn variable_layouts_in_the_array_lane_match_brute_force_and_the_general_planner() {
    let strings = lane_strings();
    let mut inner_keys = Vec::new();
    let mut last_keys = Vec::new();
    for &a in &A_VAR {
        for s in &strings {
            last_keys.push(Last { a, s: s.clone() });
            for &t in &TS {
                inner_keys.push(Inner { a, s: s.clone(), t });
            }
        }
    }
    let mut rng = Rng(0x5A4E);
    let mut matched = 0;
    for i in 0..3_000 {
        let q = var_query(&mut rng, i, &strings);
        let inner: Vec<(bool, Vec<u8>)> = inner_keys
            .iter()
            .map(|e| ((q.inner_pred)(e), e.to_vec().unwrap()))
            .collect();
        let last: Vec<(bool, Vec<u8>)> = last_keys
            .iter()
            .map(|e| ((q.last_pred)(e), e.to_vec().unwrap()))
            .collect();
        matched += check_var(&format!("Inner::{}", q.what), &q.inner, &inner);
        matched += check_var(&format!("Last::{}", q.what), &q.last, &last);
    }
    assert!(
        matched > 20_000,
        "the queries matched too few keys: {matched}"
    );
}
