//! A field's binding methods on a scan builder's state: `f(v)`, `f_in(values)`, `f_range(r)` and,
//! for strings and bytes, `f_prefix(p)`, each forwarding to the core's planner; and for a field
//! that gave up its order (`reverse`, a time format that does not sort), `_range` and `_prefix`
//! that cannot be called, whose bound says why.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::field_name;
use crate::ast::{Field, TypeKind};

/// What a field's methods take: the type, and how an IN-list item becomes a field value.
enum Arg {
    /// `&str`; IN lists take anything `AsRef<str>`.
    Str,
    /// `&[u8]`; IN lists take anything `AsRef<[u8]>`.
    Bytes,
    /// The field's own type (lifetimes made `'static`).
    Own(Box<syn::Type>),
}

fn arg_of(field: &Field) -> Arg {
    match &field.kind {
        TypeKind::Str { .. } => Arg::Str,
        TypeKind::Bytes { .. } => Arg::Bytes,
        _ => Arg::Own(Box::new(super::checks::replace_lifetimes(field.ty))),
    }
}

/// A field's binding methods on a state, each leading to `next` (or `done` after a range or a
/// prefix). With `bound` (struct keys), the methods are on every state and carry it in their
/// `where` clause; they are generic then, and inline into their callers without `#[inline]`.
pub fn field_methods(
    field: &Field,
    mode: &TokenStream,
    p: &syn::Ident,
    next: &TokenStream,
    done: &TokenStream,
    bound: Option<&TokenStream>,
) -> TokenStream {
    let name = field_name(field);
    // The field's own identifier, raw if it is (`r#type`), so the method parses.
    let f = field.ident;
    let f_in = format_ident!("{}_in", name);
    let f_range = format_ident!("{}_range", name);
    let f_prefix = format_ident!("{}_prefix", name);
    let inline = bound.is_none().then(|| quote!(#[inline]));
    let bound = bound.cloned().unwrap_or_default();
    let eq_doc = format!("Keys whose `{name}` equals `value`.");
    let in_doc = format!("Keys whose `{name}` is any of `values` (any order, duplicates allowed; an empty list matches nothing).");
    let range_doc = format!("Keys whose `{name}` lies in `range`, in the field's own order (also on `desc` fields). Ends the scan.");
    let prefix_doc = format!("Keys whose `{name}` starts with `prefix`. Ends the scan.");
    // Strings and bytes are taken borrowed, and IN lists of anything that reads as them.
    let borrowed = |target: TokenStream, bind_in: syn::Ident| {
        (
            quote! {
                #inline
                pub fn #f(self, value: &#target) -> #next
                where
                    #bound
                {
                    #p::bind_eq(self, value, #mode)
                }
            },
            quote! {
                #inline
                pub fn #f_in<I>(self, values: I) -> #next
                where
                    I: #p::IntoIterator,
                    I::Item: #p::AsRef<#target>,
                    #bound
                {
                    #p::#bind_in(self, values, #mode)
                }
            },
            quote!(&'__rowkey_r #target),
        )
    };
    let (eq, in_list, range_ty) = match arg_of(field) {
        Arg::Str => borrowed(quote!(str), format_ident!("bind_in_str")),
        Arg::Bytes => borrowed(quote!([u8]), format_ident!("bind_in_bytes")),
        Arg::Own(ty) => (
            quote! {
                #inline
                pub fn #f(self, value: #ty) -> #next
                where
                    #bound
                {
                    #p::bind_eq(self, &value, #mode)
                }
            },
            quote! {
                #inline
                pub fn #f_in<I>(self, values: I) -> #next
                where
                    I: #p::IntoIterator<Item = #ty>,
                    #bound
                {
                    #p::bind_in(self, values, #mode)
                }
            },
            quote!(#ty),
        ),
    };
    // A reversed field gave up its order, and so did a time written in a format that does not
    // sort as times do (`%d%m%Y`, `%y`): only equality and IN lists apply.
    let format_ordered = field.attrs.format.as_ref().map_or(true, |f| {
        rowkey_core::private::timefmt::spec(&f.value).is_ok_and(|s| s.is_ordered())
    });
    let ordered = field.attrs.reverse.is_none() && format_ordered;
    // A bound the field cannot store and nothing places is dropped from the ranges; the field
    // type's own order, where it has one, keeps `matches` exactly the query.
    // Only for types the derive does not know (the built-in ones place every bound), and only
    // without lifetimes: a lifetime cannot steer method resolution, and the order needs values it
    // can own.
    let field_ty = field.ty;
    let borrows = quote!(#field_ty).to_string().contains(['\'', '&']);
    let unknown = |kind: &TypeKind| match kind {
        TypeKind::Option(inner) => matches!(**inner, TypeKind::Other),
        kind => matches!(kind, TypeKind::Other),
    };
    let bind_range = match arg_of(field) {
        Arg::Own(ty) if !borrows && unknown(&field.kind) => {
            quote!(#p::bind_range_by(self, range, #mode, {
                use #p::{ByPartialOrd as _, Unordered as _};
                (&&#p::Probe::<#ty>::NEW).value_order()
            }))
        }
        _ => quote!(#p::bind_range(self, range, #mode)),
    };
    let range = ordered.then(|| {
        quote! {
            #[doc = #range_doc]
            #inline
            pub fn #f_range<'__rowkey_r, R>(self, range: R) -> #done
            where
                R: #p::RangeBounds<#range_ty>,
                #bound
            {
                #bind_range
            }
        }
    });
    let prefix_arg = match field.kind {
        TypeKind::Str { .. } => Some(quote!(&str)),
        TypeKind::Bytes { .. } => Some(quote!(&[u8])),
        _ => None,
    };
    let has_prefix = prefix_arg.is_some();
    let prefix = prefix_arg.filter(|_| ordered).map(|arg| {
        quote! {
            #[doc = #prefix_doc]
            #inline
            pub fn #f_prefix(self, prefix: #arg) -> #done
            where
                #bound
            {
                #p::bind_prefix(self, prefix, #mode)
            }
        }
    });
    // A field that gave up its order keeps `_range` (and a string's `_prefix`) as methods that
    // cannot be called, bounded on a trait of the core that says why: without them rustc would
    // suggest `_in`, which compiles and lists every value of the range.
    let misuse = (!ordered).then(|| {
        let (no_range, with_prefix) = if field.attrs.reverse.is_some() {
            (quote!(#p::ReverseHasNoRange), has_prefix)
        } else {
            (quote!(#p::UnorderedFormatHasNoRange), false)
        };
        let stub = |method: &syn::Ident| {
            quote! {
                #[doc(hidden)]
                pub fn #method<__RowkeyNone>(self, range: __RowkeyNone) -> #done
                where
                    __RowkeyNone: #no_range,
                    #bound
                {
                    match #no_range::impossible(range) {}
                }
            }
        };
        let prefix = with_prefix.then(|| stub(&f_prefix));
        let range = stub(&f_range);
        quote!(#range #prefix)
    });
    quote! {
        #[doc = #eq_doc]
        #eq
        #[doc = #in_doc]
        #in_list
        #range
        #prefix
        #misuse
    }
}
