//! Code generation. Everything goes into one `const _: () = { ... };` block so no name leaks, and
//! reaches the runtime through absolute paths: `::core` and the facade's hidden `__private` module.

mod bind;
mod checks;
mod decode;
mod encode;
mod enum_key;
mod enums;
mod generics;
mod key;
mod layout;
mod prefix;
mod scan;

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::DeriveInput;

use crate::ast::{Field, Input, StoredTag, Struct};
use crate::ctxt::Ctxt;
use crate::valid;

pub fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let model = Input::from_syn(&cx, input);
    match &model {
        Some(Input::Struct(s)) => valid::check_struct(&cx, s),
        Some(Input::Keyed(e)) => valid::check_keyed(&cx, e),
        _ => {}
    }
    if let Err(errors) = cx.check() {
        return fallback(input, errors);
    }
    // Generated code names the support module by a one-token alias: the same paths, a third of
    // the tokens for the compiler to read and resolve.
    let alias = syn::Ident::new("__rowkey_private", proc_macro2::Span::call_site());
    let (runtime, body) = match &model {
        Some(Input::Struct(s)) => (private_path(&s.attrs.krate), expand_struct(s, &alias)),
        Some(Input::Enum(e)) => (private_path(&e.attrs.krate), enums::expand(e, &alias)),
        Some(Input::Keyed(e)) => (private_path(&e.attrs.krate), enum_key::expand(e, &alias)),
        None => (quote!(::rowkey::__private), unreachable_model()),
    };
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, non_camel_case_types, dead_code, unused_qualifications, clippy::all, clippy::pedantic)]
        const _: () = {
            use #runtime as #alias;
            #body
        };
    }
}

/// `None` only comes with an error in the context, handled above; this keeps the derive panic-free.
fn unreachable_model() -> TokenStream {
    quote!(::core::compile_error!("rowkey-derive: internal error: no layout model");)
}

