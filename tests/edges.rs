//! Edges a new user meets, each once broken: a custom field type taught by the `KeyField` docs
//! lost rows in scans; a raw identifier field broke the derive; `K::decode` was ambiguous beside a
//! custom field type; `split_keys(usize::MAX)` aborted the process.

use std::ops::Bound;

use rowkey::{
    DecodeError, DecodeField, EncodeError, FieldMode, FieldShape, KeyField, KeyRange, RowKey, Scan,
};

mod common;
use common::in_bounds;

/// Milliseconds since the epoch, keyed like an `i64`: the delegating impl exactly as the
/// `KeyField` docs teach it (nothing but `SHAPE`, `encoded_len`, `encode` and `decode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Millis(i64);

impl KeyField for Millis {
    const SHAPE: FieldShape = <i64 as KeyField>::SHAPE;
    fn field_len(&self, mode: FieldMode) -> usize {
        self.0.field_len(mode)
    }
    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        self.0.encode(out, mode)
    }
}

impl<'k> DecodeField<'k> for Millis {
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        i64::decode_field(input, mode).map(|(v, n)| (Millis(v), n))
    }
}

#[derive(RowKey, Debug, PartialEq)]
struct ByMillis {
    user: u32,
    #[rowkey(width = 4)]
    ts: Millis,
}

#[derive(RowKey, Debug, PartialEq)]
struct ByI64 {
    user: u32,
    #[rowkey(width = 4)]
    ts: i64,
}

#[derive(RowKey, Debug, PartialEq)]
struct ByMillisDesc {
    #[rowkey(salt(buckets = 4))]
    user: u32,
    #[rowkey(width = 2, desc)]
    ts: Millis,
    tag: String,
}

#[derive(RowKey, Debug, PartialEq)]
struct ByI64Desc {
    #[rowkey(salt(buckets = 4))]
    user: u32,
    #[rowkey(width = 2, desc)]
    ts: i64,
    tag: String,
}

#[test]
fn delegating_field_type_scans_find_the_row_the_issue_reported_lost() {
    let row = ByMillis {
        user: 7,
        ts: Millis(5),
    }
    .to_vec()
    .unwrap();
    let plan = ByMillis::scan().user(7).ts_range(..=Millis(i64::MAX));
    let ranges: Vec<KeyRange> = plan.ranges().collect();
    assert!(!ranges.is_empty(), "the plan reads nothing");
    assert!(ranges.iter().any(|r| r.contains(&row)));
    assert!(plan.matches(&row));
    // The same layout with the built-in type plans the same bytes.
    let same: Vec<KeyRange> = ByI64::scan()
        .user(7)
        .ts_range(..=i64::MAX)
        .ranges()
        .collect();
    assert_eq!(ranges, same);
}

/// Bounds on both sides of a width: inside it, at its edges, past it, and at the type's limits.
fn edge_bounds(width_bytes: u32) -> Vec<i64> {
    let max = (1i64 << (8 * width_bytes - 1)) - 1;
    let min = -max - 1;
    let mut v = vec![
        i64::MIN,
        i64::MIN + 1,
        i64::MAX,
        i64::MAX - 1,
        0,
        1,
        -1,
        5,
        -5,
    ];
    for edge in [min, max] {
        v.extend([edge - 1, edge, edge + 1]);
    }
    v
}

fn bounds_of(values: &[i64]) -> Vec<Bound<i64>> {
    let mut out = vec![Bound::Unbounded];
    for &v in values {
        out.push(Bound::Included(v));
        out.push(Bound::Excluded(v));
    }
    out
}

fn map_bound(b: Bound<i64>) -> Bound<Millis> {
    match b {
        Bound::Included(v) => Bound::Included(Millis(v)),
        Bound::Excluded(v) => Bound::Excluded(Millis(v)),
        Bound::Unbounded => Bound::Unbounded,
    }
}

