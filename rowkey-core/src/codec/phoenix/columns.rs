//! Apache Phoenix's rules between the columns of a key (`#[rowkey(phoenix)]`), as Phoenix's
//! `PTableImpl.newKey` applies them: a variable-length column is followed by a separator, `00`
//! when it is ascending or NULL and `FF` when it is descending; the NULL columns at the end of a
//! key are left out with the separators before them; and a key whose last column present is
//! descending and variable-length ends with `FF`. The columns themselves are written bare by their
//! codecs (`content.rs` beside this file); every walk through a key, derived or read from a schema, keeps
//! these rules through [`Columns`] alone.

use crate::cursor::{KeyReader, KeyWriter};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::field::{DecodeField, FieldMode, KeyField};
use crate::format::{PHOENIX_DESC_SEPARATOR, PHOENIX_SEPARATOR};

/// Where a walk stands among a Phoenix key's columns. A writer holds back the separators after
/// the last non-NULL column until another non-NULL column comes (trailing NULLs take no bytes,
/// not even for a moment: the key is written into a buffer of its length).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Columns {
    /// The separator after the last column met, if it is variable-length: what a reader
    /// expects before the next column.
    pending: Option<u8>,
    /// The separator after the last non-NULL column, not written yet.
    held: Option<u8>,
    /// The NULL columns since, whose `00`s are not written yet either.
    nulls: usize,
    /// Where the key ends when no later column has a value: after the last non-NULL column, and
    /// whether Phoenix's trailing `FF` follows it.
    end: Option<(usize, bool)>,
}

/// Whether a column of type `T` is variable-length in `mode`: it takes a separator after it. A
/// `width` makes a string `CHAR(n)`, of fixed length; Phoenix's columns know no other mode that
/// changes a length, so the rest is the type's, decided when the program compiles.
#[inline(always)]
pub(crate) fn variable<T: KeyField + ?Sized>(mode: FieldMode) -> bool {
    mode.width().is_none() && const { T::SHAPE.fixed_len(FieldMode::LAST).is_none() }
}

/// The separator after a variable-length column, NULL (empty) or not, in `mode`.
#[inline(always)]
const fn separator(null: bool, mode: FieldMode) -> u8 {
    if mode.is_desc() && !null {
        PHOENIX_DESC_SEPARATOR
    } else {
        PHOENIX_SEPARATOR
    }
}

impl Columns {
    /// The separators held back: the bytes a non-NULL column written next stands after.
    #[inline(always)]
    pub(crate) fn held_len(&self) -> usize {
        usize::from(self.held.is_some()) + self.nulls
    }

    /// Writes the separators held back into `out` (of [`held_len`](Columns::held_len) bytes).
    #[inline(always)]
    pub(crate) fn write_held(&self, out: &mut [u8]) {
        let zeros = match (self.held, out.split_first_mut()) {
            (Some(first), Some((at, rest))) => {
                *at = first;
                rest
            }
            _ => out,
        };
        zeros.fill(PHOENIX_SEPARATOR);
    }

    /// A column of `len` bytes (`0` for a variable-length one: NULL) ended at `pos`; `variable`
    /// says whether its length varies.
    #[inline(always)]
    pub(crate) fn after(&mut self, pos: usize, len: usize, variable: bool, mode: FieldMode) {
        self.after_read(len, variable, mode);
        if variable && len == 0 {
            self.nulls += 1;
        } else {
            self.held = self.pending;
            self.nulls = 0;
            self.end = Some((pos, variable && mode.is_desc()));
        }
    }

    /// Where a written key ends, and whether `FF` follows there; an error when every column is
    /// NULL, which Phoenix refuses.
    #[inline(always)]
    pub(crate) fn end(&self) -> Result<(usize, bool), EncodeError> {
        self.end.ok_or_else(|| {
            super::content::not_in_phoenix("Phoenix's primary key may not be NULL in every column")
        })
    }

    /// The length of a key whose columns were measured: its end, and the trailing `FF`; `None`
    /// when every column is NULL (writing it is the error).
    #[inline(always)]
    pub(crate) fn len(&self) -> Option<usize> {
        self.end.map(|(end, ff)| end + usize::from(ff))
    }

    /// Reading: a column of `len` bytes was read. A reader needs only the separator due next and
    /// whether any column had a value, not where a written key would end.
    #[inline(always)]
    pub(crate) fn after_read(&mut self, len: usize, variable: bool, mode: FieldMode) {
        let null = variable && len == 0;
        self.pending = if variable {
            Some(separator(null, mode))
        } else {
            None
        };
        if !null {
            self.end = Some((0, false));
        }
    }

