//! Scan methods misused, made compile errors that say why (`#[diagnostic::on_unimplemented]`,
//! Rust 1.78; written here because generated code must compile in a module without the prelude,
//! where `diagnostic::` does not resolve). A field's binding methods are on every state of a
//! struct key's builder, bounded on [`At`] its own state. The traits that say why a field has no
//! `_range` live with the rule that decides it (`field/no_range.rs`).

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
