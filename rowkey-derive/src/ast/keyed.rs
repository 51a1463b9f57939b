//! The model of an enum key: each variant a key of its own, its fields behind its tag, with the
//! tags read from the attributes and Rust's discriminants and checked to be prefix-free.

use proc_macro2::Span;
use syn::{DeriveInput, Fields, Ident};

use super::{fields_of, Field, Format, Prefix, StoredTag, Struct};
use crate::attr::{self, ContainerAttrs, TagAttr};
use crate::ctxt::Ctxt;

/// An enum whose variants have fields (or none): each variant is a key of its own behind its tag.
pub struct KeyedEnum<'a> {
    pub original: &'a DeriveInput,
    pub attrs: ContainerAttrs,
    /// The byte format, chosen once from the attributes.
    pub format: Format,
    /// The enum's own `tag`, before every variant's.
    pub tag: Option<StoredTag>,
    pub variants: Vec<Variant<'a>>,
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
    /// The model of an enum whose variants have fields; errors on its attributes, discriminants
    /// and tags are reported in `cx`.
    pub(super) fn from_syn(
        cx: &Ctxt,
        input: &'a DeriveInput,
        data: &'a syn::DataEnum,
        attrs: ContainerAttrs,
    ) -> Option<Self> {
        let format = Format::of_enum_key(cx, &attrs);
        if let Some(salt) = &attrs.salt {
            cx.error(salt.span, "`salt` on an enum key is not supported: each variant's keys sit together behind its tag; salt a struct key instead");
        }
        let outer = attrs
            .tag
            .as_ref()
            .and_then(|tag| format.stored_tag(cx, tag));
        let delimiter = format.delimiter().unwrap_or_default().to_owned();
        let keys = VariantKeys {
            input,
            attrs: &attrs,
            head: outer.as_ref().map_or_else(Vec::new, |outer| {
                [outer.as_slice(), delimiter.as_bytes()].concat()
            }),
            format: format.clone(),
        };
        let (variants, tags) = keys.of(cx, data);
        check_prefix_free(cx, &tags);
        let tag = outer.zip(attrs.tag.as_ref()).map(|(bytes, t)| StoredTag {
            bytes,
            delimiter,
            span: t.span,
        });
        Some(KeyedEnum {
            original: input,
            attrs,
            format,
            tag,
            variants,
        })
    }
}

/// A variant's own tag as read, before the enum's: what must be prefix-free.
struct VariantTag<'a> {
    bytes: Vec<u8>,
    /// The `tag` literal, or the variant when the tag is its discriminant.
    span: Span,
    ident: &'a Ident,
}

/// What every variant's key shares: the enum, its attributes and format, and the bytes before
/// every variant's tag.
struct VariantKeys<'a, 'c> {
    input: &'a DeriveInput,
    attrs: &'c ContainerAttrs,
    /// The enum's byte format.
    format: Format,
    /// The enum's own tag and the delimiter after it, or nothing.
    head: Vec<u8>,
}

