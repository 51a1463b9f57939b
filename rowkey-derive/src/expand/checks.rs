//! Const assertions for the rules that depend on a field type's `KeyField::SHAPE` (nested keys,
//! users' own types, aliases) and on the whole layout's length. They run when the crate compiles,
//! and are emitted for structs without type parameters.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use crate::ast::{Struct, TypeKind};

pub fn expand(s: &Struct, p: &syn::Ident) -> TokenStream {
    let Some(concrete) = super::generics::concrete_type(s.original) else {
        return TokenStream::new();
    };
    let mut checks = field_checks(s, p);
    checks.extend(format_checks(s, p));
    let keys = format!("`{}` keys", crate::unraw::unraw(&s.original.ident));
    let fixed = quote!(<#concrete as #p::RowKey>::FIXED_LEN);
    checks.push(row_limit(s.original, &s.attrs, &concrete, &keys, fixed, p));
    quote! {
        const _: () = { #(#checks)* };
    }
}

/// The checks of each field of `s` whose type the derive cannot see into.
pub fn field_checks(s: &Struct, p: &syn::Ident) -> Vec<TokenStream> {
    let mut checks = Vec::new();
    for field in &s.fields {
        // Syntax already decided these rules for the types it knows (valid.rs).
        if *field.kind.innermost() != TypeKind::Other {
            continue;
        }
        let ty = replace_lifetimes(field.ty);
        let name = super::field_name(field);
        let ty_name = quote::ToTokens::to_token_stream(field.ty)
            .to_string()
            .replace(' ', "");
        if let Some(w) = field.attrs.width {
            let (value, span) = (w.value, w.span);
            let msg = format!("field `{name}`: `{ty_name}` does not accept `width = {value}` (integers up to their size, strings and bytes do)");
            checks.push(quote_spanned! {span=>
                ::core::assert!(#p::accepts_width(#p::shape::<#ty>(), #value), #msg);
            });
        }
        if let Some(unit) = field.attrs.unit {
            let span = unit.span;
            let msg = format!("field `{name}`: `{ty_name}` is not a time, so `unit = \"{}\"` means nothing for it (`SystemTime` takes a unit)", unit.value.name());
            checks.push(quote_spanned! {span=>
                ::core::assert!(#p::shape::<#ty>().is_time(), #msg);
            });
        }
        if let Some(format) = &field.attrs.format {
            let (fmt, span) = (&format.value, format.span);
            let msg = format!("field `{name}`: `{ty_name}` cannot be written with `format = {fmt:?}` and read back: chrono's `DateTime<Utc>`, `NaiveDateTime` and `NaiveDate` need the whole date (and the hour and minute of any time of day), `NaiveTime` its hour and minute and no date");
            checks.push(quote_spanned! {span=>
                ::core::assert!(#p::accepts_format(#p::shape::<#ty>(), #fmt), #msg);
            });
        }
        let span = field.ident.span();
        let nested = format!("field `{name}`: `{ty_name}` has a salt or hash prefix, which only the outermost key may have");
        checks.push(quote_spanned! {span=>
            ::core::assert!(#p::shape::<#ty>().prefix().is_none(), #nested);
        });
        if let Some(span) = field.attrs.desc {
            let msg = format!("field `{name}`: `{ty_name}` does not say that it honours `desc`: its `KeyField::SHAPE` is a custom shape (`FieldShape::fixed`), so rowkey cannot tell that its `encode` inverts its bytes under `desc`; make `encode` and `decode_field` invert every byte when `mode.is_desc()` and declare it with `FieldShape::fixed(n).inverts_under_desc()`, or copy the `SHAPE` of a built-in type you delegate to");
            checks.push(quote_spanned! {span=>
                ::core::assert!(#p::accepts_desc(#p::shape::<#ty>()), #msg);
            });
        }
        if let Some(span) = field.attrs.reverse {
            let msg = format!("field `{name}`: `{ty_name}` does not accept `reverse` (numbers, strings and bytes do)");
            checks.push(quote_spanned! {span=>
                ::core::assert!(#p::is_reversible(#p::shape::<#ty>()), #msg);
            });
        }
    }
    checks
}

/// The checks the key's format asks of each field's type beyond the walk's traits (a type a text
/// layout cannot write, a column Phoenix cannot hold), decided by the runtime from the type's
/// `SHAPE` and the field's mode; each error on its field says why.
fn format_checks(s: &Struct, p: &syn::Ident) -> Vec<TokenStream> {
    s.fields
        .iter()
        .enumerate()
        .filter_map(|(i, field)| {
            s.format.field_check(
                p,
                field,
                || replace_lifetimes(field.ty),
                || super::mode_ref(s, i),
            )
        })
        .collect()
}

/// The check that keys of fixed length `fixed` (an expression of type `Option<usize>`, from the
/// fields' `SHAPE`s) fit the key's row limit: `keys` names them in the message ("`Key` keys", "the
/// keys of `Row::Order`"). The one check of the row limit at compile time; syntax sizes nothing.
pub fn row_limit(
    input: &syn::DeriveInput,
    attrs: &crate::attr::ContainerAttrs,
    concrete: &TokenStream,
    keys: &str,
    fixed: TokenStream,
    p: &syn::Ident,
) -> TokenStream {
    let (limit, span) = match &attrs.max_len {
        Some(max) => (
            format!("{keys} are longer than its `max_len` of {} bytes", max.value),
            max.span,
        ),
        None => (
            format!(
                "{keys} are longer than HBase's row limit of {} bytes (set another with `#[rowkey(max_len = N)]`)",
                rowkey_core::limits::HBASE
            ),
            input.ident.span(),
        ),
    };
    quote_spanned! {span=>
        ::core::assert!(
            #p::within_row_limit(#fixed, <#concrete as #p::RowKey>::ROW_LIMIT),
            #limit
        );
    }
}

/// The field type with every lifetime made `'static`, so the check names no generic parameter.
pub fn replace_lifetimes(ty: &syn::Type) -> syn::Type {
    struct Statics;
    impl Statics {
        fn ty(&self, ty: &mut syn::Type) {
            match ty {
                syn::Type::Reference(r) => {
                    r.lifetime = Some(syn::parse_quote!('static));
                    self.ty(&mut r.elem);
                }
                syn::Type::Path(path) => {
                    for seg in &mut path.path.segments {
                        if let syn::PathArguments::AngleBracketed(args) = &mut seg.arguments {
                            for arg in &mut args.args {
                                match arg {
                                    syn::GenericArgument::Lifetime(l) => {
                                        *l = syn::parse_quote!('static)
                                    }
                                    syn::GenericArgument::Type(t) => self.ty(t),
                                    _ => {}
                                }
                            }
                        }
                    }
                }
                syn::Type::Array(a) => self.ty(&mut a.elem),
                syn::Type::Slice(s) => self.ty(&mut s.elem),
                syn::Type::Paren(p) => self.ty(&mut p.elem),
                syn::Type::Group(g) => self.ty(&mut g.elem),
                syn::Type::Tuple(t) => t.elems.iter_mut().for_each(|e| self.ty(e)),
                _ => {}
            }
        }
    }
    let mut ty = ty.clone();
    Statics.ty(&mut ty);
    ty
}
