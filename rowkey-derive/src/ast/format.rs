//! A key's byte format, chosen once from its container's attributes: `text` (with its
//! `delimiter`), `phoenix`, or neither (binary). Each step of the derive that treats one format
//! apart asks the key's `Format` by the rule it needs (how a tag or a prefix is stored, which walk
//! the key calls, what a field type must offer, whether content is escaped), so that which format
//! does what is read here alone. The bytes themselves are the runtime's (its `codec` folders); each
//! format's checks of the attributes are `valid/text.rs` and `valid/phoenix.rs`.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use rowkey_core::SaltHash;

use super::Prefix;
use crate::attr::{ContainerAttrs, TagAttr, TagValue};
use crate::ctxt::Ctxt;

/// A key's byte format.
#[derive(Clone)]
pub enum Format {
    /// rowkey's binary format.
    Binary,
    /// The text format, with its delimiter (empty: the segments simply concatenated).
    Text(String),
    /// Apache Phoenix's primary key, at the `phoenix` attribute.
    Phoenix(Span),
}

/// Why `phoenix` stands on structs alone.
const PHOENIX_STRUCTS: &str = "`phoenix` applies to structs: a Phoenix table's primary key is a list of columns, the fields of a struct";

impl Format {
    /// The format a struct's attributes choose, with an error on each format attribute that
    /// does not go with it.
    pub fn of_struct(cx: &Ctxt, attrs: &ContainerAttrs) -> Format {
        if let (Some(_), Some(text)) = (attrs.phoenix, attrs.text) {
            cx.error(
                text,
                "a Phoenix layout is Phoenix's bytes: `text` does not apply",
            );
        }
        match attrs.phoenix {
            Some(span) => {
                Self::check_delimiter(cx, attrs);
                Format::Phoenix(span)
            }
            None => Self::text_or_binary(cx, attrs),
        }
    }

    /// The format an enum key's attributes choose: a struct's, but never Phoenix's.
    pub fn of_enum_key(cx: &Ctxt, attrs: &ContainerAttrs) -> Format {
        if let Some(phoenix) = attrs.phoenix {
            cx.error(phoenix, PHOENIX_STRUCTS);
        }
        Self::text_or_binary(cx, attrs)
    }

    /// An error on each format attribute of a fieldless enum: a field of a key, whose struct
    /// chooses the format.
    pub fn refuse_on_fieldless_enum(cx: &Ctxt, attrs: &ContainerAttrs) {
        if let Some(phoenix) = attrs.phoenix {
            cx.error(phoenix, PHOENIX_STRUCTS);
        }
        if let Some(text) = attrs.text {
            cx.error(text, "`text` has no meaning on a fieldless enum: the struct that holds it chooses the format, and the enum follows it (three digits in text layouts)");
        }
        if let Some(d) = &attrs.delimiter {
            cx.error(d.span, "`delimiter` has no meaning on a fieldless enum: it belongs to a text layout's struct");
        }
    }

    /// `text` alone means an empty delimiter, the segments concatenated.
    fn text_or_binary(cx: &Ctxt, attrs: &ContainerAttrs) -> Format {
        match attrs.text {
            Some(_) => Format::Text(
                attrs
                    .delimiter
                    .as_ref()
                    .map_or_else(String::new, |d| d.value.clone()),
            ),
            None => {
                Self::check_delimiter(cx, attrs);
                Format::Binary
            }
        }
    }

    /// `delimiter` without `text`.
    fn check_delimiter(cx: &Ctxt, attrs: &ContainerAttrs) {
        if let Some(d) = &attrs.delimiter {
            cx.error(d.span, "`delimiter` applies to text layouts: add `text`, as in `#[rowkey(text, delimiter = \":\")]`");
        }
    }

    /// The text delimiter, `None` in a format without one.
    pub fn delimiter(&self) -> Option<&str> {
        match self {
            Format::Text(d) => Some(d),
            Format::Binary | Format::Phoenix(_) => None,
        }
    }

    /// Whether the key is a Phoenix key: a fact the runtime's rules take (a field's range
    /// refusals).
    pub fn is_phoenix(&self) -> bool {
        matches!(self, Format::Phoenix(_))
    }

