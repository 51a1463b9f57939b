//! `KeyField` for a derived struct: the struct is one field that writes its own fields in order.
//! `RowKey` is this with the struct in the last position of a key (see `key.rs`). The pieces are
//! shared with the variants of enum keys (`enum_key.rs`), which read their fields from bindings.

use proc_macro2::TokenStream;
use quote::quote;

use super::generics::with_bound;
use super::{field_mode, prefix};
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
    let layout = quote!(const { &<Self as #p::RowKey>::LAYOUT });
    key_field_impl(
        s.original,
        p,
        shape,
        len_expr(&layout, p, &values),
        write_key(&layout, p, &values),
    )
}

/// `KeyField` for the derived type `input`: its `SHAPE`, and the expressions of its length and of
/// writing it, in `__rowkey_mode` into `__rowkey_out`.
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
                #write
            }
        }
    }
}

/// The fields `items` (expressions or patterns) as the key walk takes them: a tuple, or chunks
/// of tuples for more fields than a tuple of the walk holds.
pub fn fields_tuple(items: &[TokenStream], p: &syn::Ident) -> TokenStream {
    let max = rowkey_core::private::walk::TUPLE_MAX;
    if items.len() <= max {
        return quote!((#(#items,)*));
    }
    let chunks = items.chunks(max).map(|c| quote!((#(#c,)*)));
    quote!(#p::walk::Chunks((#(#chunks,)*)))
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

/// The length of the key of `layout` (a `&'static Layout` expression) whose fields are `values`
/// (references), placed with `__rowkey_mode`.
pub fn len_expr(layout: &TokenStream, p: &syn::Ident, values: &[TokenStream]) -> TokenStream {
    let fields = fields_tuple(values, p);
    quote!(#p::walk::encoded_len(#layout, __rowkey_mode, &#fields))
}

/// Writes the key of `layout` whose fields are `values` (references) into `__rowkey_out`.
pub fn write_key(layout: &TokenStream, p: &syn::Ident, values: &[TokenStream]) -> TokenStream {
    let fields = fields_tuple(values, p);
    quote!(#p::walk::encode(#layout, __rowkey_out, __rowkey_mode, &#fields))
}
