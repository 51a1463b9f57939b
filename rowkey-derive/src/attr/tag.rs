//! `tag = ...` on a struct, an enum or a variant: the value as written (which bytes it stands for
//! depends on the layout's format, decided in `ast.rs`), and the attributes of a variant.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::Attribute;

use super::{for_each_key, set_once, unknown_key, value_tokens};
use crate::ctxt::Ctxt;
use crate::symbol::{TAG, VARIANT_KEYS};

/// `tag = ...`, as written: which bytes it stands for depends on the layout's format.
#[derive(Clone)]
pub enum TagValue {
    /// `tag = b"evt/"`.
    Bytes(Vec<u8>),
    /// `tag = 7`: one byte (three digits in text layouts).
    Byte(u8),
    /// `tag = "evt"`: text layouts only.
    Str(String),
}

/// `tag = ...`; the span is the literal's.
#[derive(Clone)]
pub struct TagAttr {
    pub value: TagValue,
    pub span: Span,
}

/// The attributes of an enum variant.
#[derive(Default)]
pub struct VariantAttrs {
    pub tag: Option<TagAttr>,
}

/// The attributes of an enum variant: its `tag`.
pub fn variant_attrs(cx: &Ctxt, attrs: &[Attribute]) -> VariantAttrs {
    let mut out = VariantAttrs::default();
    for_each_key(cx, attrs, |meta, key| {
        match key.as_str() {
            TAG => {
                if let Some(tag) = tag_attr(cx, meta)? {
                    set_once(cx, &mut out.tag, tag, meta, key);
                }
            }
            _ => unknown_key(cx, meta, &key, VARIANT_KEYS, "variant")?,
        }
        Ok(())
    });
    out
}

/// `tag = b"..." | 0..=255 | "..."`; `None` after an error.
pub(super) fn tag_attr(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<TagAttr>> {
    let tokens = value_tokens(meta)?;
    let usage = "a tag is a byte string, an integer 0..=255, or in text layouts a string, as in `tag = b\"evt/\"`, `tag = 7` or `tag = \"evt\"`";
    let value = match syn::parse2::<syn::Lit>(tokens.clone()) {
        Ok(syn::Lit::ByteStr(b)) => Some((TagValue::Bytes(b.value()), b.span())),
        Ok(syn::Lit::Str(s)) => Some((TagValue::Str(s.value()), s.span())),
        Ok(syn::Lit::Int(n)) => match n.base10_parse::<u8>() {
            Ok(b) => Some((TagValue::Byte(b), n.span())),
            Err(_) => {
                cx.error(
                    n.span(),
                    format!("an integer tag is one byte, 0..=255; for more, write bytes: {usage}"),
                );
                return Ok(None);
            }
        },
        _ => None,
    };
    let Some((value, span)) = value else {
        cx.error_spanned_by(tokens, usage);
        return Ok(None);
    };
    if matches!(&value, TagValue::Bytes(b) if b.is_empty())
        || matches!(&value, TagValue::Str(s) if s.is_empty())
    {
        cx.error(
            span,
            "an empty tag tells no keys apart: a tag needs at least one byte",
        );
        return Ok(None);
    }
    Ok(Some(TagAttr { value, span }))
}
