//! `KeyField` for a derived struct: the struct is one field that writes its own fields in order.
//! `RowKey` is this with the struct in the last position of a key (see `key.rs`).

use proc_macro2::TokenStream;
use quote::quote;

use super::generics::with_bound;
use super::{field_mode, field_name, prefix};
use crate::ast::Struct;

pub fn expand(s: &Struct, p: &TokenStream) -> TokenStream {
    let ident = &s.original.ident;
    let key_name = crate::unraw::unraw(ident);
    let generics = with_bound(&s.original.generics, quote!(#p::KeyField));
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();

    let tys: Vec<_> = s.fields.iter().map(|f| f.ty).collect();
    let modes: Vec<_> = s.fields.iter().map(|f| field_mode(f, p)).collect();
    let members: Vec<_> = s.fields.iter().map(|f| f.ident).collect();
    let names: Vec<_> = s.fields.iter().map(field_name).collect();
    let prefix = prefix::prefix_const(s, p);
    let reserve = prefix::encode_reserve(s);
    let prefix_len = s.prefix_len();
    // The text format joins segments (the prefix and every field) with the delimiter.
    let delimiter = s.text().unwrap_or_default();
    let segments = s.fields.len() + usize::from(prefix_len > 0);
    let delimiters_len = delimiter.len() * segments.saturating_sub(1);
    let delims: Vec<TokenStream> = (0..s.fields.len())
        .map(|i| {
            if s.text().is_some() && !delimiter.is_empty() && (i > 0 || prefix_len > 0) {
                quote!(__rowkey_w.delimiter(#delimiter)?;)
            } else {
                TokenStream::new()
            }
        })
        .collect();
    let write_prefix = prefix::encode_write(s, p);

    quote! {
        #[automatically_derived]
        impl #impl_generics #p::KeyField for #ident #ty_generics #where_clause {
            const SHAPE: #p::FieldShape = #p::FieldShape::record(
                #p::sum_fixed(&[#(#p::fixed_len::<#tys>(#modes),)* #p::Some(#delimiters_len)]),
                #p::sum_fixed(&[#(#p::max_len::<#tys>(#modes),)* #p::Some(#delimiters_len)]),
                #prefix,
            );

            #[inline(always)]
            fn encoded_len(&self, __rowkey_mode: #p::FieldMode) -> usize {
                #prefix_len + #delimiters_len #(+ #p::KeyField::encoded_len(&self.#members, __rowkey_mode.nest(#modes)))*
            }

            #[inline(always)]
            fn encode(
                &self,
                __rowkey_out: &mut [u8],
                __rowkey_mode: #p::FieldMode,
            ) -> #p::Result<usize, #p::EncodeError> {
                let mut __rowkey_w = #p::KeyWriter::new(__rowkey_out);
                #reserve
                #(#delims __rowkey_w.field(&self.#members, __rowkey_mode.nest(#modes), #key_name, #names)?;)*
                #write_prefix
                #p::Ok(__rowkey_w.written())
            }
        }
    }
}
