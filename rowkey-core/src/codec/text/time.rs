//! Times in the text format: the count like an `i64`, 19 digits, `desc` as `Long.MAX_VALUE -
//! count`; or, with a `format` (strftime syntax), a chrono time as chrono renders it.

use crate::error::{DecodeError, EncodeError};
use crate::field::{DecodeField, FieldMode, KeyField};
use crate::time::count::{count, of_count, stored};
use crate::time::TimeValue;

/// 19 digits: an `i64`'s.
pub(crate) const LEN: usize = 19;

pub(crate) fn encode<T: TimeValue>(
    t: &T,
    out: &mut [u8],
    mode: FieldMode,
) -> Result<usize, EncodeError> {
    let (count, _) = count(t, mode.unit())?;
    // Non-negative: the i64 text form is its zero-padded digits; ascending, as a time writes
    // `desc` itself.
    stored(count, mode.is_desc()).encode(out, mode.natural())
}

pub(crate) fn decode<T: TimeValue>(
    input: &[u8],
    mode: FieldMode,
) -> Result<(T, usize), DecodeError> {
    let (value, n) = i64::decode_field(input, mode.natural())?;
    Ok((of_count(value, mode.unit(), mode.is_desc())?, n))
}

/// chrono's types written with a `format` (strftime syntax) in text layouts: the rendering, whose
/// length [`strftime`](crate::time::strftime) gives; read back with chrono's parser and written
/// again, so a key holds one rendering per value.
pub(crate) mod formatted {
    use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
    use crate::field::FieldMode;
    use crate::time::TimeValue;

    /// `fmt::Write` into a slice, refusing to run past it.
    struct SliceWriter<'a> {
        buf: &'a mut [u8],
        at: usize,
    }

    impl core::fmt::Write for SliceWriter<'_> {
        fn write_str(&mut self, s: &str) -> core::fmt::Result {
            let end = self.at.checked_add(s.len()).ok_or(core::fmt::Error)?;
            self.buf
                .get_mut(self.at..end)
                .ok_or(core::fmt::Error)?
                .copy_from_slice(s.as_bytes());
            self.at = end;
            Ok(())
        }
    }

    fn unsupported(what: &'static str) -> EncodeError {
        EncodeError::new(EncodeErrorKind::Unsupported(what))
    }

    /// The rendering of `t` into `buf`, and its length.
    fn render<T: TimeValue>(t: &T, format: &str, buf: &mut [u8]) -> Result<usize, EncodeError> {
        let mut w = SliceWriter { buf, at: 0 };
        t.render(format, &mut w).map_err(|_| {
            unsupported(
                "a time chrono cannot write in the field's format, or that writes longer than it",
            )
        })?;
        Ok(w.at)
    }

    pub(crate) fn encode<T: TimeValue>(
        t: &T,
        format: &str,
        out: &mut [u8],
        mode: FieldMode,
    ) -> Result<usize, EncodeError> {
        if !mode.is_text() || mode.is_desc() || mode.is_reverse() {
            return Err(unsupported(
                "a `format` outside a text layout, or with `desc` or `reverse`",
            ));
        }
        let len = crate::time::strftime::len_of(format);
        let dst = crate::buf::out_prefix(out, len)?;
        if render(t, format, dst)? != len {
            return Err(unsupported(
                "a time whose rendering in the field's format has another length (a year outside 0 to 9999)",
            ));
        }
        // `%y` reads back as 1970 to 2069: another year would come back as a different one.
        let two_digits = matches!(crate::time::strftime::spec(format), Ok(s) if s.two_digit_year());
        if two_digits {
            let back = core::str::from_utf8(dst)
                .ok()
                .and_then(|s| T::parse(s, format));
            if back.and_then(|b| b.year()) != t.year() {
                return Err(unsupported(
                    "a year outside 1970 to 2069, which a two-digit `%y` cannot tell apart",
                ));
            }
        }
        Ok(len)
    }

    pub(crate) fn decode<T: TimeValue>(
        input: &[u8],
        format: &str,
        mode: FieldMode,
    ) -> Result<(T, usize), DecodeError> {
        let _ = mode;
        let len = crate::time::strftime::len_of(format);
        let bytes = crate::buf::take(input, len)?;
        let invalid = || {
            DecodeError::new(
                DecodeErrorKind::InvalidText("a time written in the field's format"),
                0,
            )
        };
        let text = core::str::from_utf8(bytes).map_err(|_| invalid())?;
        let t = T::parse(text, format).ok_or_else(invalid)?;
        // chrono's parser takes some forms its formatter never writes (spaces for zeros): a key
        // holds one rendering per value.
        let mut again = [0u8; 64];
        match render(&t, format, &mut again) {
            Ok(n) if again.get(..n) == Some(bytes) => Ok((t, len)),
            _ => Err(invalid()),
        }
    }

    pub(crate) fn stores_exactly<T: TimeValue + PartialEq>(t: &T, format: &str) -> bool {
        let mut buf = [0u8; 64];
        let Ok(n) = render(t, format, &mut buf) else {
            return true;
        };
        core::str::from_utf8(&buf[..n])
            .ok()
            .and_then(|s| T::parse(s, format))
            .map_or(true, |back| back == *t)
    }
}
