//! `K::LAYOUT`: the key's layout as a constant, its offsets and lengths computed from the field
//! types' shapes, and a readable encoding for every segment.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};

use super::{field_mode, field_name};
use crate::ast::{Field, Prefix, Sources, Struct, TypeKind};

pub fn expand(s: &Struct, p: &TokenStream) -> TokenStream {
    let Some(concrete) = super::concrete_type(s.original) else {
        return TokenStream::new();
    };
    let ident = &s.original.ident;
    let name = ident.to_string();
    let (impl_generics, ty_generics, where_clause) = s.original.generics.split_for_impl();
    let text = match s.text() {
        Some(d) => quote!(#p::Some(#d)),
        None => quote!(#p::None),
    };
    let delimiter = s.text().unwrap_or_default().len();
    let prefix_len = super::prefix::prefix_len(s);
    let lead = if prefix_len > 0 {
        prefix_len + delimiter
    } else {
        0
    };
    let sources: Vec<String> = match s.prefix() {
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
    // Lifetimes become `'static`: the constants below are items of their own, outside the impl's
    // generics.
    let tys: Vec<_> = s
        .fields
        .iter()
        .map(|f| super::checks::replace_lifetimes(f.ty))
        .collect();
    let modes: Vec<TokenStream> = s.fields.iter().map(|f| field_mode(f, p)).collect();
    let count = s.fields.len();
    let segments = s
        .fields
        .iter()
        .enumerate()
        .map(|(i, field)| {
            let name = field_name(field);
            let ty_name = type_name(field.ty);
            let encoding = encoding(field);
            let order = if field.attrs.desc.is_some() {
                quote!(Descending)
            } else if field.attrs.reverse.is_some() {
                quote!(Reversed)
            } else {
                quote!(Ascending)
            };
            quote! {
                #p::Segment {
                    name: #name,
                    ty: #ty_name,
                    offset: __ROWKEY_OFFSETS[#i],
                    len: __ROWKEY_LENS[#i],
                    encoding: #encoding,
                    order: #p::Order::#order,
                }
            }
        })
        .collect::<Vec<_>>();
    let doc = format!(
        "The layout of `{name}` keys: the prefix and every segment. Its `Display` is a table."
    );
    let explain_doc = format!("Decodes a stored `{name}` key (checking its prefix) and shows each segment's bytes beside its value, for a row seen in the HBase shell.");
    let members: Vec<_> = s.fields.iter().map(|f| f.ident).collect();
    let names: Vec<String> = s.fields.iter().map(field_name).collect();
    let prefix_row = (prefix_len > 0).then(|| {
        let label = match s.prefix() {
            Prefix::Hash { .. } => "hash",
            _ => "salt",
        };
        quote! {
            let __rowkey_p = __rowkey_key.get(..#prefix_len).unwrap_or_default();
            __rowkey_e.push(#label, __rowkey_p, #p::show_prefix(<#concrete as #p::RowKey>::PREFIX, __rowkey_p));
        }
    });
    quote! {
        #[automatically_derived]
        impl #impl_generics #ident #ty_generics #where_clause {
            #[doc = #doc]
            pub const LAYOUT: #p::Layout = {
                // Each length once; the offsets are their running sums.
                const __ROWKEY_LENS: [#p::Option<usize>; #count] = [#(#p::fixed_len::<#tys>(#modes)),*];
                const __ROWKEY_OFFSETS: [#p::Option<usize>; #count] =
                    #p::offsets(__ROWKEY_LENS, #lead, #delimiter);
                #p::Layout {
                    name: #name,
                    text: #text,
                    prefix: <#concrete as #p::RowKey>::PREFIX,
                    prefix_sources: &[#(#sources),*],
                    segments: &[#(#segments),*],
                    fixed_len: <#concrete as #p::RowKey>::FIXED_LEN,
                }
            };
        }

        #p::if_alloc! {
            #[automatically_derived]
            impl #impl_generics #ident #ty_generics #where_clause {
                #[doc = #explain_doc]
                #[inline]
                pub fn explain(__rowkey_key: &[u8]) -> #p::Result<#p::Explained, #p::DecodeError> {
                    use #p::{ShowDebug as _, ShowOpaque as _};
                    let __rowkey_v = <#ident as #p::DecodeKey>::decode(__rowkey_key)?;
                    let mut __rowkey_e = #p::Explained::new(#name, __rowkey_key);
                    #prefix_row
                    let mut __rowkey_at: usize = #lead;
                    #(
                        __rowkey_e.push_at(
                            __rowkey_key,
                            &mut __rowkey_at,
                            #names,
                            #p::KeyField::encoded_len(&__rowkey_v.#members, #modes),
                            (&#p::Show(&__rowkey_v.#members)).show(),
                            #delimiter,
                        );
                    )*
                    #p::Ok(__rowkey_e)
                }
            }
        }
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

/// Digits of a text integer by default: those of its type's MAX.
fn default_digits(name: &str) -> usize {
    match name {
        "u8" | "i8" => 3,
        "u16" | "i16" => 5,
        "u32" | "i32" => 10,
        "i64" | "isize" => 19,
        "u64" | "usize" => 20,
        _ => 39,
    }
}

/// A readable description of how the field becomes bytes.
fn encoding(field: &Field) -> String {
    let width = field.attrs.width.map(|w| w.value);
    let mut out = if field.text.is_some() {
        text_encoding(field, &field.kind, width)
    } else {
        binary_encoding(field, &field.kind, width)
    };
    if field.text.is_none() && field.attrs.desc.is_some() {
        out.push_str(", every byte inverted");
    }
    if field.attrs.reverse.is_some() {
        out.push_str(if field.text.is_some() {
            ", reversed"
        } else {
            ", bytes reversed"
        });
    }
    out
}

fn binary_encoding(field: &Field, kind: &TypeKind, width: Option<usize>) -> String {
    match kind {
        TypeKind::Int { bytes, name } => {
            let base = if name.starts_with('i') {
                "two's complement with the sign bit flipped, big-endian"
            } else {
                "big-endian"
            };
            match width {
                Some(w) => format!("{base}, narrowed to {w} bytes"),
                None => format!("{base}, {bytes} bytes"),
            }
        }
        TypeKind::Bool => "00 or 01".into(),
        TypeKind::Char => "its u32, big-endian".into(),
        TypeKind::Float { .. } => {
            "IEEE bits big-endian: negatives all bits flipped, others the sign bit".into()
        }
        TypeKind::ByteArray { .. } => "the bytes".into(),
        TypeKind::Str { .. } | TypeKind::Bytes { .. } => match width {
            Some(w) => format!("content padded with 00 to {w} bytes"),
            None if field.last && field.attrs.desc.is_none() => {
                "raw content to the end of the key".into()
            }
            None => "content with 00 escaped as 00 FF, then 00 01".into(),
        },
        TypeKind::Option(inner) => format!(
            "00 for None, or 01 then {}",
            binary_encoding(field, inner, width)
        ),
        TypeKind::Other => "its own encoding (nested key, enum or custom field)".into(),
    }
}

fn text_encoding(field: &Field, kind: &TypeKind, width: Option<usize>) -> String {
    match kind {
        TypeKind::Int { name, .. } => {
            let digits = width.unwrap_or_else(|| default_digits(name));
            if field.attrs.desc.is_some() {
                format!("decimal MAX - v, zero-padded to {digits} digits")
            } else {
                format!("decimal, zero-padded to {digits} digits")
            }
        }
        TypeKind::Str { .. } => match width {
            Some(w) => format!("text padded with spaces to {w} bytes"),
            None if field.last => "text to the end of the key".into(),
            None => "text up to the delimiter".into(),
        },
        _ => "its own text encoding (enum: discriminant, 3 digits)".into(),
    }
}
