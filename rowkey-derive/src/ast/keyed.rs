//! The model of an enum key: each variant a key of its own, its fields behind its tag, with the
//! tags read from the attributes and Rust's discriminants and checked to be prefix-free.

use proc_macro2::Span;
use syn::{DeriveInput, Fields, Ident};

use super::{fields_of, stored_tag, text_of, Prefix, StoredTag, Struct};
use crate::attr::{self, ContainerAttrs};
use crate::ctxt::Ctxt;

/// An enum whose variants have fields (or none): each variant is a key of its own behind its tag.
pub struct KeyedEnum<'a> {
    pub original: &'a DeriveInput,
    pub attrs: ContainerAttrs,
    /// The enum's own `tag`, before every variant's.
    pub tag: Option<StoredTag>,
    pub variants: Vec<Variant<'a>>,
}

impl KeyedEnum<'_> {
    /// The delimiter of a text layout, or `None` for the binary format.
    pub fn text(&self) -> Option<String> {
        text_of(&self.attrs)
    }
}

pub struct Variant<'a> {
    pub ident: &'a Ident,
    /// The variant's key: its fields behind its tag, as a struct's would be.
    pub key: Struct<'a>,
}

impl Variant<'_> {
    /// The scan method that names the variant: `OrderItem` -> `order_item` (raw if a keyword).
    pub fn scan_method(&self) -> Ident {
        let camel = crate::unraw::unraw(self.ident);
        let mut snake = String::new();
        for (i, c) in camel.chars().enumerate() {
            if c.is_uppercase() {
                if i > 0 {
                    snake.push('_');
                }
                snake.extend(c.to_lowercase());
            } else {
                snake.push(c);
            }
        }
        let span = self.ident.span();
        syn::parse_str::<Ident>(&snake)
            .map(|mut id| {
                id.set_span(span);
                id
            })
            .unwrap_or_else(|_| Ident::new_raw(&snake, span))
    }
}

impl<'a> KeyedEnum<'a> {
    pub(super) fn from_syn(
        cx: &Ctxt,
        input: &'a DeriveInput,
        data: &'a syn::DataEnum,
        attrs: ContainerAttrs,
    ) -> Option<Self> {
        if let Some(salt) = &attrs.salt {
            cx.error(salt.span, "`salt` on an enum key is not supported: each variant's keys sit together behind its tag; salt a struct key instead");
        }
        let text = text_of(&attrs);
        let outer = attrs
            .tag
            .as_ref()
            .and_then(|tag| stored_tag(cx, tag, text.as_deref()));
        let delimiter = text.clone().unwrap_or_default();
        let mut next: Option<i128> = Some(0);
        let mut variants = Vec::new();
        let mut raw_tags: Vec<(Vec<u8>, Span, &Ident)> = Vec::new();
        for v in &data.variants {
            let vattrs = attr::variant_attrs(cx, &v.attrs);
            // Rust's discriminant: explicit, or one more than the previous variant's.
            let discriminant = match &v.discriminant {
                Some((_, expr)) => {
                    let lit = match expr {
                        syn::Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Int(n),
                            ..
                        }) => n.base10_parse::<i128>().ok(),
                        _ => None,
                    };
                    if lit.is_none() && vattrs.tag.is_none() {
                        cx.error_spanned_by(expr, "an enum key's tag is its discriminant, which the derive must read: write it as an integer literal, or give the variant a `tag`");
                    }
                    lit
                }
                None => next,
            };
            next = discriminant.and_then(|d| d.checked_add(1));
            let fields = match &v.fields {
                Fields::Named(named) => fields_of(cx, named, &attrs),
                _ => Vec::new(),
            };
            let raw = match &vattrs.tag {
                Some(tag) => stored_tag(cx, tag, text.as_deref()).map(|b| (b, tag.span)),
                None => match discriminant.map(u8::try_from) {
                    Some(Ok(d)) => Some((
                        rowkey_core::private::byte_tag(d, text.is_some())
                            .as_slice()
                            .to_vec(),
                        v.ident.span(),
                    )),
                    Some(Err(_)) => {
                        let at = v.discriminant.as_ref().map_or_else(
                            || v.ident.span(),
                            |(_, e)| syn::spanned::Spanned::span(e),
                        );
                        cx.error(at, "an enum key's tag is its discriminant, one byte: keep it in 0..=255, or give the variant a `tag`");
                        None
                    }
                    None => None,
                },
            };
            let Some((raw, span)) = raw else {
                continue;
            };
            raw_tags.push((raw.clone(), span, &v.ident));
            // The enum's own tag, then the variant's; the delimiter follows when fields do.
            let mut bytes = Vec::new();
            if let Some(outer) = &outer {
                bytes.extend_from_slice(outer);
                bytes.extend_from_slice(delimiter.as_bytes());
            }
            bytes.extend_from_slice(&raw);
            let tag = StoredTag {
                bytes,
                delimiter: if fields.is_empty() {
                    String::new()
                } else {
                    delimiter.clone()
                },
                span,
            };
            variants.push(Variant {
                ident: &v.ident,
                key: Struct {
                    original: input,
                    attrs: attrs.clone(),
                    text: text.clone(),
                    prefix: Prefix::None,
                    tag: Some(tag),
                    variant: Some(&v.ident),
                    fields,
                },
            });
        }
        let tags: Vec<&[u8]> = raw_tags.iter().map(|(t, ..)| t.as_slice()).collect();
        // Reported on the later tag of the first clash.
        if let Some((earlier, later)) = rowkey_core::private::prefix_clash(&tags) {
            let show = |t: &[u8]| {
                String::from_utf8(t.to_vec())
                    .ok()
                    .filter(|s| s.chars().all(|c| c.is_ascii_graphic()))
                    .map_or_else(|| format!("{t:02X?}"), |s| format!("{s:?}"))
            };
            let (a, b) = (tags[earlier], tags[later]);
            let relation = if a == b {
                "is the same as"
            } else if a.starts_with(b) {
                "is a prefix of"
            } else {
                "starts with"
            };
            cx.error(
                raw_tags[later].1,
                format!(
                    "variant tags must be prefix-free, so a key's tag names one variant: this tag {} {relation} the tag {} of `{}`",
                    show(b),
                    show(a),
                    raw_tags[earlier].2,
                ),
            );
        }
        let tag = outer.zip(attrs.tag.as_ref()).map(|(bytes, t)| StoredTag {
            bytes,
            delimiter,
            span: t.span,
        });
        Some(KeyedEnum {
            original: input,
            attrs,
            tag,
            variants,
        })
    }
}
