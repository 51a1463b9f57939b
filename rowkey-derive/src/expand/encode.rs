//! `KeyField` for a derived struct: the struct is one field that writes its own fields in order.
//! `RowKey` is this with the struct in the last position of a key (see `key.rs`). The pieces are
//! shared with the variants of enum keys (`enum_key.rs`), which read their fields from bindings.

use proc_macro2::TokenStream;
use quote::quote;

use super::generics::with_bound;
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
    let layout = super::layout_ref(s.original, p);
    let shape = quote!(#p::record_shape(#layout));
    key_field_impl(
        s.original,
        p,
        shape,
        len_expr(s, &layout, p, &values),
        write_key(s, &layout, p, &values),
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
    let nested = super::layout_ref(input, p);
    let generics = with_bound(&input.generics, quote!(#p::KeyField));
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics #p::KeyField for #ident #ty_generics #where_clause {
            const SHAPE: #p::FieldShape = #shape;
            const NESTED_LAYOUT: #p::Option<&'static #p::Layout> = #p::Some(#nested);

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
/// The length of the key of `layout` (a `&'static Layout` expression) whose fields are `values`
/// (references), placed with `__rowkey_mode`.
pub fn len_expr(
    s: &Struct,
    layout: &TokenStream,
    p: &syn::Ident,
    values: &[TokenStream],
) -> TokenStream {
    let fields = fields_tuple(values, p);
    let walk = s.format.walk_fn(p, "encoded_len");
    quote!(#walk(#layout, __rowkey_mode, &#fields))
}

/// Writes the key of `layout` whose fields are `values` (references) into `__rowkey_out`.
pub fn write_key(
    s: &Struct,
    layout: &TokenStream,
    p: &syn::Ident,
    values: &[TokenStream],
) -> TokenStream {
    let fields = fields_tuple(values, p);
    let walk = s.format.walk_fn(p, "encode");
    quote!(#walk(#layout, __rowkey_out, __rowkey_mode, &#fields))
}
