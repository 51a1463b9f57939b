//! The alternatives of a plan: every combination of the values bound so far by equality and IN
//! lists, each the key body those values fix and the salt or hash state of the sources among them.

use alloc::vec::Vec;

use super::byte_order::cmp_short;
use super::keybuf::KeyBuf;
use crate::codec::columns::plan_separator;
use crate::field::{FieldMode, KeyField};

/// One combination of the values bound so far: the key body they fix, and the value bytes of the
/// prefix sources among them, hashed when the prefix is needed. (Bytes, not a running hash: an
/// MD5 state is twice their inline size, and every builder step moves the plan.)
#[derive(Clone)]
pub(crate) struct Alt {
    pub(crate) body: KeyBuf,
    pub(crate) sources: KeyBuf,
    /// Whether a source was fed (text layouts join sources with the delimiter).
    pub(crate) fed: bool,
    /// The bytes at the end of `body` a key leaves out when the columns after them are NULL
    /// (Phoenix's separators before trailing NULLs; none in other formats).
    pub(crate) held: u8,
}

/// The alternatives of a plan: one inline (no allocation for plans without IN lists), or many.
#[derive(Clone)]
pub(crate) enum Alts {
    One(Alt),
    Many(Vec<Alt>),
}

impl Alts {
    pub(crate) fn as_slice(&self) -> &[Alt] {
        match self {
            Alts::One(a) => core::slice::from_ref(a),
            Alts::Many(v) => v,
        }
    }
}

impl Alt {
    /// The one alternative of a plan with nothing bound, or with `body` bound.
    #[inline]
    pub(crate) fn new(body: KeyBuf) -> Alt {
        Alt {
            body,
            sources: KeyBuf::new(),
            fed: false,
            held: 0,
        }
    }

    /// The body as the shortest key with these fields would start: without the held bytes.
    #[inline]
    pub(crate) fn shortest(&self) -> &[u8] {
        let body = self.body.as_slice();
        &body[..body.len() - usize::from(self.held)]
    }
}

/// Alternatives sorted by body, duplicates removed. The sort runs on small keys, the first 16
/// bytes of each body as one integer with the body's length and index, and compares the rest only
/// between bodies longer than that which share those bytes: an alternative is large (its body
/// buffer and hash state), and sorting alternatives themselves was most of a long IN list's cost.
pub(crate) fn sorted_distinct(alts: Vec<Alt>) -> Vec<Alt> {
    const HEAD: usize = 16;
    let mut keys: Vec<(u128, usize, usize)> = alts
        .iter()
        .enumerate()
        .map(|(i, alt)| {
            let body = alt.body.as_slice();
            let mut head = [0u8; HEAD];
            let n = body.len().min(HEAD);
            head[..n].copy_from_slice(&body[..n]);
            (u128::from_be_bytes(head), body.len(), i)
        })
        .collect();
    // Equal heads: a body of at most 16 bytes is a prefix of the other (zero padding aside), so
    // the shorter sorts first; two longer bodies compare their rest.
    let rest = |i: usize| alts[i].body.as_slice().get(HEAD..).unwrap_or_default();
    keys.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0).then_with(|| {
            if a.1 > HEAD && b.1 > HEAD {
                cmp_short(rest(a.2), rest(b.2))
            } else {
                a.1.cmp(&b.1)
            }
        })
    });
    keys.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1 && rest(a.2) == rest(b.2));
    let mut slots: Vec<Option<Alt>> = alts.into_iter().map(Some).collect();
    keys.iter().filter_map(|k| slots[k.2].take()).collect()
}

/// Encodes `value` onto the alternative's body (in a Phoenix key, with the separator a key that
/// goes on has after it) and, for a prefix source, feeds its value bytes.
#[inline(always)]
pub(crate) fn append<T: KeyField + ?Sized>(
    alt: &mut Alt,
    value: &T,
    mode: FieldMode,
    source: bool,
) -> Result<(), crate::error::EncodeError> {
    let n = value.field_len(mode);
    let at = alt.body.len();
    let dst = alt.body.grow(n);
    if let Err(e) = value.encode(dst, mode) {
        alt.body.truncate(at);
        return Err(e);
    }
    // What a key that goes on has after the field: the text format's delimiter (the other
    // formats have none), or a Phoenix column's separator (none in other formats).
    if mode.is_delimited() {
        alt.body.extend(mode.delimiter().as_bytes());
    }
    let (separator, held) = plan_separator::<T>(n, mode);
    if let Some(b) = separator {
        alt.body.push(b);
    }
    alt.held = held.after(alt.held);
    if source {
        // Sources are joined as the key shows them: by the text format's delimiter.
        if alt.fed {
            alt.sources.extend(mode.delimiter().as_bytes());
        }
        value.value_bytes(mode, &mut alt.sources)?;
        alt.fed = true;
    }
    Ok(())
}
