//! Advice from the layout alone, before any cluster exists: [`advise`] names a key that sends
//! every new write to one end of the key space (a time or a sequence first, with nothing in front
//! to spread it), and [`advise_for`] adds what needs a store and a region count. What only the
//! keys written show is [`Report::advise`](super::Report::advise)'s.

// The crate is no_std; the lab runs on std.
use std::fmt;

use rowkey::{Layout, Order, Prefix, Segment, WidthRule};

use rowkey::RowKey;

/// One problem with a layout, where it is, and the fix.
///
/// ```
/// use rowkey_lab::{advise, AdviceKind};
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Event { at: std::time::SystemTime, user: u64 }
///
/// let advice = advise::<Event>();
/// assert_eq!(advice[0].kind, AdviceKind::TimeFirst);
/// assert_eq!(advice[0].field.as_deref(), Some("Event.at"));
/// println!("{}", advice[0]); // the problem, then the fix
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Advice {
    /// What kind of problem.
    pub kind: AdviceKind,
    /// The field at fault (`Key.field`), when one is.
    pub field: Option<String>,
    /// The problem, in words.
    pub problem: String,
    /// The fix, in words.
    pub fix: String,
}

/// The kinds of [`Advice`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AdviceKind {
    /// A time leads the key (a time type, or a text time such as `%y%m%d`): every new write goes
    /// to the region at one end of the key space.
    TimeFirst,
    /// An integer whose name says it is a time or a sequence (`ts_millis`, `created_at`, `seq`)
    /// leads the key: the same hotspot, if the name is right.
    CounterFirst,
    /// Keys can be longer than the store's limit.
    KeyTooLong,
    /// The salt's buckets do not spread evenly over the regions.
    UnevenBuckets,
    /// More regions than the prefix tells apart: more regions than salt buckets (the regions
    /// beyond the buckets split a bucket as if the rest of the key were uniform, and stay empty
    /// when it is ordered by time), or than a hash prefix has values.
    RegionsBeyondPrefix,
    /// Regions that took no write in a simulated run ([`Report::advise`](super::Report::advise)):
    /// their servers idle while the others take every write.
    EmptyRegions,
    /// A region that took more than twice its even share of a simulated run's writes (over `M`
    /// regions, more than `2/M` of them), named by its start key
    /// ([`Report::advise`](super::Report::advise)).
    HotRegion,
    /// A salt or hash prefix that took too few distinct values in a simulated run to spread the
    /// writes over the regions: it spreads them no wider than the values of the fields it hashes
    /// ([`Report::advise`](super::Report::advise) gives the thresholds).
    FewDistinctPrefixes,
}

impl fmt::Display for Advice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(field) = &self.field {
            write!(f, "{field}: ")?;
        }
        write!(f, "{} Fix: {}", self.problem, self.fix)
    }
}

/// The words that make an integer field's name read as a time or a sequence.
const COUNTER_WORDS: [&str; 16] = [
    "ts",
    "time",
    "timestamp",
    "date",
    "day",
    "hour",
    "minute",
    "millis",
    "ms",
    "micros",
    "nanos",
    "epoch",
    "created",
    "updated",
    "seq",
    "sequence",
];

/// What the layout of `K` alone says about hotspots: a key led by a time (`SystemTime`, a chrono
/// type, a text time such as `%y%m%d`) with no salt, hash prefix, `Hashed` field or `reverse`
/// in front of it sends every new write to one region; so does an integer named like a time or a
/// sequence (`ts_millis`, `created_at`, `seq`), said with that doubt. A key led by a salt, a hash
/// prefix, a `Hashed` field, a reversed field or any other field gets no advice. Enum keys are
/// judged variant by variant, nested keys by their first field.
///
/// ```
/// use rowkey_lab::advise;
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct TimeFirst { ts_millis: u64, event_id: u32 }
///
/// #[derive(RowKey)]
/// #[rowkey(salt(buckets = 16))]
/// struct Salted { ts_millis: u64, event_id: u32 }
///
/// assert_eq!(advise::<TimeFirst>().len(), 1);
/// assert!(advise::<Salted>().is_empty());
/// ```
pub fn advise<K: RowKey>() -> Vec<Advice> {
    let mut out = Vec::new();
    judge(&K::LAYOUT, K::LAYOUT.name, &mut out);
    out
}

