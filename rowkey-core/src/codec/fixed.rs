//! Fixed-width types: integers (big-endian, sign bit flipped for signed ones, optionally narrowed to
//! `width` bytes), floats (the `total_cmp` order), `bool`, `char` and byte arrays.

use super::text::number as text;
use super::{put, put_int, take_int, take_into, unsupported_text, unsupported_width};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::{DecodeField, FieldMode, FieldShape, Form, KeyField};

/// A fixed-width type of its own length and no text form (floats, `bool`, `char`, byte arrays):
/// `Ok` in a binary layout without `width`.
#[inline(always)]
fn binary_only(mode: FieldMode) -> Result<(), EncodeError> {
    if mode.is_text() {
        return Err(unsupported_text());
    }
    if mode.width().is_some() {
        return Err(unsupported_width());
    }
    Ok(())
}

/// The width an integer of `size` bytes takes in `mode`, or an error for a width it cannot have.
#[inline(always)]
fn int_width(size: usize, mode: FieldMode) -> Result<usize, EncodeError> {
    match mode.width() {
        None => Ok(size),
        Some(w) if w <= size => Ok(w),
        Some(_) => Err(EncodeError::new(EncodeErrorKind::Unsupported(
            "integer `width` wider than the type",
        ))),
    }
}

#[cold]
fn too_wide(width: usize) -> EncodeError {
    EncodeError::new(EncodeErrorKind::TooWide { width })
}

/// The length of an integer of `size` bytes (at most `max`) in `mode`: its text digits, its
/// `width`, or its size. The same for signed and unsigned integers.
#[inline(always)]
fn int_len(size: usize, max: text::Number, mode: FieldMode) -> usize {
    if mode.is_text() {
        return text::int_len(max, mode);
    }
    match mode.width() {
        Some(w) => w,
        None => size,
    }
}

/// The bytes a binary integer of `size` bytes is stored in under `mode`: its `width`, or its size.
#[inline(always)]
fn stored_width(size: usize, mode: FieldMode) -> Result<usize, DecodeError> {
    match mode.width() {
        Some(w) if w <= size => Ok(w),
        None => Ok(size),
        Some(_) => Err(DecodeError::new(
            DecodeErrorKind::Invalid("integer `width` wider than the type"),
            0,
        )),
    }
}

