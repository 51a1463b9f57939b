//! The two traits a whole key implements: [`RowKey`] to encode and [`DecodeKey`] to read it back.
//! `#[derive(RowKey)]` implements `RowKey` and the key's [`KeyField`] and [`DecodeField`] (so keys
//! nest); a whole key is written and read as its own field in the last position (`io.rs`), so
//! `encode_into` is provided and every such key implements `DecodeKey`.

#[cfg(feature = "alloc")]
use alloc::vec::Vec;

#[cfg(feature = "alloc")]
use crate::describe::explain::Explained;
use crate::error::{DecodeError, EncodeError};
use crate::field::layout::Layout;
use crate::field::{DecodeField, FieldMode, KeyField};

pub(crate) mod io;

/// A type that encodes to an order-preserving row key: the byte order of two keys is the order of
/// the values, field by field.
///
/// Derive it (see the `rowkey` crate for the attributes): the derive writes the layout, the
/// codec and the scan builder from one declaration. Its items for generated code are hidden and
/// may change between releases, so an implementation by hand is not supported.
///
/// ```
/// use rowkey::{EncodeError, FieldMode, KeyField, RowKey};
///
/// #[derive(RowKey)]
/// struct Event {
///     user_id: u64,
///     #[rowkey(desc)]
///     ts: i64,
/// }
///
/// let key = Event { user_id: 42, ts: 0 }.to_vec()?;
/// // Field by field, as the generated code writes them: 42 big-endian, then ts = 0 as Java's
/// // Long.MAX_VALUE - 0.
/// let mut by_hand = [0u8; 16];
/// let n = 42u64.encode(&mut by_hand, FieldMode::INNER)?;
/// 0i64.encode(&mut by_hand[n..], FieldMode::LAST.with_desc())?;
/// assert_eq!(key, by_hand);
/// assert_eq!(key, [0, 0, 0, 0, 0, 0, 0, 42, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]);
/// assert!(Event { user_id: 42, ts: 1 }.to_vec()? < key); // newest first
/// # Ok::<(), EncodeError>(())
/// ```
pub trait RowKey: KeyField {
    /// The length of every key, when every field has a fixed width.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct Id {
    ///     id: u32,
    /// }
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct MaybeId {
    ///     id: Option<u32>,
    /// }
    ///
    /// // `Id` is one u32 field; `MaybeId` one Option<u32> (1 or 5 bytes).
    /// assert_eq!(Id::FIXED_LEN, Some(4));
    /// let mut buf = [0u8; 4]; // a stack buffer is enough for every `Id`
    /// assert_eq!(Id { id: 7 }.encode_into(&mut buf)?, 4);
    /// assert_eq!(MaybeId::FIXED_LEN, None);
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    const FIXED_LEN: Option<usize> = Self::LAYOUT.fixed_len;

    /// An upper bound of the key length, when every field is bounded.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct Id {
    ///     id: u32,
    /// }
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct MaybeId {
    ///     id: Option<u32>,
    /// }
    ///
    /// // `MaybeId` is one Option<u32>: `00`, or `01` and 4 bytes.
    /// assert_eq!(MaybeId::MAX_LEN, Some(5));
    /// assert_eq!(MaybeId { id: None }.encoded_len(), 1);
    /// assert_eq!(MaybeId { id: Some(7) }.encoded_len(), 5);
    /// assert_eq!(Id::MAX_LEN, Id::FIXED_LEN); // fixed keys are bounded by their length
    /// ```
    const MAX_LEN: Option<usize> = Self::LAYOUT.sum_len(true);

    /// The longest key [`encode_into`](RowKey::encode_into) writes: a longer one is
    /// [`EncodeErrorKind::RowTooLong`](crate::EncodeErrorKind::RowTooLong). HBase's 32767 unless
    /// the struct says `#[rowkey(max_len = N)]` (see [`limits`](crate::limits) for other stores);
    /// a fixed layout longer than it does not compile.
    ///
    /// ```
    /// use rowkey::{RowKey, limits};
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct Host {
    ///     name: String, // escaped, since the port follows it
    ///     port: u16,
    /// }
    ///
    /// assert_eq!(Host::ROW_LIMIT, limits::HBASE);
    /// ```
    const ROW_LIMIT: usize = crate::limits::HBASE;

    /// The key's layout: every segment's name, type, place, encoding and order, the prefix, the
    /// tag, and for an enum key each variant's layout. The derive also gives it as the inherent
    /// `K::LAYOUT`; generic code reads it here.
    ///
    /// ```
    /// use rowkey::{Layout, RowKey};
    ///
    /// #[derive(RowKey)]
    /// struct Event {
    ///     user_id: u64,
    ///     host: String,
    /// }
    ///
    /// fn segment_names<K: RowKey>() -> Vec<&'static str> {
    ///     K::LAYOUT.segments.iter().map(|s| s.name).collect()
    /// }
    /// assert_eq!(segment_names::<Event>(), ["user_id", "host"]);
    /// ```
    const LAYOUT: Layout;

    /// The exact length [`encode_into`](RowKey::encode_into) writes.
    ///
    /// ```
    /// use rowkey::{RowKey, DecodeErrorKind, DecodeKey};
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct Host {
    ///     name: String, // escaped, since the port follows it
    ///     port: u16,
    /// }
    ///
    /// let host = Host { name: "a\0b".into(), port: 80 };
    /// assert_eq!(host.encoded_len(), 6 + 2); // 61 00 FF 62 00 01, then 00 50
    /// let mut buf = [0u8; 16];
    /// assert_eq!(host.encode_into(&mut buf)?, host.encoded_len());
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    #[inline(always)]
    fn encoded_len(&self) -> usize {
        self.field_len(FieldMode::LAST)
    }

    /// Writes the key at the start of `out` and returns its length. Never allocates.
    ///
    /// Fails when `out` is too short, a value does not fit its `width`, or the key is longer than
    /// [`limits::HBASE`](crate::limits::HBASE); what `out` holds after an error is
    /// unspecified.
    ///
    /// ```
    /// use rowkey::{RowKey, DecodeErrorKind, DecodeKey};
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct Host {
    ///     name: String, // escaped, since the port follows it
    ///     port: u16,
    /// }
    ///
    /// let host = Host { name: "a\0b".into(), port: 80 };
    /// let mut buf = [0u8; 16];
    /// let n = host.encode_into(&mut buf)?;
    /// assert_eq!(&buf[..n], [0x61, 0x00, 0xFF, 0x62, 0x00, 0x01, 0x00, 0x50]);
    /// // A short buffer is an error, not a panic.
    /// assert!(host.encode_into(&mut [0u8; 4]).is_err());
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    #[inline(always)]
    fn encode_into(&self, out: &mut [u8]) -> Result<usize, EncodeError> {
        io::encode_key(self, out)
    }

    /// The key as a new vector.
    ///
    /// ```
    /// use rowkey::{RowKey, DecodeErrorKind, DecodeKey};
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct Host {
    ///     name: String, // escaped, since the port follows it
    ///     port: u16,
    /// }
    ///
    /// // "web", its terminator 00 01, then 443 = 01 BB.
    /// let key = Host { name: "web".into(), port: 443 }.to_vec()?;
    /// assert_eq!(key, b"web\x00\x01\x01\xBB");
    /// assert_eq!(Host::decode(&key)?, Host { name: "web".into(), port: 443 });
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "alloc")]
    fn to_vec(&self) -> Result<Vec<u8>, EncodeError> {
        let mut key = alloc::vec![0; self.encoded_len()];
        let n = self.encode_into(&mut key)?;
        key.truncate(n);
        Ok(key)
    }

    /// A stored key shown segment by segment: each segment's bytes beside its decoded value (see
    /// [`Explained`]). The derive also gives it as the inherent `K::explain`; generic code calls
    /// it here. Fails as `decode` fails. The provided implementation, for keys written by hand,
    /// shows the whole key as one segment without decoding it.
    ///
    /// ```
    /// use rowkey::RowKey;
    ///
    /// #[derive(RowKey, Debug)]
    /// struct Event {
    ///     user_id: u8,
    ///     host: String,
    /// }
    ///
    /// fn show<K: RowKey>(key: &[u8]) -> String {
    ///     K::explain(key).map_or_else(|e| e.to_string(), |x| x.to_string())
    /// }
    /// let shown = show::<Event>(b"\x07web");
    /// assert!(shown.lines().any(|l| l.trim_start().starts_with("host") && l.ends_with("\"web\"")));
    /// ```
    #[cfg(feature = "alloc")]
    fn explain(key: &[u8]) -> Result<Explained, DecodeError>
    where
        Self: Sized,
    {
        Self::explain_in(key, FieldMode::LAST)
    }

    /// Explains any bytes, as far as they go: what [`explain`](RowKey::explain) gives for a key
    /// that decodes, and for one that does not, the parts that can still be told with the error
    /// in [`Explained::error`], rather than the error alone. A key whose fields decode but whose
    /// salt or hash prefix is not theirs (written with another salt function or bucket count, or
    /// corrupted) is shown in full, its prefix as found; any other shows the tag and prefix its
    /// layout places, and the rest undecoded.
    ///
    /// ```
    /// use rowkey::{DecodeErrorKind, RowKey};
    ///
    /// #[derive(RowKey, Debug)]
    /// struct Event {
    ///     #[rowkey(salt(buckets = 16, hash = "mod"))]
    ///     user_id: u8,
    /// }
    ///
    /// // Bucket 3 holds user 11's row only in another layout: `explain` refuses it...
    /// assert!(Event::explain(&[3, 11]).is_err());
    /// // ...and the best effort shows both parts, and why the key is not an `Event`.
    /// let shown = Event::explain_best_effort(&[3, 11]);
    /// assert_eq!(shown.rows[0].value, "bucket 3 of 16");
    /// assert_eq!(shown.rows[1].value, "11");
    /// let error = shown.error.unwrap();
    /// assert_eq!(error.kind(), DecodeErrorKind::WrongSalt { expected: 11, found: 3, text: false });
    /// // A salt byte past the bucket count is no bucket of the layout: the fields still show.
    /// let shown = Event::explain_best_effort(&[0x13, 11]);
    /// assert_eq!(shown.rows[0].value, "bucket 19, out of range (16 buckets)");
    /// assert_eq!(shown.rows[1].value, "11");
    /// let error = shown.error.unwrap();
    /// assert_eq!(error.kind(), DecodeErrorKind::BucketOutOfRange { bucket: 0x13, buckets: 16, text: false });
    /// assert!(error.to_string().contains("salt byte 13 is out of range: the key has 16 buckets (00 to 0F)"));
    /// ```
    #[cfg(feature = "alloc")]
    fn explain_best_effort(key: &[u8]) -> Explained
    where
        Self: Sized,
    {
        crate::describe::explain::best_effort(key, &Self::LAYOUT, Self::explain(key), || {
            Self::explain_in(key, FieldMode::LAST.with_prefix_unchecked())
        })
    }

    /// [`explain`](RowKey::explain), decoding in `mode` (which may accept any salt bucket or hash
    /// prefix). What the derive implements; the provided implementation, for keys written by
    /// hand, shows the whole key as one segment without decoding it.
    #[doc(hidden)]
    #[cfg(feature = "alloc")]
    fn explain_in(key: &[u8], mode: FieldMode) -> Result<Explained, DecodeError>
    where
        Self: Sized,
    {
        let _ = mode;
        Ok(Explained::undecoded(Self::LAYOUT.name, key))
    }

    /// `regions - 1` sorted split points that divide the key space of a salted or hash-prefixed
    /// layout evenly: at bucket boundaries for a salt (between them, as if the rest of the key were
    /// uniform, when there are more regions than buckets), at evenly spaced values of a hash
    /// prefix. Empty for layouts without a prefix (their keys have no uniform split) and for
    /// `regions <= 1`. A count past what the prefix can tell apart (a hash prefix of `L` bytes has
    /// `256^L` values), or past [`regions::MAX_SPLIT_REGIONS`](crate::regions::MAX_SPLIT_REGIONS),
    /// is clamped to it: `split_keys(usize::MAX)` gives a list of that many, never an abort.
    ///
    /// Region `i` holds the keys from split point `i - 1` (inclusive) to split point `i`
    /// (exclusive), as in HBase.
    ///
    /// More regions than salt buckets rarely pay: a point inside a bucket (`\x00\x80\x00\x00\x00`
    /// for 16 regions over 8 buckets) is halfway through the bytes after the salt, and when those
    /// start with a time every row of the bucket falls below it, so the regions beyond the bucket
    /// count stay empty. Salt with as many buckets as regions, or split at points from the keys'
    /// real distribution; `rowkey_lab::advise_for` says so for a given region count.
    ///
    /// ```
    /// use rowkey::{RowKey, EncodeErrorKind, SaltedKey};
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct Seq {
    ///     #[rowkey(salt(buckets = 4, hash = "mod"))] // the bucket is seq % 4
    ///     seq: u32,
    /// }
    ///
    /// // `Seq` is a u32 behind a one-byte salt of 4 buckets.
    /// assert_eq!(Seq::split_keys(4), [[1], [2], [3]]); // one bucket per region
    /// assert_eq!(Seq::split_keys(2), [[2]]);           // buckets 0-1, then 2-3
    /// assert!(Seq::split_keys(1).is_empty());
    /// ```
    #[cfg(feature = "alloc")]
    fn split_keys(regions: usize) -> Vec<Vec<u8>>
    where
        Self: Sized,
    {
        let tag = Self::LAYOUT.tag;
        let points = crate::regions::split_points(Self::LAYOUT.prefix, regions);
        if tag.is_none() {
            return points;
        }
        points.iter().map(|p| tag.join(p)).collect()
    }
}

/// A salted key whose writer may choose the bucket: random or round-robin salting (the HBaseWD
/// pattern), or replaying another system's salt.
///
/// Such keys spread writes perfectly but cost reads: the bucket can no longer be computed from
/// the fields, so a Get must try every bucket ([`bucket_keys`](SaltedKey::bucket_keys)) and a
/// scan must fan out over all of them. Decode them with
/// [`decode_any_bucket`](DecodeSaltedKey::decode_any_bucket); the plain `decode` checks the salt
/// against the computed bucket and refuses them.
///
/// `#[derive(RowKey)]` implements it for layouts with a salt.
///
/// ```
/// use rowkey::{RowKey, EncodeErrorKind, SaltedKey};
///
/// #[derive(RowKey, Debug, PartialEq)]
/// struct Seq {
///     #[rowkey(salt(buckets = 4, hash = "mod"))] // the bucket is seq % 4
///     seq: u32,
/// }
///
/// // `Seq` is a u32 behind a salt byte, computed as `seq % 4` unless the writer chooses it.
/// let key = Seq { seq: 7 };
/// assert_eq!(key.to_vec()?, [3, 0, 0, 0, 7]);
/// assert_eq!(key.to_vec_in_bucket(1)?, [1, 0, 0, 0, 7]);
/// // Readers cannot tell which bucket a writer chose: a Get tries all of them.
/// assert_eq!(key.bucket_keys()?.len(), 4);
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
pub trait SaltedKey: RowKey {
    /// The number of salt buckets.
    ///
    /// ```
    /// use rowkey::{RowKey, EncodeErrorKind, SaltedKey};
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct Seq {
    ///     #[rowkey(salt(buckets = 4, hash = "mod"))] // the bucket is seq % 4
    ///     seq: u32,
    /// }
    ///
    /// // `Seq` is a u32 behind a salt byte of 4 buckets.
    /// assert_eq!(Seq::BUCKETS, 4);
    /// assert!(Seq { seq: 7 }.to_vec_in_bucket((Seq::BUCKETS - 1) as u8).is_ok());
    /// assert!(Seq { seq: 7 }.to_vec_in_bucket(Seq::BUCKETS as u8).is_err()); // not below the count
    /// ```
    const BUCKETS: u16;

    /// Encodes the key with `bucket` as its salt byte instead of the computed one.
    ///
    /// ```
    /// use rowkey::{RowKey, EncodeErrorKind, SaltedKey};
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct Seq {
    ///     #[rowkey(salt(buckets = 4, hash = "mod"))] // the bucket is seq % 4
    ///     seq: u32,
    /// }
    ///
    /// // `Seq` is a u32 behind a salt byte of 4 buckets.
    /// let mut buf = [0u8; 5];
    /// let n = Seq { seq: 7 }.encode_into_bucket(2, &mut buf)?;
    /// assert_eq!(&buf[..n], [2, 0, 0, 0, 7]);
    /// let err = Seq { seq: 7 }.encode_into_bucket(4, &mut buf).unwrap_err();
    /// assert_eq!(err.kind(), EncodeErrorKind::BucketOutOfRange { bucket: 4, buckets: 4 });
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    fn encode_into_bucket(&self, bucket: u8, out: &mut [u8]) -> Result<usize, EncodeError>;

    /// The key with `bucket` as its salt byte, as a new vector.
    ///
    /// ```
    /// use rowkey::{RowKey, EncodeErrorKind, SaltedKey};
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct Seq {
    ///     #[rowkey(salt(buckets = 4, hash = "mod"))] // the bucket is seq % 4
    ///     seq: u32,
    /// }
    ///
    /// // `Seq` is a u32 behind a salt byte of 4 buckets; 258 is 00 00 01 02.
    /// assert_eq!(Seq { seq: 258 }.to_vec_in_bucket(0)?, [0, 0, 0, 1, 2]);
    /// assert_eq!(Seq { seq: 258 }.to_vec()?, [2, 0, 0, 1, 2]); // the computed bucket: 258 % 4
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    #[cfg(feature = "alloc")]
    fn to_vec_in_bucket(&self, bucket: u8) -> Result<Vec<u8>, EncodeError> {
        let mut key = alloc::vec![0; self.encoded_len()];
        let n = self.encode_into_bucket(bucket, &mut key)?;
        key.truncate(n);
        Ok(key)
    }

    /// The key in every bucket, in bucket order: what a Get must try when writers choose buckets.
    ///
    /// ```
    /// use rowkey::{RowKey, EncodeErrorKind, SaltedKey};
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct Seq {
    ///     #[rowkey(salt(buckets = 4, hash = "mod"))] // the bucket is seq % 4
    ///     seq: u32,
    /// }
    ///
    /// // `Seq` is a u32 behind a salt byte of 4 buckets.
    /// assert_eq!(
    ///     Seq { seq: 1 }.bucket_keys()?,
    ///     [[0, 0, 0, 0, 1], [1, 0, 0, 0, 1], [2, 0, 0, 0, 1], [3, 0, 0, 0, 1]],
    /// );
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    #[cfg(feature = "alloc")]
    fn bucket_keys(&self) -> Result<Vec<Vec<u8>>, EncodeError> {
        (0..Self::BUCKETS)
            .map(|b| self.to_vec_in_bucket(b as u8))
            .collect()
    }
}

/// Decoding of [`SaltedKey`]s written with a writer-chosen bucket.
///
/// ```
/// use rowkey::{RowKey, DecodeErrorKind, DecodeKey, DecodeSaltedKey, EncodeErrorKind, SaltedKey};
///
/// #[derive(RowKey, Debug, PartialEq)]
/// struct Seq {
///     #[rowkey(salt(buckets = 4, hash = "mod"))] // the bucket is seq % 4
///     seq: u32,
/// }
///
/// // `Seq` is a u32 behind a salt byte, `seq % 4`; this writer put it in bucket 1.
/// let key = Seq { seq: 7 }.to_vec_in_bucket(1)?;
/// let err = Seq::decode(&key).unwrap_err(); // the salt byte is checked...
/// assert_eq!(err.kind(), DecodeErrorKind::WrongSalt { expected: 3, found: 1, text: false });
/// assert!(err.to_string().contains("salt byte 01 does not match the bucket of the key's fields (03)"));
/// let (seq, bucket) = Seq::decode_any_bucket(&key)?; // ...unless any bucket is accepted
/// assert_eq!((seq.seq, bucket), (7, 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait DecodeSaltedKey<'k>: SaltedKey + DecodeKey<'k> {
    /// Decodes a key whose salt byte may be any bucket below [`SaltedKey::BUCKETS`], and returns
    /// it with that bucket.
    ///
    /// ```
    /// use rowkey::{RowKey, DecodeErrorKind, DecodeKey, DecodeSaltedKey, EncodeErrorKind, SaltedKey};
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct Seq {
    ///     #[rowkey(salt(buckets = 4, hash = "mod"))] // the bucket is seq % 4
    ///     seq: u32,
    /// }
    ///
    /// // `Seq` is a u32 behind a salt byte of 4 buckets.
    /// let (seq, bucket) = Seq::decode_any_bucket(&[2, 0, 0, 0, 9])?;
    /// assert_eq!((seq.seq, bucket), (9, 2));
    /// let err = Seq::decode_any_bucket(&[4, 0, 0, 0, 9]).unwrap_err(); // bucket 4 of 0..4
    /// assert_eq!(err.kind(), DecodeErrorKind::BucketOutOfRange { bucket: 4, buckets: 4, text: false });
    /// # Ok::<(), rowkey::DecodeError>(())
    /// ```
    fn decode_any_bucket(key: &'k [u8]) -> Result<(Self, u8), DecodeError>;
}

/// A key type that can be read back from its bytes. `'k` is the lifetime of those bytes, which
/// `&str`, `&[u8]` and `Cow` fields borrow.
///
/// Every derived key has it: a type that is a [`RowKey`] and its own [`DecodeField`] decodes as
/// that field in the last position (the blanket impl below). Other types implement it by hand:
///
/// ```
/// use rowkey::{DecodeError, DecodeErrorKind, DecodeField, DecodeKey, FieldMode};
///
/// // By hand, the decoder of `struct Page<'k> { url: &'k str }`.
/// struct Page<'k> { url: &'k str }
/// impl<'k> DecodeKey<'k> for Page<'k> {
///     fn decode(key: &'k [u8]) -> Result<Self, DecodeError> {
///         let (url, _) = <&str>::decode_field(key, FieldMode::LAST)?; // the last field takes the rest
///         Ok(Page { url })
///     }
/// }
///
/// let key = b"example.com/a".to_vec();
/// let page = Page::decode(&key)?;
/// assert_eq!(page.url, "example.com/a");
/// assert_eq!(page.url.as_ptr(), key.as_ptr()); // borrowed from the key, not copied
/// # Ok::<(), rowkey::DecodeError>(())
/// ```
pub trait DecodeKey<'k>: Sized {
    /// Decodes a whole key: every byte must be consumed, and salt bytes and hash prefixes must
    /// match the fields. Never panics, whatever the input.
    ///
    /// ```
    /// use rowkey::{RowKey, DecodeErrorKind, DecodeKey};
    ///
    /// #[derive(RowKey, Debug, PartialEq)]
    /// struct Host {
    ///     name: String, // escaped, since the port follows it
    ///     port: u16,
    /// }
    ///
    /// // "web", its terminator 00 01, then 443 = 01 BB.
    /// let host = Host::decode(b"web\x00\x01\x01\xBB")?;
    /// assert_eq!(host, Host { name: "web".into(), port: 443 });
    /// let err = Host::decode(b"web\x00\x01\x01\xBB\xFF").unwrap_err();
    /// assert_eq!(err.kind(), DecodeErrorKind::TrailingBytes { count: 1 });
    /// assert!(Host::decode(b"web").is_err()); // no terminator
    /// # Ok::<(), rowkey::DecodeError>(())
    /// ```
    fn decode(key: &'k [u8]) -> Result<Self, DecodeError>;
}

/// A key that is a field of its own, as every derived key is, decodes as that field in the last
/// position: every byte consumed, and no longer than [`RowKey::ROW_LIMIT`].
impl<'k, K: RowKey + DecodeField<'k>> DecodeKey<'k> for K {
    #[inline(always)]
    fn decode(key: &'k [u8]) -> Result<Self, DecodeError> {
        io::decode_key(key)
    }
}
