//! Errors are collected, not returned at the first one, so a user sees every bad attribute of a
//! derive in one compile (the approach of serde_derive's `Ctxt`). A context must be checked before
//! it is dropped: dropping one with errors unreported would compile a broken layout silently.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::Span;

pub struct Ctxt {
    /// `None` once checked.
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    fn push(&self, error: syn::Error) {
        // `check` consumes the context, so nothing reports after it.
        if let Some(errors) = self.errors.borrow_mut().as_mut() {
            errors.push(error);
        }
    }

    /// An error on `span`.
    pub fn error(&self, span: Span, msg: impl Display) {
        self.push(syn::Error::new(span, msg));
    }

    /// An error on every token of `tokens` (for types and paths that span several tokens).
    pub fn error_spanned_by(&self, tokens: impl quote::ToTokens, msg: impl Display) {
        self.push(syn::Error::new_spanned(tokens, msg));
    }

    pub fn syn_error(&self, err: syn::Error) {
        self.push(err);
    }

    /// All errors so far, joined into one, or `Ok` when there were none. Consumes the context.
    pub fn check(self) -> Result<(), syn::Error> {
        let errors = self.errors.borrow_mut().take().unwrap_or_default();
        let mut errors = errors.into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for e in errors {
            combined.combine(e);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("rowkey-derive: an error context was dropped without being checked");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Ctxt;
    use proc_macro2::Span;

    #[test]
    fn checking_reports_every_error_together() {
        let cx = Ctxt::new();
        cx.error(Span::call_site(), "first");
        cx.error(Span::call_site(), "second");
        let errors = cx.check().unwrap_err();
        let messages: Vec<String> = errors.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(messages, ["first", "second"]);
    }

    #[test]
    fn a_checked_context_without_errors_is_ok() {
        assert!(Ctxt::new().check().is_ok());
    }

    #[test]
    #[should_panic(expected = "dropped without being checked")]
    fn dropping_an_unchecked_context_panics() {
        let cx = Ctxt::new();
        cx.error(Span::call_site(), "lost");
        drop(cx);
    }
}
