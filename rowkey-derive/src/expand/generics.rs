//! The generics of generated impls: the type as items that cannot name its parameters see it, the
//! bounds every type parameter needs, and the key-bytes lifetime of decoding.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{DeriveInput, Generics};

/// The type with every lifetime `'static`, for items whose meaning cannot depend on generic
/// parameters (array lengths, const checks, scan states); `None` when the type has type or const
/// parameters, which such items cannot name.
pub fn concrete_type(input: &DeriveInput) -> Option<TokenStream> {
    let generics = &input.generics;
    if generics
        .params
        .iter()
        .any(|g| !matches!(g, syn::GenericParam::Lifetime(_)))
    {
        return None;
    }
    let ident = &input.ident;
    let statics = generics.lifetimes().map(|_| quote!('static));
    Some(if generics.params.is_empty() {
        quote!(#ident)
    } else {
        quote!(#ident<#(#statics),*>)
    })
}

/// `generics` with `bound` added to every type parameter.
pub fn with_bound(generics: &Generics, bound: TokenStream) -> Generics {
    let mut generics = generics.clone();
    let params: Vec<syn::Ident> = generics.type_params().map(|t| t.ident.clone()).collect();
    let where_clause = generics.make_where_clause();
    for ident in params {
        where_clause
            .predicates
            .push(syn::parse_quote!(#ident: #bound));
    }
    generics
}

/// `generics` plus the key-bytes lifetime `'__rowkey_k`, outliving every lifetime of the struct.
pub fn decode_generics(generics: &syn::Generics, p: &syn::Ident) -> syn::Generics {
    let mut out = with_bound(generics, quote!(#p::DecodeField<'__rowkey_k>));
    let lifetimes: Vec<syn::Lifetime> = generics.lifetimes().map(|l| l.lifetime.clone()).collect();
    out.params.insert(0, syn::parse_quote!('__rowkey_k));
    let where_clause = out.make_where_clause();
    for l in lifetimes {
        where_clause
            .predicates
            .push(syn::parse_quote!('__rowkey_k: #l));
    }
    out
}