/// Every integer type, signed or unsigned: one macro, so that the text form, the width checks
/// and the byte order are written once. `$t => $u, $sign`: the type, the unsigned type of its
/// size its bytes are read as (itself when unsigned), and `signed` or `unsigned`, which picks the
/// three rules that differ (the shape, the stored bits, and reading them back).
macro_rules! integer {
    ($($t:ty => $u:ty, $sign:ident);* $(;)?) => {$(
        impl KeyField for $t {
            const SHAPE: FieldShape = integer!(@shape $sign, core::mem::size_of::<$t>())
                .with_text_digits(crate::num::digits_of(<$t>::MAX as u128));

            #[inline(always)]
            fn field_len(&self, mode: FieldMode) -> usize {
                int_len(core::mem::size_of::<$t>(), const { text::Number::of(<$t>::MAX as u128) }, mode)
            }

            #[inline(always)]
            fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
                const SIZE: usize = core::mem::size_of::<$t>();
                if mode.is_text() {
                    integer!(@text_sign $sign, *self);
                    return text::encode_int(*self as u128, const { text::Number::of(<$t>::MAX as u128) }, out, mode);
                }
                let w = int_width(SIZE, mode)?;
                let bits: $u = integer!(@bits $sign, $t, $u, *self, SIZE, w, mode);
                let v = if mode.is_desc() { !bits } else { bits };
                put_int(v.to_be_bytes(), v.to_le_bytes(), w, out, mode)
            }
        }

        impl<'k> DecodeField<'k> for $t {
            #[inline(always)]
            fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
                const SIZE: usize = core::mem::size_of::<$t>();
                if mode.is_text() {
                    let (v, n) = text::decode_int(input, const { text::Number::of(<$t>::MAX as u128) }, mode)?;
                    return Ok((v as $t, n));
                }
                let w = stored_width(SIZE, mode)?;
                let stored = match input.first_chunk::<SIZE>() {
                    Some(whole) if w == SIZE && !mode.is_reverse() => <$u>::from_be_bytes(*whole),
                    _ => <$u>::from_be_bytes(take_int(input, w, mode)?),
                };
                Ok((integer!(@value $sign, $t, stored, SIZE, w, mode), w))
            }
        }
    )*};

    (@shape unsigned, $size:expr) => { FieldShape::integer($size) };
    (@shape signed, $size:expr) => { FieldShape::signed_integer($size) };

    // Text writes no sign: a negative value has no text form.
    (@text_sign unsigned, $v:expr) => {};
    (@text_sign signed, $v:expr) => {
        if $v < 0 {
            return Err(text::negative());
        }
    };

    // The bits stored in `w` bytes, before `desc`; an error when the value does not fit them.
    (@bits unsigned, $t:ty, $u:ty, $v:expr, $size:expr, $w:expr, $mode:expr) => {{
        if $w < $size && ($v >> (8 * $w)) != 0 {
            return Err(too_wide($w));
        }
        // Phoenix's UNSIGNED_* types hold the values of the signed type of their size.
        if $mode.is_phoenix() && $v > <$t>::MAX >> 1 {
            return Err(super::phoenix::content::not_in_phoenix(
                "Phoenix's UNSIGNED_TINYINT, UNSIGNED_SMALLINT, UNSIGNED_INT and UNSIGNED_LONG hold 0 up to the signed maximum of their size (i32::MAX for UNSIGNED_INT)",
            ));
        }
        $v
    }};
    (@bits signed, $t:ty, $u:ty, $v:expr, $size:expr, $w:expr, $mode:expr) => {{
        // In w bytes a value fits when every bit above the w-byte sign bit copies it.
        let high = $v >> (8 * $w - 1);
        if $w < $size && high != 0 && high != -1 {
            return Err(too_wide($w));
        }
        // Flipping the sign bit of the w-byte two's complement maps MIN..=MAX to 0..=2^8w-1.
        ($v as $u) ^ (1 << (8 * $w - 1))
    }};

    // The value of the bits read from `w` bytes (`desc` still applied).
    (@value unsigned, $t:ty, $stored:expr, $size:expr, $w:expr, $mode:expr) => {{
        // `desc` stored the complement of the low w bytes.
        let v = if $mode.is_desc() { !$stored & (<$t>::MAX >> (8 * ($size - $w))) } else { $stored };
        if $mode.is_phoenix() && v > <$t>::MAX >> 1 {
            return Err(DecodeError::new(
                DecodeErrorKind::Invalid("a Phoenix UNSIGNED value above the signed maximum of its size"),
                0,
            ));
        }
        v
    }};
    (@value signed, $t:ty, $stored:expr, $size:expr, $w:expr, $mode:expr) => {{
        let biased = if $mode.is_desc() { !$stored } else { $stored };
        // Undo the sign flip of the w-byte value, then sign-extend it from its top bit.
        let unbiased = biased ^ (1 << (8 * $w - 1));
        let shift = 8 * ($size - $w) as u32;
        ((unbiased << shift) as $t) >> shift
    }};
}

integer!(
    u8 => u8, unsigned; u16 => u16, unsigned; u32 => u32, unsigned; u64 => u64, unsigned;
    u128 => u128, unsigned;
    i8 => u8, signed; i16 => u16, signed; i32 => u32, signed; i64 => u64, signed;
    i128 => u128, signed;
);

/// `usize` and `isize` are keyed as 64-bit integers on every platform, so a key written on one
/// machine reads back on another. Decoding a value that does not fit the platform is an error.
macro_rules! pointer_sized {
    ($($t:ty => $wide:ty),*) => {$(
        impl KeyField for $t {
            const SHAPE: FieldShape = <$wide as KeyField>::SHAPE;

            #[inline(always)]
            fn field_len(&self, mode: FieldMode) -> usize {
                (*self as $wide).field_len(mode)
            }

            #[inline(always)]
            fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
                (*self as $wide).encode(out, mode)
            }

        }

        impl<'k> DecodeField<'k> for $t {
            #[inline(always)]
            fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
                let (wide, n) = <$wide>::decode_field(input, mode)?;
                let v = <$t>::try_from(wide).map_err(|_| {
                    DecodeError::new(DecodeErrorKind::Invalid("value does not fit this platform's pointer size"), 0)
                })?;
                Ok((v, n))
            }
        }
    )*};
}

pointer_sized!(usize => u64, isize => i64);