    /// Reading: checks the separator before the next column, if one is due and the key goes on,
    /// and gives the bytes it takes. A due `FF` is never left out: a key that ends without it
    /// was not written by Phoenix.
    #[inline(always)]
    pub(crate) fn read_separator(&self, rest: &[u8], at: usize) -> Result<usize, DecodeError> {
        match (self.pending, rest.first()) {
            (None, _) => Ok(0),
            // Phoenix leaves out the NULLs at the end of a key with the `00`s before them.
            (Some(PHOENIX_SEPARATOR), Some(&PHOENIX_SEPARATOR)) if rest.len() == 1 => Err(DecodeError::new(
                DecodeErrorKind::Invalid("a 00 separator at the end of a Phoenix key, which leaves out its trailing NULLs"),
                at,
            )),
            (Some(PHOENIX_DESC_SEPARATOR), None) => Err(DecodeError::new(
                DecodeErrorKind::Invalid("a descending Phoenix column without the FF after it"),
                at,
            )),
            (Some(_), None) => Ok(0),
            (Some(expected), Some(&found)) if found == expected => Ok(1),
            (Some(_), Some(_)) => Err(DecodeError::new(
                DecodeErrorKind::Invalid("not the separator Phoenix writes after this column"),
                at,
            )),
        }
    }
}

/// What binding a column does to a scan plan's *held* bytes: the separators at the end of the
/// bytes bound so far that a key leaves out when every column after them is NULL. A plan writes
/// every separator as the key would if it went on; its ranges start where the shortest such key
/// does, the held bytes left out (`scan/plan.rs`).
#[cfg(feature = "alloc")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Held {
    /// The column has a value: the bytes held are its own separator's, if a key may end after it
    /// without that separator.
    Set(u8),
    /// The column is NULL: its `00` (if any) is held after those held before it.
    Add(u8),
}

#[cfg(feature = "alloc")]
impl Held {
    /// A bound that holds nothing back of its own: a fixed-width column, or none at all.
    pub(crate) const NONE: Held = Held::Set(0);

    /// The bytes held after this column, `before` having been held before it.
    #[inline(always)]
    pub(crate) const fn after(self, before: u8) -> u8 {
        match self {
            Held::Set(n) => n,
            Held::Add(n) => before.saturating_add(n),
        }
    }
}

/// For scan planning, the separator a plan writes after a bound column of `len` bytes (`0` for a
/// NULL variable-length one) in `mode`, and what it holds back. The separator is the one a key
/// that goes on has there; the last column has none, save the `FF` that ends a descending one.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn plan_separator<T: KeyField + ?Sized>(
    len: usize,
    mode: FieldMode,
) -> (Option<u8>, Held) {
    if !variable::<T>(mode) {
        return (None, Held::NONE);
    }
    let null = len == 0;
    let separator = separator(null, mode);
    match (null, mode.is_delimited()) {
        // A descending column's FF is written whether the key ends after it or not.
        (false, _) if mode.is_desc() => (Some(separator), Held::NONE),
        (false, true) => (Some(separator), Held::Set(1)),
        (false, false) => (None, Held::NONE),
        (true, true) => (Some(separator), Held::Add(1)),
        (true, false) => (None, Held::Add(0)),
    }
}

// The steps of one column, out of line (`#[inline]`, not `always`): a derived key's walk is
// inlined whole (up to a tuple of 12 fields; a wider key's chunks stand apart, walk/mod.rs), and
// with these inside it a Phoenix key's walk grows several times over, which the optimiser pays
// for in compile time.

/// Measures one column of `value` in `mode` into `len`, the key's length so far.
#[inline]
pub(crate) fn measure_column<T: KeyField + ?Sized>(
    columns: &mut Columns,
    len: &mut usize,
    value: &T,
    mode: FieldMode,
) {
    let n = value.field_len(mode);
    if n > 0 {
        *len += columns.held_len() + n;
    }
    columns.after(*len, n, variable::<T>(mode), mode);
}

/// Writes one column with `w`: the separators held back go in front of a column with a value,
/// and nowhere else.
#[inline]
pub(crate) fn write_column<T: KeyField + ?Sized>(
    columns: &mut Columns,
    w: &mut KeyWriter<'_>,
    value: &T,
    mode: FieldMode,
    key: &'static str,
    field: &'static str,
) -> Result<(), EncodeError> {
    let held = columns.held_len();
    let n = w.field_beyond(held, value, mode, key, field)?;
    if n > 0 {
        columns.write_held(w.gap_mut(held));
        w.advance(held + n);
    }
    columns.after(w.written(), n, variable::<T>(mode), mode);
    Ok(())
}

