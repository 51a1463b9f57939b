//! Fixed-width types: integers, floats, `bool`, `char` and byte arrays. Each asks the key's
//! format how it is written ([`Format`]); what the type itself knows is here: an integer's
//! big-endian image (sign bit flipped for signed ones, optionally narrowed to `width` bytes) and
//! a float's in the `total_cmp` order, which the binary and Phoenix formats write.

use super::text::number::{self as text, Number};
use super::{put, put_int, take_int, take_into, unsupported_width, with_format, Format};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind};
use crate::field::{DecodeField, FieldMode, FieldShape, Form, KeyField};

/// An integer type, as the formats write it: its size, its largest value as text counts digits,
/// and its binary image.
pub(crate) trait Int: Copy {
    /// The bytes of the type.
    const SIZE: usize;
    /// The type's largest value, and its digits.
    const NUMBER: Number;
    /// Writes the binary image in `mode`: big-endian (sign bit flipped), narrowed to `width`,
    /// `desc` and `reverse` applied.
    fn put_image(self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError>;
    /// Reads the binary image written by [`Int::put_image`].
    fn take_image(input: &[u8], mode: FieldMode) -> Result<(Self, usize), DecodeError>;
    /// The value as an unsigned number: an error for a negative one.
    fn unsigned(self) -> Result<u128, EncodeError>;
    /// The value of an unsigned number read back (at most [`Int::NUMBER`]'s largest value).
    fn of_unsigned(v: u128) -> Self;
    /// Whether the value is above the largest of the signed type of its size (never, for a
    /// signed type).
    fn above_signed_max(self) -> bool;
}

/// A float type, as the formats write it.
pub(crate) trait Float: Copy {
    /// Java's one NaN of the type: `Float.floatToIntBits(NaN)`, `Double.doubleToLongBits(NaN)`.
    fn java_nan() -> Self;
    /// Whether the value is a NaN.
    fn nan(self) -> bool;
    /// Whether the value has the bits of `other`.
    fn same_bits(self, other: Self) -> bool;
    /// Writes the value's bits in the `total_cmp` order plus `bias` (wrapping), big-endian,
    /// `desc` and `reverse` applied.
    fn put_ordered(self, bias: u8, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError>;
    /// Reads a value written by [`Float::put_ordered`] with the same `bias`.
    fn take_ordered(input: &[u8], bias: u8, mode: FieldMode) -> Result<(Self, usize), DecodeError>;
}

/// A fixed-width type of its own length written as its bytes (floats, `bool`, `char`, byte
/// arrays): `Ok` without `width`.
#[inline(always)]
pub(crate) fn natural_width(mode: FieldMode) -> Result<(), EncodeError> {
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

/// Every integer type, signed or unsigned: one macro, so that the width checks and the byte
/// order are written once. `$t => $u, $sign`: the type, the unsigned type of its size its bytes
/// are read as (itself when unsigned), and `signed` or `unsigned`, which picks the rules that
/// differ (the shape, the stored bits, reading them back, and the sign).
macro_rules! integer {
    ($($t:ty => $u:ty, $sign:ident);* $(;)?) => {$(
        impl Int for $t {
            const SIZE: usize = core::mem::size_of::<$t>();
            const NUMBER: Number = Number::of(<$t>::MAX as u128);

            #[inline(always)]
            fn put_image(self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
                const SIZE: usize = core::mem::size_of::<$t>();
                let w = int_width(SIZE, mode)?;
                let bits: $u = integer!(@bits $sign, $t, $u, self, SIZE, w);
                let v = if mode.is_desc() { !bits } else { bits };
                put_int(v.to_be_bytes(), v.to_le_bytes(), w, out, mode)
            }

            #[inline(always)]
            fn take_image(input: &[u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
                const SIZE: usize = core::mem::size_of::<$t>();
                let w = stored_width(SIZE, mode)?;
                let stored = match input.first_chunk::<SIZE>() {
                    Some(whole) if w == SIZE && !mode.is_reverse() => <$u>::from_be_bytes(*whole),
                    _ => <$u>::from_be_bytes(take_int(input, w, mode)?),
                };
                Ok((integer!(@value $sign, $t, stored, SIZE, w, mode), w))
            }

            #[inline(always)]
            fn unsigned(self) -> Result<u128, EncodeError> {
                integer!(@unsigned $sign, self);
                Ok(self as u128)
            }

            #[inline(always)]
            fn of_unsigned(v: u128) -> Self {
                v as $t
            }

            #[inline(always)]
            fn above_signed_max(self) -> bool {
                integer!(@above $sign, $t, self)
            }
        }

        impl KeyField for $t {
            const SHAPE: FieldShape = integer!(@shape $sign, core::mem::size_of::<$t>())
                .with_text_digits(crate::num::digits_of(<$t>::MAX as u128));

            #[inline(always)]
            fn field_len(&self, mode: FieldMode) -> usize {
                with_format!(mode.key_format(), F => F::int_len::<$t>(mode))
            }

            #[inline(always)]
            fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
                with_format!(mode.key_format(), F => F::encode_int(*self, out, mode))
            }
        }

        impl<'k> DecodeField<'k> for $t {
            #[inline(always)]
            fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
                with_format!(mode.key_format(), F => F::decode_int::<$t>(input, mode))
            }
        }
    )*};

    (@shape unsigned, $size:expr) => { FieldShape::integer($size) };
    (@shape signed, $size:expr) => { FieldShape::signed_integer($size) };

    (@unsigned unsigned, $v:expr) => {};
    (@unsigned signed, $v:expr) => {
        if $v < 0 {
            return Err(text::negative());
        }
    };

    (@above unsigned, $t:ty, $v:expr) => { $v > <$t>::MAX >> 1 };
    (@above signed, $t:ty, $v:expr) => { false };

    // The bits stored in `w` bytes, before `desc`; an error when the value does not fit them.
    (@bits unsigned, $t:ty, $u:ty, $v:expr, $size:expr, $w:expr) => {{
        if $w < $size && ($v >> (8 * $w)) != 0 {
            return Err(too_wide($w));
        }
        $v
    }};
    (@bits signed, $t:ty, $u:ty, $v:expr, $size:expr, $w:expr) => {{
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
        if $mode.is_desc() { !$stored & (<$t>::MAX >> (8 * ($size - $w))) } else { $stored }
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
        impl Float for $t {
            #[inline(always)]
            fn java_nan() -> Self {
                <$t>::from_bits($nan)
            }

            #[inline(always)]
            fn nan(self) -> bool {
                self.is_nan()
            }

            #[inline(always)]
            fn same_bits(self, other: Self) -> bool {
                self.to_bits() == other.to_bits()
            }

            #[inline(always)]
            fn put_ordered(self, bias: u8, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
                const SIGN: $bits = 1 << (<$bits>::BITS - 1);
                let bits = self.to_bits();
                // Negative values: flip every bit (larger magnitudes sort first); others: the sign bit.
                let ordered = if bits & SIGN != 0 { !bits } else { bits | SIGN };
                let ordered = ordered.wrapping_add(<$bits>::from(bias));
                let v = if mode.is_desc() { !ordered } else { ordered };
                put_int(v.to_be_bytes(), v.to_le_bytes(), core::mem::size_of::<$t>(), out, mode)
            }

            #[inline(always)]
            fn take_ordered(input: &[u8], bias: u8, mode: FieldMode) -> Result<(Self, usize), DecodeError> {
                const SIGN: $bits = 1 << (<$bits>::BITS - 1);
                const SIZE: usize = core::mem::size_of::<$t>();
                let stored = match input.first_chunk::<SIZE>() {
                    Some(whole) if !mode.is_reverse() => <$bits>::from_be_bytes(*whole),
                    _ => <$bits>::from_be_bytes(take_int(input, SIZE, mode)?),
                };
                let ordered = if mode.is_desc() { !stored } else { stored };
                let ordered = ordered.wrapping_sub(<$bits>::from(bias));
                let bits = if ordered & SIGN != 0 { ordered ^ SIGN } else { !ordered };
                Ok((<$t>::from_bits(bits), SIZE))
            }
        }

        impl KeyField for $t {
            const SHAPE: FieldShape = FieldShape::fixed(core::mem::size_of::<$t>()).reversible().with_form(Form::Float);

            #[inline(always)]
            fn field_len(&self, _mode: FieldMode) -> usize {
                core::mem::size_of::<$t>()
            }

            #[inline(always)]
            fn encode(&self, out: &mut [u8], mode: FieldMode) -> Result<usize, EncodeError> {
                with_format!(mode.key_format(), F => F::encode_float(*self, out, mode))
            }
        }

        impl<'k> DecodeField<'k> for $t {
            #[inline(always)]
            fn decode_field(input: &'k [u8], mode: FieldMode) -> Result<(Self, usize), DecodeError> {
                with_format!(mode.key_format(), F => F::decode_float::<$t>(input, mode))
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
        with_format!(mode.key_format(), F => F::fixed_bytes(mode))?;
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
        with_format!(mode.key_format(), F => F::fixed_bytes(mode))?;
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
        with_format!(mode.key_format(), F => F::fixed_bytes(mode))?;
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
