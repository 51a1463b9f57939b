//! Parses `#[rowkey(...)]` into typed values that keep the span of the token they came from.
//!
//! Parsing never stops at an error: a bad key or value is recorded in the [`Ctxt`] and its tokens are
//! skipped, so every problem of one derive is reported together.

use std::fmt::Display;
use std::str::FromStr;

use proc_macro2::Span;
use rowkey_core::{SaltHash, TimeUnit};
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::{Attribute, LitInt, LitStr, Token};

use crate::ctxt::Ctxt;

use crate::symbol::{
    BUCKETS, CONTAINER_KEYS, CRATE, DELIMITER, DESC, FIELD_KEYS, FORMAT, HASH, HASH_PREFIX,
    HASH_PREFIX_KEYS, LEN, MAX_LEN, PHOENIX, REVERSE, ROWKEY, SALT, SALT_KEYS, TAG, TEXT, UNIT,
    UPPER, WIDTH,
};

mod tag;

use tag::tag_attr;
pub use tag::{variant_attrs, TagAttr, TagValue};

/// A value with the span of the attribute token that set it.
#[derive(Clone, Copy)]
pub struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

/// `salt(buckets = N, hash = "...")`.
#[derive(Clone, Copy)]
pub struct SaltAttr {
    /// The `salt` keyword.
    pub span: Span,
    pub buckets: Spanned<u64>,
    pub hash: Option<Spanned<SaltHash>>,
}

impl SaltAttr {
    pub fn hash_kind(&self) -> SaltHash {
        self.hash.map_or(SaltHash::Md5, |h| h.value)
    }

    /// Where an error about the hash points: the `hash` value, or the `salt` keyword when the hash
    /// is the default.
    pub fn hash_span(&self) -> Span {
        self.hash.map_or(self.span, |h| h.span)
    }
}

/// `hash_prefix(len = L, upper)`.
#[derive(Clone, Copy)]
pub struct HashAttr {
    /// The `hash_prefix` keyword.
    pub span: Span,
    pub len: Spanned<u64>,
    pub upper: Option<Span>,
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
    pub salt: Option<SaltAttr>,
    pub hash_prefix: Option<HashAttr>,
    /// `unit = "ms"`; the span is the literal's.
    pub unit: Option<Spanned<TimeUnit>>,
    /// `format = "%y%m%d"`; the span is the literal's.
    pub format: Option<Spanned<String>>,
}

/// The attributes of the struct or enum.
#[derive(Default, Clone)]
pub struct ContainerAttrs {
    /// `tag = ...`: the constant bytes that open every key.
    pub tag: Option<TagAttr>,
    /// `crate = "path"`.
    pub krate: Option<syn::Path>,
    /// Whole-key `salt(...)`.
    pub salt: Option<SaltAttr>,
    /// `text`: the text format.
    pub text: Option<Span>,
    /// `phoenix`: Apache Phoenix's primary key.
    pub phoenix: Option<Span>,
    /// `delimiter = "s"`.
    pub delimiter: Option<Spanned<String>>,
    /// `max_len = N`: the longest key allowed.
    pub max_len: Option<Spanned<usize>>,
}

pub fn field_attrs(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    for_each_key(cx, attrs, |meta, key| {
        match key.as_str() {
            WIDTH => {
                if let Some(width) = width_value(cx, meta)? {
                    set_once(cx, &mut out.width, width, meta, key);
                }
            }
            DESC => flag(cx, &mut out.desc, meta, key)?,
            REVERSE => flag(cx, &mut out.reverse, meta, key)?,
            UNIT => {
                if let Some(unit) = unit_value(cx, meta)? {
                    set_once(cx, &mut out.unit, unit, meta, key);
                }
            }
            FORMAT => set_once(cx, &mut out.format, string_value(meta)?, meta, key),
            SALT => {
                if let Some(salt) = salt_attr(cx, meta)? {
                    set_once(cx, &mut out.salt, salt, meta, key);
                }
            }
            HASH_PREFIX => {
                if let Some(hash) = hash_attr(cx, meta)? {
                    set_once(cx, &mut out.hash_prefix, hash, meta, key);
                }
            }
            TAG => tag_on_field(cx, meta)?,
            _ => unknown_key(cx, meta, &key, FIELD_KEYS, "field")?,
        }
        Ok(())
    });
    out
}

