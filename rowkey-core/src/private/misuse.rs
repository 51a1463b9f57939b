//! Scan methods misused, made compile errors that say why (`#[diagnostic::on_unimplemented]`,
//! Rust 1.78; written here because generated code must compile in a module without the prelude,
//! where `diagnostic::` does not resolve). A field's binding methods are on every state of a
//! struct key's builder, bounded on [`At`] its own state; a `reverse` field (and a time whose
//! `format` does not sort as times do) has `_range` and `_prefix` methods bound on a trait here
//! that no type implements, where without the method rustc would suggest `_in`, which compiles
//! and lists every value of the range.

/// Implemented by every type for itself alone: a binding method of field `f` is bounded on
/// `Self: At<KeyScan<KeyNextF>>`, so that calling it in another state of the builder fails with
/// this message, which names the state the scan is in.
#[diagnostic::on_unimplemented(
    message = "out of key order: the scan is `{Self}`, and this method binds in `{S}`",
    label = "not the next field of this scan",
    note = "a scan binds its key's fields in key order, each by value (`.f(v)`) or by a list (`.f_in([..])`): the state `KeyScan<KeyNextField>` binds `field` next, so bind that field first",
    note = "a state `KeyScan<KeyDone>` or `KeyScan<KeyRanged>` binds nothing more: a `_range` or `_prefix` ends a scan"
)]
pub trait At<S>: Sized {
    /// The state itself, as the type it is.
    fn at(self) -> S;
}

impl<S> At<S> for S {
    #[inline(always)]
    fn at(self) -> S {
        self
    }
}

/// Keeps the traits below unimplemented outside this crate, so that the methods bound on them
/// can never be called.
mod sealed {
    pub trait Sealed {}
}

/// The bound on `_range` and `_prefix` of a `reverse` field.
#[diagnostic::on_unimplemented(
    message = "a `reverse` field has no `_range` or `_prefix` scan: its bytes are stored reversed, so they no longer sort as its values",
    label = "this field is stored `reverse`",
    note = "bind it by value (`.field(v)`) or by a short list (`.field_in([a, b])`)",
    note = "to scan ranges of it, drop `reverse` and spread the writes with a salt or a hash prefix in front instead (`#[rowkey(salt(buckets = N))]` on the key), which keeps the field's order"
)]
pub trait ReverseHasNoRange: sealed::Sealed {
    /// No value of a type that implements this exists.
    fn impossible(self) -> core::convert::Infallible;
}

/// The bound on `_range` of a time whose `format` does not sort as times do (`%d%m%Y`, `%y`).
#[diagnostic::on_unimplemented(
    message = "this time's `format` does not sort as times do: the field has no `_range` scan",
    label = "the field's `format` puts a smaller unit (day, month, two-digit year) before a larger one",
    note = "bind it by value (`.field(v)`) or by a list (`.field_in(days)`)",
    note = "for range scans, write the time largest unit first (`%Y%m%d`, `%Y-%m-%dT%H:%M:%S`)"
)]
pub trait UnorderedFormatHasNoRange: sealed::Sealed {
    /// No value of a type that implements this exists.
    fn impossible(self) -> core::convert::Infallible;
}

/// The bound on `_range` of a nullable descending column of a Phoenix key.
#[diagnostic::on_unimplemented(
    message = "a nullable `desc` column of a Phoenix key has no `_range` scan: Phoenix stores NULL first, where the descending order of `Option` puts `None` last",
    label = "this `Option` field is `desc` in a `#[rowkey(phoenix)]` key",
    note = "bind it by value (`.field(Some(v))`, `.field(None)`) or by a list (`.field_in([..])`)",
    note = "for range scans, make the column ascending, or NOT NULL (a field that is not an `Option`)"
)]
pub trait PhoenixDescNullHasNoRange: sealed::Sealed {
    /// No value of a type that implements this exists.
    fn impossible(self) -> core::convert::Infallible;
}

/// The bound on `_range` of a `CHAR(n)` column of a Phoenix key.
#[diagnostic::on_unimplemented(
    message = "a `width` string of a Phoenix key (CHAR(n)) has no `_range` scan: Phoenix pads it with spaces, so a control character after `a` is stored below `a`, against the order of strings",
    label = "this field is Phoenix's CHAR(n)",
    note = "bind it by value (`.field(v)`), by a list (`.field_in([..])`), or by a prefix (`.field_prefix(p)`)",
    note = "for range scans, make it a VARCHAR: drop `width`"
)]
pub trait PhoenixCharHasNoRange: sealed::Sealed {
    /// No value of a type that implements this exists.
    fn impossible(self) -> core::convert::Infallible;
}
