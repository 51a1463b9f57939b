//! The prefix component in generated code: its constant, and the salted-key traits. The key
//! walk of rowkey-core writes and checks it from the sources the layout names.

use proc_macro2::TokenStream;
use quote::quote;

use crate::ast::{Prefix, Struct};
use rowkey_core::SaltHash;

/// `rowkey::Prefix` as a constant expression.
pub fn prefix_const(s: &Struct, p: &syn::Ident) -> TokenStream {
    match &s.prefix {
        Prefix::None => quote!(#p::Prefix::None),
        Prefix::Salt { buckets, hash, .. } => {
            let salt = salt_const(s, *buckets, *hash, p);
            quote!(#p::Prefix::Salt(#salt))
        }
        Prefix::Hash { len, upper, .. } => {
            let hash = hash_const(s, *len, *upper, p);
            quote!(#p::Prefix::Hash(#hash))
        }
    }
}

fn salt_const(s: &Struct, buckets: u16, hash: SaltHash, p: &syn::Ident) -> TokenStream {
    // The variant is named as the runtime's enum names it.
    let hash = syn::Ident::new(&format!("{hash:?}"), proc_macro2::Span::call_site());
    s.format
        .salt(p, quote!(#p::salt(#buckets, #p::SaltHash::#hash)))
}

fn hash_const(s: &Struct, len: usize, upper: bool, p: &syn::Ident) -> TokenStream {
    s.format.hash_prefix(p, len, upper)
}

/// `SaltedKey` and `DecodeSaltedKey`, for layouts with a salt.
pub fn salted_key_traits(s: &Struct, p: &syn::Ident) -> TokenStream {
    let Prefix::Salt { buckets, hash, .. } = &s.prefix else {
        return TokenStream::new();
    };
    let salt = salt_const(s, *buckets, *hash, p);
    let n = s.prefix_len();
    let ident = &s.original.ident;
    let generics = super::generics::with_bound(&s.original.generics, quote!(#p::KeyField));
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let dgenerics = super::generics::decode_generics(&s.original.generics, p);
    let (dimpl_generics, _, dwhere_clause) = dgenerics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::SaltedKey for #ident #ty_generics #where_clause {
            const BUCKETS: u16 = #buckets;

            #[inline]
            fn encode_into_bucket(
                &self,
                __rowkey_bucket: u8,
                __rowkey_out: &mut [u8],
            ) -> #p::Result<usize, #p::EncodeError> {
                #p::encode_key_in(
                    self,
                    __rowkey_out,
                    #p::chosen_bucket_mode(__rowkey_bucket),
                )
            }
        }

        #[automatically_derived]
        impl #dimpl_generics #p::DecodeSaltedKey<'__rowkey_k> for #ident #ty_generics #dwhere_clause {
            #[inline]
            fn decode_any_bucket(
                __rowkey_key: &'__rowkey_k [u8],
            ) -> #p::Result<(Self, u8), #p::DecodeError> {
                let __rowkey_v = #p::decode_key_in(__rowkey_key, #p::ANY_BUCKET_MODE)?;
                // A decoded key has its prefix.
                let __rowkey_prefix = __rowkey_key.get(..#n).unwrap_or_default();
                let __rowkey_b = #p::read_salt(#salt, __rowkey_prefix)?;
                #p::Ok((__rowkey_v, __rowkey_b))
            }
        }
    }
}
