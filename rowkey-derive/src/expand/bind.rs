//! A field's binding methods on a scan builder's state: `f(v)`, `f_in(values)`, `f_range(r)` and,
//! for strings and bytes, `f_prefix(p)`, each forwarding to the core's planner; and for a field
//! that gave up its order (`reverse`, a time format that does not sort), `_range` and `_prefix`
//! that cannot be called, whose bound says why.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::field_name;
use crate::ast::{Field, Format, TypeKind};
use rowkey_core::private::{NoRange, OrderFacts};

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
    format: &Format,
    mode: &TokenStream,
    p: &syn::Ident,
    next: &TokenStream,
    done: &TokenStream,
    bound: Option<&TokenStream>,
) -> TokenStream {
    let methods = Methods {
        field,
        name: field_name(field),
        mode,
        p,
        next,
        done,
        inline: bound.is_none().then(|| quote!(#[inline])),
        bound: bound.cloned().unwrap_or_default(),
        no_range: no_range(field, format),
    };
    let equality = methods.equality();
    let range = methods.range();
    let prefix = methods.prefix();
    let misuse = methods.misuse_stubs();
    quote! {
        #equality
        #range
        #prefix
        #misuse
    }
}

/// Why the field has no range scan, if it has none: the core's one rule
/// (`rowkey_core::private::NoRange::of`), which the schema asks too, from the field's attributes
/// and the key's format.
fn no_range(field: &Field, format: &Format) -> Option<NoRange> {
    let unordered_format = field.attrs.format.as_ref().is_some_and(|f| {
        !rowkey_core::private::timefmt::spec(&f.value).is_ok_and(|s| s.is_ordered())
    });
    NoRange::of(OrderFacts {
        reverse: field.attrs.reverse.is_some(),
        unordered_format,
        phoenix: format.is_phoenix(),
        desc: field.attrs.desc.is_some(),
        nullable: matches!(field.kind, TypeKind::Option(_)),
        fixed_width_string: field.attrs.width.is_some()
            && matches!(field.kind, TypeKind::Str { .. }),
    })
}

/// What `_prefix` takes: strings and bytes have one, other types none.
fn prefix_arg(kind: &TypeKind) -> Option<TokenStream> {
    match kind {
        TypeKind::Str { .. } => Some(quote!(&str)),
        TypeKind::Bytes { .. } => Some(quote!(&[u8])),
        _ => None,
    }
}

/// Whether the derive does not know the type (nor, for an `Option`, the type inside), so the
/// type's own order must place a range's bounds.
fn is_unknown(kind: &TypeKind) -> bool {
    match kind {
        TypeKind::Option(inner) => matches!(**inner, TypeKind::Other),
        kind => matches!(kind, TypeKind::Other),
    }
}

/// What one field's methods share: its name, the path to the core, the states they lead to, and
/// the `#[inline]` and `where` bound that depend on the builder (see `field_methods`).
struct Methods<'a> {
    field: &'a Field<'a>,
    /// The field's name without `r#`, for the `_in`, `_range` and `_prefix` methods and the docs.
    name: String,
    mode: &'a TokenStream,
    p: &'a syn::Ident,
    next: &'a TokenStream,
    done: &'a TokenStream,
    inline: Option<TokenStream>,
    bound: TokenStream,
    /// Why the field has no range scan (`None`: ranges and prefixes apply).
    no_range: Option<NoRange>,
}

impl Methods<'_> {
    /// The method `<name>_<suffix>`.
    fn method(&self, suffix: &str) -> syn::Ident {
        format_ident!("{}_{}", self.name, suffix)
    }

    /// The equality method: the field's own identifier, raw if it is (`r#type`), so it parses.
    fn eq_method(&self) -> &syn::Ident {
        self.field.ident
    }

    /// `f(value)` and `f_in(values)`, with their docs.
    fn equality(&self) -> TokenStream {
        let name = &self.name;
        let eq_doc = format!("Keys whose `{name}` equals `value`.");
        let in_doc = format!("Keys whose `{name}` is any of `values` (any order, duplicates allowed; an empty list matches nothing).");
        let (eq, in_list) = match arg_of(self.field) {
            Arg::Str => self.borrowed_equality(quote!(str), format_ident!("bind_in_str")),
            Arg::Bytes => self.borrowed_equality(quote!([u8]), format_ident!("bind_in_bytes")),
            Arg::Own(ty) => self.owned_equality(&ty),
        };
        quote! {
            #[doc = #eq_doc]
            #eq
            #[doc = #in_doc]
            #in_list
        }
    }

    /// `f` and `f_in` for strings and bytes: taken borrowed, and IN lists of anything that reads
    /// as them.
    fn borrowed_equality(
        &self,
        target: TokenStream,
        bind_in: syn::Ident,
    ) -> (TokenStream, TokenStream) {
        let Self {
            p,
            mode,
            next,
            inline,
            bound,
            ..
        } = self;
        let f = self.eq_method();
        let f_in = self.method("in");
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
        )
    }

    /// `f` and `f_in` for any other type: taken by value, and IN lists of values.
    // Written out beside `borrowed_equality` rather than shared through a function taking the
    // parameter, argument and bounds as token streams: those small streams cost 4.1M more
    // instructions building the 50-layout crate of `benches/build_time.sh` (3,281.0M against
    // 3,276.9M), each one a round trip through the compiler's proc-macro bridge.
    fn owned_equality(&self, ty: &syn::Type) -> (TokenStream, TokenStream) {
        let Self {
            p,
            mode,
            next,
            inline,
            bound,
            ..
        } = self;
        let f = self.eq_method();
        let f_in = self.method("in");
        (
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
        )
    }

    /// `f_range(range)` on a field that kept its order.
    fn range(&self) -> Option<TokenStream> {
        if self.no_range.is_some() {
            return None;
        }
        let Self {
            done,
            inline,
            bound,
            p,
            ..
        } = self;
        let name = &self.name;
        let range_doc = format!("Keys whose `{name}` lies in `range`, in the field's own order (also on `desc` fields). Ends the scan.");
        let f_range = self.method("range");
        let range_ty = match arg_of(self.field) {
            Arg::Str => quote!(&'__rowkey_r str),
            Arg::Bytes => quote!(&'__rowkey_r [u8]),
            Arg::Own(ty) => quote!(#ty),
        };
        let bind_range = self.bind_range();
        Some(quote! {
            #[doc = #range_doc]
            #inline
            pub fn #f_range<'__rowkey_r, R>(self, range: R) -> #done
            where
                R: #p::RangeBounds<#range_ty>,
                #bound
            {
                #bind_range
            }
        })
    }

    /// The body of `f_range`: the core's `bind_range`, or `bind_range_by` with the type's own
    /// order.
    fn bind_range(&self) -> TokenStream {
        let Self { p, mode, .. } = self;
        // A bound the field cannot store and nothing places is dropped from the ranges; the field
        // type's own order, where it has one, keeps `matches` exactly the query.
        // Only for types the derive does not know (the built-in ones place every bound), and only
        // without lifetimes: a lifetime cannot steer method resolution, and the order needs values
        // it can own.
        let field_ty = self.field.ty;
        let borrows = quote!(#field_ty).to_string().contains(['\'', '&']);
        match arg_of(self.field) {
            Arg::Own(ty) if !borrows && is_unknown(&self.field.kind) => {
                quote!(#p::bind_range_by(self, range, #mode, {
                    use #p::{ByPartialOrd as _, Unordered as _};
                    (&&#p::Probe::<#ty>::NEW).value_order()
                }))
            }
            _ => quote!(#p::bind_range(self, range, #mode)),
        }
    }

    /// `f_prefix(prefix)` on a string or bytes field that kept its order.
    fn prefix(&self) -> Option<TokenStream> {
        let starts = NoRange::keeps_prefix(self.no_range);
        let arg = prefix_arg(&self.field.kind).filter(|_| starts)?;
        let Self {
            p,
            mode,
            done,
            inline,
            bound,
            ..
        } = self;
        let name = &self.name;
        let prefix_doc = format!("Keys whose `{name}` starts with `prefix`. Ends the scan.");
        let f_prefix = self.method("prefix");
        Some(quote! {
            #[doc = #prefix_doc]
            #inline
            pub fn #f_prefix(self, prefix: #arg) -> #done
            where
                #bound
            {
                #p::bind_prefix(self, prefix, #mode)
            }
        })
    }

    /// A field that gave up its order keeps `_range` (and a string's `_prefix`) as methods that
    /// cannot be called, bounded on a trait of the core that says why: without them rustc would
    /// suggest `_in`, which compiles and lists every value of the range.
    fn misuse_stubs(&self) -> Option<TokenStream> {
        let reason = self.no_range?;
        let p = self.p;
        let no_range = format_ident!("{}", reason.trait_name());
        let no_range = quote!(#p::#no_range);
        // A reversed string's `_prefix` is misused too; a CHAR(n) keeps its own.
        let with_prefix =
            !NoRange::keeps_prefix(Some(reason)) && prefix_arg(&self.field.kind).is_some();
        let range = self.stub(&self.method("range"), &no_range);
        let prefix = with_prefix.then(|| self.stub(&self.method("prefix"), &no_range));
        Some(quote!(#range #prefix))
    }

    /// A hidden `method` whose argument must implement `no_range`, a sealed trait of the core that
    /// nothing implements and whose message says why the method is not there.
    fn stub(&self, method: &syn::Ident, no_range: &TokenStream) -> TokenStream {
        let Self { done, bound, .. } = self;
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
    }
}