macro_rules! float {
    ($($t:ty => $bits:ty, $nan:expr),*) => {$(
        impl KeyField for $t {
            const SHAPE: FieldShape = FieldShape::fixed(core::mem::size_of::<$t>()).reversible().with_form(Form::Float);

            #[inline(always)]
            fn field_len(&self, _mode: FieldMode) -> usize {
                core::mem::size_of::<$t>()
            }

            #[inline(always)]
            fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
                binary_only(mode)?;
                const SIGN: $bits = 1 << (<$bits>::BITS - 1);
                // Phoenix writes Java's `doubleToLongBits`, whose NaN is the one canonical NaN.
                let bits = if mode.is_phoenix() && self.is_nan() { $nan } else { self.to_bits() };
                // Negative values: flip every bit (larger magnitudes sort first); others: the sign bit.
                let ordered = if bits & SIGN != 0 { !bits } else { bits | SIGN };
                // Phoenix's FLOAT and DOUBLE add one to that (PDouble.encodeDouble).
                let ordered = if mode.is_phoenix() { ordered.wrapping_add(1) } else { ordered };
                let v = if mode.is_desc() { !ordered } else { ordered };
                put_int(v.to_be_bytes(), v.to_le_bytes(), core::mem::size_of::<$t>(), out, mode)
            }
        }

        impl<'k> DecodeField<'k> for $t {
            #[inline(always)]
            fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
                const SIGN: $bits = 1 << (<$bits>::BITS - 1);
                const SIZE: usize = core::mem::size_of::<$t>();
                let stored = match input.first_chunk::<SIZE>() {
                    Some(whole) if !mode.is_reverse() => <$bits>::from_be_bytes(*whole),
                    _ => <$bits>::from_be_bytes(take_int(input, SIZE, mode)?),
                };
                let ordered = if mode.is_desc() { !stored } else { stored };
                let ordered = if mode.is_phoenix() { ordered.wrapping_sub(1) } else { ordered };
                let bits = if ordered & SIGN != 0 { ordered ^ SIGN } else { !ordered };
                // Phoenix writes Java's one NaN: another is no value it wrote.
                if mode.is_phoenix() && <$t>::from_bits(bits).is_nan() && bits != $nan {
                    return Err(DecodeError::new(DecodeErrorKind::Invalid("a NaN other than Java's, which Phoenix writes"), 0));
                }
                Ok((<$t>::from_bits(bits), SIZE))
            }
        }
    )*};
}

// Java's canonical NaNs: `Float.floatToIntBits(NaN)` and `Double.doubleToLongBits(NaN)`.
float!(f32 => u32, 0x7fc0_0000, f64 => u64, 0x7ff8_0000_0000_0000);

impl KeyField for bool {
    const SHAPE: FieldShape = FieldShape::fixed(1).with_form(Form::Bool);

    #[inline(always)]
    fn field_len(&self, _mode: FieldMode) -> usize {
        1
    }

    #[inline(always)]
    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        binary_only(mode)?;
        put(&[u8::from(*self)], out, mode)
    }
}

impl<'k> DecodeField<'k> for bool {
    #[inline(always)]
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        let mut b = [0u8];
        take_into(input, &mut b, mode)?;
        match b[0] {
            0 => Ok((false, 1)),
            1 => Ok((true, 1)),
            other => Err(DecodeError::new(DecodeErrorKind::InvalidBool(other), 0)),
        }
    }
}

impl KeyField for char {
    const SHAPE: FieldShape = FieldShape::fixed(4).with_form(Form::Char);

    #[inline(always)]
    fn field_len(&self, _mode: FieldMode) -> usize {
        4
    }

    #[inline(always)]
    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        binary_only(mode)?;
        put(&u32::from(*self).to_be_bytes(), out, mode)
    }
}

impl<'k> DecodeField<'k> for char {
    #[inline(always)]
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        let mut buf = [0u8; 4];
        take_into(input, &mut buf, mode)?;
        let v = u32::from_be_bytes(buf);
        char::from_u32(v)
            .map(|c| (c, 4))
            .ok_or_else(|| DecodeError::new(DecodeErrorKind::InvalidChar(v), 0))
    }
}

/// The shape of `[u8; n]`.
pub(crate) const fn byte_array_shape(n: usize) -> FieldShape {
    FieldShape::fixed(n).reversible().with_form(Form::ByteArray)
}

impl<const N: usize> KeyField for [u8; N] {
    const SHAPE: FieldShape = byte_array_shape(N);

    #[inline(always)]
    fn field_len(&self, _mode: FieldMode) -> usize {
        N
    }

    #[inline(always)]
    fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
        binary_only(mode)?;
        put(self, out, mode)
    }
}

impl<'k, const N: usize> DecodeField<'k> for [u8; N] {
    #[inline(always)]
    fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
        let mut buf = [0u8; N];
        take_into(input, &mut buf, mode)?;
        Ok((buf, N))
    }
}
