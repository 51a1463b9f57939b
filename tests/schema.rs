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

#[path = "common/quickstart.rs"]
mod quickstart;
use quickstart::{EventKey, EventKind, KINDS};

#[test]
fn the_quickstart_key_here_is_the_one_the_example_locked() {
    quickstart::same_layout_as_the_lock(std::path::Path::new(
        "tests/keys/examples/quickstart.lock",
    ));
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

/// A time as the schema gives it back: its date, RFC 3339 in UTC, as chrono's `Debug` writes a
/// `DateTime<Utc>` (a fraction of 3, 6 or 9 digits when the time has one).
fn date(t: SystemTime) -> Value {
    let nanos = match t.duration_since(UNIX_EPOCH) {
        Ok(after) => after.as_nanos() as i128,
        Err(before) => -(before.duration().as_nanos() as i128),
    };
    let (secs, sub) = (
        nanos.div_euclid(1_000_000_000),
        nanos.rem_euclid(1_000_000_000),
    );
    let utc = chrono::DateTime::from_timestamp(secs as i64, sub as u32).unwrap();
    Value::Text(format!("{utc:?}"))
}

impl Case for Nested {
    fn values(&self) -> Vec<(String, Value)> {
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
            v("at", date(self.at)),
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

/// Apache Phoenix's primary key (`#[rowkey(phoenix)]`): separators, a DESC VARCHAR, UNSIGNED_INT,
/// a DESC DOUBLE, a TIMESTAMP to the nanosecond, and nullable columns that end the key when NULL.
#[derive(RowKey, Debug, Clone, PartialEq)]
#[rowkey(phoenix, salt(buckets = 4))]
struct PhoenixRow {
    host: String,
    #[rowkey(desc)]
    path: String,
    port: u32,
    #[rowkey(desc)]
    score: f64,
    #[rowkey(unit = "ns")]
    at: SystemTime,
    #[rowkey(desc)]
    label: Option<String>,
    note: Option<String>,
}

impl Case for PhoenixRow {
    fn values(&self) -> Vec<(String, Value)> {
        let opt = |s: &Option<String>| s.clone().map_or(Value::Null, Value::Str);
        vec![
            v("host", Value::Str(self.host.clone())),
            v("path", Value::Str(self.path.clone())),
            v("port", Value::Unsigned(self.port.into())),
            v("score", Value::Float(self.score)),
            v("at", date(self.at)),
            v("label", opt(&self.label)),
            v("note", opt(&self.note)),
        ]
    }
}

fn phoenix_row() -> impl Strategy<Value = PhoenixRow> {
    let word = "[a-c\\/é]{1,4}";
    (
        (
            word,
            word,
            0u32..=i32::MAX as u32,
            prop_oneof![
                any::<f64>().prop_filter("not NaN", |f| !f.is_nan()),
                Just(-0.0),
                Just(0.0)
            ],
        ),
        (
            0u64..4_000_000_000,
            0u32..1_000_000_000,
            prop::option::of(word),
            prop::option::of(word),
        ),
    )
        .prop_map(
            |((host, path, port, score), (secs, nanos, label, note))| PhoenixRow {
                host,
                path,
                port,
                score,
                at: UNIX_EPOCH + Duration::new(secs, nanos),
                label,
                note,
            },
        )
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
    fn phoenix_keys_match_the_derive(k in phoenix_row(), others in prop::collection::vec(phoenix_row(), 8), p in "[a-c]{0,2}", port in 0u32..=i32::MAX as u32) {
        let schema = schema_of(std::slice::from_ref(&k));
        same_key(&schema, &k)?;
        for o in &others {
            same_key(&schema, o)?;
        }
        let keys: Vec<Vec<u8>> = others.iter().chain([&k]).map(|o| o.to_vec().unwrap()).collect();
        let host = || ("host", eq(Value::Str(k.host.clone())));
        same_plan(&schema, &[host()], PhoenixRow::scan().host(&k.host).into(), &keys)?;
        same_plan(&schema, &[host(), ("path", Condition::Prefix(p.as_bytes().to_vec()))], PhoenixRow::scan().host(&k.host).path_prefix(&p).into(), &keys)?;
        same_plan(
            &schema,
            &[host(), ("path", eq(Value::Str(k.path.clone()))), ("port", Condition::Range(Bound::Included(Value::Unsigned(port.into())), Bound::Unbounded))],
            PhoenixRow::scan().host(&k.host).path(&k.path).port_range(port..).into(),
            &keys,
        )?;
        let at = k.at.duration_since(UNIX_EPOCH).unwrap().as_nanos();
        same_plan(
            &schema,
            &[
                host(),
                ("path", eq(Value::Str(k.path.clone()))),
                ("port", eq(Value::Unsigned(k.port.into()))),
                ("score", eq(Value::Float(k.score))),
                ("at", eq(Value::Unsigned(at))),
                ("label", Condition::In(vec![Value::Null, k.label.clone().map_or(Value::Null, Value::Str)])),
                ("note", eq(k.note.clone().map_or(Value::Null, Value::Str))),
            ],
            PhoenixRow::scan().host(&k.host).path(&k.path).port(k.port).score(k.score).at(k.at).label_in([None, k.label.clone()]).note(k.note.clone()).into(),
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

/// Locks written by format 1 (`tests/keys/v1/`, copies of the quickstart's and the catalogue's
/// whole-key salted lock from before format 2) still read: the schema of each decodes, explains
/// and re-encodes every sample exactly as the schema of the same key's format-2 lock does.
#[test]
fn a_lock_of_format_1_still_reads() {
    for (v1, v2) in [
        (
            "tests/keys/v1/quickstart.lock",
            "tests/keys/examples/quickstart.lock",
        ),
        ("tests/keys/v1/salted.lock", "tests/keys/salted.lock"),
    ] {
        assert!(std::fs::read_to_string(v1)
            .unwrap()
            .starts_with("rowkey-lock 1\n"));
        assert!(std::fs::read_to_string(v2)
            .unwrap()
            .starts_with("rowkey-lock 2\n"));
        let (old, new) = (Schema::read(v1).unwrap(), Schema::read(v2).unwrap());
        assert_eq!(old.samples(), new.samples(), "{v1}");
        assert!(!old.samples().is_empty());
        for key in old.samples() {
            let values = old.decode(key).unwrap();
            assert_eq!(values, new.decode(key).unwrap(), "{v1}");
            assert_eq!(
                old.explain(key).unwrap().to_string(),
                new.explain(key).unwrap().to_string()
            );
            assert_eq!(&old.encode(&values).unwrap(), key, "{v1}");
        }
    }
}

/// Format 2 tells a whole-key salt from a salt over every field in order, which format 1 writes
/// alike; and content that is text from bytes, whatever the type is called.
#[test]
fn format_2_says_what_format_1_left_to_guesses() {
    type Host = String;

    #[derive(RowKey, Debug, Clone, PartialEq)]
    struct OverFields {
        #[rowkey(salt(buckets = 8))]
        a: u16,
        #[rowkey(salt(buckets = 8))]
        host: Host,
    }

    #[derive(RowKey, Debug, Clone, PartialEq)]
    #[rowkey(salt(buckets = 8))]
    struct OverKey {
        a: u16,
        host: Host,
    }

    let fields = OverFields {
        a: 7,
        host: "web-2".into(),
    };
    let whole = OverKey {
        a: 7,
        host: "web-2".into(),
    };
    let (fields_key, whole_key) = (fields.to_vec().unwrap(), whole.to_vec().unwrap());
    // The bytes after the salt are the same; the salts are computed from different bytes.
    assert_eq!(fields_key[1..], whole_key[1..]);
    let values = vec![
        v("a", Value::Unsigned(7)),
        v("host", Value::Str("web-2".into())),
    ];
    for (lock, key) in [
        (
            rowkey::lock::render(&[] as &[OverFields]).unwrap(),
            &fields_key,
        ),
        (rowkey::lock::render(&[] as &[OverKey]).unwrap(), &whole_key),
    ] {
        // No samples to tell by: only the lock's own `over=` can say.
        let schema = Schema::parse(&lock).unwrap();
        assert_eq!(&schema.encode(&values).unwrap(), key, "{lock}");
        // `Host` is text: it decodes as a string, and explains as the derive does.
        assert_eq!(
            schema.decode(key).unwrap()[1],
            ("host", Value::Str("web-2".into()))
        );
    }
    assert_eq!(
        Schema::parse(&rowkey::lock::render(std::slice::from_ref(&whole)).unwrap())
            .unwrap()
            .explain(&whole_key)
            .unwrap()
            .to_string(),
        OverKey::explain(&whole_key).unwrap().to_string()
    );
}

/// A signaling NaN in an `f32` field comes back with its bits (the hardware conversion to `f64`
/// would quiet it); found by the `schema` fuzz target.
#[test]
fn an_f32_nan_keeps_its_bits() {
    #[derive(RowKey, Debug, Clone, PartialEq)]
    struct Ratio {
        r: f32,
    }
    let schema = schema_of(&[Ratio { r: 1.0 }]);
    for bits in [0x7F80_0001u32, 0xFF9D_FF9D, 0x7FC0_0000, 0xFFFF_FFFF] {
        let key = Ratio {
            r: f32::from_bits(bits),
        }
        .to_vec()
        .unwrap();
        let values = schema.decode(&key).unwrap();
        assert_eq!(schema.encode(&values).unwrap(), key, "{bits:#x}");
    }
}

/// Times in every unit and in chrono formats, decimals and UUIDs, the `mod` salt and a text salt:
/// the field types behind features (CI runs `--all-features`).
#[cfg(all(feature = "chrono", feature = "decimal", feature = "uuid"))]
mod feature_types {
    use super::*;
    use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
    use rust_decimal::Decimal;

    #[derive(RowKey, Debug, Clone, PartialEq)]
    struct Timed {
        #[rowkey(salt(buckets = 10, hash = "mod"))]
        shard: u32,
        #[rowkey(unit = "us")]
        a: SystemTime,
        #[rowkey(unit = "ns", desc)]
        b: SystemTime,
        c: Decimal,
        id: uuid::Uuid,
        #[rowkey(reverse)]
        r: u32,
        at: DateTime<Utc>,
    }

    #[derive(RowKey, Debug, Clone, PartialEq)]
    #[rowkey(text, delimiter = "|")]
    struct Dated {
        #[rowkey(salt(buckets = 4, hash = "md5"))]
        user: u16,
        #[rowkey(format = "%Y%m%d")]
        day: NaiveDate,
        #[rowkey(format = "%H:%M:%S%.3f")]
        time: NaiveTime,
        local: NaiveDateTime,
        #[rowkey(desc)]
        seq: u32,
    }

    impl Case for Timed {
        fn values(&self) -> Vec<(String, Value)> {
            vec![
                v("shard", Value::Unsigned(self.shard.into())),
                v("a", date(self.a)),
                v("b", date(self.b)),
                v("c", Value::Text(self.c.normalize().to_string())), // keys hold the value, not its scale
                v("id", Value::Text(self.id.to_string())),
                v("r", Value::Unsigned(self.r.into())),
                v("at", Value::Text(format!("{:?}", self.at))),
            ]
        }
    }

    impl Case for Dated {
        fn values(&self) -> Vec<(String, Value)> {
            vec![
                v("user", Value::Unsigned(self.user.into())),
                v("day", Value::Text(format!("{:?}", self.day))),
                v("time", Value::Text(format!("{:?}", self.time))),
                v("local", Value::Text(format!("{:?}", self.local))),
                v("seq", Value::Unsigned(self.seq.into())),
            ]
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn times_decimals_and_uuids_match_the_derive(us in 0u64..4_000_000_000_000_000, ns in 0u64..i64::MAX as u64, mantissa in any::<i64>(), scale in 0u32..12, id in any::<u128>(), r in any::<u32>(), ms in 0i64..4_000_000_000_000, days in 0i64..40_000, secs in 0u32..86_400, millis in 0u32..1000, user in any::<u16>(), seq in any::<u32>()) {
            let at = DateTime::<Utc>::from_timestamp_millis(ms).unwrap();
            let t = Timed {
                shard: r / 3,
                a: UNIX_EPOCH + Duration::from_micros(us),
                b: UNIX_EPOCH + Duration::from_nanos(ns),
                c: Decimal::new(mantissa, scale),
                id: uuid::Uuid::from_u128(id),
                r,
                at,
            };
            let schema = schema_of(std::slice::from_ref(&t));
            same_key(&schema, &t)?;
            let keys = vec![t.to_vec().unwrap()];
            let shard = || ("shard", eq(Value::Unsigned(t.shard.into())));
            same_plan(&schema, &[shard(), ("a", eq(t.values()[1].1.clone()))], Timed::scan().shard(t.shard).a(t.a).into(), &keys)?;
            same_plan(
                &schema,
                &[shard(), ("a", eq(t.values()[1].1.clone())), ("b", Condition::Range(Bound::Unbounded, Bound::Included(t.values()[2].1.clone())))],
                Timed::scan().shard(t.shard).a(t.a).b_range(..=t.b).into(),
                &keys,
            )?;
            same_plan(&schema, &[("shard", Condition::Range(Bound::Included(Value::Unsigned(5)), Bound::Unbounded))], Timed::scan().shard_range(5..).into(), &keys)?;

            let day = NaiveDate::from_ymd_opt(1970, 1, 1).unwrap() + chrono::Duration::days(days);
            let time = NaiveTime::from_num_seconds_from_midnight_opt(secs, millis * 1_000_000).unwrap();
            let d = Dated { user, day, time, local: day.and_time(time), seq };
            let schema = schema_of(std::slice::from_ref(&d));
            same_key(&schema, &d)?;
            let keys = vec![d.to_vec().unwrap()];
            same_plan(
                &schema,
                &[("user", eq(Value::Unsigned(user.into()))), ("day", Condition::Range(Bound::Included(d.values()[1].1.clone()), Bound::Unbounded))],
                Dated::scan().user(user).day_range(day..).into(),
                &keys,
            )?;
        }
    }
}

/// A field type of the user's own (`KeyField` with `FieldShape::fixed`) is opaque to a schema: its
/// bytes as they stand in the key, in hex, in and out.
#[test]
fn a_field_type_of_your_own_is_its_bytes_in_hex() {
    use rowkey::{DecodeError, DecodeField, EncodeError, FieldMode, FieldShape, KeyField};

    #[derive(Debug, Clone, Copy, PartialEq)]
    struct Cell(u16);

    impl KeyField for Cell {
        const SHAPE: FieldShape = FieldShape::fixed(2);
        fn field_len(&self, _: FieldMode) -> usize {
            2
        }
        fn encode(&self, out: &mut [u8], _: FieldMode) -> Result<usize, EncodeError> {
            let available = out.len();
            let kind = rowkey::EncodeErrorKind::BufferTooSmall {
                needed: 2,
                available,
            };
            out.get_mut(..2)
                .ok_or(EncodeError::new(kind))?
                .copy_from_slice(&self.0.to_be_bytes());
            Ok(2)
        }
    }

    impl<'k> DecodeField<'k> for Cell {
        fn decode_field(input: &'k [u8], _: FieldMode) -> Result<(Self, usize), DecodeError> {
            match input {
                [a, b, ..] => Ok((Cell(u16::from_be_bytes([*a, *b])), 2)),
                _ => Err(DecodeError::new(
                    rowkey::DecodeErrorKind::Truncated {
                        needed: 2,
                        available: input.len(),
                    },
                    0,
                )),
            }
        }
    }

    #[derive(RowKey, Debug, Clone, PartialEq)]
    struct Grid {
        cell: Cell,
        name: String,
    }

    let g = Grid {
        cell: Cell(0x1234),
        name: "a".into(),
    };
    let schema = schema_of(std::slice::from_ref(&g));
    let key = g.to_vec().unwrap();
    let values = vec![
        v("cell", Value::Hex(vec![0x12, 0x34])),
        v("name", Value::Str("a".into())),
    ];
    assert_eq!(schema.encode(&values).unwrap(), key);
    assert_eq!(
        schema.decode(&key).unwrap()[0],
        ("cell", Value::Hex(vec![0x12, 0x34]))
    );
    assert_eq!(
        schema.parse_value("cell", "1234").unwrap(),
        Value::Hex(vec![0x12, 0x34])
    );
    assert!(schema.parse_value("cell", "12").is_err());
    assert!(schema
        .explain(&key)
        .unwrap()
        .to_string()
        .contains("cell  \\x124  1234"));
}

/// An enum with data nested in a struct, behind a field, in an `Option`: its variant is the path
/// segment after the field's (`row.V2.user`), `null` for `None`; and a key past `max_len` is
/// refused with its length, as the derive refuses it.
#[test]
fn a_nested_enum_with_data_and_the_row_limit() {
    #[derive(RowKey, Debug, Clone, PartialEq)]
    #[rowkey(max_len = 40)]
    struct Holder {
        id: u8,
        row: Option<Versioned>,
        tail: String,
    }

    let cases = [
        (
            Holder {
                id: 1,
                row: None,
                tail: "a".into(),
            },
            vec![
                v("id", Value::Unsigned(1)),
                v("row", Value::Null),
                v("tail", Value::Str("a".into())),
            ],
        ),
        (
            Holder {
                id: 2,
                row: Some(Versioned::V1 { user: 9 }),
                tail: String::new(),
            },
            vec![
                v("id", Value::Unsigned(2)),
                v("row.V1.user", Value::Unsigned(9)),
                v("tail", Value::Str(String::new())),
            ],
        ),
        (
            Holder {
                id: 3,
                row: Some(Versioned::V2 {
                    user: 5,
                    kind: EventKind::Purchase,
                    name: Some("x".into()),
                }),
                tail: "t".into(),
            },
            vec![
                v("id", Value::Unsigned(3)),
                v("row.V2.user", Value::Unsigned(5)),
                v("row.V2.kind", Value::Variant("Purchase".into())),
                v("row.V2.name", Value::Str("x".into())),
                v("tail", Value::Str("t".into())),
            ],
        ),
        (
            Holder {
                id: 4,
                row: Some(Versioned::Gone {}),
                tail: "g".into(),
            },
            vec![
                v("id", Value::Unsigned(4)),
                v("row.Gone", Value::Null),
                v("tail", Value::Str("g".into())),
            ],
        ),
    ];
    let schema = schema_of(&[cases[0].0.clone()]);
    for (h, values) in &cases {
        let key = h.to_vec().unwrap();
        assert_eq!(schema.encode(values).unwrap(), key, "{h:?}");
        let decoded: Vec<(String, Value)> = schema
            .decode(&key)
            .unwrap()
            .into_iter()
            .map(|(p, v)| (p.to_string(), v))
            .collect();
        assert_eq!(&decoded, values, "{h:?}");
        assert_eq!(
            schema.explain(&key).unwrap().to_string(),
            Holder::explain(&key).unwrap().to_string()
        );
    }
    // Past `max_len`: the derive's error, with the key's length.
    let long = Holder {
        id: 5,
        row: None,
        tail: "x".repeat(100),
    };
    let theirs = long.to_vec().unwrap_err().to_string();
    let values = vec![
        v("id", Value::Unsigned(5)),
        v("row", Value::Null),
        v("tail", Value::Str("x".repeat(100))),
    ];
    let ours = schema.encode(&values).unwrap_err().to_string();
    assert_eq!(ours, theirs);
    assert!(ours.contains("102"), "{ours}");
}

/// Found by the `schema` fuzz target: a Phoenix TIMESTAMP holds more nanoseconds than a `u64`
/// counts (its milliseconds are an `i64`), so a key of year 2736 decodes, and the schema must
/// take its value back, as the derive does, rather than refuse its own answer.
#[test]
fn a_phoenix_timestamp_past_u64_nanoseconds_round_trips() {
    #[derive(RowKey, Debug)]
    #[rowkey(phoenix)]
    struct Far {
        #[rowkey(unit = "ns")]
        t: SystemTime,
    }
    let far = Far {
        t: UNIX_EPOCH + Duration::from_millis(0x1600_0000_0000),
    };
    let key = far.to_vec().unwrap();
    assert_eq!(Far::decode(&key).unwrap().t, far.t);
    let schema = schema_of(std::slice::from_ref(&far));
    let values = schema.decode(&key).unwrap();
    let nanos = u128::from(0x1600_0000_0000u64) * 1_000_000;
    assert!(nanos > u128::from(u64::MAX));
    assert_eq!(values[0].1, date(far.t));
    assert_eq!(values[0].1, Value::Text("2736-07-12T05:43:31.072Z".into()));
    // The count of nanoseconds names the same time.
    let counted = [(values[0].0, Value::Unsigned(nanos))];
    assert_eq!(schema.encode(&counted).unwrap(), key);
    assert_eq!(schema.encode(&values).unwrap(), key);
}

/// A width the field's type does not take is refused when the lock is read, as the derive
/// refuses it, rather than a plan setting aside that many bytes: a binary integer's width is at
/// most its size, and no width is longer than a key may be (a text number's counts digits).
#[test]
fn a_lock_whose_width_the_type_does_not_take_is_refused() {
    let field_salted = rowkey::lock::render(&[FieldSalted {
        user: 1,
        seq: 2,
        name: "n".into(),
    }])
    .unwrap();
    let text = rowkey::lock::render(&[Text {
        user: 1,
        ts: 2,
        city: "Oslo".into(),
        page: "p".into(),
    }])
    .unwrap();
    let cases = [
        // (the lock, its width, the width written instead, the refusal, if any)
        (&field_salted, "width=3", "width=4", None),
        (
            &field_salted,
            "width=3",
            "width=5",
            Some("`FieldSalted.seq`: a `u32` does not take `width = 5`"),
        ),
        (&text, "width=8", "width=32767", None),
        (
            &text,
            "width=8",
            "width=32768",
            Some("`Text.city`: a `String` does not take `width = 32768`"),
        ),
    ];
    for (lock, from, to, refusal) in cases {
        assert_eq!(lock.matches(from).count(), 1, "{lock}");
        let edited = lock.replace(from, to);
        match (Schema::parse(&edited), refusal) {
            (Ok(_), None) => {}
            (Err(e), Some(why)) => assert!(e.to_string().contains(why), "{e}"),
            (Ok(_), Some(why)) => panic!("{to} was taken, not refused with {why:?}"),
            (Err(e), None) => panic!("{to} was refused: {e}"),
        }
    }
}
