//! Advice from the layout alone, before any cluster exists: [`advise`] names a key that sends
//! every new write to one end of the key space (a time or a sequence first, with nothing in front
//! to spread it), and [`advise_for`] adds what needs a store and a region count.

// The crate is no_std; the lab runs on std.
use std::fmt;
use std::format;
use std::prelude::rust_2021::*;

use rowkey_core::{Layout, Order, Prefix, Segment, WidthRule};

use crate::RowKey;

/// One problem with a layout, where it is, and the fix.
///
/// ```
/// use rowkey::lab::{advise, AdviceKind};
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
/// use rowkey::lab::advise;
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
/// bytes (a store's limit from [`rowkey::limits`](crate::limits)) and are not refused by the
/// layout's own `max_len`, and a salt whose buckets do not spread evenly over `regions` regions
/// (one count must divide the other; `0` skips the check).
///
/// ```
/// use rowkey::lab::{advise_for, AdviceKind};
/// use rowkey::{limits, RowKey};
///
/// #[derive(RowKey)]
/// #[rowkey(salt(buckets = 16))]
/// struct Event { user: u64, page: String }
///
/// let kinds: Vec<AdviceKind> = advise_for::<Event>(limits::BIGTABLE, 24).iter().map(|a| a.kind).collect();
/// assert_eq!(kinds, [AdviceKind::KeyTooLong, AdviceKind::UnevenBuckets]);
/// assert!(advise_for::<Event>(limits::HBASE, 32).is_empty());
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
    if let Prefix::Salt(salt) = K::LAYOUT.prefix {
        let buckets = usize::from(salt.buckets());
        if regions > 0 && regions % buckets != 0 && buckets % regions != 0 {
            out.push(Advice {
                kind: AdviceKind::UnevenBuckets,
                field: None,
                problem: format!(
                    "{buckets} salt buckets over {regions} regions: some regions hold more \
                     buckets than others, and take more of the writes."
                ),
                fix: format!(
                    "pre-split into a multiple of {buckets} regions (`split_keys({buckets})` \
                     gives one region per bucket), or choose a bucket count that {regions} \
                     divides."
                ),
            });
        }
    }
    out
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
        return; // a salt or hash prefix spreads whatever follows
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
    if segment.order == Order::Reversed {
        return None; // reversed bytes spread consecutive values
    }
    let shape = segment.encoding.shape();
    let end = if segment.order == Order::Descending {
        "the start of the key space (newest first)"
    } else {
        "the end of the key space"
    };
    let fix = "put a salt in front (`#[rowkey(salt(buckets = N))]` on the key, N about the \
               number of region servers), or a hash prefix of the fields that are read together \
               (`#[rowkey(hash_prefix(len = 4))]` on an id), or lead with a field whose values \
               spread the writes, such as a user or host id; `reverse` on the field spreads \
               them too, at the cost of its range scans."
        .into();
    if shape.is_time() {
        return Some(Advice {
            kind: AdviceKind::TimeFirst,
            field: Some(field),
            problem: format!(
                "the key starts with a time (`{}`): every new write goes to the one region at \
                 {end}, a hotspot however many regions the table has.",
                segment.ty
            ),
            fix,
        });
    }
    let counter = matches!(shape.width_rule(), WidthRule::Narrow { .. })
        && segment
            .name
            .to_ascii_lowercase()
            .split('_')
            .enumerate()
            .any(|(i, word)| COUNTER_WORDS.contains(&word) || (i > 0 && word == "at"));
    counter.then(|| Advice {
        kind: AdviceKind::CounterFirst,
        field: Some(field),
        problem: format!(
            "the key starts with the integer `{}`, whose name reads as a time or a sequence: if \
             its values grow with time, every new write goes to the one region at {end}.",
            segment.name
        ),
        fix,
    })
}
