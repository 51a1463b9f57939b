//! Times in the binary format: the count of units since the epoch as 8 bytes big-endian, exactly
//! `Bytes.toBytes(System.currentTimeMillis())`; `desc` writes `Long.MAX_VALUE - count`, exactly
//! the HBase idiom `Bytes.toBytes(Long.MAX_VALUE - ts)` (not the inverted bytes).

use crate::error::{DecodeError, EncodeError};
use crate::field::{DecodeField, FieldMode, KeyField};
use crate::time::count::{count, invalid, of_count, stored};
use crate::time::TimeValue;

/// 8 bytes: a Java `long`'s.
pub(crate) const LEN: usize = 8;

pub(crate) fn encode<T: TimeValue>(
    t: &T,
    out: &mut [u8],
    mode: FieldMode,
) -> Result<usize, EncodeError> {
    let (count, _) = count(t, mode.unit())?;
    // Java's Bytes.toBytes(long): big-endian two's complement, no sign flip; ascending, as a
    // time writes `desc` itself.
    (stored(count, mode.is_desc()) as u64).encode(out, mode.natural())
}

pub(crate) fn decode<T: TimeValue>(
    input: &[u8],
    mode: FieldMode,
) -> Result<(T, usize), DecodeError> {
    let (v, n) = u64::decode_field(input, mode.natural())?;
    let value = i64::try_from(v).map_err(|_| invalid("a time with its top bit set"))?;
    Ok((of_count(value, mode.unit(), mode.is_desc())?, n))
}