#[test]
fn delegating_field_type_plans_exactly_as_its_inner_type() {
    let bounds = bounds_of(&edge_bounds(4));
    // Stored values of a 4-byte width, at its edges and in between.
    let stored: Vec<i64> = [
        i32::MIN as i64,
        i32::MIN as i64 + 1,
        -1,
        0,
        5,
        i32::MAX as i64,
    ]
    .to_vec();
    let mut checked = 0;
    for lo in &bounds {
        for hi in &bounds {
            let ours: Scan<ByMillis> = ByMillis::scan()
                .user(7)
                .ts_range((map_bound(*lo), map_bound(*hi)))
                .into();
            let theirs: Scan<ByI64> = ByI64::scan().user(7).ts_range((*lo, *hi)).into();
            assert_eq!(
                ours.ranges().collect::<Vec<_>>(),
                theirs.ranges().collect::<Vec<_>>(),
                "{lo:?}..{hi:?}"
            );
            assert_eq!(ours.is_exact(), theirs.is_exact());
            for &ts in &stored {
                let key = ByMillis {
                    user: 7,
                    ts: Millis(ts),
                }
                .to_vec()
                .unwrap();
                let want = in_bounds(&ts, lo, hi);
                assert_eq!(ours.matches(&key), want, "{ts} in {lo:?}..{hi:?}");
                if want {
                    assert!(ours.ranges().any(|r| r.contains(&key)), "{ts} lost");
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, bounds.len() * bounds.len() * stored.len());
}

#[test]
fn delegating_field_type_plans_as_its_inner_type_under_desc_salt_and_a_later_field() {
    let bounds = bounds_of(&edge_bounds(2));
    for lo in &bounds {
        for hi in &bounds {
            let ours = ByMillisDesc::scan()
                .user(3)
                .ts_range((map_bound(*lo), map_bound(*hi)));
            let theirs = ByI64Desc::scan().user(3).ts_range((*lo, *hi));
            assert_eq!(
                ours.ranges().collect::<Vec<_>>(),
                theirs.ranges().collect::<Vec<_>>(),
                "{lo:?}..{hi:?}"
            );
            for ts in [i16::MIN as i64, -1, 0, 1, i16::MAX as i64] {
                let key = ByMillisDesc {
                    user: 3,
                    ts: Millis(ts),
                    tag: "x".into(),
                }
                .to_vec()
                .unwrap();
                assert_eq!(ours.matches(&key), in_bounds(&ts, lo, hi));
            }
        }
    }
}

/// A type whose shape tells the planner nothing (`FieldShape::fixed`) and whose `encode` refuses
/// some values: a bound it refuses cannot be placed, so the plan drops it and reads more.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
struct Even(u16);

impl KeyField for Even {
    const SHAPE: FieldShape = FieldShape::fixed(2);
    fn field_len(&self, _: FieldMode) -> usize {
        2
    }
    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        if self.0 % 2 == 1 {
            // Stands for any value a custom type cannot store.
            return Err(EncodeError::from(rowkey::EncodeErrorKind::TooWide {
                width: 2,
            }));
        }
        self.0.encode(out, mode)
    }
}

impl<'k> DecodeField<'k> for Even {
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        u16::decode_field(input, mode).map(|(v, n)| (Even(v), n))
    }
}

#[derive(RowKey, Debug)]
struct ByEven {
    user: u8,
    v: Even,
}

/// The same type behind a salt: the general planner's ranged tail, one range per bucket.
#[derive(RowKey, Debug)]
#[rowkey(salt(buckets = 4))]
struct SaltedEven {
    user: u8,
    v: Even,
}

/// The same type after a string: a variable layout, planned by the general planner only.
#[derive(RowKey, Debug)]
struct NamedEven {
    name: String,
    v: Even,
    rest: u8,
}

/// The ranges (with `user` or `name` bound to `1`/`"a"`) and the keys of every value of `v`
/// from 0 to 12, with the other key fields varied.
fn even_cases() -> Vec<(u16, Vec<u8>, bool)> {
    let mut keys = Vec::new();
    for v in (0..=12u16).step_by(2) {
        for other in [1u8, 2] {
            let by = ByEven {
                user: other,
                v: Even(v),
            }
            .to_vec()
            .unwrap();
            keys.push((v, by, other == 1));
        }
    }
    keys
}

#[test]
fn a_bound_nothing_can_place_widens_the_plan_and_matches_stays_the_query() {
    let ranges = [
        (Bound::Included(Even(3)), Bound::Included(Even(10))),
        (Bound::Included(Even(2)), Bound::Included(Even(9))),
        (Bound::Included(Even(1)), Bound::Included(Even(7))),
        (Bound::Excluded(Even(3)), Bound::Excluded(Even(7))),
        (Bound::Included(Even(3)), Bound::Unbounded),
        (Bound::Unbounded, Bound::Excluded(Even(5))),
    ];
    for (lo, hi) in ranges {
        let asked = |v: u16| in_bounds(&Even(v), &lo, &hi);
        let plans: Vec<(&str, Scan<ByEven>)> = vec![
            (
                "fixed lane",
                ByEven::scan().user(1).v_range((lo, hi)).into(),
            ),
            (
                "IN list",
                ByEven::scan().user_in([1, 7]).v_range((lo, hi)).into(),
            ),
        ];
        for (what, plan) in plans {
            assert!(!plan.is_exact(), "{what} {lo:?}..{hi:?} planned exactly");
            for (v, key, user_one) in even_cases() {
                let wanted = user_one && asked(v);
                if wanted {
                    assert!(plan.ranges().any(|r| r.contains(&key)), "{what}: {v} lost");
                }
                assert_eq!(
                    plan.matches(&key),
                    wanted,
                    "{what} {lo:?}..{hi:?}: matches({v})"
                );
                // Resumed and split plans keep the same test of a key.
                let resumed = plan.after(&[1]);
                assert_eq!(resumed.matches(&key), wanted, "{what}: after, {v}");
                let parts = plan.split([[1u8, 0, 5], [1, 0, 9]]);
                let in_parts = parts.iter().filter(|p| p.matches(&key)).count();
                assert_eq!(in_parts, usize::from(wanted), "{what}: split, {v}");
            }
        }
        let salted = SaltedEven::scan().user(1).v_range((lo, hi));
        assert!(!salted.is_exact());
        let named = NamedEven::scan().name("a").v_range((lo, hi));
        assert!(!named.is_exact());
        for v in (0..=12u16).step_by(2) {
            for user in [1u8, 2] {
                let wanted = user == 1 && asked(v);
                let key = SaltedEven { user, v: Even(v) }.to_vec().unwrap();
                assert!(
                    !wanted || salted.ranges().any(|r| r.contains(&key)),
                    "salted {v} lost"
                );
                assert_eq!(salted.matches(&key), wanted, "salted: matches({v})");
                let name = if user == 1 { "a" } else { "ab" };
                let key = NamedEven {
                    name: name.into(),
                    v: Even(v),
                    rest: 9,
                }
                .to_vec()
                .unwrap();
                assert!(
                    !wanted || named.ranges().any(|r| r.contains(&key)),
                    "named {v} lost"
                );
                assert_eq!(named.matches(&key), wanted, "named: matches({v})");
            }
        }
    }
    // Bounds it can encode plan exactly.
    assert!(ByEven::scan().user(1).v_range(Even(2)..=Even(8)).is_exact());
}

/// The same type inside an `Option`: the order is `Option`'s (`None` first), as its bytes sort.
#[derive(RowKey, Debug)]
struct ByMaybeEven {
    user: u8,
    v: Option<Even>,
    rest: u8,
}

#[test]
fn a_bound_nothing_can_place_inside_an_option_keeps_matches_the_query() {
    let (lo, hi) = (Some(Even(3)), Some(Even(9)));
    let plan = ByMaybeEven::scan().user(1).v_range(lo..=hi);
    assert!(!plan.is_exact());
    let values = std::iter::once(None).chain((0..=12u16).step_by(2).map(|v| Some(Even(v))));
    for v in values {
        let key = ByMaybeEven {
            user: 1,
            v,
            rest: 0,
        }
        .to_vec()
        .unwrap();
        let wanted = (lo..=hi).contains(&v);
        assert!(
            !wanted || plan.ranges().any(|r| r.contains(&key)),
            "{v:?} lost"
        );
        assert_eq!(plan.matches(&key), wanted, "matches({v:?})");
    }
}

/// A type like `Even` without an order of its own (no `PartialOrd`): nothing can say where a
/// refused bound lies, so the plan and `matches` both read more than asked, never less.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Odd(u8);

impl KeyField for Odd {
    const SHAPE: FieldShape = FieldShape::fixed(1);
    fn field_len(&self, _: FieldMode) -> usize {
        1
    }
    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        if self.0 % 2 == 0 {
            return Err(EncodeError::from(rowkey::EncodeErrorKind::TooWide {
                width: 1,
            }));
        }
        self.0.encode(out, mode)
    }
}

