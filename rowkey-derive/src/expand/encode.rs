//! `KeyField` for a derived struct: the struct is one field that writes its own fields in order.
//! `RowKey` is this with the struct in the last position of a key (see `key.rs`). The pieces are
//! shared with the variants of enum keys (`enum_key.rs`), which read their fields from bindings.

use proc_macro2::TokenStream;
use quote::quote;

use super::generics::with_bound;
use super::{field_mode, field_name, prefix, tag_expr};
use crate::ast::Struct;

pub fn expand(s: &Struct, p: &syn::Ident) -> TokenStream {
    let values: Vec<TokenStream> = s
        .fields
        .iter()
        .map(|f| {
            let member = f.ident;
            quote!(&self.#member)
        })
        .collect();
    let (fixed, max) = shape_lens(s, p);
    let prefix = prefix::prefix_const(s, p);
    let shape = quote!(#p::FieldShape::record(#fixed, #max, #prefix));
    key_field_impl(
        s.original,
        p,
        shape,
        len_expr(s, p, &values),
        write_key(s, p, &values),
    )
}

/// `KeyField` for the derived type `input`: its `SHAPE`, the expression of its length in
/// `__rowkey_mode`, and the statements that write it with the writer `__rowkey_w`.
pub fn key_field_impl(
    input: &syn::DeriveInput,
    p: &syn::Ident,
    shape: TokenStream,
    len: TokenStream,
    write: TokenStream,
) -> TokenStream {
    let ident = &input.ident;
    let generics = with_bound(&input.generics, quote!(#p::KeyField));
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::KeyField for #ident #ty_generics #where_clause {
            const SHAPE: #p::FieldShape = #shape;
            const NESTED_LAYOUT: #p::Option<&'static #p::Layout> =
                #p::Some(&<Self as #p::RowKey>::LAYOUT);

            #[inline(always)]
            fn field_len(&self, __rowkey_mode: #p::FieldMode) -> usize {
                #len
            }

            #[inline(always)]
            fn encode(
                &self,
                __rowkey_out: &mut [u8],
                __rowkey_mode: #p::FieldMode,
            ) -> #p::Result<usize, #p::EncodeError> {
                let mut __rowkey_w = #p::KeyWriter::new(__rowkey_out);
                #write
                #p::Ok(__rowkey_w.written())
            }
        }
    }
}

/// The bytes around the fields: the tag, the prefix and the text delimiters between segments.
fn constant_len(s: &Struct) -> usize {
    let delimiter = s.text().unwrap_or_default();
    let segments = s.fields.len() + usize::from(s.prefix_len() > 0);
    let tag = s.tag.as_ref().map_or(0, |t| t.len());
    tag + s.prefix_len() + delimiter.len() * segments.saturating_sub(1)
}

/// The fixed length and the upper bound of `s`'s keys, as constant expressions.
pub fn shape_lens(s: &Struct, p: &syn::Ident) -> (TokenStream, TokenStream) {
    // `'static` lifetimes: the lengths do not depend on them, and enum keys name them in
    // constants outside any impl.
    let tys: Vec<_> = s
        .fields
        .iter()
        .map(|f| super::checks::replace_lifetimes(f.ty))
        .collect();
    let modes: Vec<_> = s.fields.iter().map(|f| field_mode(f, p)).collect();
    // `FieldShape::record` adds the prefix.
    let constant = constant_len(s) - s.prefix_len();
    (
        quote!(#p::sum_fixed(&[#(#p::fixed_len::<#tys>(#modes),)* #p::Some(#constant)])),
        quote!(#p::sum_fixed(&[#(#p::max_len::<#tys>(#modes),)* #p::Some(#constant)])),
    )
}

/// The length of the key whose fields are `values` (references), placed with `__rowkey_mode`.
pub fn len_expr(s: &Struct, p: &syn::Ident, values: &[TokenStream]) -> TokenStream {
    let constant = constant_len(s);
    let modes: Vec<_> = s.fields.iter().map(|f| field_mode(f, p)).collect();
    quote!(#constant #(+ #p::KeyField::field_len(#values, __rowkey_mode.nest(#modes)))*)
}

/// Writes the key whose fields are `values` (references) with the writer `__rowkey_w`.
pub fn write_key(s: &Struct, p: &syn::Ident, values: &[TokenStream]) -> TokenStream {
    let key_name = crate::unraw::unraw(&s.original.ident);
    let modes: Vec<_> = s.fields.iter().map(|f| field_mode(f, p)).collect();
    let names: Vec<_> = s.fields.iter().map(field_name).collect();
    let prefix_len = s.prefix_len();
    let delimiter = s.text().unwrap_or_default();
    let delims: Vec<TokenStream> = (0..s.fields.len())
        .map(|i| {
            if s.text().is_some() && !delimiter.is_empty() && (i > 0 || prefix_len > 0) {
                quote!(__rowkey_w.delimiter(#delimiter)?;)
            } else {
                TokenStream::new()
            }
        })
        .collect();
    let tag = s.tag.as_ref().map(|t| {
        let t = tag_expr(t, p);
        quote!(__rowkey_w.tag(#t)?;)
    });
    let reserve = prefix::encode_reserve(s);
    let write_prefix = prefix::encode_write(s, p);
    quote! {
        #tag
        #reserve
        #(#delims __rowkey_w.field(#values, __rowkey_mode.nest(#modes), #key_name, #names)?;)*
        #write_prefix
    }
}
