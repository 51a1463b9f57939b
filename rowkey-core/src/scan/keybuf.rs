//! The byte strings of a plan: range ends, alternatives' bodies and encoded bounds. Short ones,
//! which is nearly all of them, live inline, so planning over ordinary keys does not allocate.

use alloc::vec::Vec;

use super::byte_order::next_prefix;
use crate::sink::ValueSink;

/// Bytes kept inline up to this length, so plans over ordinary keys do not allocate.
pub(crate) const INLINE: usize = 62;

/// A byte string that lives inline while it is short.
#[derive(Clone)]
pub(crate) enum KeyBuf {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Vec<u8>),
}

impl KeyBuf {
    #[inline]
    pub(crate) const fn new() -> Self {
        KeyBuf::Inline {
            len: 0,
            bytes: [0; INLINE],
        }
    }

    #[inline]
    pub(crate) fn from_slice(bytes: &[u8]) -> Self {
        let mut buf = KeyBuf::new();
        buf.extend(bytes);
        buf
    }

    /// The first `len` bytes of `bytes`. Arrays that fit inline are copied whole, a copy of a
    /// length the compiler knows, instead of `len` bytes through `memcpy`.
    #[inline(always)]
    pub(crate) fn from_array<const N: usize>(bytes: &[u8; N], len: usize) -> Self {
        if N <= INLINE && len <= N {
            let mut inline = [0u8; INLINE];
            inline[..N].copy_from_slice(bytes);
            KeyBuf::Inline {
                len: len as u8,
                bytes: inline,
            }
        } else {
            KeyBuf::from_slice(bytes.get(..len).unwrap_or(bytes))
        }
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[u8] {
        match self {
            KeyBuf::Inline { len, bytes } => &bytes[..usize::from(*len)],
            KeyBuf::Heap(v) => v,
        }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.as_slice().len()
    }

    /// Appends `n` zero bytes and returns them, to be written in place.
    #[inline(always)]
    pub(crate) fn grow(&mut self, n: usize) -> &mut [u8] {
        // The common case, inline with room to spare, kept to a compare and a store.
        let fits = matches!(self, KeyBuf::Inline { len, .. } if n <= INLINE - usize::from(*len));
        if !fits {
            return self.grow_slow(n);
        }
        match self {
            KeyBuf::Inline { len, bytes } => {
                let old = usize::from(*len);
                *len = (old + n) as u8;
                &mut bytes[old..old + n]
            }
            KeyBuf::Heap(v) => grow_vec(v, n),
        }
    }

    /// [`KeyBuf::grow`] past the inline room, or on the heap already.
    #[inline(never)]
    fn grow_slow(&mut self, n: usize) -> &mut [u8] {
        let old = self.len();
        let new = old + n;
        if new > INLINE && matches!(self, KeyBuf::Inline { .. }) {
            self.spill(new);
        }
        match self {
            KeyBuf::Inline { len, bytes } => {
                *len = new as u8;
                &mut bytes[old..new]
            }
            KeyBuf::Heap(v) => grow_vec(v, n),
        }
    }

    #[cold]
    fn spill(&mut self, need: usize) {
        let mut v = Vec::with_capacity(need.max(2 * INLINE));
        v.extend_from_slice(self.as_slice());
        *self = KeyBuf::Heap(v);
    }

    /// Turns the buffer into the first key after every key it prefixes (in place).
    #[inline]
    pub(crate) fn advance_to_next_prefix(&mut self) {
        let keep = next_prefix(self.as_mut_slice());
        self.truncate(keep);
    }

    #[inline]
    fn as_mut_slice(&mut self) -> &mut [u8] {
        match self {
            KeyBuf::Inline { len, bytes } => &mut bytes[..usize::from(*len)],
            KeyBuf::Heap(v) => v,
        }
    }

    #[inline]
    pub(crate) fn extend(&mut self, bytes: &[u8]) {
        self.grow(bytes.len()).copy_from_slice(bytes);
    }

    #[inline]
    pub(crate) fn push(&mut self, b: u8) {
        self.grow(1)[0] = b;
    }

    #[inline]
    pub(crate) fn truncate(&mut self, n: usize) {
        match self {
            KeyBuf::Inline { len, .. } => {
                if n < usize::from(*len) {
                    *len = n as u8;
                }
            }
            KeyBuf::Heap(v) => v.truncate(n),
        }
    }
}

/// Appends `n` zero bytes to `v` and returns them.
fn grow_vec(v: &mut Vec<u8>, n: usize) -> &mut [u8] {
    let old = v.len();
    v.resize(old + n, 0);
    &mut v[old..]
}

impl PartialEq for KeyBuf {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for KeyBuf {}

impl core::fmt::Debug for KeyBuf {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:02X?}", self.as_slice())
    }
}

/// Value bytes collected as they are written: a plan's prefix sources, hashed when needed.
impl ValueSink for KeyBuf {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        self.extend(bytes);
    }
}
