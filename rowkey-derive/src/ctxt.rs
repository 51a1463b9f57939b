//! Errors are collected, not returned at the first one, so a user sees every bad attribute of a
//! derive in one compile (the approach of serde_derive's `Ctxt`).

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::Span;

#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt::default()
    }

    /// An error on `span`.
    pub fn error(&self, span: Span, msg: impl Display) {
        self.errors.borrow_mut().push(syn::Error::new(span, msg));
    }

    /// An error on every token of `tokens` (for types and paths that span several tokens).
    pub fn error_spanned_by(&self, tokens: impl quote::ToTokens, msg: impl Display) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new_spanned(tokens, msg));
    }

    pub fn syn_error(&self, err: syn::Error) {
        self.errors.borrow_mut().push(err);
    }

    /// All errors so far, joined into one, or `Ok` when there were none.
    pub fn check(self) -> Result<(), syn::Error> {
        let mut errors = self.errors.into_inner().into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for e in errors {
            combined.combine(e);
        }
        Err(combined)
    }
}