impl<'k> DecodeField<'k> for Odd {
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        u8::decode_field(input, mode).map(|(v, n)| (Odd(v), n))
    }
}

#[derive(RowKey, Debug)]
struct ByOdd {
    user: u8,
    v: Odd,
}

#[test]
fn a_bound_of_a_type_without_an_order_widens_the_plan_and_matches() {
    let plan = ByOdd::scan().user(1).v_range(Odd(2)..Odd(7));
    assert!(!plan.is_exact());
    let key = |v| ByOdd { user: 1, v: Odd(v) }.to_vec().unwrap();
    for v in [3, 5] {
        assert!(
            plan.ranges().any(|r| r.contains(&key(v))) && plan.matches(&key(v)),
            "{v} lost"
        );
    }
    // The bound it can store still holds; the dropped one lets 1 in.
    assert!(!plan.matches(&key(7)) && !plan.matches(&key(9)));
    assert!(plan.matches(&key(1)));
}

#[allow(non_camel_case_types)]
#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
enum r#Kind {
    r#A,
    B,
}

#[derive(RowKey, Debug, PartialEq)]
struct r#Raw {
    r#type: u8,
    r#match: Kind,
    r#fn: String,
}

#[test]
fn raw_identifier_fields_work_everywhere() {
    let key = r#Raw {
        r#type: 2,
        r#match: Kind::A,
        r#fn: "go".into(),
    };
    let bytes = key.to_vec().unwrap();
    assert_eq!(Raw::decode(&bytes).unwrap(), key);
    // The equality method is the field itself, raw; the others are built from its bare name.
    assert!(Raw::scan()
        .r#type(2)
        .r#match(Kind::A)
        .fn_prefix("g")
        .matches(&bytes));
    assert!(Raw::scan().type_in([1, 2]).matches(&bytes));
    assert!(Raw::scan().type_range(2..3).matches(&bytes));
    assert!(Raw::scan()
        .r#type(2)
        .match_in([Kind::A])
        .fn_range("a".."h")
        .matches(&bytes));
    // Messages and LAYOUT name the fields without `r#`.
    let names: Vec<&str> = Raw::LAYOUT.segments.iter().map(|s| s.name).collect();
    assert_eq!(names, ["type", "match", "fn"]);
    assert_eq!(Raw::LAYOUT.name, "Raw");
    let err = Raw::decode(&bytes[..1]).unwrap_err().to_string();
    assert!(err.contains("match") && !err.contains("r#"), "{err}");
}