    /// Whether a string or byte field that another field follows is escaped: its stored bytes
    /// are then not its content, and a borrowed type cannot decode it. Text's delimiter and
    /// Phoenix's separator end such content unescaped.
    pub fn escapes_content(&self) -> bool {
        matches!(self, Format::Binary)
    }

    /// Whether an integer's `width` counts decimal digits (text) rather than bytes.
    pub fn width_counts_digits(&self) -> bool {
        matches!(self, Format::Text(_))
    }

    /// Whether a hash prefix is written as hex digits (text), so that `upper` applies and its
    /// `len` counts digits; else it is the digest's bytes.
    pub fn hash_prefix_is_hex(&self) -> bool {
        matches!(self, Format::Text(_))
    }

    /// Whether a time's `format = "..."` applies: it writes text.
    pub fn takes_time_format(&self) -> bool {
        matches!(self, Format::Text(_))
    }

    /// Whether the array lane can place the key's fields at offsets known from their types: not
    /// in text (a number's digits vary) or Phoenix (a column moves with the NULLs before it).
    pub fn places_fields_at_offsets(&self) -> bool {
        matches!(self, Format::Binary)
    }

    /// The bytes `tag` stands for in this format, or an error on the literal when the format
    /// cannot hold it.
    pub fn stored_tag(&self, cx: &Ctxt, tag: &TagAttr) -> Option<Vec<u8>> {
        let text = self.delimiter().is_some();
        match (&tag.value, text) {
            (TagValue::Bytes(b), false) => Some(b.clone()),
            (TagValue::Str(s), true) => Some(s.clone().into_bytes()),
            (TagValue::Byte(b), _) => Some(self.byte_tag(*b)),
            (TagValue::Str(_), false) => {
                cx.error(tag.span, "a binary layout's tag is a byte string or an integer 0..=255, as in `tag = b\"evt/\"` or `tag = 7` (a string tag is for text layouts)");
                None
            }
            (TagValue::Bytes(_), true) => {
                cx.error(tag.span, "a text layout's tag is a string or an integer 0..=255 (three digits), as in `tag = \"evt\"` or `tag = 7`");
                None
            }
        }
    }

    /// A one-byte tag (an integer, or a variant's discriminant) as this format stores it.
    pub fn byte_tag(&self, b: u8) -> Vec<u8> {
        rowkey_core::private::byte_tag(b, self.delimiter().is_some())
            .as_slice()
            .to_vec()
    }

    /// The bucket function of a salt declared with `declared`: Phoenix's salt byte is Java's
    /// `Arrays.hashCode` (valid/phoenix.rs refuses another).
    pub fn salt_hash(&self, declared: SaltHash) -> SaltHash {
        match self {
            Format::Phoenix(_) => SaltHash::Java,
            Format::Binary | Format::Text(_) => declared,
        }
    }

    /// The bytes `prefix` takes, as the runtime lays it out: one salt byte, or in text the digits
    /// of `buckets - 1`; a hash prefix's `len` (hex digits in text).
    pub fn prefix_len(&self, prefix: &Prefix) -> usize {
        let text = self.delimiter().is_some();
        match prefix {
            Prefix::None => None,
            Prefix::Salt { buckets, hash, .. } => {
                rowkey_core::Salt::new(*buckets, *hash).map(|salt| {
                    if text {
                        rowkey_core::private::salt_in_text(salt)
                    } else {
                        salt
                    }
                    .encoded_len()
                })
            }
            // Only expansion asks, after validation kept the length within the runtime's range.
            Prefix::Hash { len, upper, .. } => if text {
                Some(rowkey_core::private::text_hash_prefix(*len, *upper))
            } else {
                rowkey_core::HashPrefix::new(*len)
            }
            .map(rowkey_core::HashPrefix::prefix_len),
        }
        // Validation rejected the parameters the runtime refuses before anything expands.
        .unwrap_or(0)
    }

