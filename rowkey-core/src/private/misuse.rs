//! Scan methods a field cannot have, made compile errors that say why. The derive gives a
//! `reverse` field (and a time whose `format` does not sort as times do) `_range` and `_prefix`
//! methods bound on a trait here that no type implements: calling one fails with the trait's
//! `#[diagnostic::on_unimplemented]` message (Rust 1.78), where without the method rustc would
//! suggest `_in`, which compiles and lists every value of the range.

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
