//! A stored key explained segment by segment, each segment's bytes beside its value: for a row
//! seen in the HBase shell, a log line or an error. `K::explain` decodes the key first and fails as
//! `decode` fails; `K::explain_best_effort` explains any bytes, as far as they go, with the error.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::describe::frame::Frame;
use crate::error::{DecodeError, DecodeErrorKind};
use crate::prefix::Prefix;
use crate::tag::Tag;
use crate::words::Count;

/// A stored key explained field by field: each segment's bytes beside its decoded value. Made by
/// `K::explain(&key)`, for a row seen in the HBase shell; its `Display` is a small table.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug)]
/// struct Event {
///     user_id: u32,
///     host: String,
/// }
///
/// // The key 00 00 00 2A 77 65 62: the u32 42, then "web" (0x2A is `*`).
/// let explained = Event::explain(b"\x00\x00\x00*web")?;
/// assert_eq!(explained.rows[1].segment, "host");
/// assert_eq!(explained.rows[1].value, r#""web""#);
/// let text = explained.to_string();
/// let lines: Vec<&str> = text.lines().collect();
/// assert_eq!(lines[0], r"`Event` row key \x00\x00\x00*web");
/// assert_eq!(lines[1], r"  user_id  \x00\x00\x00*  42"); // columns padded to the widest entry
/// # Ok::<(), rowkey::DecodeError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Explained {
    /// The key type's name.
    pub name: &'static str,
    /// The whole key, as the HBase shell prints it.
    pub key: String,
    /// The segments, the prefix first.
    pub rows: Vec<ExplainedSegment>,
    /// Why the key did not decode, for an explanation made anyway
    /// ([`RowKey::explain_best_effort`](crate::RowKey::explain_best_effort)); `None` for a key that decodes.
    pub error: Option<DecodeError>,
}

/// One segment of an [`Explained`] key.
///
/// ```
/// use rowkey::RowKey;
///
/// #[derive(RowKey, Debug)]
/// struct Event {
///     #[rowkey(salt(buckets = 16, hash = "mod"))]
///     user_id: u8,
/// }
///
/// let salt = &Event::explain(&[11, 11])?.rows[0];
/// assert_eq!((salt.segment, salt.bytes.as_str(), salt.value.as_str()), ("salt", r"\x0B", "bucket 11 of 16"));
/// # Ok::<(), rowkey::DecodeError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExplainedSegment {
    /// The field's name (or `salt`, `hash` for the prefix).
    pub segment: &'static str,
    /// The segment's bytes, as the HBase shell prints them.
    pub bytes: String,
    /// The decoded value (its `Debug` form).
    pub value: String,
}

impl Explained {
    /// The explanation of `key`, a key of the layout `name`, with no segment yet.
    pub(crate) fn new(name: &'static str, key: &[u8]) -> Self {
        Explained {
            name,
            key: crate::hbase::to_string_binary(key),
            rows: Vec::new(),
            error: None,
        }
    }

    /// The explanation of `key` without decoding it: the whole key as one segment.
    pub(crate) fn undecoded(name: &'static str, key: &[u8]) -> Self {
        let mut explained = Explained::new(name, key);
        explained.push("key", key, String::from("(not decoded)"));
        explained
    }

    /// Adds the prefix's `bytes`, showing what they are: the salt bucket, or the hash prefix.
    pub(crate) fn push_prefix(&mut self, prefix: Prefix, bytes: &[u8]) {
        let (label, value) = match prefix {
            Prefix::Salt(salt) => (
                "salt",
                match salt.read_bucket(bytes) {
                    Ok(b) if u16::from(b) < salt.buckets() => {
                        alloc::format!("bucket {b} of {}", salt.buckets())
                    }
                    Ok(b) => alloc::format!(
                        "bucket {b}, out of range ({})",
                        Count(usize::from(salt.buckets()), "bucket")
                    ),
                    Err(_) => String::from("(not a bucket)"),
                },
            ),
            Prefix::Hash(_) => ("hash", String::from("md5 prefix of the sources")),
            Prefix::None => ("salt", String::new()),
        };
        self.push(label, bytes, value);
    }

    /// Adds the bytes of `tag` (with the delimiter after it) that start `key`.
    pub(crate) fn push_tag(&mut self, tag: Tag, key: &[u8]) {
        let bytes = key.get(..tag.encoded_len()).unwrap_or(key);
        self.push("tag", bytes, crate::hbase::to_string_binary(tag.bytes()));
    }

    /// Adds a segment of `bytes`, showing `value`.
    pub(crate) fn push(&mut self, segment: &'static str, bytes: &[u8], value: String) {
        self.rows.push(ExplainedSegment {
            segment,
            bytes: crate::hbase::to_string_binary(bytes),
            value,
        });
    }
}

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
        if let Some(error) = &self.error {
            writeln!(f, "  not a valid key: {error}")?;
        }
        Ok(())
    }
}

/// [`RowKey::explain_best_effort`](crate::RowKey::explain_best_effort) and `Schema`'s: the
/// explanation of a key of `frame` that decodes (`decoded`); for one that does not, as much as
/// can be told, with the error (`prefix_unchecked` explains the key again without checking its
/// salt or hash prefix).
///
/// A key whose fields decode but whose salt or hash prefix is not theirs (a key written with
/// another salt function, bucket count or prefix length, or a corrupted prefix byte, a salt past
/// the bucket count included) is shown in full, the prefix as found. Any other key shows the
/// parts its layout fixes without decoding (the tag and the prefix, when the key holds them) and
/// the rest as one undecoded segment.
pub(crate) fn best_effort<F: Frame + ?Sized>(
    key: &[u8],
    frame: &F,
    decoded: Result<Explained, DecodeError>,
    prefix_unchecked: impl FnOnce() -> Result<Explained, DecodeError>,
) -> Explained {
    let error = match decoded {
        Ok(explained) => return explained,
        Err(error) => error,
    };
    let prefix_only = matches!(
        error.kind(),
        DecodeErrorKind::WrongSalt { .. }
            | DecodeErrorKind::BucketOutOfRange { .. }
            | DecodeErrorKind::WrongHashPrefix
    );
    let mut explained = prefix_only
        .then(|| prefix_unchecked().ok())
        .flatten()
        .unwrap_or_else(|| undecoded_after_prefix(key, frame));
    explained.error = Some(error);
    explained
}

/// The tag and prefix of `key` as its layout (`frame`) places them, and the rest undecoded.
fn undecoded_after_prefix<F: Frame + ?Sized>(key: &[u8], frame: &F) -> Explained {
    let mut explained = Explained::new(frame.key_name(), key);
    let mut rest = key;
    // A key without the tag is of another type: nothing of it stands where this layout says.
    let tag = frame.tag();
    let tagged = tag.opens(key);
    if !tag.is_none() && tagged {
        explained.push_tag(tag, key);
        rest = &rest[tag.encoded_len()..];
    }
    let prefix_len = frame.prefix_len();
    if tagged && prefix_len > 0 && rest.len() >= prefix_len {
        let (prefix, after) = rest.split_at(prefix_len);
        explained.push_prefix(frame.prefix(), prefix);
        rest = after;
    }
    if !rest.is_empty() || explained.rows.is_empty() {
        explained.push("rest", rest, String::from("(not decoded)"));
    }
    explained
}
