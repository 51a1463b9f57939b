//! `rowkey::schema` against the derive (DESIGN 14): for random values of a layout of every kind,
//! the schema read from the type's lock writes the derive's bytes, decodes the derive's keys to
//! the same values, explains them as `K::explain` does, and plans the typed builder's ranges for
//! the same queries, with `matches` agreeing on random keys.
//!
//! Each case's values are written out by hand from the Rust value (`values()`), so the schema is
//! compared with the derive, never with itself.

use std::ops::Bound;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use proptest::prelude::*;
use rowkey::schema::{Condition, Schema, Value};
use rowkey::{Hashed, KeyRange, RowKey, Scan};

#[derive(RowKey, Debug, Clone, Copy, PartialEq)]
enum EventKind {
    PageView = 1,
    Click = 2,
    Purchase = 3,
}

const KINDS: [EventKind; 3] = [EventKind::PageView, EventKind::Click, EventKind::Purchase];

/// The quickstart's key.
#[derive(RowKey, Debug, Clone, PartialEq)]
struct EventKey {
    user_id: u64,
    #[rowkey(desc)]
    ts_millis: i64,
    kind: EventKind,
    host: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(salt(buckets = 16, hash = "java"))]
struct WholeSalted {
    host: String,
    #[rowkey(desc)]
    ts: i64,
    kind: EventKind,
    note: Vec<u8>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct FieldSalted {
    #[rowkey(salt(buckets = 8, hash = "md5"))]
    user: u32,
    #[rowkey(width = 3)]
    seq: u32,
    name: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct HashPrefixed {
    #[rowkey(hash_prefix(len = 4))]
    host: String,
    #[rowkey(width = 4, reverse)]
    seq: u64,
    tail: Vec<u8>,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(text, delimiter = ":")]
struct Text {
    #[rowkey(hash_prefix(len = 6, upper))]
    user: u32,
    #[rowkey(desc)]
    ts: u64,
    #[rowkey(width = 8)]
    city: String,
    page: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Inner {
    region: u16,
    name: String,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(tag = b"obj/", max_len = 256)]
struct Nested {
    inner: Inner,
    maybe: Option<i32>,
    digest: Hashed<4>,
    ratio: f64,
    flag: bool,
    letter: char,
    raw: [u8; 3],
    #[rowkey(unit = "s", desc)]
    at: SystemTime,
    small: i8,
    big: u128,
}

#[derive(RowKey, Debug, Clone, PartialEq)]
enum Versioned {
    #[rowkey(tag = 1)]
    V1 { user: u32 },
    #[rowkey(tag = 2)]
    V2 {
        user: u32,
        kind: EventKind,
        #[rowkey(desc)]
        name: Option<String>,
    },
    #[rowkey(tag = 3)]
    Gone {},
}

fn v(path: &str, value: Value) -> (String, Value) {
    (path.to_string(), value)
}

fn kind_name(k: EventKind) -> Value {
    Value::Variant(format!("{k:?}").into())
}

/// A layout under test: its values by path, written out from the Rust value.
trait Case: RowKey + Sized {
    fn values(&self) -> Vec<(String, Value)>;
}

impl Case for EventKey {
    fn values(&self) -> Vec<(String, Value)> {
        vec![
            v("user_id", Value::Unsigned(self.user_id.into())),
            v("ts_millis", Value::Signed(self.ts_millis.into())),
            v("kind", kind_name(self.kind)),
            v("host", Value::Str(self.host.clone())),
        ]
    }
}

impl Case for WholeSalted {
    fn values(&self) -> Vec<(String, Value)> {
        vec![
            v("host", Value::Str(self.host.clone())),
            v("ts", Value::Signed(self.ts.into())),
            v("kind", kind_name(self.kind)),
            v("note", Value::Bytes(self.note.clone())),
        ]
    }
}

impl Case for FieldSalted {
    fn values(&self) -> Vec<(String, Value)> {
        vec![
            v("user", Value::Unsigned(self.user.into())),
            v("seq", Value::Unsigned(self.seq.into())),
            v("name", Value::Str(self.name.clone())),
        ]
    }
}

impl Case for HashPrefixed {
    fn values(&self) -> Vec<(String, Value)> {
        vec![
            v("host", Value::Str(self.host.clone())),
            v("seq", Value::Unsigned(self.seq.into())),
            v("tail", Value::Bytes(self.tail.clone())),
        ]
    }
}

impl Case for Text {
    fn values(&self) -> Vec<(String, Value)> {
        vec![
            v("user", Value::Unsigned(self.user.into())),
            v("ts", Value::Unsigned(self.ts.into())),
            v("city", Value::Str(self.city.clone())),
            v("page", Value::Str(self.page.clone())),
        ]
    }
}

impl Case for Nested {
    fn values(&self) -> Vec<(String, Value)> {
        let secs = self.at.duration_since(UNIX_EPOCH).unwrap().as_secs();
        vec![
            v("inner.region", Value::Unsigned(self.inner.region.into())),
            v("inner.name", Value::Str(self.inner.name.clone())),
            v(
                "maybe",
                self.maybe.map_or(Value::Null, |m| Value::Signed(m.into())),
            ),
            v("digest", Value::Hex(self.digest.as_bytes().to_vec())),
            v("ratio", Value::Float(self.ratio)),
            v("flag", Value::Bool(self.flag)),
            v("letter", Value::Char(self.letter)),
            v("raw", Value::Bytes(self.raw.to_vec())),
            v("at", Value::Unsigned(secs.into())),
            v("small", Value::Signed(self.small.into())),
            v("big", Value::Unsigned(self.big)),
        ]
    }
}

impl Case for Versioned {
    fn values(&self) -> Vec<(String, Value)> {
        match self {
            Versioned::V1 { user } => vec![v("V1.user", Value::Unsigned((*user).into()))],
            Versioned::V2 { user, kind, name } => vec![
                v("V2.user", Value::Unsigned((*user).into())),
                v("V2.kind", kind_name(*kind)),
                v("V2.name", name.clone().map_or(Value::Null, Value::Str)),
            ],
            Versioned::Gone {} => vec![v("Gone", Value::Null)],
        }
    }
}

fn schema_of<K: RowKey>(samples: &[K]) -> Schema {
    let text = rowkey::lock::render(samples).expect("samples encode");
    Schema::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Encode, decode and explain of `k` through `schema` equal the derive's.
fn same_key<K: Case + std::fmt::Debug>(schema: &Schema, k: &K) -> Result<(), TestCaseError> {
    let bytes = k.to_vec().unwrap();
    let values = k.values();
    prop_assert_eq!(
        schema.encode(&values).map_err(|e| e.to_string()),
        Ok(bytes.clone()),
        "encode {:?}",
        k
    );
    let decoded = schema.decode(&bytes).map(|fields| {
        fields
            .into_iter()
            .map(|(p, v)| (p.to_string(), v))
            .collect::<Vec<_>>()
    });
    prop_assert_eq!(
        decoded.map_err(|e| e.to_string()),
        Ok(values),
        "decode {:?}",
        k
    );
    let typed = K::explain(&bytes).unwrap().to_string();
    prop_assert_eq!(schema.explain(&bytes).unwrap().to_string(), typed);
    Ok(())
}

/// The schema's plan of `query` has the typed plan's ranges, and both match the same keys.
fn same_plan<K>(
    schema: &Schema,
    query: &[(&str, Condition)],
    typed: Scan<K>,
    keys: &[Vec<u8>],
) -> Result<(), TestCaseError> {
    let plan = schema
        .plan(query)
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    let theirs: Vec<KeyRange> = typed.ranges().collect();
    prop_assert_eq!(plan.ranges().collect::<Vec<_>>(), theirs, "{:?}", query);
    prop_assert_eq!(plan.is_exact(), typed.is_exact());
    for key in keys {
        prop_assert_eq!(
            plan.matches(key),
            typed.matches(key),
            "{:?} on {:?}",
            query,
            key
        );
    }
    Ok(())
}

fn eq(value: Value) -> Condition {
    Condition::Eq(value)
}

fn range(lo: Value, hi: Value) -> Condition {
    Condition::Range(Bound::Included(lo), Bound::Excluded(hi))
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        ".{0,8}",
        "[a-c\\x00\\xFF]{0,4}".prop_map(|s| s),
        Just(String::new())
    ]
}

fn ascii() -> impl Strategy<Value = String> {
    "[a-z0-9.-]{0,10}"
}

fn kind() -> impl Strategy<Value = EventKind> {
    (0usize..3).prop_map(|i| KINDS[i])
}

fn event_key() -> impl Strategy<Value = EventKey> {
    (any::<u64>(), any::<i64>(), kind(), text()).prop_map(|(user_id, ts_millis, kind, host)| {
        EventKey {
            user_id: user_id % 4,
            ts_millis,
            kind,
            host,
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn quickstart_key_matches_the_derive(k in event_key(), others in prop::collection::vec(event_key(), 8), a in any::<i64>(), b in any::<i64>(), p in text()) {
        let schema = schema_of(std::slice::from_ref(&k));
        same_key(&schema, &k)?;
        let keys: Vec<Vec<u8>> = others.iter().chain([&k]).map(|o| o.to_vec().unwrap()).collect();
        let (lo, hi) = (a.min(b), a.max(b));
        same_plan(&schema, &[("user_id", eq(Value::Unsigned(k.user_id.into())))], EventKey::scan().user_id(k.user_id).into(), &keys)?;
        same_plan(
            &schema,
            &[("user_id", eq(Value::Unsigned(k.user_id.into()))), ("ts_millis", range(Value::Signed(lo.into()), Value::Signed(hi.into())))],
            EventKey::scan().user_id(k.user_id).ts_millis_range(lo..hi).into(),
            &keys,
        )?;
        same_plan(
            &schema,
            &[
                ("user_id", Condition::In(vec![Value::Unsigned(1), Value::Unsigned(k.user_id.into())])),
                ("ts_millis", eq(Value::Signed(k.ts_millis.into()))),
                ("kind", Condition::In(vec![kind_name(k.kind), kind_name(EventKind::Click)])),
                ("host", Condition::Prefix(p.as_bytes().to_vec())),
            ],
            EventKey::scan().user_id_in([1, k.user_id]).ts_millis(k.ts_millis).kind_in([k.kind, EventKind::Click]).host_prefix(&p).into(),
            &keys,
        )?;
        same_plan(
            &schema,
            &[("user_id", Condition::Range(Bound::Excluded(Value::Unsigned(lo.unsigned_abs().into())), Bound::Unbounded))],
            EventKey::scan().user_id_range((Bound::Excluded(lo.unsigned_abs()), Bound::Unbounded)).into(),
            &keys,
        )?;
    }

    #[test]
    fn salted_keys_match_the_derive(host in text(), ts in any::<i64>(), k in kind(), note in prop::collection::vec(any::<u8>(), 0..6), user in any::<u32>(), seq in 0u32..16_000_000, name in text()) {
        let whole = WholeSalted { host: host.clone(), ts, kind: k, note };
        let schema = schema_of(std::slice::from_ref(&whole));
        same_key(&schema, &whole)?;
        let keys = vec![whole.to_vec().unwrap()];
        same_plan(&schema, &[("host", eq(Value::Str(host.clone())))], WholeSalted::scan().host(&host).into(), &keys)?;
        same_plan(&schema, &[("host", Condition::Prefix(host.as_bytes().to_vec()))], WholeSalted::scan().host_prefix(&host).into(), &keys)?;

        let fields = FieldSalted { user, seq, name: name.clone() };
        let schema = schema_of(std::slice::from_ref(&fields));
        same_key(&schema, &fields)?;
        let keys = vec![fields.to_vec().unwrap()];
        same_plan(&schema, &[("user", eq(Value::Unsigned(user.into())))], FieldSalted::scan().user(user).into(), &keys)?;
        same_plan(
            &schema,
            &[("user", eq(Value::Unsigned(user.into()))), ("seq", range(Value::Unsigned(seq.into()), Value::Unsigned(u128::from(seq) + 70_000_000)))],
            FieldSalted::scan().user(user).seq_range(seq..seq + 70_000_000).into(),
            &keys,
        )?;
        same_plan(&schema, &[] as &[(&str, Condition)], FieldSalted::scan().into(), &keys)?;
    }

    #[test]
    fn hash_prefixed_and_text_keys_match_the_derive(host in ascii(), seq in 0u64..u64::from(u32::MAX), tail in prop::collection::vec(any::<u8>(), 0..6), user in any::<u32>(), ts in any::<u64>(), city in "[a-z ]{0,8}", page in ascii(), lo in any::<u64>()) {
        let h = HashPrefixed { host: host.clone(), seq, tail };
        let schema = schema_of(std::slice::from_ref(&h));
        same_key(&schema, &h)?;
        let keys = vec![h.to_vec().unwrap()];
        same_plan(&schema, &[("host", eq(Value::Str(host.clone())))], HashPrefixed::scan().host(&host).into(), &keys)?;
        same_plan(
            &schema,
            &[("host", eq(Value::Str(host.clone()))), ("seq", Condition::In(vec![Value::Unsigned(seq.into()), Value::Unsigned(7)]))],
            HashPrefixed::scan().host(&host).seq_in([seq, 7]).into(),
            &keys,
        )?;

        let t = Text { user, ts, city: city.trim_end().to_string(), page: page.clone() };
        let schema = schema_of(std::slice::from_ref(&t));
        same_key(&schema, &t)?;
        let keys = vec![t.to_vec().unwrap()];
        same_plan(&schema, &[("user", eq(Value::Unsigned(user.into())))], Text::scan().user(user).into(), &keys)?;
        same_plan(
            &schema,
            &[("user", eq(Value::Unsigned(user.into()))), ("ts", Condition::Range(Bound::Included(Value::Unsigned(lo.min(ts).into())), Bound::Included(Value::Unsigned(ts.into()))))],
            Text::scan().user(user).ts_range(lo.min(ts)..=ts).into(),
            &keys,
        )?;
        same_plan(
            &schema,
            &[("user", eq(Value::Unsigned(user.into()))), ("ts", eq(Value::Unsigned(ts.into()))), ("city", Condition::Prefix(city.as_bytes().to_vec()))],
            Text::scan().user(user).ts(ts).city_prefix(&city).into(),
            &keys,
        )?;
    }

    #[test]
    fn nested_keys_of_every_field_type_match_the_derive(region in any::<u16>(), name in text(), maybe in any::<Option<i32>>(), source in ascii(), ratio in any::<f64>(), flag in any::<bool>(), letter in any::<char>(), raw in any::<[u8; 3]>(), secs in 0u64..4_000_000_000, small in any::<i8>(), big in any::<u128>()) {
        let n = Nested {
            inner: Inner { region, name: name.clone() },
            maybe,
            digest: Hashed::of(&source),
            ratio,
            flag,
            letter,
            raw,
            at: UNIX_EPOCH + Duration::from_secs(secs),
            small,
            big,
        };
        let schema = schema_of(std::slice::from_ref(&n));
        same_key(&schema, &n)?;
        // A `Hashed` field also takes its source value.
        let mut by_source = n.values();
        by_source[3].1 = Value::Str(source.clone());
        prop_assert_eq!(schema.encode(&by_source).unwrap(), n.to_vec().unwrap());
        let keys = vec![n.to_vec().unwrap()];
        let inner = [("inner.region", eq(Value::Unsigned(region.into()))), ("inner.name", eq(Value::Str(name.clone())))];
        same_plan(&schema, &inner, Nested::scan().inner(Inner { region, name: name.clone() }).into(), &keys)?;
        let mut q = inner.to_vec();
        q.push(("maybe", Condition::Range(Bound::Unbounded, Bound::Included(maybe.map_or(Value::Null, |m| Value::Signed(m.into()))))));
        same_plan(&schema, &q, Nested::scan().inner(Inner { region, name: name.clone() }).maybe_range(..=maybe).into(), &keys)?;
    }

    #[test]
    fn enum_keys_with_data_match_the_derive(user in any::<u32>(), k in kind(), name in prop::option::of(text()), which in 0usize..3) {
        let key = match which {
            0 => Versioned::V1 { user },
            1 => Versioned::V2 { user, kind: k, name: name.clone() },
            _ => Versioned::Gone {},
        };
        let schema = schema_of(std::slice::from_ref(&key));
        same_key(&schema, &key)?;
        let keys = vec![key.to_vec().unwrap(), Versioned::V1 { user: 3 }.to_vec().unwrap()];
        same_plan(&schema, &[] as &[(&str, Condition)], Versioned::scan().into(), &keys)?;
        same_plan(&schema, &[("V2.user", eq(Value::Unsigned(user.into())))], Versioned::scan().v2().user(user).into(), &keys)?;
        same_plan(
            &schema,
            &[("V2.user", eq(Value::Unsigned(user.into()))), ("V2.kind", eq(kind_name(k))), ("V2.name", eq(name.clone().map_or(Value::Null, Value::Str)))],
            Versioned::scan().v2().user(user).kind(k).name(name.clone()).into(),
            &keys,
        )?;
        same_plan(&schema, &[("Gone", eq(Value::Null))], Versioned::scan().gone().into(), &keys)?;
    }
}
