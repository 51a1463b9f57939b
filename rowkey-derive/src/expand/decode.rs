//! `DecodeField` for a derived struct: the key walk of the core reads its fields (and checks its
//! tag and prefix), and the struct is built from them. The reading is shared with the variants of
//! enum keys (`enum_key.rs`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::encode::fields_tuple;
use super::generics::decode_generics;
use crate::ast::Struct;

pub fn expand(s: &Struct, p: &syn::Ident) -> TokenStream {
    let ident = &s.original.ident;
    let layout = super::layout_ref(s.original, p);
    let read = read_fields(s, p, &quote!(#ident), &layout);
    decode_field_impl(
        s.original,
        p,
        quote! {
            #read
            #p::Ok((__rowkey_v, __rowkey_n))
        },
    )
}

/// `DecodeField` for the derived type `input`: `body` reads the value from `__rowkey_input` in
/// `__rowkey_mode` and returns it with its length.
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
                #body
            }
        }
    }
}

/// Reads the key of `layout` (a `&'static Layout` expression) with the walk into the value
/// `__rowkey_v`, built with the constructor `path` (`K`, or `E::Variant`), and its length
/// `__rowkey_n`.
pub fn read_fields(
    s: &Struct,
    p: &syn::Ident,
    path: &TokenStream,
    layout: &TokenStream,
) -> TokenStream {
    let members: Vec<_> = s.fields.iter().map(|f| f.ident).collect();
    let vars: Vec<TokenStream> = (0..s.fields.len())
        .map(|i| {
            let var = format_ident!("__rowkey_{}", i);
            quote!(#var)
        })
        .collect();
    let pattern = fields_tuple(&vars, p);
    let walk = s.format.walk_fn(p, "decode");
    quote! {
        let (#pattern, __rowkey_n) = #walk(#layout, __rowkey_input, __rowkey_mode)?;
        let __rowkey_v = #path { #(#members: #vars),* };
    }
}