/// A module that defines its own field type imports both field traits and both key traits.
mod custom_field_module {
    use rowkey::{DecodeError, DecodeField, DecodeKey, EncodeError, FieldMode, FieldShape};
    use rowkey::{KeyField, RowKey};

    #[derive(Debug, PartialEq)]
    pub struct Sensor(pub u16);

    impl KeyField for Sensor {
        const SHAPE: FieldShape = <u16 as KeyField>::SHAPE;
        fn field_len(&self, mode: FieldMode) -> usize {
            self.0.field_len(mode)
        }
        fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
            self.0.encode(out, mode)
        }
    }

    impl<'k> DecodeField<'k> for Sensor {
        fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
            u16::decode_field(input, mode).map(|(v, n)| (Sensor(v), n))
        }
    }

    #[derive(RowKey, Debug, PartialEq)]
    pub struct Reading {
        pub sensor: Sensor,
        pub ts: i64,
    }

    #[derive(RowKey, Debug, PartialEq)]
    pub struct Named<'a> {
        pub name: std::borrow::Cow<'a, str>,
        pub n: u8,
    }

    pub fn round_trip() -> Result<(), Box<dyn std::error::Error>> {
        let r = Reading {
            sensor: Sensor(9),
            ts: -3,
        };
        let key = r.to_vec()?;
        // Both `decode`s and both `encoded_len`s are in scope here: the key's own are meant.
        assert_eq!(Reading::decode(&key)?, r);
        assert_eq!(r.encoded_len(), key.len());
        let named = Named {
            name: "a\0b".into(),
            n: 1,
        };
        let key = named.to_vec()?;
        assert_eq!(Named::decode(&key)?, named);
        assert_eq!(named.encoded_len(), key.len());
        // The trait forms still work, as before.
        assert_eq!(<Reading as DecodeKey>::decode(&r.to_vec()?)?, r);
        assert_eq!(RowKey::encoded_len(&r), 10);
        Ok(())
    }
}

