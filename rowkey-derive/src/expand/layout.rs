//! `K::LAYOUT`: the key's layout as a constant, its offsets and lengths computed from the field
//! types' shapes, and every segment's encoding described by the runtime from the same shapes.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};

use super::{field_name, mode_ref};
use crate::ast::{Prefix, Sources, Struct};

/// What the derive says of a key type beyond its bytes: its layout and how to explain a stored
/// key. Both live in the `RowKey` impl, which generic code reaches; the inherent `K::LAYOUT` and
/// `K::explain` forward to it, so a user's own item of either name is a clash on that item alone.
pub struct Described {
    /// The `Layout`, a constant expression.
    pub layout: TokenStream,
    /// `RowKey::explain`, with `alloc`.
    pub explain: TokenStream,
    /// The inherent forwarders: items of the key's one inherent impl block.
    pub inherent: TokenStream,
}

/// `Described` of a struct key. A type with type parameters has its layout (the key walk reads
/// it) but no `explain` or inherent items of its own, which cannot name its parameters.
pub fn described(s: &Struct, p: &syn::Ident) -> Described {
    let name = crate::unraw::unraw(&s.original.ident);
    let Some(concrete) = super::generics::concrete_type(s.original) else {
        return Described {
            layout: layout_value(s, p, &name),
            explain: TokenStream::new(),
            inherent: TokenStream::new(),
        };
    };
    let layout = layout_value(s, p, &name);
    let values: Vec<TokenStream> = s
        .fields
        .iter()
        .map(|f| {
            let member = f.ident;
            quote!(&__rowkey_v.#member)
        })
        .collect();
    let _ = concrete;
    let explained = explain_record(s, p, &super::layout_ref(s.original, p), &values);
    describe(s.original, p, layout, explained)
}

/// `Described` from a layout and the body of `explain`, which decodes `__rowkey_key` into
/// `__rowkey_v` first and gives the `Explained` of it.
pub fn describe(
    input: &syn::DeriveInput,
    p: &syn::Ident,
    layout: TokenStream,
    body: TokenStream,
) -> Described {
    let ident = &input.ident;
    let name = crate::unraw::unraw(ident);
    let doc = format!("The layout of `{name}` keys, as `RowKey::LAYOUT` gives it: the prefix, every segment, and for an enum each variant. Its `Display` is a table.");
    let explain_doc = format!("Decodes a stored `{name}` key (checking its prefix) and shows each segment's bytes beside its value, for a row seen in the HBase shell; `RowKey::explain`.");
    let explain = super::if_alloc(quote! {
        #[inline]
        fn explain_in(
            __rowkey_key: &[u8],
            __rowkey_mode: #p::FieldMode,
        ) -> #p::Result<#p::Explained, #p::DecodeError> {
            use #p::{ShowDebug as _, ShowOpaque as _, ShowTime as _};
            let __rowkey_v = #p::decode_key_in::<#ident>(__rowkey_key, __rowkey_mode)?;
            #p::Ok(#body)
        }
    });
    let inherent_explain = super::if_alloc(quote! {
        #[doc = #explain_doc]
        #[inline]
        pub fn explain(key: &[u8]) -> #p::Result<#p::Explained, #p::DecodeError> {
            <Self as #p::RowKey>::explain(key)
        }
    });
    Described {
        layout,
        explain,
        inherent: quote! {
            #[doc = #doc]
            pub const LAYOUT: #p::Layout = <Self as #p::RowKey>::LAYOUT;

            #inherent_explain
        },
    }
}

/// The bytes before the first field: the tag, the prefix and the delimiter after it.
fn lead(s: &Struct) -> usize {
    let delimiter = s.format.delimiter().unwrap_or_default().len();
    let tag = s.tag.as_ref().map_or(0, |t| t.len());
    tag + match s.prefix_len() {
        0 => 0,
        n => n + delimiter,
    }
}

/// The `Layout` of `s` as a constant expression named `name`.
pub fn layout_value(s: &Struct, p: &syn::Ident, name: &str) -> TokenStream {
    let format = s.format.on_layout();
    let tag = s.tag.as_ref().map(|t| {
        let t = super::tag_expr(t, p);
        quote!(.with_tag(#t))
    });
    let delimiter = s.format.delimiter().unwrap_or_default().len();
    let lead = lead(s);
    let sources: Vec<String> = match &s.prefix {
        Prefix::None => Vec::new(),
        Prefix::Salt {
            sources: Sources::WholeKey,
            ..
        } => s.fields.iter().map(field_name).collect(),
        Prefix::Salt {
            sources: Sources::Fields(f),
            ..
        }
        | Prefix::Hash { sources: f, .. } => f.iter().map(|&i| field_name(&s.fields[i])).collect(),
    };
    let with_prefix = (!matches!(s.prefix, Prefix::None)).then(|| {
        let prefix = super::prefix::prefix_const(s, p);
        quote!(.with_prefix(#prefix, &[#(#sources),*]))
    });
    // Lifetimes become `'static`: a constant's type names no lifetime of the impl.
    let segments = s.fields.iter().enumerate().map(|(i, field)| {
        let name = field_name(field);
        let ty_name = type_name(field.ty);
        let ty = super::checks::replace_lifetimes(field.ty);
        let mode = mode_ref(s, i);
        quote!(#p::segment::<#ty>(#name, #ty_name, #mode))
    });
    let whole_key = matches!(
        s.prefix,
        Prefix::Salt {
            sources: Sources::WholeKey,
            ..
        }
    )
    .then(|| quote!(.with_whole_key_salt()));
    // The segments in an inline constant, so the layout can borrow them for 'static and the
    // compiler evaluates them only when `LAYOUT` is used (a `const` item would be evaluated in
    // every crate that derives, used or not). Segments come last: the layout's fixed length is
    // computed from them and what stands before.
    quote! {
        #p::LayoutBuilder::new(#name)
            #format
            #tag
            #with_prefix
            #whole_key
            .with_segments(const { &#p::segments([#(#segments),*], #lead, #delimiter) })
            .build()
    }
}

/// `explain`'s value: the key `__rowkey_key` of `layout` (a `&'static Layout` expression) of the
/// fields of `s`, decoded as `values` (references), each shown with its `Debug` where it has one.
pub fn explain_record(
    s: &Struct,
    p: &syn::Ident,
    layout: &TokenStream,
    values: &[TokenStream],
) -> TokenStream {
    let modes = (0..values.len()).map(|i| mode_ref(s, i));
    quote! {
        #p::explain_record(#layout, __rowkey_key, [#((&&#p::Show(#values)).show(#modes)),*])
    }
}

/// The type as written, without the token spacing of `to_string`.
fn type_name(ty: &syn::Type) -> String {
    let raw = ty.to_token_stream().to_string();
    let mut out = String::with_capacity(raw.len());
    let chars: Vec<char> = raw.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let prev = chars.get(i.wrapping_sub(1)).copied().unwrap_or(' ');
            let next = chars.get(i + 1).copied().unwrap_or(' ');
            // Keep the space after a lifetime or comma (`&'a str`, `Cow<'a, str>`); drop the rest.
            let keep = next.is_alphanumeric() && (prev.is_alphanumeric() || prev == ',');
            if !keep {
                continue;
            }
        }
        out.push(c);
    }
    out
}
