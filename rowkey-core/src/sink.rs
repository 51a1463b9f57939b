//! A field's value bytes, the input of salts and hash prefixes: the content of strings and bytes,
//! and for other types their fixed-width encoding before `desc` or `reverse`. Fields write them to
//! a [`ValueSink`] piece by piece, so no source is copied to be hashed.

/// Receives the value bytes of a prefix's source fields, in declaration order.
///
/// ```
/// use rowkey::{FieldMode, KeyField, ValueSink};
/// // A sink that only counts: a u64 gives 8 value bytes, a string its content.
/// struct Count(usize);
/// impl ValueSink for Count {
///     fn write(&mut self, bytes: &[u8]) { self.0 += bytes.len() }
/// }
/// let mut n = Count(0);
/// 42u64.value_bytes(FieldMode::INNER, &mut n)?;
/// "user".value_bytes(FieldMode::LAST, &mut n)?;
/// assert_eq!(n.0, 12);
/// # Ok::<(), rowkey::EncodeError>(())
/// ```
pub trait ValueSink {
    /// Appends `bytes` to the source.
    ///
    /// ```
    /// use rowkey::{Salt, SaltHash, ValueSink};
    /// // The `mod` bucket of the big-endian number 04 D2 (1234), given in two pieces.
    /// let mut h = Salt::new(16, SaltHash::Mod).unwrap().hasher();
    /// h.write(&[0x04]);
    /// h.write(&[0xD2]);
    /// assert_eq!(h.finish(), 2); // 1234 % 16
    /// ```
    fn write(&mut self, bytes: &[u8]);
}
