//! Fieldless enums: one byte, the discriminant, which must be in 0..=255.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use super::key::{expand_fixed, expand_key_traits};
use super::layout::Described;
use crate::ast::Enum;

pub fn expand(e: &Enum, p: &syn::Ident) -> TokenStream {
    let ident = &e.original.ident;
    let name = crate::unraw::unraw(ident);
    let variants = &e.variants;
    let consts: Vec<_> = (0..variants.len())
        .map(|i| format_ident!("__ROWKEY_D{}", i))
        .collect();
    let defs = variants.iter().zip(&consts).map(|(v, c)| {
        let msg = format!(
            "`{ident}::{v}` has a discriminant outside 0..=255: a row key stores it in one byte"
        );
        let span = v.span();
        // The range check is its own item, so the failure points only at the variant.
        quote_spanned! {span=>
            const _: () = ::core::assert!((#ident::#v as i128) >= 0 && (#ident::#v as i128) <= 255, #msg);
            const #c: u8 = #ident::#v as u8;
        }
    });
    let key_traits = expand_key_traits(e.original, None, described(e, &consts, p), p);
    let fixed = expand_fixed(e.original, p);
    quote! {
        #(#defs)*

        #[automatically_derived]
        impl #p::KeyField for #ident {
            const SHAPE: #p::FieldShape = #p::ENUM_SHAPE;
            const NESTED_LAYOUT: #p::Option<&'static #p::Layout> =
                #p::Some(&<Self as #p::RowKey>::LAYOUT);

            #[inline(always)]
            fn field_len(&self, __rowkey_mode: #p::FieldMode) -> usize {
                #p::discriminant_len(__rowkey_mode)
            }

            #[inline(always)]
            fn encode(
                &self,
                __rowkey_out: &mut [u8],
                __rowkey_mode: #p::FieldMode,
            ) -> #p::Result<usize, #p::EncodeError> {
                let __rowkey_d = match self { #(#ident::#variants => #consts,)* };
                #p::encode_discriminant(__rowkey_d, __rowkey_out, __rowkey_mode)
            }
        }

        #[automatically_derived]
        impl<'__rowkey_k> #p::DecodeField<'__rowkey_k> for #ident {
            #[inline(always)]
            fn decode_field(
                __rowkey_input: &'__rowkey_k [u8],
                __rowkey_mode: #p::FieldMode,
            ) -> #p::Result<(Self, usize), #p::DecodeError> {
                let (__rowkey_d, __rowkey_n) = #p::decode_discriminant(__rowkey_input, __rowkey_mode)?;
                match __rowkey_d {
                    #(#consts => #p::Ok((#ident::#variants, __rowkey_n)),)*
                    __rowkey_b => #p::Err(#p::unknown_discriminant(__rowkey_b, #name)),
                }
            }
        }

        #key_traits
        #fixed
    }
}

/// `K::LAYOUT`, each variant a layout of no segments behind its discriminant byte, and
/// `K::explain`.
fn described(e: &Enum, consts: &[syn::Ident], p: &syn::Ident) -> Described {
    let name = crate::unraw::unraw(&e.original.ident);
    let variants = e.variants.iter().zip(consts).map(|(v, c)| {
        let vname = format!("{name}::{}", crate::unraw::unraw(v));
        quote!(#p::LayoutBuilder::new(#vname).with_tag(#p::tag(&[#c], "")).with_fixed_len(#p::Some(1)).build())
    });
    super::layout::describe(
        e.original,
        p,
        quote! {
            #p::LayoutBuilder::new(#name)
                .with_variants(const { &[#(#variants),*] })
                .with_fixed_len(#p::Some(1))
                .build()
        },
        quote!(#p::explain_value(#name, __rowkey_key, (&&#p::Show(&__rowkey_v)).show(__rowkey_mode))),
    )
}