#[test]
fn decode_resolves_where_field_and_key_traits_are_both_in_scope() {
    custom_field_module::round_trip().unwrap();
}

#[derive(RowKey)]
struct Salted {
    #[rowkey(salt(buckets = 16))]
    user: u64,
}

#[derive(RowKey)]
struct Hashed1 {
    #[rowkey(hash_prefix(len = 1))]
    user: u64,
}

#[derive(RowKey)]
struct Hashed16 {
    #[rowkey(hash_prefix(len = 16))]
    user: u64,
}

#[derive(RowKey)]
#[rowkey(text, delimiter = ":")]
struct TextHashed {
    #[rowkey(hash_prefix(len = 2))]
    user: u64,
}

#[derive(RowKey)]
struct Plain {
    user: u64,
}

fn assert_sorted_distinct(points: &[Vec<u8>], what: &str) {
    assert!(
        points.windows(2).all(|w| w[0] < w[1]),
        "{what}: split points not strictly increasing"
    );
    assert!(
        points.iter().all(|p| !p.is_empty()),
        "{what}: an empty point"
    );
}

#[test]
fn absurd_region_counts_are_clamped_not_aborted() {
    for regions in [usize::MAX, usize::MAX / 2, 1 << 40, 1 << 20] {
        let salted = Salted::split_keys(regions);
        assert_eq!(salted.len(), rowkey::regions::MAX_SPLIT_REGIONS - 1);
        assert_sorted_distinct(&salted, "salt");
        // A one-byte hash prefix has 256 values: 256 regions at most.
        let one = Hashed1::split_keys(regions);
        assert_eq!(one.len(), 255);
        assert_sorted_distinct(&one, "hash len 1");
        let sixteen = Hashed16::split_keys(regions);
        assert_eq!(sixteen.len(), rowkey::regions::MAX_SPLIT_REGIONS - 1);
        assert_sorted_distinct(&sixteen, "hash len 16");
        // Two hex digits: 256 values.
        let text = TextHashed::split_keys(regions);
        assert_eq!(text.len(), 255);
        assert_sorted_distinct(&text, "text hash");
        assert!(Plain::split_keys(regions).is_empty());
    }
    // Ordinary counts are untouched.
    assert_eq!(Salted::split_keys(16).len(), 15);
    assert_eq!(Hashed1::split_keys(4), [vec![0x40], vec![0x80], vec![0xC0]]);
}

/// A custom shape that honours `desc` and says so: a `u16` inverted under `desc`.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
struct Inverting(u16);

impl KeyField for Inverting {
    const SHAPE: FieldShape = FieldShape::fixed(2).inverts_under_desc();
    fn field_len(&self, _: FieldMode) -> usize {
        2
    }
    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        let n = self.0.encode(out, FieldMode::LAST)?;
        if mode.is_desc() {
            out[..n].iter_mut().for_each(|b| *b = !*b);
        }
        Ok(n)
    }
}

impl<'k> DecodeField<'k> for Inverting {
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        let (v, n) = u16::decode_field(input, FieldMode::LAST)?;
        Ok((Inverting(if mode.is_desc() { !v } else { v }), n))
    }
}

#[derive(RowKey, Debug, PartialEq)]
struct DescCustom {
    a: u8,
    #[rowkey(desc)]
    v: Inverting,
}

#[test]
fn a_custom_type_that_declares_desc_sorts_descending_and_scans_find_its_rows() {
    let keys: Vec<(Vec<u8>, DescCustom)> = (0..6u16)
        .map(|v| {
            let k = DescCustom {
                a: 1,
                v: Inverting(v),
            };
            (k.to_vec().unwrap(), k)
        })
        .collect();
    // Descending: larger values first.
    assert!(keys.windows(2).all(|w| w[0].0 > w[1].0));
    let plan = DescCustom::scan().a(1).v_range(Inverting(1)..Inverting(4));
    let wanted: Vec<u16> = keys
        .iter()
        .filter(|(k, _)| plan.ranges().any(|r| r.contains(k)))
        .map(|(_, v)| v.v.0)
        .collect();
    assert_eq!(wanted.len(), 3, "1, 2 and 3 are read: {wanted:?}");
    assert!(keys
        .iter()
        .all(|(k, v)| plan.matches(k) == (1..4).contains(&v.v.0)));
    assert_eq!(DescCustom::decode(&keys[2].0).unwrap(), keys[2].1);
}
