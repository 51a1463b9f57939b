//! A key's byte format, chosen once per key ([`KeyFormat`]), and the bytes the formats give
//! meaning to, named once. Codecs write and read them, the scan planner builds bounds from them,
//! and field shapes place unstorable values with them; every one of those imports them from here.
//! Each format's rules live in its folder under `codec/` (`binary/`, `text/`, `phoenix/`).

/// The byte format of a key: how every field of it is written, and what stands between them.
/// A key has one, chosen once on the key type (`#[rowkey(text)]`, `#[rowkey(phoenix)]`, or
/// neither); each field of it is written in it ([`FieldMode::key_format`](crate::FieldMode::key_format)).
///
/// ```
/// use rowkey::{FieldMode, KeyFormat};
/// assert_eq!(FieldMode::LAST.key_format(), KeyFormat::Binary);
/// assert_eq!(FieldMode::LAST.with_text(":").key_format(), KeyFormat::Text(":"));
/// assert_eq!(KeyFormat::Text("#").delimiter(), "#");
/// assert_eq!(KeyFormat::Binary.delimiter(), "");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum KeyFormat {
    /// rowkey's order-preserving bytes: big-endian integers with the sign bit flipped, escaped
    /// variable-length content, `None` tagged (the default).
    Binary,
    /// Human-readable text (`#[rowkey(text, delimiter = "...")]`): zero-padded numbers, raw
    /// strings, the segments joined by this delimiter (empty: simply concatenated).
    Text(&'static str),
    /// Apache Phoenix's primary key of the fields' columns (`#[rowkey(phoenix)]`): Phoenix's
    /// encodings, its separators after variable-length columns, NULL as no bytes.
    Phoenix,
}

impl KeyFormat {
    /// The delimiter between the segments of a text key; empty in every other format.
    #[inline(always)]
    #[must_use]
    pub const fn delimiter(self) -> &'static str {
        match self {
            KeyFormat::Text(d) => d,
            _ => "",
        }
    }

    /// The text format's delimiter, `None` in every other format.
    #[inline]
    pub(crate) const fn text(self) -> Option<&'static str> {
        match self {
            KeyFormat::Text(d) => Some(d),
            _ => None,
        }
    }
}

/// A [`KeyFormat`] as owned data: the layout lock's, whose text delimiter is read from a file.
/// Its conversions and its words (a lock file's, a change report's) are here, beside the format.
#[cfg(feature = "lock")]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LockedFormat {
    Binary,
    Text(alloc::string::String),
    Phoenix,
}

#[cfg(feature = "lock")]
impl LockedFormat {
    pub(crate) fn of(format: KeyFormat) -> LockedFormat {
        match format {
            KeyFormat::Text(d) => LockedFormat::Text(alloc::borrow::ToOwned::to_owned(d)),
            KeyFormat::Phoenix => LockedFormat::Phoenix,
            _ => LockedFormat::Binary,
        }
    }

    /// Every format's word in a lock file's `layout` line, for an error on another word.
    pub(crate) const LOCK_WORDS: &'static str = "`binary`, `text` or `phoenix`";

    /// The format's words in a lock file's `layout` line.
    pub(crate) fn lock_words(&self) -> alloc::string::String {
        match self {
            LockedFormat::Binary => "binary".into(),
            LockedFormat::Text(d) => alloc::format!("text delimiter={d:?}"),
            LockedFormat::Phoenix => "phoenix".into(),
        }
    }

    /// The format a lock file's `layout` line names by `word` (the text format's delimiter read
    /// next, by `delimiter`); `None` for a word that names none.
    pub(crate) fn from_lock_word<E>(
        word: &str,
        delimiter: impl FnOnce() -> Result<alloc::string::String, E>,
    ) -> Result<Option<LockedFormat>, E> {
        Ok(Some(match word {
            "binary" => LockedFormat::Binary,
            "phoenix" => LockedFormat::Phoenix,
            "text" => LockedFormat::Text(delimiter()?),
            _ => return Ok(None),
        }))
    }

    /// The format's words in a change report.
    pub(crate) fn words(&self) -> alloc::string::String {
        match self {
            LockedFormat::Binary => "binary".into(),
            LockedFormat::Text(d) => alloc::format!("text joined by {d:?}"),
            LockedFormat::Phoenix => "Apache Phoenix's primary key".into(),
        }
    }

    #[cfg(feature = "schema")]
    /// The format, its delimiter kept by `keep` (the schema keeps it for the process).
    pub(crate) fn key_format(&self, keep: impl FnOnce(&str) -> &'static str) -> KeyFormat {
        match self {
            LockedFormat::Binary => KeyFormat::Binary,
            LockedFormat::Text(d) => KeyFormat::Text(keep(d)),
            LockedFormat::Phoenix => KeyFormat::Phoenix,
        }
    }
}

/// In the escaped form of variable-length content (a string or bytes field that another field
/// follows), the byte that starts an escape sequence.
pub(crate) const ESCAPE: u8 = 0x00;
/// After [`ESCAPE`]: the content had a `00` here.
pub(crate) const ESCAPED_ZERO: u8 = 0xFF;
/// After [`ESCAPE`]: the content ends.
pub(crate) const TERMINATOR: u8 = 0x01;

/// The padding of content padded to a `width` in binary keys.
pub(crate) const PAD: u8 = 0x00;
/// The padding of content padded to a `width` in text keys.
pub(crate) const TEXT_PAD: u8 = b' ';

/// Apache Phoenix (`#[rowkey(phoenix)]`): the byte after a variable-length column that another
/// follows, when that column is ascending or NULL.
pub(crate) const PHOENIX_SEPARATOR: u8 = 0x00;
/// Apache Phoenix: the byte after a non-NULL descending variable-length column, also when it is
/// the last column of the key.
pub(crate) const PHOENIX_DESC_SEPARATOR: u8 = 0xFF;
/// Apache Phoenix: the padding of a `CHAR(n)` column (a space, as in text keys).
pub(crate) const PHOENIX_CHAR_PAD: u8 = TEXT_PAD;

/// The tag of `None`; it sorts before every `Some`.
pub(crate) const NONE: u8 = 0x00;
/// The tag of `Some`.
pub(crate) const SOME: u8 = 0x01;

/// `desc`: every byte inverted, so the field sorts in reverse.
#[inline(always)]
pub(crate) fn invert(bytes: &mut [u8]) {
    for b in bytes {
        *b = !*b;
    }
}

/// The content of padded bytes: everything before their trailing `pad` bytes.
#[inline]
pub(crate) fn strip_padding(padded: &[u8], pad: u8) -> &[u8] {
    &padded[..padded.iter().rposition(|&b| b != pad).map_or(0, |i| i + 1)]
}