/// Reads one column with `r`, after the separator due before it.
#[inline]
pub(crate) fn read_column<'k, T: DecodeField<'k>>(
    columns: &mut Columns,
    r: &mut KeyReader<'k>,
    mode: FieldMode,
    key: &'static str,
    field: &'static str,
) -> Result<T, DecodeError> {
    read_separator(columns, r).map_err(|e| e.in_key(key))?;
    let start = r.pos();
    let value = r.field(mode, key, field)?;
    columns.after_read(r.pos() - start, variable::<T>(mode), mode);
    Ok(value)
}

/// Ends a written Phoenix key: leaves out its trailing NULLs, and writes the `FF` after a
/// descending variable-length last column.
#[inline(always)]
pub(crate) fn finish(columns: &Columns, w: &mut KeyWriter<'_>) -> Result<(), EncodeError> {
    let (end, ff) = columns.end()?;
    w.truncate(end);
    if ff {
        w.byte(PHOENIX_DESC_SEPARATOR)?;
    }
    Ok(())
}

/// Reads the separator due before the next column with `r`.
#[inline(always)]
pub(crate) fn read_separator(columns: &Columns, r: &mut KeyReader<'_>) -> Result<(), DecodeError> {
    let n = columns.read_separator(r.rest(), r.pos())?;
    r.skip(n);
    Ok(())
}

/// Reads the end of a key with `r`: the `FF` after a descending last column; a key NULL in
/// every column is not one Phoenix writes.
#[inline(always)]
pub(crate) fn read_end(columns: &Columns, r: &mut KeyReader<'_>) -> Result<(), DecodeError> {
    if columns.end.is_none() {
        return Err(DecodeError::new(
            DecodeErrorKind::Invalid("a Phoenix key NULL in every column"),
            r.pos(),
        ));
    }
    read_separator(columns, r)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A column as the tests give it: variable-length or not, its mode, its length (0: NULL).
    type Column = (bool, FieldMode, usize);

    /// Measures columns the way the writer does: a non-NULL column stands after the separators
    /// held back.
    fn measure(columns: &[Column]) -> Columns {
        let mut c = Columns::default();
        let mut pos = 0;
        for &(variable, mode, len) in columns {
            if len > 0 {
                pos += c.held_len() + len;
            }
            c.after(pos, len, variable, mode);
        }
        c
    }

    #[test]
    fn trailing_nulls_are_left_out_and_a_descending_last_column_ends_with_ff() {
        let asc = FieldMode::INNER;
        let desc = FieldMode::INNER.with_desc();
        let cases: &[(&[Column], (usize, bool))] = &[
            // 'x', NULL: 78
            (&[(true, asc, 1), (true, asc, 0)], (1, false)),
            // DESC 'y', NULL: 86 FF
            (&[(true, desc, 1), (true, asc, 0)], (1, true)),
            // NULL, 4-byte int: 00 xx xx xx xx
            (&[(true, asc, 0), (false, asc, 4)], (5, false)),
            // 'ab', NULL, NULL
            (
                &[(true, asc, 2), (true, desc, 0), (true, asc, 0)],
                (2, false),
            ),
            // 'a', NULL, DESC NULL, 'b': 61 00 00 00 62
            (
                &[
                    (true, asc, 1),
                    (true, asc, 0),
                    (true, desc, 0),
                    (true, asc, 1),
                ],
                (5, false),
            ),
        ];
        for (columns, want) in cases {
            assert_eq!(measure(columns).end().unwrap(), *want, "{columns:?}");
        }
        assert!(measure(&[(true, asc, 0)]).end().is_err());
    }

    #[test]
    fn held_separators_are_the_last_columns_then_a_00_per_null() {
        let desc = FieldMode::INNER.with_desc();
        let c = measure(&[
            (true, desc, 2),
            (true, desc, 0),
            (true, FieldMode::INNER, 0),
        ]);
        let mut out = [0x55; 3];
        c.write_held(&mut out);
        assert_eq!(
            out,
            [PHOENIX_DESC_SEPARATOR, PHOENIX_SEPARATOR, PHOENIX_SEPARATOR]
        );
        // A reader expects 00 after the NULL column, even a descending one.
        let c = measure(&[(true, desc, 0)]);
        assert_eq!(c.read_separator(&[0x00, 0x61], 0).unwrap(), 1);
        assert!(c.read_separator(&[0xFF, 0x61], 0).is_err());
        // ... but not a 00 that ends the key: Phoenix leaves it out with the NULLs after it.
        assert!(c.read_separator(&[0x00], 0).is_err());
    }

    #[test]
    fn a_descending_column_is_never_read_without_its_ff() {
        let c = measure(&[(true, FieldMode::INNER.with_desc(), 2)]);
        assert_eq!(c.read_separator(&[0xFF], 3).unwrap(), 1);
        assert_eq!(
            c.read_separator(&[], 3).map_err(|e| e.kind()),
            Err(DecodeErrorKind::Invalid(
                "a descending Phoenix column without the FF after it"
            ))
        );
    }
}
