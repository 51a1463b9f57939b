//! Parses `#[rowkey(...)]` into typed values that keep the span of the token they came from.
//!
//! Parsing never stops at an error: a bad key or value is recorded in the [`Ctxt`] and its tokens are
//! skipped, so every problem of one derive is reported together.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::{Attribute, LitInt, LitStr, Token};

use crate::ctxt::Ctxt;
use crate::symbol::{CONTAINER_KEYS, CRATE, DESC, FIELD_KEYS, REVERSE, ROWKEY, WIDTH};

/// A value with the span of the attribute token that set it.
#[derive(Clone, Copy)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

/// The attributes of one field.
#[derive(Default)]
pub struct FieldAttrs {
    /// `width = N`; the span is the literal's.
    pub width: Option<Spanned<usize>>,
    /// `desc`; the span is the keyword's.
    pub desc: Option<Span>,
    /// `reverse`; the span is the keyword's.
    pub reverse: Option<Span>,
}

/// The attributes of the struct or enum.
#[derive(Default)]
pub struct ContainerAttrs {
    /// `crate = "path"`.
    pub krate: Option<syn::Path>,
}

pub fn field_attrs(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    for_each_key(cx, attrs, |meta, key| {
        match key.as_str() {
            WIDTH => {
                let tokens = value_tokens(meta)?;
                let parsed = syn::parse2::<LitInt>(tokens.clone())
                    .ok()
                    .and_then(|l| l.base10_parse::<usize>().ok().map(|w| (l, w)));
                let Some((lit, width)) = parsed else {
                    cx.error_spanned_by(
                        tokens,
                        "`width` must be a whole number of bytes (or digits in text layouts), as in `width = 4`",
                    );
                    return Ok(());
                };
                set_once(
                    cx,
                    &mut out.width,
                    Spanned {
                        value: width,
                        span: lit.span(),
                    },
                    meta,
                    key,
                );
            }
            DESC => flag(cx, &mut out.desc, meta, key)?,
            REVERSE => flag(cx, &mut out.reverse, meta, key)?,
            _ => unknown_key(cx, meta, &key, FIELD_KEYS, "field")?,
        }
        Ok(())
    });
    out
}

pub fn container_attrs(cx: &Ctxt, attrs: &[Attribute]) -> ContainerAttrs {
    let mut out = ContainerAttrs::default();
    for_each_key(cx, attrs, |meta, key| {
        match key.as_str() {
            CRATE => {
                let lit: LitStr = meta.value()?.parse()?;
                match lit.parse::<syn::Path>() {
                    Ok(path) => {
                        if out.krate.is_some() {
                            cx.error(meta.path.span(), format!("duplicate rowkey attribute `{key}`"));
                        } else {
                            out.krate = Some(path);
                        }
                    }
                    Err(_) => cx.error(
                        lit.span(),
                        format!("`crate` must be a path such as \"::rowkey\" or \"my_crate::rowkey\", not {:?}", lit.value()),
                    ),
                }
            }
            _ => unknown_key(cx, meta, &key, CONTAINER_KEYS, "struct")?,
        }
        Ok(())
    });
    out
}

/// Rejects `#[rowkey(...)]` where it means nothing (on enum variants).
pub fn reject_attrs(cx: &Ctxt, attrs: &[Attribute], what: &str) {
    for attr in attrs.iter().filter(|a| a.path().is_ident(ROWKEY)) {
        cx.error_spanned_by(attr, format!("`#[rowkey(...)]` has no meaning on {what}"));
    }
}

/// Calls `f` with every key of every `#[rowkey(...)]` attribute; malformed input is recorded and the
/// rest of that attribute skipped.
fn for_each_key(
    cx: &Ctxt,
    attrs: &[Attribute],
    mut f: impl FnMut(&ParseNestedMeta, String) -> syn::Result<()>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident(ROWKEY)) {
        let result = attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_else(|| path_to_string(&meta.path));
            f(&meta, key)
        });
        if let Err(e) = result {
            cx.syn_error(e);
        }
    }
}

fn path_to_string(path: &syn::Path) -> String {
    path.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}

fn set_once<T>(cx: &Ctxt, slot: &mut Option<T>, value: T, meta: &ParseNestedMeta, key: String) {
    if slot.is_some() {
        cx.error(
            meta.path.span(),
            format!("duplicate rowkey attribute `{key}`"),
        );
    } else {
        *slot = Some(value);
    }
}

fn flag(
    cx: &Ctxt,
    slot: &mut Option<Span>,
    meta: &ParseNestedMeta,
    key: String,
) -> syn::Result<()> {
    if meta.input.peek(Token![=]) || meta.input.peek(syn::token::Paren) {
        cx.error(
            meta.path.span(),
            format!("`{key}` takes no value: write `#[rowkey({key})]`"),
        );
        skip_value(meta.input)?;
        return Ok(());
    }
    let span = meta.path.span();
    set_once(cx, slot, span, meta, key);
    Ok(())
}

fn unknown_key(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
    valid: &[&str],
    place: &str,
) -> syn::Result<()> {
    let list = valid
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let hint = match closest(key, valid) {
        Some(k) => format!(" (did you mean `{k}`?)"),
        None => String::new(),
    };
    cx.error(
        meta.path.span(),
        format!("unknown rowkey {place} attribute `{key}`{hint}; expected one of {list}"),
    );
    skip_value(meta.input)
}

/// The tokens of `= value` up to the next comma (an empty stream when there is no value, so the error
/// lands on the key).
fn value_tokens(meta: &ParseNestedMeta) -> syn::Result<proc_macro2::TokenStream> {
    let eq: Token![=] = meta.input.parse()?;
    let mut tokens = proc_macro2::TokenStream::new();
    while !meta.input.is_empty() && !meta.input.peek(Token![,]) {
        tokens.extend([meta.input.parse::<proc_macro2::TokenTree>()?]);
    }
    if tokens.is_empty() {
        return Err(syn::Error::new(eq.span, "expected a value after `=`"));
    }
    Ok(tokens)
}

/// Skips `= value` or `(...)` after a key that was not understood, up to the next comma.
fn skip_value(input: ParseStream) -> syn::Result<()> {
    if input.peek(syn::token::Paren) {
        let _content;
        syn::parenthesized!(_content in input);
    } else if input.peek(Token![=]) {
        input.parse::<Token![=]>()?;
        while !input.is_empty() && !input.peek(Token![,]) {
            input.parse::<proc_macro2::TokenTree>()?;
        }
    }
    Ok(())
}

/// The valid key closest to a misspelled one, if it is close enough to be a likely typo.
fn closest<'a>(key: &str, valid: &[&'a str]) -> Option<&'a str> {
    valid
        .iter()
        .map(|v| (edit_distance(key, v), *v))
        .filter(|(d, v)| *d <= 2.max(v.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, v)| v)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

trait PathSpan {
    fn span(&self) -> Span;
}

impl PathSpan for syn::Path {
    fn span(&self) -> Span {
        syn::spanned::Spanned::span(self)
    }
}