impl<'a> VariantKeys<'a, '_> {
    /// Each variant's key, and the variants' own tags in declaration order. A variant whose tag
    /// cannot be read has no key (its error is reported).
    fn of(&self, cx: &Ctxt, data: &'a syn::DataEnum) -> (Vec<Variant<'a>>, Vec<VariantTag<'a>>) {
        let mut next: Option<i128> = Some(0);
        let mut variants = Vec::new();
        let mut tags = Vec::new();
        for v in &data.variants {
            let vattrs = attr::variant_attrs(cx, &v.attrs);
            let discriminant = discriminant(cx, v, vattrs.tag.is_some(), next);
            next = discriminant.and_then(|d| d.checked_add(1));
            let fields = match &v.fields {
                Fields::Named(named) => fields_of(cx, named),
                _ => Vec::new(),
            };
            let Some(tag) = self.own_tag(cx, v, vattrs.tag.as_ref(), discriminant) else {
                continue;
            };
            variants.push(self.variant(v, &tag, fields));
            tags.push(tag);
        }
        (variants, tags)
    }

    /// The variant's own tag: its `tag`, or else its discriminant as one byte.
    fn own_tag(
        &self,
        cx: &Ctxt,
        v: &'a syn::Variant,
        tag: Option<&TagAttr>,
        discriminant: Option<i128>,
    ) -> Option<VariantTag<'a>> {
        let (bytes, span) = match tag {
            Some(tag) => (self.format.stored_tag(cx, tag)?, tag.span),
            None => match u8::try_from(discriminant?) {
                Ok(d) => (self.format.byte_tag(d), v.ident.span()),
                Err(_) => {
                    let at = v
                        .discriminant
                        .as_ref()
                        .map_or_else(|| v.ident.span(), |(_, e)| syn::spanned::Spanned::span(e));
                    cx.error(at, "an enum key's tag is its discriminant, one byte: keep it in 0..=255, or give the variant a `tag`");
                    return None;
                }
            },
        };
        Some(VariantTag {
            bytes,
            span,
            ident: &v.ident,
        })
    }

    /// The variant's key: its fields behind the enum's tag and its own, with the delimiter after
    /// them when fields follow.
    fn variant(
        &self,
        v: &'a syn::Variant,
        tag: &VariantTag,
        fields: Vec<Field<'a>>,
    ) -> Variant<'a> {
        let delimiter = if fields.is_empty() {
            String::new()
        } else {
            self.format.delimiter().unwrap_or_default().to_owned()
        };
        let tag = StoredTag {
            bytes: [self.head.as_slice(), &tag.bytes].concat(),
            delimiter,
            span: tag.span,
        };
        Variant {
            ident: &v.ident,
            key: Struct {
                original: self.input,
                attrs: self.attrs.clone(),
                format: self.format.clone(),
                prefix: Prefix::None,
                tag: Some(tag),
                variant: Some(&v.ident),
                fields,
            },
        }
    }
}

/// Rust's discriminant of `v`: explicit, or one more than the previous variant's (`next`). `None`
/// when the derive cannot read it, an error unless the variant is `tagged` instead.
fn discriminant(cx: &Ctxt, v: &syn::Variant, tagged: bool, next: Option<i128>) -> Option<i128> {
    let Some((_, expr)) = &v.discriminant else {
        return next;
    };
    let lit = match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(n),
            ..
        }) => n.base10_parse::<i128>().ok(),
        _ => None,
    };
    if lit.is_none() && !tagged {
        cx.error_spanned_by(expr, "an enum key's tag is its discriminant, which the derive must read: write it as an integer literal, or give the variant a `tag`");
    }
    lit
}

/// Variant tags must be prefix-free, so a key's tag names one variant. Reported on the later tag
/// of the first clash.
fn check_prefix_free(cx: &Ctxt, tags: &[VariantTag]) {
    let bytes: Vec<&[u8]> = tags.iter().map(|t| t.bytes.as_slice()).collect();
    let Some((earlier, later)) = rowkey_core::private::prefix_clash(&bytes) else {
        return;
    };
    let (a, b) = (bytes[earlier], bytes[later]);
    let relation = if a == b {
        "is the same as"
    } else if a.starts_with(b) {
        "is a prefix of"
    } else {
        "starts with"
    };
    cx.error(
        tags[later].span,
        format!(
            "variant tags must be prefix-free, so a key's tag names one variant: this tag {} {relation} the tag {} of `{}`",
            show_tag(b),
            show_tag(a),
            tags[earlier].ident,
        ),
    );
}

/// A tag as a message shows it: a string when it is printable ASCII, else its bytes in hex.
fn show_tag(t: &[u8]) -> String {
    String::from_utf8(t.to_vec())
        .ok()
        .filter(|s| s.chars().all(|c| c.is_ascii_graphic()))
        .map_or_else(|| format!("{t:02X?}"), |s| format!("{s:?}"))
}
