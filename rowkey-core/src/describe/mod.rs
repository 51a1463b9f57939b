//! Describing a key in words and tables, from what the runtime knows of it: its layout
//! (`layout.rs`: built in const context as `K::LAYOUT`, its offsets, and its table; the data is
//! `field/layout.rs`), each segment's bytes described from its type's shape and mode
//! (`encoding.rs`), a stored key explained segment by segment (`explain.rs`), and what stands
//! around a key's fields (`frame.rs`), which every walk asks.

pub(crate) mod encoding;
#[cfg(feature = "alloc")]
pub(crate) mod explain;
pub(crate) mod frame;
pub(crate) mod layout;