/// [`advise`], and what needs the store and the table: keys that can be longer than `limit`
/// bytes (a store's limit from [`rowkey::limits`]) and are not refused by the
/// layout's own `max_len`; a salt whose buckets do not spread evenly over `regions` regions (one
/// count must divide the other; `0` skips the checks of regions); and more regions than the salt
/// has buckets or the hash prefix has values.
///
/// The last needs care: with more regions than buckets, [`split_keys`](RowKey::split_keys) splits
/// each bucket halfway through the bytes after the salt, as if they were uniform. Behind a time
/// they are not: every row of a bucket falls on one side, and the regions beyond the bucket
/// count stay empty. The advice says so, and names the field.
///
/// ```
/// use rowkey_lab::{advise_for, AdviceKind};
/// use rowkey::{limits, RowKey};
///
/// #[derive(RowKey)]
/// #[rowkey(salt(buckets = 8))]
/// struct Salted { ts_millis: u64, event_id: u32 }
///
/// let advice = advise_for::<Salted>(limits::HBASE, 16);
/// assert_eq!(advice[0].kind, AdviceKind::RegionsBeyondPrefix);
/// assert_eq!(advice[0].field.as_deref(), Some("Salted.ts_millis"));
/// assert!(advice[0].problem.contains("about 8 of the 16 regions stay empty"));
/// assert!(advise_for::<Salted>(limits::HBASE, 8).is_empty());
/// ```
///
/// ```
/// use rowkey_lab::{advise_for, AdviceKind};
/// use rowkey::{limits, RowKey};
///
/// #[derive(RowKey)]
/// #[rowkey(salt(buckets = 16))]
/// struct Event { user: u64, page: String }
///
/// let kinds: Vec<AdviceKind> = advise_for::<Event>(limits::BIGTABLE, 12).iter().map(|a| a.kind).collect();
/// assert_eq!(kinds, [AdviceKind::KeyTooLong, AdviceKind::UnevenBuckets]);
/// assert!(advise_for::<Event>(limits::HBASE, 16).is_empty());
/// ```
pub fn advise_for<K: RowKey>(limit: usize, regions: usize) -> Vec<Advice> {
    let mut out = advise::<K>();
    let refused_above = K::ROW_LIMIT;
    let longest = K::MAX_LEN.map_or(refused_above, |n| n.min(refused_above));
    if longest > limit {
        let how_long = match K::MAX_LEN {
            Some(n) if n <= refused_above => format!("{n} bytes long"),
            _ => format!("up to {refused_above} bytes long (its `max_len`)"),
        };
        out.push(Advice {
            kind: AdviceKind::KeyTooLong,
            field: None,
            problem: format!(
                "`{}` keys can be {how_long}, longer than the store's limit of {limit} bytes: \
                 the store refuses such a write.",
                K::LAYOUT.name
            ),
            fix: format!(
                "set `#[rowkey(max_len = {limit})]` on the key, so that a longer key is an \
                 encode error in your code, or bound the variable fields with `width`."
            ),
        });
    }
    match K::LAYOUT.prefix {
        Prefix::Salt(salt) => {
            salt_over_regions::<K>(usize::from(salt.buckets()), regions, &mut out)
        }
        Prefix::Hash(hash) => {
            let (base, unit) = if hash.is_text() {
                (16u128, "digit")
            } else {
                (256, "byte")
            };
            let len = hash.prefix_len();
            let values = u32::try_from(len).ok().and_then(|l| base.checked_pow(l));
            if let Some(values) = values.filter(|&v| regions as u128 > v) {
                out.push(Advice {
                    kind: AdviceKind::RegionsBeyondPrefix,
                    field: None,
                    problem: format!(
                        "{regions} regions, but the {len}-{unit} hash prefix of `{}` has only \
                         {values} values: `split_keys({regions})` gives {values} regions, and a \
                         split point inside one value would fall where the rest of the key puts \
                         it, which is not uniform.",
                        K::LAYOUT.name
                    ),
                    fix: format!(
                        "pre-split into at most {values} regions, or lengthen the prefix \
                         (`hash_prefix(len = {})`).",
                        len + 1
                    ),
                });
            }
        }
        _ => {}
    }
    out
}

