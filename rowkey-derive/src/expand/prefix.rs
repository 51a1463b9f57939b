//! The prefix component in generated code: its constant, the step that writes it after the fields
//! (encode), and the step that recomputes and checks it from the decoded fields (decode). The
//! hashing itself is in rowkey-core; this only names the sources.

use proc_macro2::TokenStream;
use quote::quote;

use super::{field_mode, field_name};
use crate::ast::{Prefix, Sources, Struct};
use crate::attr::SaltHashKind;

/// `rowkey::Prefix` as a constant expression.
pub fn prefix_const(s: &Struct, p: &TokenStream) -> TokenStream {
    match s.prefix() {
        Prefix::None => quote!(#p::Prefix::None),
        Prefix::Salt { buckets, hash, .. } => {
            let salt = salt_const(buckets, hash, p);
            quote!(#p::Prefix::Salt(#salt))
        }
        Prefix::Hash { len, .. } => quote!(#p::Prefix::Hash(#p::hash_prefix(#len))),
    }
}

fn salt_const(buckets: u16, hash: SaltHashKind, p: &TokenStream) -> TokenStream {
    let hash = match hash {
        SaltHashKind::Md5 => quote!(Md5),
        SaltHashKind::Java => quote!(Java),
        SaltHashKind::Mod => quote!(Mod),
    };
    quote!(#p::salt(#buckets, #p::SaltHash::#hash))
}

/// Statements feeding the value bytes of `sources`, read from `value`, to the hasher `__rowkey_h`.
fn feed(s: &Struct, sources: &[usize], value: &TokenStream, p: &TokenStream) -> TokenStream {
    let key_name = s.original.ident.to_string();
    let feeds = sources.iter().map(|&i| {
        let field = &s.fields[i];
        let member = field.ident;
        let mode = field_mode(field, p);
        let name = field_name(field);
        quote! {
            #p::KeyField::value_bytes(&#value.#member, #mode, __rowkey_h)
                .map_err(|e| e.in_field(#key_name, #name))?;
        }
    });
    quote!(#(#feeds)* #p::Ok(()))
}

/// Encode, before the fields: reserve the prefix.
pub fn encode_reserve(s: &Struct) -> TokenStream {
    match s.prefix().len() {
        0 => TokenStream::new(),
        n => quote!(__rowkey_w.reserve(#n)?;),
    }
}

/// Encode, after the fields: write the prefix.
pub fn encode_write(s: &Struct, p: &TokenStream) -> TokenStream {
    match s.prefix() {
        Prefix::None => TokenStream::new(),
        Prefix::Salt {
            buckets,
            hash,
            sources: Sources::WholeKey,
        } => {
            let salt = salt_const(buckets, hash, p);
            quote! {
                let __rowkey_b = #p::whole_key_salt_byte(#salt, __rowkey_mode, __rowkey_w.written_from(1))?;
                __rowkey_w.prefix_mut(1)[0] = __rowkey_b;
            }
        }
        Prefix::Salt {
            buckets,
            hash,
            sources: Sources::Fields(sources),
        } => {
            let salt = salt_const(buckets, hash, p);
            let feed = feed(s, &sources, &quote!(self), p);
            quote! {
                let __rowkey_b = #p::salt_byte(#salt, __rowkey_mode, |__rowkey_h| { #feed })?;
                __rowkey_w.prefix_mut(1)[0] = __rowkey_b;
            }
        }
        Prefix::Hash { len, sources } => {
            let feed = feed(s, &sources, &quote!(self), p);
            quote! {
                #p::write_hash_prefix(#p::hash_prefix(#len), __rowkey_w.prefix_mut(#len), |__rowkey_h| { #feed })?;
            }
        }
    }
}

/// Decode, before the fields: take the prefix bytes.
pub fn decode_take(s: &Struct) -> TokenStream {
    match s.prefix().len() {
        0 => TokenStream::new(),
        n => quote!(let __rowkey_prefix = __rowkey_r.take(#n)?;),
    }
}

/// Decode, after the fields (the value is `__rowkey_v`): check the prefix.
pub fn decode_check(s: &Struct, p: &TokenStream) -> TokenStream {
    let key_name = s.original.ident.to_string();
    let check = match s.prefix() {
        Prefix::None => return TokenStream::new(),
        Prefix::Salt {
            buckets,
            hash,
            sources: Sources::WholeKey,
        } => {
            let salt = salt_const(buckets, hash, p);
            quote!(#p::check_whole_key_salt(#salt, __rowkey_mode, __rowkey_prefix[0], __rowkey_r.read_from(1)))
        }
        Prefix::Salt {
            buckets,
            hash,
            sources: Sources::Fields(sources),
        } => {
            let salt = salt_const(buckets, hash, p);
            let feed = feed(s, &sources, &quote!(__rowkey_v), p);
            quote!(#p::check_salt(#salt, __rowkey_mode, __rowkey_prefix[0], |__rowkey_h| { #feed }))
        }
        Prefix::Hash { len, sources } => {
            let feed = feed(s, &sources, &quote!(__rowkey_v), p);
            quote!(#p::check_hash_prefix(#p::hash_prefix(#len), __rowkey_prefix, |__rowkey_h| { #feed }))
        }
    };
    quote!(#check.map_err(|e| e.in_key(#key_name))?;)
}

/// `SaltedKey` and `DecodeSaltedKey`, for layouts with a salt.
pub fn salted_key_traits(s: &Struct, p: &TokenStream) -> TokenStream {
    let Prefix::Salt { buckets, .. } = s.prefix() else {
        return TokenStream::new();
    };
    let ident = &s.original.ident;
    let key_name = ident.to_string();
    let generics = super::with_bound(&s.original.generics, quote!(#p::KeyField));
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let dgenerics = super::decode::decode_generics(&s.original.generics, p);
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
                // A decoded salted key has its salt byte.
                #p::Ok((__rowkey_v, __rowkey_key[0]))
            }
        }
    }
}
