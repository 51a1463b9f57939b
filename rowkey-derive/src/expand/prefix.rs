//! The prefix component in generated code: its constant, the step that writes it after the fields
//! (encode), and the step that recomputes and checks it from the decoded fields (decode). The
//! hashing itself is in rowkey-core; this only names the sources.

use proc_macro2::TokenStream;
use quote::quote;

use super::{field_mode, field_name};
use crate::ast::{Prefix, Sources, Struct};
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
    let text = s.text().is_some().then(|| quote!(.in_text()));
    quote!(#p::salt(#buckets, #p::SaltHash::#hash) #text)
}

fn hash_const(s: &Struct, len: usize, upper: bool, p: &syn::Ident) -> TokenStream {
    if s.text().is_some() {
        quote!(#p::text_hash_prefix(#len, #upper))
    } else {
        quote!(#p::hash_prefix(#len))
    }
}

/// Statements feeding the value bytes of `sources`, read from `value`, to the hasher `__rowkey_h`.
fn feed(s: &Struct, sources: &[usize], value: &TokenStream, p: &syn::Ident) -> TokenStream {
    let key_name = crate::unraw::unraw(&s.original.ident);
    // Text layouts join several sources with the delimiter.
    let delimiter = s.text().unwrap_or_default();
    let feeds = sources.iter().enumerate().map(|(n, &i)| {
        let join = (n > 0 && !delimiter.is_empty())
            .then(|| quote!(#p::ValueSink::write(__rowkey_h, #delimiter.as_bytes());));
        let field = &s.fields[i];
        let member = field.ident;
        let mode = field_mode(field, p);
        let name = field_name(field);
        quote! {
            #join
            #p::KeyField::value_bytes(&#value.#member, #mode, __rowkey_h)
                .map_err(|e| e.in_field(#key_name, #name))?;
        }
    });
    quote!(#(#feeds)* #p::Ok(()))
}

/// Encode, before the fields: reserve the prefix.
pub fn encode_reserve(s: &Struct) -> TokenStream {
    match s.prefix_len() {
        0 => TokenStream::new(),
        n => quote!(__rowkey_w.reserve(#n)?;),
    }
}

/// Where the body (the key after the prefix and its delimiter) starts.
fn body_start(s: &Struct) -> usize {
    let delimiter = s.text().unwrap_or_default();
    s.prefix_len() + delimiter.len()
}

/// Encode, after the fields: write the prefix.
pub fn encode_write(s: &Struct, p: &syn::Ident) -> TokenStream {
    match &s.prefix {
        Prefix::None => TokenStream::new(),
        Prefix::Salt {
            buckets,
            hash,
            sources: Sources::WholeKey,
        } => {
            let salt = salt_const(s, *buckets, *hash, p);
            let (n, body) = (s.prefix_len(), body_start(s));
            quote! {
                let __rowkey_b = #p::whole_key_salt_byte(#salt, __rowkey_mode, __rowkey_w.written_from(#body))?;
                #p::write_salt(#salt, __rowkey_b, __rowkey_w.prefix_mut(#n));
            }
        }
        Prefix::Salt {
            buckets,
            hash,
            sources: Sources::Fields(sources),
        } => {
            let salt = salt_const(s, *buckets, *hash, p);
            let feed = feed(s, sources, &quote!(self), p);
            let n = s.prefix_len();
            quote! {
                let __rowkey_b = #p::salt_byte(#salt, __rowkey_mode, |__rowkey_h| { #feed })?;
                #p::write_salt(#salt, __rowkey_b, __rowkey_w.prefix_mut(#n));
            }
        }
        Prefix::Hash {
            len,
            upper,
            sources,
        } => {
            let feed = feed(s, sources, &quote!(self), p);
            let hash = hash_const(s, *len, *upper, p);
            quote! {
                #p::write_hash_prefix(#hash, __rowkey_w.prefix_mut(#len), |__rowkey_h| { #feed })?;
            }
        }
    }
}

/// Decode, before the fields: take the prefix bytes.
pub fn decode_take(s: &Struct) -> TokenStream {
    match s.prefix_len() {
        0 => TokenStream::new(),
        n => quote!(let __rowkey_prefix = __rowkey_r.take(#n)?;),
    }
}

/// Decode, after the fields (the value is `__rowkey_v`): check the prefix.
pub fn decode_check(s: &Struct, p: &syn::Ident) -> TokenStream {
    let key_name = crate::unraw::unraw(&s.original.ident);
    let check = match &s.prefix {
        Prefix::None => return TokenStream::new(),
        Prefix::Salt {
            buckets,
            hash,
            sources: Sources::WholeKey,
        } => {
            let salt = salt_const(s, *buckets, *hash, p);
            let body = body_start(s);
            quote!(#p::read_salt(#salt, __rowkey_prefix).and_then(|__rowkey_found| {
                #p::check_whole_key_salt(#salt, __rowkey_mode, __rowkey_found, __rowkey_r.read_from(#body))
            }))
        }
        Prefix::Salt {
            buckets,
            hash,
            sources: Sources::Fields(sources),
        } => {
            let salt = salt_const(s, *buckets, *hash, p);
            let feed = feed(s, sources, &quote!(__rowkey_v), p);
            quote!(#p::read_salt(#salt, __rowkey_prefix).and_then(|__rowkey_found| {
                #p::check_salt(#salt, __rowkey_mode, __rowkey_found, |__rowkey_h| { #feed })
            }))
        }
        Prefix::Hash {
            len,
            upper,
            sources,
        } => {
            let feed = feed(s, sources, &quote!(__rowkey_v), p);
            let hash = hash_const(s, *len, *upper, p);
            quote!(#p::check_hash_prefix(#hash, __rowkey_mode, __rowkey_prefix, |__rowkey_h| { #feed }))
        }
    };
    quote!(#check.map_err(|e| e.in_key(#key_name))?;)
}

/// `SaltedKey` and `DecodeSaltedKey`, for layouts with a salt.
pub fn salted_key_traits(s: &Struct, p: &syn::Ident) -> TokenStream {
    let Prefix::Salt { buckets, hash, .. } = &s.prefix else {
        return TokenStream::new();
    };
    let salt = salt_const(s, *buckets, *hash, p);
    let head = super::layout::head_expr(s, p);
    let n = s.prefix_len();
    let ident = &s.original.ident;
    let key_name = crate::unraw::unraw(ident);
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
                    #p::FieldMode::LAST.with_chosen_bucket(__rowkey_bucket),
                    #key_name,
                    #head,
                )
            }
        }

        #[automatically_derived]
        impl #dimpl_generics #p::DecodeSaltedKey<'__rowkey_k> for #ident #ty_generics #dwhere_clause {
            #[inline]
            fn decode_any_bucket(
                __rowkey_key: &'__rowkey_k [u8],
            ) -> #p::Result<(Self, u8), #p::DecodeError> {
                let __rowkey_v = #p::decode_key_in(__rowkey_key, #p::FieldMode::LAST.with_any_bucket(), #key_name)?;
                // A decoded key has its prefix.
                let __rowkey_prefix = __rowkey_key.get(..#n).unwrap_or_default();
                let __rowkey_b = #p::read_salt(#salt, __rowkey_prefix)?;
                #p::Ok((__rowkey_v, __rowkey_b))
            }
        }
    }
}
