//! `RowKey` (a key is its own field in the last position) and the inherent `decode`, plus `LEN` and `to_key`
//! for fixed layouts.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use super::generics::with_bound;
use super::layout::Described;

/// `RowKey` for a type that implements `KeyField` and `DecodeField` (the core's blanket impl
/// gives it `DecodeKey`). `described` gives `LAYOUT` and `explain` (and the inherent items that
/// forward to them); the lengths and the codec are the trait's provided items.
pub fn expand_key_traits(
    input: &DeriveInput,
    row_limit: Option<usize>,
    described: Described,
    p: &syn::Ident,
) -> TokenStream {
    // `max_len = N`; otherwise the trait's default, HBase's limit.
    let row_limit = row_limit.map(|n| quote!(const ROW_LIMIT: usize = #n;));
    let ident = &input.ident;
    let key_name = crate::unraw::unraw(ident);
    let generics = with_bound(&input.generics, quote!(#p::KeyField));
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let (own_impl_generics, _, own_where_clause) = input.generics.split_for_impl();
    let decode_doc = format!(
        "Decodes a whole `{key_name}` key, as `DecodeKey::decode` does; inherent, so that \
         `{key_name}::decode(&key)` needs no trait in scope."
    );
    let Described {
        layout,
        explain,
        inherent,
    } = described;
    quote! {
        impl #own_impl_generics #ident #ty_generics #own_where_clause {
            #inherent

            #[doc = #decode_doc]
            #[inline(always)]
            pub fn decode<'__rowkey_k>(
                key: &'__rowkey_k [u8],
            ) -> #p::Result<Self, #p::DecodeError>
            where
                Self: #p::DecodeKey<'__rowkey_k>,
            {
                <Self as #p::DecodeKey<'__rowkey_k>>::decode(key)
            }
        }

        #[automatically_derived]
        impl #impl_generics #p::RowKey for #ident #ty_generics #where_clause {
            const LAYOUT: #p::Layout = #layout;
            #row_limit

            #explain
        }
    }
}

/// `K::LEN` and `K::to_key()`. Emitted unless syntax shows a variable field, or the type has type
/// parameters (an array length cannot depend on them). A nested type the derive cannot see into
/// may still be variable: `LEN` and `to_key` then fail to compile only where they are used.
pub fn expand_fixed(input: &DeriveInput, p: &syn::Ident) -> TokenStream {
    let Some(concrete) = super::generics::concrete_type(input) else {
        return TokenStream::new();
    };
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let not_fixed = format!("`{ident}` is not a fixed layout: a field has a variable length");
    let to_key_needs_fixed = format!(
        "`{ident}::to_key` needs a fixed layout, but a field of `{ident}` has a variable length \
         (a nested key with a string, bytes or Option field); use `to_vec` or `encode_into`"
    );
    let span = ident.span();
    // Generic, so the assertion is evaluated only where `to_key` is instantiated: a layout the derive
    // could not prove fixed compiles until `to_key` is used (by `cargo build`; `cargo check` does not
    // evaluate it).
    let assert_fixed = quote::quote_spanned! {span=>
        #[inline(always)]
        fn __rowkey_assert_fixed<K: #p::RowKey + ?::core::marker::Sized>() {
            const { ::core::assert!(<K as #p::RowKey>::FIXED_LEN.is_some(), #to_key_needs_fixed) }
        }
    };
    let len_doc = format!("The length of every `{ident}` key, in bytes.");
    let to_key_doc =
        format!("Encodes the key into an array of [`{ident}::LEN`] bytes, with no allocation.");
    quote! {
        #assert_fixed

        impl #impl_generics #ident #ty_generics #where_clause {
            #[doc = #len_doc]
            pub const LEN: usize = match <#concrete as #p::RowKey>::FIXED_LEN {
                #p::Some(n) => n,
                #p::None => ::core::panic!(#not_fixed),
            };

            #[doc = #to_key_doc]
            #[inline(always)]
            pub fn to_key(
                &self,
            ) -> #p::Result<[u8; #p::fixed_or_zero(<#concrete as #p::RowKey>::FIXED_LEN)], #p::EncodeError> {
                __rowkey_assert_fixed::<Self>();
                #p::to_array(self)
            }
        }
    }
}

pub fn expand(s: &crate::ast::Struct, p: &syn::Ident) -> TokenStream {
    let traits = expand_key_traits(
        s.original,
        s.attrs.max_len.as_ref().map(|m| m.value),
        super::layout::described(s, p),
        p,
    );
    let fixed = if s.has_variable_field() {
        TokenStream::new()
    } else {
        expand_fixed(s.original, p)
    };
    quote!(#traits #fixed)
}