    /// The constant `Salt` of `salt`, a `Salt` in the binary form, in this format.
    pub fn salt(&self, p: &syn::Ident, salt: TokenStream) -> TokenStream {
        match self {
            Format::Text(_) => quote!(#p::salt_in_text(#salt)),
            Format::Binary | Format::Phoenix(_) => salt,
        }
    }

    /// The constant `HashPrefix` of `len` (`upper`: upper-case hex digits) in this format.
    pub fn hash_prefix(&self, p: &syn::Ident, len: usize, upper: bool) -> TokenStream {
        match self {
            Format::Text(_) => quote!(#p::text_hash_prefix(#len, #upper)),
            Format::Binary | Format::Phoenix(_) => quote!(#p::hash_prefix(#len)),
        }
    }

    /// The walk's function `name` for a key of this format: as it is for a format that writes
    /// nothing between its fields (binary, text), `name_in::<Phoenix, _>` for Phoenix's columns.
    pub fn walk_fn(&self, p: &syn::Ident, name: &str) -> TokenStream {
        let name = syn::Ident::new(name, Span::call_site());
        match self {
            Format::Phoenix(_) => {
                let name_in = quote::format_ident!("{}_in", name);
                quote!(#p::walk::#name_in::<#p::walk::Phoenix, _>)
            }
            Format::Binary | Format::Text(_) => quote!(#p::walk::#name),
        }
    }

    /// The methods that set this format on a `Layout` (a struct key's, or an enum key's
    /// variant's).
    pub fn on_layout(&self) -> TokenStream {
        match self {
            Format::Binary => TokenStream::new(),
            Format::Text(d) => quote!(.with_text(#d)),
            Format::Phoenix(_) => quote!(.with_phoenix()),
        }
    }

    /// The method that sets this format on an enum key's scan layout (never Phoenix's).
    pub fn on_enum_scan(&self) -> TokenStream {
        match self {
            Format::Text(d) => quote!(.in_text(#d)),
            Format::Binary | Format::Phoenix(_) => TokenStream::new(),
        }
    }

    /// The constant mode of a field declared as `declared` (its own attributes), in this format.
    pub fn field_mode(&self, p: &syn::Ident, declared: TokenStream) -> TokenStream {
        match self {
            Format::Binary => declared,
            Format::Text(d) => quote!(#declared.with_text(#d)),
            Format::Phoenix(_) => quote!(#p::phoenix_mode(#declared)),
        }
    }

    /// The marker traits a key of this format implements beside `RowKey`: `PhoenixKey`.
    pub fn key_traits(&self, p: &syn::Ident, key: &syn::DeriveInput) -> TokenStream {
        let Format::Phoenix(_) = self else {
            return TokenStream::new();
        };
        let ident = &key.ident;
        let (impl_generics, ty_generics, where_clause) = key.generics.split_for_impl();
        quote! {
            #[automatically_derived]
            impl #impl_generics #p::PhoenixKey for #ident #ty_generics #where_clause {}
        }
    }

    /// The compile-time check that `field` (its type `ty()` with every lifetime `'static`, its
    /// mode `mode()`) can be written in this format, where the format asks more of a type than
    /// syntax showed (text: a type the derive cannot see into) or than the walk's traits
    /// (Phoenix: every column); its error on the field says why. The type and the mode are only
    /// built for a check: most keys have none, and the derive's time is every user's build.
    pub fn field_check(
        &self,
        p: &syn::Ident,
        field: &super::Field,
        ty: impl FnOnce() -> syn::Type,
        mode: impl FnOnce() -> TokenStream,
    ) -> Option<TokenStream> {
        match self {
            Format::Binary => None,
            // Syntax already decided the types it knows (valid/text.rs).
            Format::Text(_) if *field.kind.innermost() != super::TypeKind::Other => None,
            Format::Text(_) => {
                let name = crate::unraw::unraw(field.ident);
                let ty_name = quote::ToTokens::to_token_stream(field.ty)
                    .to_string()
                    .replace(' ', "");
                let msg = format!("field `{name}`: `{ty_name}` cannot be written in a text layout (integers, strings, fieldless enums and `Hashed` digests can)");
                let (span, ty) = (field.ident.span(), ty());
                Some(quote::quote_spanned! {span=>
                    ::core::assert!(#p::has_text_form(#p::shape::<#ty>()), #msg);
                })
            }
            Format::Phoenix(_) => {
                let (span, ty, mode) = (syn::spanned::Spanned::span(field.ty), ty(), mode());
                Some(quote::quote_spanned! {span=>
                    if let #p::Some(why) = #p::phoenix_refusal(#p::shape::<#ty>(), #mode) {
                        ::core::panic!("{}", why);
                    }
                })
            }
        }
    }
}
