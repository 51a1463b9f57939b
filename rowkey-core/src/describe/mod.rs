//! Describing a key in words and tables, from what the runtime knows of it: its layout as data
//! (`layout.rs`: the prefix and every segment with its offset, length and order, generated as
//! `K::LAYOUT`), each segment's bytes described from its type's shape and mode (`encoding.rs`),
//! a stored key explained segment by segment (`explain.rs`), and what stands around a key's
//! fields (`frame.rs`), which every walk asks.

pub(crate) mod encoding;
#[cfg(feature = "alloc")]
pub(crate) mod explain;
pub(crate) mod frame;
pub(crate) mod layout;
