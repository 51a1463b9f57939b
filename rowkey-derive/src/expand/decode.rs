//! `DecodeField` for a derived struct: read each field in order from where the last one ended.
//! The reading is shared with the variants of enum keys (`enum_key.rs`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::generics::decode_generics;
use super::{field_mode, field_name, prefix, tag_expr};
use crate::ast::Struct;

pub fn expand(s: &Struct, p: &syn::Ident) -> TokenStream {
    let ident = &s.original.ident;
    let key_name = crate::unraw::unraw(ident);
    let take_tag = s.tag.as_ref().map(|t| {
        let t = tag_expr(t, p);
        quote!(__rowkey_r.tag(#t, #key_name)?;)
    });
    let read = read_fields(s, p, &quote!(#ident));
    let take_prefix = prefix::decode_take(s);
    let check_prefix = prefix::decode_check(s, p);
    decode_field_impl(
        s.original,
        p,
        quote! {
            #take_tag
            #take_prefix
            #read
            #check_prefix
            #p::Ok((__rowkey_v, __rowkey_r.pos()))
        },
    )
}

/// `DecodeField` for the derived type `input`: `body` reads the value with the reader
/// `__rowkey_r` (over `__rowkey_input`, in `__rowkey_mode`) and returns it with its length.
pub fn decode_field_impl(
    input: &syn::DeriveInput,
    p: &syn::Ident,
    body: TokenStream,
) -> TokenStream {
    let ident = &input.ident;
    let generics = decode_generics(&input.generics, p);
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let (_, ty_generics, _) = input.generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::DecodeField<'__rowkey_k> for #ident #ty_generics #where_clause {
            #[inline(always)]
            fn decode_field(
                __rowkey_input: &'__rowkey_k [u8],
                __rowkey_mode: #p::FieldMode,
            ) -> #p::Result<(Self, usize), #p::DecodeError> {
                let mut __rowkey_r = #p::KeyReader::new(__rowkey_input);
                #body
            }
        }
    }
}

/// Reads the fields after the tag and prefix with the reader `__rowkey_r`, and builds the value
/// `__rowkey_v` with the constructor `path` (`K`, or `E::Variant`).
pub fn read_fields(s: &Struct, p: &syn::Ident, path: &TokenStream) -> TokenStream {
    let key_name = crate::unraw::unraw(&s.original.ident);
    let tys: Vec<_> = s.fields.iter().map(|f| f.ty).collect();
    let modes: Vec<_> = s.fields.iter().map(|f| field_mode(f, p)).collect();
    let members: Vec<_> = s.fields.iter().map(|f| f.ident).collect();
    let names: Vec<_> = s.fields.iter().map(field_name).collect();
    let vars: Vec<_> = (0..s.fields.len())
        .map(|i| format_ident!("__rowkey_f{}", i))
        .collect();
    let delimiter = s.text().unwrap_or_default();
    let has_prefix = s.prefix_len() > 0;
    let delims: Vec<TokenStream> = (0..s.fields.len())
        .map(|i| {
            if !delimiter.is_empty() && (i > 0 || has_prefix) {
                quote!(__rowkey_r.delimiter(#delimiter)?;)
            } else {
                TokenStream::new()
            }
        })
        .collect();
    quote! {
        #(#delims let #vars = __rowkey_r.field::<#tys>(__rowkey_mode.nest(#modes), #key_name, #names)?;)*
        let __rowkey_v = #path { #(#members: #vars),* };
    }
}