/// `width = N` on a field; `None` after an error on the value's tokens.
fn width_value(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<Spanned<usize>>> {
    whole_number(
        cx,
        meta,
        "`width` must be a whole number of bytes (or digits in text layouts), as in `width = 4`",
    )
}

/// `unit = "..."`: one of the units rowkey-core names; `None` after an error on the literal.
fn unit_value(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<Spanned<TimeUnit>>> {
    let lit: LitStr = meta.value()?.parse()?;
    match TimeUnit::from_name(&lit.value()) {
        Some(unit) => Ok(Some(Spanned {
            value: unit,
            span: lit.span(),
        })),
        None => {
            let names: Vec<String> = TimeUnit::ALL
                .iter()
                .map(|u| format!("\"{}\"", u.name()))
                .collect();
            cx.error(
                lit.span(),
                format!(
                    "unknown time unit {:?}; expected one of {}",
                    lit.value(),
                    names.join(", ")
                ),
            );
            Ok(None)
        }
    }
}

/// The string literal after `key =`, with the literal's span.
fn string_value(meta: &ParseNestedMeta) -> syn::Result<Spanned<String>> {
    let lit: LitStr = meta.value()?.parse()?;
    Ok(Spanned {
        value: lit.value(),
        span: lit.span(),
    })
}

/// `tag` on a field: reported rather than ignored, since a tag belongs to the whole key.
fn tag_on_field(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<()> {
    cx.error(meta.path.span(), "`tag` has no meaning on a field: a tag opens the whole key; put it on the struct, or on an enum variant");
    skip_value(meta.input)
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
            SALT => {
                if let Some(salt) = salt_attr(cx, meta)? {
                    set_once(cx, &mut out.salt, salt, meta, key);
                }
            }
            TEXT => flag(cx, &mut out.text, meta, key)?,
            PHOENIX => flag(cx, &mut out.phoenix, meta, key)?,
            TAG => {
                if let Some(tag) = tag_attr(cx, meta)? {
                    set_once(cx, &mut out.tag, tag, meta, key);
                }
            }
            DELIMITER => set_once(cx, &mut out.delimiter, string_value(meta)?, meta, key),
            MAX_LEN => {
                if let Some(n) = number(cx, meta, key.as_str())? {
                    match usize::try_from(n.value) {
                        Ok(value @ 1..) => set_once(
                            cx,
                            &mut out.max_len,
                            Spanned {
                                value,
                                span: n.span,
                            },
                            meta,
                            key,
                        ),
                        _ => cx.error(
                            n.span,
                            "`max_len` must be at least 1: it is the longest key the store takes, as in `max_len = 4096` (rowkey::limits names the stores' limits)",
                        ),
                    }
                }
            }
            _ => unknown_key(cx, meta, &key, CONTAINER_KEYS, "struct")?,
        }
        Ok(())
    });
    out
}

/// A whole number after `key =`, or an error on the value's tokens.
fn number(cx: &Ctxt, meta: &ParseNestedMeta, what: &str) -> syn::Result<Option<Spanned<u64>>> {
    whole_number(
        cx,
        meta,
        format!("`{what}` must be a whole number, as in `{what} = 16`"),
    )
}

/// A whole number of type `N` after `key =`, or `message` on the value's tokens (all of them, so
/// a negative or a non-number is underlined whole).
fn whole_number<N>(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    message: impl Display,
) -> syn::Result<Option<Spanned<N>>>
where
    N: FromStr,
    N::Err: Display,
{
    let tokens = value_tokens(meta)?;
    let parsed = syn::parse2::<LitInt>(tokens.clone())
        .ok()
        .and_then(|l| l.base10_parse::<N>().ok().map(|v| (l, v)));
    match parsed {
        Some((lit, value)) => Ok(Some(Spanned {
            value,
            span: lit.span(),
        })),
        None => {
            cx.error_spanned_by(tokens, message);
            Ok(None)
        }
    }
}

