//! Enum keys: each variant is a key of its own, its fields behind its tag, written and read by
//! the same pieces as a struct's (`encode.rs`, `decode.rs`) from the variant's bindings. Decoding
//! picks the variant by the tag the key starts with; scans start by naming the variant
//! (`Row::scan().order().user(42)`), whose fields then chain as a struct's do.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::layout::Described;
use super::scan::{chain, scan_layout, State};
use super::{decode, encode, key, layout, tag_expr};
use crate::ast::KeyedEnum;

pub fn expand(e: &KeyedEnum, p: &syn::Ident) -> TokenStream {
    // Lifetimes only (ast.rs rejects type parameters): scans and checks name the type with
    // `'static` ones.
    let Some(concrete) = super::generics::concrete_type(e.original) else {
        return TokenStream::new();
    };
    let arms = Arms::new(e, p);
    let key_traits = key::expand_key_traits(
        e.original,
        e.attrs.max_len.as_ref().map(|m| m.value),
        layouts(e, p, &arms.patterns),
        p,
    );
    let fixed_items = fixed_items(e, p);
    let checks = checks(e, p, &concrete);
    let key_field = key_field(e, p, &arms);
    let decode_field = decode_field(e, p, &arms);
    let scans = scans(e, p, &concrete);
    let modes = e.variants.iter().map(|v| super::modes_def(&v.key, p));
    let layout = super::layout_const(e.original, p);
    quote! {
        #layout
        #(#modes)*
        #key_field
        #decode_field

        #key_traits
        #fixed_items
        #scans

        const _: () = { #(#checks)* };
    }
}

/// One entry a variant, in declaration order: the pattern that binds its fields, and the code
/// that sizes, writes and reads its key from those bindings.
#[derive(Default)]
struct Arms {
    patterns: Vec<TokenStream>,
    lens: Vec<TokenStream>,
    writes: Vec<TokenStream>,
    reads: Vec<TokenStream>,
    /// Each variant's entry of `LAYOUT.variants`, as a constant expression.
    layouts: Vec<TokenStream>,
}

impl Arms {
    fn new(e: &KeyedEnum, p: &syn::Ident) -> Self {
        let ident = &e.original.ident;
        let mut arms = Arms::default();
        for (i, v) in e.variants.iter().enumerate() {
            let vident = v.ident;
            let members: Vec<_> = v.key.fields.iter().map(|f| f.ident).collect();
            let values = bindings(members.len());
            arms.patterns
                .push(quote!(#ident::#vident { #(#members: #values),* }));
            let layout = variant_layout(i);
            arms.lens
                .push(encode::len_expr(&v.key, &layout, p, &values));
            arms.writes
                .push(encode::write_key(&v.key, &layout, p, &values));
            arms.reads.push(decode::read_fields(
                &v.key,
                p,
                &quote!(#ident::#vident),
                &layout,
            ));
            arms.layouts.push(layout);
        }
        arms
    }
}

/// The names a variant's fields are bound to in its pattern: `__rowkey_b0`, `__rowkey_b1`, ...
fn bindings(count: usize) -> Vec<TokenStream> {
    (0..count)
        .map(|j| {
            let b = format_ident!("__rowkey_b{}", j);
            quote!(#b)
        })
        .collect()
}

/// Variant `i`'s layout, `LAYOUT.variants[i]`, in the key's one layout constant (enum keys
/// have no type parameters).
fn variant_layout(i: usize) -> TokenStream {
    quote!(&__ROWKEY_LAYOUT.variants[#i])
}

/// The fixed-length items, only when no variant has a field of variable length.
fn fixed_items(e: &KeyedEnum, p: &syn::Ident) -> TokenStream {
    let all_fixed = e.variants.iter().all(|v| !v.key.has_variable_field());
    if all_fixed {
        key::expand_fixed(e.original, p)
    } else {
        TokenStream::new()
    }
}

/// The compile-time checks: every variant's fields, then the key's length limit.
fn checks(e: &KeyedEnum, p: &syn::Ident, concrete: &TokenStream) -> Vec<TokenStream> {
    let mut checks: Vec<TokenStream> = e
        .variants
        .iter()
        .flat_map(|v| super::checks::field_checks(&v.key, p))
        .collect();
    // Each variant's keys within the limit (then the enum's are too), each named in its message.
    for (i, v) in e.variants.iter().enumerate() {
        let keys = format!(
            "the keys of `{}::{}`",
            crate::unraw::unraw(&e.original.ident),
            crate::unraw::unraw(v.ident)
        );
        let fixed = quote!(<#concrete as #p::RowKey>::LAYOUT.variants[#i].fixed_len);
        checks.push(super::checks::row_limit(
            e.original, &e.attrs, concrete, &keys, fixed, p,
        ));
    }
    checks
}

/// `KeyField` for the enum: a match on the variant sizes and writes that variant's key.
fn key_field(e: &KeyedEnum, p: &syn::Ident, arms: &Arms) -> TokenStream {
    let Arms {
        patterns,
        lens,
        writes,
        ..
    } = arms;
    encode::key_field_impl(
        e.original,
        p,
        quote!(#p::record_shape(__ROWKEY_LAYOUT)),
        quote!(match self { #(#patterns => #lens,)* }),
        quote!(match self { #(#patterns => #writes,)* }),
    )
}

/// `DecodeField` for the enum: the first variant whose tag opens the input reads it; no match
/// is an unknown tag.
fn decode_field(e: &KeyedEnum, p: &syn::Ident, arms: &Arms) -> TokenStream {
    let name = crate::unraw::unraw(&e.original.ident);
    let Arms { reads, layouts, .. } = arms;
    decode::decode_field_impl(
        e.original,
        p,
        quote! {
            #(
                if #p::walk::opens(#layouts, __rowkey_input) {
                    #reads
                    return #p::Ok((__rowkey_v, __rowkey_n));
                }
            )*
            #p::Err(#p::unknown_tag(#name))
        },
    )
}

/// `Row::scan()`: a state over every key of the enum, whose methods name a variant and start
/// that variant's chain of field states. Every state, of the whole enum or of a variant, is the
/// one generic state type `RowScan<Next>` on the general planner (a tag comes first).
fn scans(e: &KeyedEnum, p: &syn::Ident, concrete: &TokenStream) -> TokenStream {
    let ident = &e.original.ident;
    let (impl_generics, ty_generics, where_clause) = e.original.generics.split_for_impl();
    let name = ident.to_string();
    let state = State::new(e.original, &name, concrete, None);
    let any = format_ident!("{}AnyVariant", name);
    let mut items = Vec::new();
    let mut methods = Vec::new();
    for (i, v) in e.variants.iter().enumerate() {
        let layout_name = format_ident!("__ROWKEY_SCAN_LAYOUT_{}", i);
        items.push(scan_layout(
            p,
            &layout_name,
            quote!(&__ROWKEY_LAYOUT.variants[#i]),
        ));
        let method = v.scan_method();
        let variant = crate::unraw::unraw(v.ident);
        let chain = chain(&v.key, p, &state, &format!("{ident}{variant}"), false);
        items.push(chain.defs);
        let first = state.of(&chain.first);
        let start = state.start(p, &layout_name);
        let doc = if v.key.fields.is_empty() {
            format!("Keys of the variant `{variant}`, which has no fields: its tag alone.")
        } else {
            format!("Keys of the variant `{variant}`: bind its fields next, in key order.")
        };
        methods.push(quote! {
            #[doc = #doc]
            #[inline]
            pub fn #method(self) -> #first {
                #start
            }
        });
    }
    let with_tag = e.tag.as_ref().map(|t| {
        let t = tag_expr(t, p);
        quote!(.with_tag(#t))
    });
    let in_text = e.format.on_enum_scan();
    let scan_doc = format!(
        "A scan over `{ident}` keys: name a variant (`{ident}::scan().{}()`), then bind its fields in key order; or take every key as it is.",
        e.variants.first().map(|v| v.scan_method().to_string()).unwrap_or_default().trim_start_matches("r#")
    );
    let any_doc = format!("Marks a scan over every `{ident}` key, before a variant is named.");
    let state_type = state.definition(p);
    let any_marker = state.marker(p, &any, &any_doc);
    let whole = state.of(&any);
    let start = state.start(p, &format_ident!("__ROWKEY_SCAN_LAYOUT"));
    super::if_alloc(quote! {
        // One field that is never bound: every key of the enum, behind its tag if any.
        const __ROWKEY_SCAN_LAYOUT: #p::ScanLayout =
            #p::ScanLayout::new(#p::Prefix::None, &[false], false, false)#in_text #with_tag;
        #(#items)*
        #state_type

        #any_marker

        impl #whole {
            #(#methods)*
        }

        impl #impl_generics #ident #ty_generics #where_clause {
            #[doc = #scan_doc]
            #[inline]
            pub fn scan() -> #whole {
                #start
            }
        }
    })
}

/// `Row::LAYOUT`, with one layout per variant, and `Row::explain`.
fn layouts(e: &KeyedEnum, p: &syn::Ident, patterns: &[TokenStream]) -> Described {
    let ident = &e.original.ident;
    let name = crate::unraw::unraw(ident);
    let mut values = Vec::new();
    let mut explains = Vec::new();
    for (i, v) in e.variants.iter().enumerate() {
        let vname = format!("{name}::{}", crate::unraw::unraw(v.ident));
        values.push(layout::layout_value(&v.key, p, &vname));
        let bindings = bindings(v.key.fields.len());
        let layout = variant_layout(i);
        let explained = layout::explain_record(&v.key, p, &layout, &bindings);
        let pattern = &patterns[i];
        explains.push(quote!(#pattern => #explained,));
    }
    layout::describe(
        e.original,
        p,
        quote!(#p::LayoutBuilder::new(#name).with_variants(const { &[#(#values),*] }).build()),
        quote!(match &__rowkey_v { #(#explains)* }),
    )
}
