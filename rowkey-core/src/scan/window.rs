//! A window on a plan: the keys `[start, stop)` a plan is cut down to after it is built, so a scan
//! resumes after the last row it read ([`Scan::after`](super::Scan::after)) or splits into one
//! plan per region ([`Scan::split`](super::Scan::split)). The plan's own ranges and test stay as
//! they are; the window clips the one and narrows the other, so a cut plan never reads a key its
//! plan would not.

use alloc::vec::Vec;

use super::byte_order::cmp_short;
use super::keybuf::KeyBuf;
use super::range::{KeyRange, Span};

/// The keys a plan is cut down to: `[start, stop)`, an empty stop being the end of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    start: KeyBuf,
    stop: KeyBuf,
}

impl Window {
    /// The keys strictly after `key`: at or after `key 00`, its immediate successor.
    pub(crate) fn after(key: &[u8]) -> Window {
        let mut start = KeyBuf::from_slice(key);
        start.push(0);
        Window {
            start,
            stop: KeyBuf::new(),
        }
    }

    /// The keys of the region `[start, stop)`.
    pub(crate) fn region(start: &[u8], stop: &[u8]) -> Window {
        Window {
            start: KeyBuf::from_slice(start),
            stop: KeyBuf::from_slice(stop),
        }
    }

    /// The keys in both windows.
    pub(crate) fn intersect(&self, other: &Window) -> Window {
        let start = if cmp_short(self.start(), other.start()).is_ge() {
            &self.start
        } else {
            &other.start
        };
        Window {
            start: start.clone(),
            stop: KeyBuf::from_slice(min_stop(self.stop(), other.stop())),
        }
    }

    /// Whether the window holds `key`.
    #[inline]
    pub(crate) fn contains(&self, key: &[u8]) -> bool {
        Span::contains(self, key)
    }

    /// The part of `range` inside the window, or `None` when they share no key.
    pub(crate) fn clip(&self, range: &KeyRange) -> Option<KeyRange> {
        let start = if cmp_short(range.start(), self.start()).is_ge() {
            range.start()
        } else {
            self.start()
        };
        let clipped = KeyRange::new(start, min_stop(range.stop(), self.stop()));
        (!clipped.is_empty()).then_some(clipped)
    }

    /// The parts of sorted, non-overlapping `ranges` inside the window: still sorted and not
    /// overlapping, and never merged (ranges of different salt buckets stay apart).
    pub(crate) fn clip_all(&self, ranges: impl Iterator<Item = KeyRange>) -> Vec<KeyRange> {
        ranges.filter_map(|r| self.clip(&r)).collect()
    }
}

/// The earlier of two stops, an empty stop being the end of the table.
fn min_stop<'a>(a: &'a [u8], b: &'a [u8]) -> &'a [u8] {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b,
        (_, true) => a,
        _ if cmp_short(a, b).is_le() => a,
        _ => b,
    }
}

impl Span for Window {
    #[inline]
    fn start(&self) -> &[u8] {
        self.start.as_slice()
    }

    #[inline]
    fn stop(&self) -> &[u8] {
        self.stop.as_slice()
    }

    fn take_stop(&mut self, other: &mut Self) {
        core::mem::swap(&mut self.stop, &mut other.stop);
    }
}
