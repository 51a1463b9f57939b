//! The names, delimiters, tags and planning facts of schemas read at run time, kept for the life
//! of the process: the codecs and planner take them as `&'static`, as generated code gives them.
//! Each distinct value is kept once, so reading the same lock file again keeps nothing new.

use alloc::boxed::Box;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use std::collections::BTreeMap;
use std::sync::Mutex;

use crate::scan::ScanLayout;

static STRS: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
static BYTES: Mutex<BTreeSet<&'static [u8]>> = Mutex::new(BTreeSet::new());
static LAYOUTS: Mutex<BTreeMap<String, &'static ScanLayout>> = Mutex::new(BTreeMap::new());

/// `s`, kept for the life of the process.
pub(crate) fn str(s: &str) -> &'static str {
    let mut set = STRS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(kept) = set.get(s) {
        return kept;
    }
    let kept: &'static str = Box::leak(Box::from(s));
    set.insert(kept);
    kept
}

/// `b`, kept for the life of the process.
pub(crate) fn bytes(b: &[u8]) -> &'static [u8] {
    let mut set = BYTES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(kept) = set.get(b) {
        return kept;
    }
    let kept: &'static [u8] = Box::leak(Box::from(b));
    set.insert(kept);
    kept
}

/// `layout`, kept for the life of the process (its parts already are).
pub(crate) fn scan_layout(layout: ScanLayout) -> &'static ScanLayout {
    let key = format!("{layout:?}");
    let mut map = LAYOUTS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(kept) = map.get(&key) {
        return kept;
    }
    let kept: &'static ScanLayout = Box::leak(Box::new(layout));
    map.insert(key, kept);
    kept
}
