//! A key's layout as data: the prefix and every segment with its offset, length, encoding and
//! order. `#[derive(RowKey)]` generates it as `K::LAYOUT`; its `Display` is a table to paste into
//! docs, or to hand to the team that writes the same key from Java or Python.

use core::fmt;

use crate::prefix::{Prefix, SaltHash};

/// How a segment sorts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// In the order of its values.
    Ascending,
    /// In reverse order (`desc`).
    Descending,
    /// Stored reversed (`reverse`): spread, in no useful order.
    Reversed,
}

/// One field of a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// The field's name.
    pub name: &'static str,
    /// The field's type, as written.
    pub ty: &'static str,
    /// Where the segment starts, when every segment before it has a fixed length.
    pub offset: Option<usize>,
    /// The segment's length, when it is fixed.
    pub len: Option<usize>,
    /// How the value becomes bytes.
    pub encoding: &'static str,
    /// How the segment sorts.
    pub order: Order,
}

/// A key's layout: `K::LAYOUT`.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct Event {
///     user_id: u64,
///     #[rowkey(desc)]
///     ts: i64,
///     host: String,
/// }
///
/// let layout = Event::LAYOUT;
/// assert_eq!(layout.segments[1].name, "ts");
/// assert_eq!(layout.segments[1].offset, Some(8));
/// assert_eq!(layout.segments[2].len, None);
/// println!("{layout}");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The key type's name.
    pub name: &'static str,
    /// The delimiter of a text layout; `None` for the binary format.
    pub text: Option<&'static str>,
    /// The prefix component.
    pub prefix: Prefix,
    /// The fields the prefix is computed from (every field for a whole-key salt).
    pub prefix_sources: &'static [&'static str],
    /// The fields, in key order.
    pub segments: &'static [Segment],
    /// The length of every key, when it is fixed.
    pub fixed_len: Option<usize>,
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let format = match self.text {
            None => "binary",
            Some("") => "text, no delimiter",
            Some(_) => "text",
        };
        write!(f, "`{}` row key ({format}", self.name)?;
        if let Some(d) = self.text.filter(|d| !d.is_empty()) {
            write!(f, ", segments joined by {d:?}")?;
        }
        match self.fixed_len {
            Some(n) => writeln!(f, ", always {n} bytes)")?,
            None => writeln!(f, ", variable length)")?,
        }
        writeln!(
            f,
            "| # | segment | type | offset | bytes | encoding | order |"
        )?;
        writeln!(f, "|---|---|---|---|---|---|---|")?;
        let sources = Sources(self.prefix_sources);
        match self.prefix {
            Prefix::None => {}
            Prefix::Salt(salt) => {
                let hash = match salt.hash() {
                    SaltHash::Md5 => "u32::from_be_bytes(md5(src)[0..4]) % N",
                    SaltHash::Java => "abs(Arrays.hashCode(src) % N) (Phoenix, OpenTSDB)",
                    SaltHash::Mod => "src % N",
                };
                let form = if salt.is_text() {
                    "decimal digits"
                } else {
                    "one byte"
                };
                writeln!(
                    f,
                    "| prefix | salt | bucket | 0 | {} | {form}: {hash}, N = {}, src = {sources} | - |",
                    salt.encoded_len(),
                    salt.buckets()
                )?;
            }
            Prefix::Hash(hash) => {
                let form = if hash.is_text() {
                    "hex digits of"
                } else {
                    "the first bytes of"
                };
                writeln!(
                    f,
                    "| prefix | hash | md5 | 0 | {} | {form} md5(src), src = {sources} | - |",
                    hash.prefix_len()
                )?;
            }
        }
        for (i, s) in self.segments.iter().enumerate() {
            let order = match s.order {
                Order::Ascending => "asc",
                Order::Descending => "desc",
                Order::Reversed => "reversed",
            };
            writeln!(
                f,
                "| {i} | {} | `{}` | {} | {} | {} | {order} |",
                s.name,
                s.ty,
                Opt(s.offset, "after the previous segment"),
                Opt(s.len, "variable"),
                s.encoding
            )?;
        }
        Ok(())
    }
}

struct Opt(Option<usize>, &'static str);

impl fmt::Display for Opt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(n) => write!(f, "{n}"),
            None => f.write_str(self.1),
        }
    }
}

struct Sources(&'static [&'static str]);

impl fmt::Display for Sources {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" + ")?;
            }
            f.write_str(s)?;
        }
        Ok(())
    }
}

/// The offset of a segment: the sum of the lengths before it, when all are fixed.
#[doc(hidden)]
pub const fn offset_after(lens: &[Option<usize>]) -> Option<usize> {
    crate::derive_support::sum_fixed(lens)
}

/// A stored key explained field by field: each segment's bytes beside its decoded value. Made by
/// the generated `K::explain(&key)`, for a row seen in the HBase shell.
#[cfg(feature = "alloc")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explained {
    /// The key type's name.
    pub name: &'static str,
    /// The whole key, as the HBase shell prints it.
    pub key: alloc::string::String,
    /// The segments, the prefix first.
    pub rows: alloc::vec::Vec<ExplainedSegment>,
}

/// One segment of an [`Explained`] key.
#[cfg(feature = "alloc")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExplainedSegment {
    /// The field's name (or `salt`, `hash` for the prefix).
    pub segment: &'static str,
    /// The segment's bytes, as the HBase shell prints them.
    pub bytes: alloc::string::String,
    /// The decoded value (its `Debug` form).
    pub value: alloc::string::String,
}

#[cfg(feature = "alloc")]
impl Explained {
    #[doc(hidden)]
    pub fn new(name: &'static str, key: &[u8]) -> Self {
        Explained {
            name,
            key: crate::hbase::to_string_binary(key),
            rows: alloc::vec::Vec::new(),
        }
    }

    #[doc(hidden)]
    pub fn push(&mut self, segment: &'static str, bytes: &[u8], value: alloc::string::String) {
        self.rows.push(ExplainedSegment {
            segment,
            bytes: crate::hbase::to_string_binary(bytes),
            value,
        });
    }
}

#[cfg(feature = "alloc")]
impl fmt::Display for Explained {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "`{}` row key {}", self.name, self.key)?;
        let name_w = self.rows.iter().map(|r| r.segment.len()).max().unwrap_or(0);
        let bytes_w = self.rows.iter().map(|r| r.bytes.len()).max().unwrap_or(0);
        for r in &self.rows {
            writeln!(
                f,
                "  {:<name_w$}  {:<bytes_w$}  {}",
                r.segment, r.bytes, r.value
            )?;
        }
        Ok(())
    }
}
