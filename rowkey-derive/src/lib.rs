//! `#[derive(RowKey)]`, the procedural macro of the `rowkey` crate. Use it through `rowkey`, whose
//! documentation describes the attributes.
//!
//! The derive is a pipeline: `attr` parses `#[rowkey(...)]`, `ast` builds the layout model once,
//! `valid` applies the rules (with the limits and names of `rowkey-core`, not copies of them),
//! `expand` generates code; errors are collected in a `Ctxt`, which must be checked before it is
//! dropped, and reported together.

mod ast;
mod attr;
mod ctxt;
mod expand;
mod symbol;
mod unraw;
mod valid;

use proc_macro::TokenStream;

/// Derives `RowKey`, `DecodeKey` and `KeyField` for a struct with named fields or a fieldless enum.
/// See the `rowkey` crate for the attributes.
#[proc_macro_derive(RowKey, attributes(rowkey))]
pub fn derive_row_key(input: TokenStream) -> TokenStream {
    match syn::parse::<syn::DeriveInput>(input) {
        Ok(input) => expand::derive(&input).into(),
        Err(e) => e.to_compile_error().into(),
    }
}