/// Parses `keyword(key = value, ...)`, calling `arg` for every key; `false` after any error (a
/// missing list, a malformed one, or an error `arg` reported by returning `false`).
fn parse_args(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    usage: &str,
    mut arg: impl FnMut(&ParseNestedMeta, String) -> syn::Result<bool>,
) -> syn::Result<bool> {
    if !meta.input.peek(syn::token::Paren) {
        let keyword = path_to_string(&meta.path);
        cx.error(
            meta.path.span(),
            format!("`{keyword}` takes arguments, as in {usage}"),
        );
        skip_value(meta.input)?;
        return Ok(false);
    }
    let mut ok = true;
    meta.parse_nested_meta(|inner| {
        let key = path_to_string(&inner.path);
        ok &= arg(&inner, key)?;
        Ok(())
    })?;
    Ok(ok)
}

/// `salt(buckets = N[, hash = "md5" | "java" | "mod"])`; `None` after an error.
fn salt_attr(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<SaltAttr>> {
    let span = meta.path.span();
    let mut buckets = None;
    let mut hash = None;
    let usage = "`salt(buckets = 16)` or `salt(buckets = 16, hash = \"java\")`";
    let ok = parse_args(cx, meta, usage, |inner, key| match key.as_str() {
        BUCKETS => Ok(match number(cx, inner, BUCKETS)? {
            Some(n) => {
                set_once(cx, &mut buckets, n, inner, key);
                true
            }
            None => false,
        }),
        HASH => {
            let lit: LitStr = inner.value()?.parse()?;
            let value = match SaltHash::from_name(&lit.value()) {
                Some(hash) => hash,
                None => {
                    let valid = SaltHash::ALL
                        .iter()
                        .map(|h| format!("\"{}\"", h.name()))
                        .collect::<Vec<_>>()
                        .join(" | ");
                    cx.error(
                        lit.span(),
                        format!("unknown salt hash {:?}; expected {valid}", lit.value()),
                    );
                    return Ok(false);
                }
            };
            set_once(
                cx,
                &mut hash,
                Spanned {
                    value,
                    span: lit.span(),
                },
                inner,
                key,
            );
            Ok(true)
        }
        _ => unknown_key(cx, inner, &key, SALT_KEYS, "salt").map(|()| false),
    })?;
    Ok(required(
        cx,
        ok,
        buckets,
        span,
        "`salt` needs `buckets = N`, as in `salt(buckets = 16)`",
    )
    .map(|buckets| SaltAttr {
        span,
        buckets,
        hash,
    }))
}

/// `hash_prefix(len = L[, upper])`; `None` after an error.
fn hash_attr(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<HashAttr>> {
    let span = meta.path.span();
    let mut len = None;
    let mut upper = None;
    let ok = parse_args(cx, meta, "`hash_prefix(len = 4)`", |inner, key| {
        match key.as_str() {
            LEN => Ok(match number(cx, inner, LEN)? {
                Some(n) => {
                    set_once(cx, &mut len, n, inner, key);
                    true
                }
                None => false,
            }),
            UPPER => flag(cx, &mut upper, inner, key).map(|()| true),
            _ => unknown_key(cx, inner, &key, HASH_PREFIX_KEYS, "hash_prefix").map(|()| false),
        }
    })?;
    Ok(required(
        cx,
        ok,
        len,
        span,
        "`hash_prefix` needs `len = L`, as in `hash_prefix(len = 4)`",
    )
    .map(|len| HashAttr { span, len, upper }))
}

/// A required argument: reported missing only when nothing else went wrong first.
fn required<T>(cx: &Ctxt, ok: bool, value: Option<T>, span: Span, missing: &str) -> Option<T> {
    match value {
        Some(v) if ok => Some(v),
        Some(_) => None,
        None => {
            if ok {
                cx.error(span, missing);
            }
            None
        }
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
            let key = path_to_string(&meta.path);
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
    let hint = match rowkey_core::private::closest(key, valid) {
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

trait PathSpan {
    fn span(&self) -> Span;
}

impl PathSpan for syn::Path {
    fn span(&self) -> Span {
        syn::spanned::Spanned::span(self)
    }
}