/// The path of the runtime support module: `::rowkey::__private`, or `<crate>::__private`.
pub fn private_path(krate: &Option<syn::Path>) -> TokenStream {
    match krate {
        Some(path) => quote!(#path::__private),
        None => quote!(::rowkey::__private),
    }
}

/// The `&'static Layout` of the key `input` as generated code hands it to the walk: for a key
/// without type parameters the one constant [`layout_const`] defines, so the compiler evaluates,
/// interns and checks the layout once (each inline `const { &LAYOUT }` is a copy of its own, and
/// checking those copies was a fifth of the derive's compile cost); an inline constant otherwise.
pub fn layout_ref(input: &DeriveInput, p: &syn::Ident) -> TokenStream {
    match generics::concrete_type(input) {
        Some(_) => quote!(__ROWKEY_LAYOUT),
        None => quote!(const { &<Self as #p::RowKey>::LAYOUT }),
    }
}

/// The constant [`layout_ref`] names, for a key without type parameters.
pub fn layout_const(input: &DeriveInput, p: &syn::Ident) -> TokenStream {
    match generics::concrete_type(input) {
        Some(concrete) => {
            quote!(const __ROWKEY_LAYOUT: &'static #p::Layout = &<#concrete as #p::RowKey>::LAYOUT;)
        }
        None => TokenStream::new(),
    }
}

fn expand_struct(s: &Struct, p: &syn::Ident) -> TokenStream {
    let layout = layout_const(s.original, p);
    let encode = encode::expand(s, p);
    let decode = decode::expand(s, p);
    let key = key::expand(s, p);
    let checks = checks::expand(s, p);
    let salted = prefix::salted_key_traits(s, p);
    let scan = scan::expand(s, p);
    let modes = modes_def(s, p);
    let format_traits = s.format.key_traits(p, s.original);
    quote! {
        #layout
        #modes
        #format_traits
        #encode
        #decode
        #key
        #salted
        #scan
        #checks
    }
}

/// `tokens` when the facade's `alloc` feature is on (it turns on this crate's), else nothing:
/// the scan builder and `explain` need the runtime's allocating types.
pub fn if_alloc(tokens: TokenStream) -> TokenStream {
    if cfg!(feature = "alloc") {
        tokens
    } else {
        TokenStream::new()
    }
}

/// The name of the constant mode of field `i` of `s` (a struct's, or an enum variant's).
fn mode_name(s: &Struct, i: usize) -> syn::Ident {
    match s.variant {
        None => quote::format_ident!("__ROWKEY_MODE_{}", i),
        Some(v) => quote::format_ident!("__ROWKEY_MODE_{}_{}", crate::unraw::unraw(v), i),
    }
}

/// The constant modes of `s`'s fields, one item a field: every place that names a field's mode
/// (its segment, its scan methods) names its constant. One item a field rather than one array a
/// key: each scan method indexing an array constant cost the compiler a known-panics check and a
/// const evaluation of the array, 9% of the 50-layout crate's build (BENCHMARKS.md).
pub fn modes_def(s: &Struct, p: &syn::Ident) -> TokenStream {
    let modes = s.fields.iter().enumerate().map(|(i, f)| {
        let name = mode_name(s, i);
        let mode = s.format.field_mode(p, field_mode(f, p));
        quote!(const #name: #p::FieldMode = #mode;)
    });
    quote!(#(#modes)*)
}

/// The mode of field `i` of `s`: its constant of [`modes_def`].
pub fn mode_ref(s: &Struct, i: usize) -> TokenStream {
    let name = mode_name(s, i);
    quote!(#name)
}

/// The constant `FieldMode` of a field as declared in its key (`text`: the layout's delimiter).
fn field_mode(field: &Field, p: &syn::Ident) -> TokenStream {
    let mut mode = if field.last {
        quote!(#p::FieldMode::LAST)
    } else {
        quote!(#p::FieldMode::INNER)
    };
    if let Some(w) = field.attrs.width {
        let w = w.value;
        mode = quote!(#mode.with_width(#w));
    }
    if field.attrs.desc.is_some() {
        mode = quote!(#mode.with_desc());
    }
    if field.attrs.reverse.is_some() {
        mode = quote!(#mode.with_reverse());
    }
    if let Some(format) = &field.attrs.format {
        let format = &format.value;
        mode = quote!(#mode.with_format(#format));
    }
    if let Some(unit) = field.attrs.unit {
        let unit = syn::Ident::new(&format!("{:?}", unit.value), proc_macro2::Span::call_site());
        mode = quote!(#mode.with_unit(#p::TimeUnit::#unit));
    }
    mode
}

/// A tag as the constant `rowkey::Tag`.
pub fn tag_expr(tag: &StoredTag, p: &syn::Ident) -> TokenStream {
    let bytes = syn::LitByteStr::new(&tag.bytes, tag.span);
    let delimiter = &tag.delimiter;
    quote!(#p::tag(#bytes, #delimiter))
}

/// The name a field carries in errors, `LAYOUT` and the names of its scan methods.
pub fn field_name(field: &Field) -> String {
    crate::unraw::unraw(field.ident)
}

/// After errors: the errors, plus stub impls so the rest of the user's code type-checks and shows
/// no follow-on errors.
fn fallback(input: &DeriveInput, errors: syn::Error) -> TokenStream {
    let errors = errors.to_compile_error();
    // The attributes' errors are reported already; only the `crate` path is wanted here.
    let cx = Ctxt::new();
    let krate = crate::attr::container_attrs(&cx, &input.attrs).krate;
    let _ = cx.check();
    let p = private_path(&krate);
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut decode_generics = input.generics.clone();
    decode_generics
        .params
        .insert(0, syn::parse_quote!('__rowkey_k));
    let (decode_impl_generics, _, _) = decode_generics.split_for_impl();
    let stub = quote!(::core::unreachable!("#[derive(RowKey)] failed to compile"));
    let name = crate::unraw::unraw(ident);
    let stubs = quote! {
        impl #impl_generics #p::KeyField for #ident #ty_generics #where_clause {
            const SHAPE: #p::FieldShape = #p::FieldShape::fixed(0);
            fn field_len(&self, _: #p::FieldMode) -> usize { #stub }
            fn encode(&self, _: &mut [u8], _: #p::FieldMode) -> #p::Result<usize, #p::EncodeError> { #stub }
        }
        impl #decode_impl_generics #p::DecodeField<'__rowkey_k> for #ident #ty_generics #where_clause {
            fn decode_field(_: &'__rowkey_k [u8], _: #p::FieldMode) -> #p::Result<(Self, usize), #p::DecodeError> { #stub }
        }
        impl #impl_generics #p::RowKey for #ident #ty_generics #where_clause {
            const LAYOUT: #p::Layout = #p::LayoutBuilder::new(#name).build();
            const FIXED_LEN: #p::Option<usize> = #p::None;
            const MAX_LEN: #p::Option<usize> = #p::None;
        }
    };
    // The inherent items too, where the type can name them, so code that uses them compiles.
    let explain = if_alloc(quote! {
        impl #impl_generics #ident #ty_generics #where_clause {
            #[doc(hidden)]
            pub fn explain(_: &[u8]) -> #p::Result<#p::Explained, #p::DecodeError> { #stub }
        }
    });
    let inherent = generics::concrete_type(input).map(|_| {
        quote! {
            impl #impl_generics #ident #ty_generics #where_clause {
                #[doc(hidden)]
                pub const LAYOUT: #p::Layout = #p::LayoutBuilder::new(#name).build();
            }
            #explain
        }
    });
    let mut out = errors;
    quote! {
        #[doc(hidden)]
        #[allow(unreachable_code, dead_code, clippy::all)]
        const _: () = { #stubs #inherent };
    }
    .to_tokens(&mut out);
    out
}
