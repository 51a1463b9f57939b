//! `K::scan()`: the typed scan builder. One state per field position, each offering the methods
//! of the field that comes next, so binding fields out of key order does not compile. The states
//! are one generic type per key whose parameter marks the position. They forward to the core's
//! planners, which hold the logic, and dereference to them for `ranges()`, `matches()` and
//! `is_exact()`: `rowkey::FixedScan` for layouts of one length without a prefix, `rowkey::Scan`
//! for the rest. Every state converts into `rowkey::Scan`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::{field_mode, field_name};
use crate::ast::{Field, Prefix, Sources, Struct, TypeKind};

pub fn expand(s: &Struct, p: &syn::Ident) -> TokenStream {
    let Some(concrete) = super::generics::concrete_type(s.original) else {
        return TokenStream::new();
    };
    let generics = &s.original.generics;
    let ident = &s.original.ident;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    // Keys of one length without a prefix component or tag take the fixed-layout lane, which
    // writes the bound bytes at known offsets. If a nested type turns out variable, the length is
    // 0 and the lane hands over to the general planner from the start.
    let fixed_lane = matches!(s.prefix, Prefix::None)
        && s.tag.is_none()
        && s.text().is_none()
        && !s.has_variable_field();
    let layout_name = format_ident!("__ROWKEY_SCAN_LAYOUT");
    let layout = scan_layout(
        s,
        p,
        &layout_name,
        quote!(<#concrete as #p::RowKey>::PREFIX),
        quote!(<#concrete as #p::RowKey>::FIXED_LEN),
    );
    let lane = if fixed_lane {
        Lane::Fixed(quote! {
            const __ROWKEY_LEN: usize = #p::fixed_or_zero(<#concrete as #p::RowKey>::FIXED_LEN);
            type __RowkeyFixedScan = #p::FixedScan<#concrete, __ROWKEY_LEN>;
            type __RowkeyFixedRange = #p::FixedRange<#concrete, __ROWKEY_LEN>;
        })
    } else {
        Lane::General
    };
    let chain = chain(s, p, &concrete, &ident.to_string(), lane);
    let (first, state_inner) = (&chain.first, &chain.inner);
    let start = chain.start(quote!(<#state_inner as #p::Bind>::start(&#layout_name)));
    let field_list = s
        .fields
        .iter()
        .map(|f| format!("`{}`", field_name(f)))
        .collect::<Vec<_>>()
        .join(", ");
    let scan_doc = format!(
        "A scan over `{ident}` keys: bind the fields in key order ({field_list}), each by value \
         (`f`), by a list of values (`f_in`), or, to finish, by a range (`f_range`) or a string \
         prefix (`f_prefix`); then take `ranges()`."
    );
    let defs = &chain.defs;
    quote! {
        #p::if_alloc! {
            #layout
            #defs

            impl #impl_generics #ident #ty_generics #where_clause {
                #[doc = #scan_doc]
                #[inline]
                pub fn scan() -> #first {
                    #start
                }
            }
        }
    }
}

/// The planner a chain of states runs on.
pub enum Lane {
    /// The fixed-layout lane, with the items that name its types.
    Fixed(TokenStream),
    /// The general planner, `rowkey::Scan`.
    General,
}

/// The states of a scan builder over the fields of `s`, and the first of them.
pub struct Chain {
    pub defs: TokenStream,
    /// The type of the first state.
    pub first: TokenStream,
    /// The generic state type (`{prefix}Scan`), whose tuple constructor wraps a planner.
    pub state: syn::Ident,
    /// The planner type the states wrap.
    pub inner: TokenStream,
}

impl Chain {
    /// The first state, holding the planner `start`.
    pub fn start(&self, start: TokenStream) -> TokenStream {
        let state = &self.state;
        quote!(#state(#start, ::core::marker::PhantomData))
    }
}

/// The constant `ScanLayout` named `name` of the key `s`, its prefix and fixed length given as
/// constant expressions.
pub fn scan_layout(
    s: &Struct,
    p: &syn::Ident,
    name: &syn::Ident,
    prefix: TokenStream,
    fixed_len: TokenStream,
) -> TokenStream {
    let in_text = s.text().map(|d| quote!(.in_text(#d)));
    let with_tag = s.tag.as_ref().map(|t| {
        let t = super::tag_expr(t, p);
        quote!(.with_tag(#t))
    });
    let whole_key = matches!(
        s.prefix,
        Prefix::Salt {
            sources: Sources::WholeKey,
            ..
        }
    );
    let sources: Vec<bool> = (0..s.fields.len())
        .map(|i| match &s.prefix {
            Prefix::Salt {
                sources: Sources::Fields(f),
                ..
            }
            | Prefix::Hash { sources: f, .. } => f.contains(&i),
            Prefix::Salt {
                sources: Sources::WholeKey,
                ..
            } => true,
            Prefix::None => false,
        })
        .collect();
    quote! {
        const #name: #p::ScanLayout = #p::ScanLayout::new(
            #prefix,
            &[#(#sources),*],
            #whole_key,
            #fixed_len.is_some(),
        )#in_text #with_tag;
    }
}

/// The states of a scan builder over the fields of `s`, planning on `lane`: one generic type
/// `{prefix}Scan<Next>`, whose parameter is a marker `{prefix}Next{Field}` naming the field to
/// bind next (so "no method `ts` found for `EventScan<EventNextUser>`" says which field must be
/// bound first), and for each marker an alias `{prefix}ScanNext{Field}`. One generic type, not one
/// type per field: its `Deref` and `ScanState` impls are written once per key, and each impl is
/// build time in every crate that derives.
pub fn chain(
    s: &Struct,
    p: &syn::Ident,
    concrete: &TokenStream,
    prefix: &str,
    lane: Lane,
) -> Chain {
    let ident = &s.original.ident;
    let vis = &s.original.vis;
    let state = format_ident!("{}Scan", prefix);
    let markers: Vec<_> = s
        .fields
        .iter()
        .map(|f| format_ident!("{}Next{}", prefix, camel(&field_name(f))))
        .collect();
    let scan = quote!(#p::Scan<#concrete>);
    let (state_inner, range_final, lane_items) = match lane {
        Lane::Fixed(items) => (quote!(__RowkeyFixedScan), quote!(__RowkeyFixedRange), items),
        Lane::General => (scan.clone(), scan.clone(), TokenStream::new()),
    };
    let state_defs = s.fields.iter().enumerate().map(|(i, field)| {
        let marker = &markers[i];
        let alias = format_ident!("{}ScanNext{}", prefix, camel(&field_name(field)));
        let (next, wrap_next): (TokenStream, &dyn Fn(TokenStream) -> TokenStream) =
            match markers.get(i + 1) {
                Some(n) => (quote!(#state<#n>), &|e| quote!(#state(#e, #p::PhantomData))),
                None => (scan.clone(), &|e| quote!(#p::From::from(#e))),
            };
        let methods = field_methods(field, p, &next, wrap_next, &scan, &range_final);
        let name = field_name(field);
        let marker_doc = format!("Marks a scan over `{ident}` keys whose next field is `{name}`.");
        let alias_doc = format!("A scan over `{ident}` keys whose next field is `{name}`.");
        quote! {
            #[doc = #marker_doc]
            #vis enum #marker {}

            #[doc = #alias_doc]
            #vis type #alias = #state<#marker>;

            impl #state<#marker> {
                #methods
            }
        }
    });
    let state_doc =
        format!("A scan over `{ident}` keys; its parameter names the field to bind next.");
    let defs = (!markers.is_empty()).then(|| {
        quote! {
            #lane_items

            #[doc = #state_doc]
            #[must_use]
            #vis struct #state<__RowkeyNext>(#state_inner, #p::PhantomData<__RowkeyNext>);

            #[automatically_derived]
            impl<__RowkeyNext> #p::Deref for #state<__RowkeyNext> {
                type Target = #state_inner;
                #[inline]
                fn deref(&self) -> &#state_inner {
                    &self.0
                }
            }

            #[automatically_derived]
            impl<__RowkeyNext> #p::ScanState for #state<__RowkeyNext> {
                type Key = #concrete;
                #[inline]
                fn into_scan(self) -> #scan {
                    #p::From::from(self.0)
                }
            }

            #(#state_defs)*
        }
    });
    let first = match markers.first() {
        Some(m) => quote!(#state<#m>),
        None => quote!(#state),
    };
    Chain {
        defs: defs.unwrap_or_default(),
        first,
        state,
        inner: state_inner,
    }
}

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

fn field_methods(
    field: &Field,
    p: &syn::Ident,
    next: &TokenStream,
    wrap_next: &dyn Fn(TokenStream) -> TokenStream,
    scan: &TokenStream,
    range_final: &TokenStream,
) -> TokenStream {
    let name = field_name(field);
    // The field's own identifier, raw if it is (`r#type`), so the method parses.
    let f = field.ident;
    let f_in = format_ident!("{}_in", name);
    let f_range = format_ident!("{}_range", name);
    let f_prefix = format_ident!("{}_prefix", name);
    let mode = field_mode(field, p);
    let eq_doc = format!("Keys whose `{name}` equals `value`.");
    let in_doc = format!("Keys whose `{name}` is any of `values` (any order, duplicates allowed; an empty list matches nothing).");
    let range_doc = format!("Keys whose `{name}` lies in `range`, in the field's own order (also on `desc` fields). Ends the scan.");
    let prefix_doc = format!("Keys whose `{name}` starts with `prefix`. Ends the scan.");
    // Strings and bytes are taken borrowed, and IN lists of anything that reads as them.
    let borrowed = |target: TokenStream, bind_in: syn::Ident| {
        let eq_next = wrap_next(quote!(#p::Bind::bind_eq(self.0, value, #mode)));
        let in_next = wrap_next(quote!(#p::Bind::#bind_in(self.0, values, #mode)));
        (
            quote! {
                #[inline]
                pub fn #f(self, value: &#target) -> #next {
                    #eq_next
                }
            },
            quote! {
                #[inline]
                pub fn #f_in<I>(self, values: I) -> #next
                where
                    I: #p::IntoIterator,
                    I::Item: #p::AsRef<#target>,
                {
                    #in_next
                }
            },
            quote!(&'__rowkey_r #target),
        )
    };
    let (eq, in_list, range_ty) = match arg_of(field) {
        Arg::Str => borrowed(quote!(str), format_ident!("bind_in_str")),
        Arg::Bytes => borrowed(quote!([u8]), format_ident!("bind_in_bytes")),
        Arg::Own(ty) => (
            {
                let eq_next = wrap_next(quote!(#p::Bind::bind_eq(self.0, &value, #mode)));
                quote! {
                    #[inline]
                    pub fn #f(self, value: #ty) -> #next {
                        #eq_next
                    }
                }
            },
            {
                let in_next = wrap_next(quote!(#p::Bind::bind_in(self.0, values, #mode)));
                quote! {
                    #[inline]
                    pub fn #f_in<I>(self, values: I) -> #next
                    where
                        I: #p::IntoIterator<Item = #ty>,
                    {
                        #in_next
                    }
                }
            },
            quote!(#ty),
        ),
    };
    // A reversed field gave up its order, and so did a time written in a format that does not
    // sort as times do (`%d%m%Y`, `%y`): only equality and IN lists apply.
    let format_ordered = field.attrs.format.as_ref().map_or(true, |f| {
        rowkey_core::timefmt::spec(&f.value).is_ok_and(|s| s.is_ordered())
    });
    let ordered = field.attrs.reverse.is_none() && format_ordered;
    let range = ordered.then(|| {
        quote! {
            #[doc = #range_doc]
            #[inline]
                pub fn #f_range<'__rowkey_r, R>(self, range: R) -> #range_final
            where
                R: #p::RangeBounds<#range_ty>,
            {
                #p::Bind::bind_range_of(self.0, range, #mode)
            }
        }
    });
    let prefix_arg = match field.kind {
        TypeKind::Str { .. } => Some(quote!(&str)),
        TypeKind::Bytes { .. } => Some(quote!(&[u8])),
        _ => None,
    };
    let prefix = prefix_arg.filter(|_| ordered).map(|arg| {
        quote! {
            #[doc = #prefix_doc]
            #[inline]
                pub fn #f_prefix(self, prefix: #arg) -> #scan {
                #p::Bind::bind_prefix(self.0, #p::AsRef::<[u8]>::as_ref(prefix), #mode)
            }
        }
    });
    quote! {
        #[doc = #eq_doc]
        #eq
        #[doc = #in_doc]
        #in_list
        #range
        #prefix
    }
}

/// `user_id` -> `UserId`.
fn camel(name: &str) -> String {
    name.split('_')
        .filter(|part| !part.is_empty())
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}