/// The advice on `buckets` salt buckets pre-split into `regions` regions: buckets that do not
/// divide evenly over the regions, and regions beyond the bucket count, which `split_keys` puts
/// inside a bucket as if the rest of the key were uniform.
fn salt_over_regions<K: RowKey>(buckets: usize, regions: usize, out: &mut Vec<Advice>) {
    if regions > 0 && regions % buckets != 0 && buckets % regions != 0 {
        out.push(Advice {
            kind: AdviceKind::UnevenBuckets,
            field: None,
            problem: format!(
                "{buckets} salt buckets over {regions} regions: some regions hold more \
                 buckets than others, and take more of the writes (each bucket takes an even \
                 share when the salted fields take many values)."
            ),
            fix: format!(
                "pre-split into {buckets} regions (`split_keys({buckets})`, one a bucket) or a \
                 count that divides {buckets}, or choose {regions} buckets."
            ),
        });
    }
    if regions <= buckets {
        return;
    }
    let name = K::LAYOUT.name;
    // The first split point inside a bucket, as the HBase shell prints it.
    let salt_len = K::LAYOUT.prefix.encoded_len() + K::LAYOUT.tag.encoded_len();
    let inside = K::split_keys(regions)
        .into_iter()
        .find(|p| p.len() > salt_len)
        .map(|p| format!(" such as `{}`", rowkey::hbase::to_string_binary(&p)))
        .unwrap_or_default();
    let idle = regions - buckets;
    let after = first_field(&K::LAYOUT, name);
    let why = match &after {
        Some((field, segment)) if time_like(segment).is_some() => format!(
            "`{field}` follows the salt and reads as a time or a sequence: a bucket's rows sit \
             together on one side of such a point, so about {idle} of the {regions} regions \
             stay empty and each of the others takes 1/{buckets} of the writes instead of \
             1/{regions}."
        ),
        _ => format!(
            "the bytes after the salt are rarely uniform (text, small numbers, times and ids \
             crowd one end of their range): regions where no key falls stay empty, up to \
             {idle} of the {regions}; a `Simulation` of real keys shows how many."
        ),
    };
    out.push(Advice {
        kind: AdviceKind::RegionsBeyondPrefix,
        field: after.map(|(field, _)| field),
        problem: format!(
            "{regions} regions over {buckets} salt buckets: `{name}::split_keys({regions})` \
             splits buckets at points{inside} chosen as if the rest of the key were uniform, \
             and {why}"
        ),
        fix: format!(
            "salt with as many buckets as regions (`salt(buckets = {regions})`), or pre-split at \
             points taken from the keys' real distribution (a sample of real keys, or the \
             store's own split points once it holds data), or pre-split into {buckets} regions \
             and let the store split them as they fill."
        ),
    });
}

/// The first field of `layout`'s keys (a nested key's own first field), named `Key.field`.
fn first_field(layout: &Layout, path: &str) -> Option<(String, &'static Segment)> {
    let first = layout.segments.first()?;
    let field = format!("{path}.{}", first.name);
    match first.nested {
        Some(nested) if nested.variants.is_empty() => first_field(nested, &field),
        Some(_) => None,
        None => Some((field, first)),
    }
}

/// Judges `layout` (named `path` in messages) and pushes its advice.
fn judge(layout: &Layout, path: &str, out: &mut Vec<Advice>) {
    if !layout.variants.is_empty() {
        for variant in layout.variants {
            judge(variant, variant.name, out);
        }
        return;
    }
    if !layout.prefix.is_none() {
        // A salt or hash prefix spreads whatever follows over its buckets or values, as far as
        // the fields it is computed from take many values (a hash of three hosts spreads the
        // writes over three places); the layout alone cannot tell, a `Simulation` can.
        return;
    }
    let Some(first) = layout.segments.first() else {
        return;
    };
    let field = format!("{path}.{}", first.name);
    if let Some(nested) = first.nested {
        // A nested key leads with its own first field (a fieldless enum leads with no time).
        if first.order != Order::Reversed {
            judge(nested, &field, out);
        }
        return;
    }
    if let Some(advice) = leading(first, field) {
        out.push(advice);
    }
}

/// The advice on `segment` leading a key, if it is a hotspot.
fn leading(segment: &Segment, field: String) -> Option<Advice> {
    let kind = time_like(segment)?;
    let end = if segment.order == Order::Descending {
        "the start of the key space (newest first)"
    } else {
        "the end of the key space"
    };
    let problem = if kind == AdviceKind::TimeFirst {
        format!(
            "the key starts with a time (`{}`): every new write goes to the one region at {end}, \
             a hotspot however many regions the table has.",
            segment.ty
        )
    } else {
        format!(
            "the key starts with the integer `{}`, whose name reads as a time or a sequence: if \
             its values grow with time, every new write goes to the one region at {end}.",
            segment.name
        )
    };
    Some(Advice {
        kind,
        field: Some(field),
        problem,
        fix: "put a salt in front (`#[rowkey(salt(buckets = N))]` on the key, N about the \
              number of region servers), or a hash prefix of the fields that are read together \
              (`#[rowkey(hash_prefix(len = 4))]` on an id), or lead with a field whose values \
              spread the writes, such as a user or host id; `reverse` on the field spreads \
              them too, at the cost of its range scans."
            .into(),
    })
}

/// Whether `segment` holds a time (`TimeFirst`), or an integer named like a time or a sequence
/// (`CounterFirst`): a field whose values grow with the writes. A reversed field does not.
fn time_like(segment: &Segment) -> Option<AdviceKind> {
    if segment.order == Order::Reversed || segment.nested.is_some() {
        return None;
    }
    let shape = segment.encoding.shape();
    if shape.is_time() {
        return Some(AdviceKind::TimeFirst);
    }
    let counter = matches!(shape.width_rule(), WidthRule::Narrow { .. })
        && segment
            .name
            .to_ascii_lowercase()
            .split('_')
            .enumerate()
            .any(|(i, word)| COUNTER_WORDS.contains(&word) || (i > 0 && word == "at"));
    counter.then_some(AdviceKind::CounterFirst)
}
