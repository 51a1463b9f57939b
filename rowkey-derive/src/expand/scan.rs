//! `K::scan()`: the typed scan builder. One state per field position, each offering the methods
//! of the field that comes next, so binding fields out of key order does not compile. The states
//! are one generic type per key whose parameter marks the position; every state, finished or
//! not, has the plan methods (`ranges`, `matches`, `is_exact`, `after`, `split`, `salt_len`) and
//! converts into `rowkey::Scan`. They forward to the core's planners, which hold the logic: the
//! array lane for layouts without a prefix, tag or text format, `rowkey::Scan` for the rest.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::bind::field_methods;
use super::field_name;
use crate::ast::{Prefix, Struct};

pub fn expand(s: &Struct, p: &syn::Ident) -> TokenStream {
    let Some(concrete) = super::generics::concrete_type(s.original) else {
        return TokenStream::new();
    };
    let generics = &s.original.generics;
    let ident = &s.original.ident;
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    // Keys without a prefix component or tag take the array lane, which writes the bound bytes
    // at known offsets into arrays of the key's length, or for keys that vary in length of a
    // capacity (a longer key hands the plan over to the general planner as it is bound).
    // (Not in every format: `Format::places_fields_at_offsets`.)
    let array_lane =
        matches!(s.prefix, Prefix::None) && s.tag.is_none() && s.format.places_fields_at_offsets();
    let layout_name = format_ident!("__ROWKEY_SCAN_LAYOUT");
    let layout = scan_layout(p, &layout_name, quote!(__ROWKEY_LAYOUT));
    let (array, lane_len) = if array_lane {
        (
            Some((quote!(__RowkeyPlan), quote!(__RowkeyRanged))),
            // The length once, in two aliases: every marker naming the planner with the constant
            // written out would be one more constant for the compiler to check and evaluate.
            quote! {
                const __ROWKEY_LEN: usize = #p::lane_len(<#concrete as #p::RowKey>::FIXED_LEN, <#concrete as #p::RowKey>::MAX_LEN);
                type __RowkeyPlan = #p::ArrayPlan<#concrete, __ROWKEY_LEN>;
                type __RowkeyRanged = #p::ArrayRanged<#concrete, __ROWKEY_LEN>;
            },
        )
    } else {
        (None, TokenStream::new())
    };
    let name = ident.to_string();
    let state = State::new(s.original, &name, &concrete, array);
    let chain = chain(s, p, &state, &name, true);
    let first = &chain.first;
    let start = state.start(p, &layout_name);
    let field_list = s
        .fields
        .iter()
        .map(|f| format!("`{}`", field_name(f)))
        .collect::<Vec<_>>()
        .join(", ");
    let scan_doc = format!(
        "A scan over `{ident}` keys: bind the fields in key order ({field_list}), each by value \
         (`f`), by a list of values (`f_in`), or, to finish, by a range (`f_range`) or a string \
         prefix (`f_prefix`); then take `ranges()`, or `into()` a `Scan`."
    );
    let state_type = state.definition(p);
    let markers = &chain.defs;
    let first_ty = state.of(first);
    super::if_alloc(quote! {
        #lane_len
        #layout
        #state_type
        #markers

        impl #impl_generics #ident #ty_generics #where_clause {
            #[doc = #scan_doc]
            #[inline]
            pub fn scan() -> #first_ty {
                #start
            }
        }
    })
}

/// The one generic state type of a key's scan builder, `{Key}Scan<Next>`: its parameter is a
/// marker type naming the field to bind next, so that "no method `ts` found for
/// `EventScan<EventNextUser>`" says which field must be bound first. On the general planner every
/// state holds a `rowkey::Scan`. In the array lane each marker also names the planner its state
/// holds (`Marked::Plan`, which the key implements for each of its markers: as the `Self` of an
/// impl, a marker renamed with its field would have an incremental build check every key's
/// builder again): the one that binds, or after a range or prefix its ranged form
/// (`{Key}Ranged`), so that every state stays small enough to move in registers. Its plan methods
/// and trait impls are written once per key; each is build time in every crate that derives, and
/// each forwards to one tested runtime function.
pub struct State {
    pub ident: syn::Ident,
    /// The marker of a finished plan: after the last field (and, on the general planner, after a
    /// range or prefix too).
    pub done: syn::Ident,
    vis: syn::Visibility,
    key: String,
    concrete: TokenStream,
    lane: Lane,
}

/// The planner behind a key's states.
pub enum Lane {
    /// `rowkey::Scan`, for every state.
    General,
    /// The array lane: the planner that binds, and its ranged form after the marker `ranged`.
    Array {
        planner: TokenStream,
        ranged: TokenStream,
        ranged_marker: syn::Ident,
    },
}

impl State {
    pub fn new(
        input: &syn::DeriveInput,
        name: &str,
        concrete: &TokenStream,
        array: Option<(TokenStream, TokenStream)>,
    ) -> State {
        let lane = match array {
            Some((planner, ranged)) => Lane::Array {
                planner,
                ranged,
                ranged_marker: format_ident!("{}Ranged", name),
            },
            None => Lane::General,
        };
        State {
            ident: format_ident!("{}Scan", name),
            done: format_ident!("{}Done", name),
            vis: input.vis.clone(),
            key: crate::unraw::unraw(&input.ident),
            concrete: concrete.clone(),
            lane,
        }
    }

    /// The state's parameter as an impl declares it: the marker of the field to bind next, which
    /// names the planner its state holds.
    fn param(&self, p: &syn::Ident) -> TokenStream {
        let concrete = &self.concrete;
        quote!(__RowkeyNext: #p::Marker<#concrete>)
    }

    /// The planner of a state that binds.
    fn planner(&self, p: &syn::Ident) -> TokenStream {
        match &self.lane {
            Lane::General => {
                let concrete = &self.concrete;
                quote!(#p::Scan<#concrete>)
            }
            Lane::Array { planner, .. } => planner.clone(),
        }
    }

    /// The state whose next field is `marker`.
    pub fn of(&self, marker: &syn::Ident) -> TokenStream {
        let state = &self.ident;
        quote!(#state<#marker>)
    }

    /// The state finished by a range or a prefix.
    pub fn ranged(&self) -> TokenStream {
        match &self.lane {
            Lane::General => self.of(&self.done),
            Lane::Array { ranged_marker, .. } => self.of(ranged_marker),
        }
    }

    /// A marker type, documented, and the key's impl naming the planner of its state.
    pub fn marker(&self, p: &syn::Ident, marker: &syn::Ident, doc: &str) -> TokenStream {
        self.marker_of(p, marker, doc, &self.planner(p))
    }

    fn marker_of(
        &self,
        p: &syn::Ident,
        marker: &syn::Ident,
        doc: &str,
        planner: &TokenStream,
    ) -> TokenStream {
        let (vis, concrete) = (&self.vis, &self.concrete);
        quote! {
            #[doc = #doc]
            #vis enum #marker {}

            impl #p::Marked<#marker> for #concrete {
                type Plan = #planner;
            }
        }
    }

    /// The first state, with a fresh planner on the layout `layout` (its marker is inferred).
    pub fn start(&self, p: &syn::Ident, layout: &syn::Ident) -> TokenStream {
        quote!(#p::start(&#layout))
    }

    /// The struct, its conversions, `Clone` and `Debug`, and the finished markers. The plan
    /// methods are the core's `ScanStep`'s, which the state dereferences to.
    pub fn definition(&self, p: &syn::Ident) -> TokenStream {
        let (state, done, vis, key, concrete) = (
            &self.ident,
            &self.done,
            &self.vis,
            &self.key,
            &self.concrete,
        );
        let state_doc = format!(
            "A scan over `{key}` keys, a state of `{key}::scan()`; its parameter names the field \
             to bind next. Every state has the plan methods of `rowkey::Scan` and converts into \
             one with `into()`."
        );
        let done_doc = format!("Marks a finished scan over `{key}` keys: nothing more to bind.");
        let done_marker = self.marker(p, done, &done_doc);
        let ranged_marker = match &self.lane {
            Lane::General => TokenStream::new(),
            Lane::Array {
                ranged,
                ranged_marker,
                ..
            } => {
                let doc =
                    format!("Marks a scan over `{key}` keys finished by a range or a prefix.");
                self.marker_of(p, ranged_marker, &doc, ranged)
            }
        };
        let param = self.param(p);
        let step = quote!(#p::ScanStep<#concrete, __RowkeyNext>);
        quote! {
            #[doc = #state_doc]
            #[must_use]
            #vis struct #state<#param>(#step);

            #done_marker
            #ranged_marker

            impl<#param> #p::Builder for #state<__RowkeyNext> {
                type Key = #concrete;
                type Next = __RowkeyNext;
                fn from_step(step: #step) -> Self {
                    #state(step)
                }
                fn into_step(self) -> #step {
                    self.0
                }
            }

            impl<#param> #p::Deref for #state<__RowkeyNext> {
                type Target = #step;
                fn deref(&self) -> &#step {
                    &self.0
                }
            }

            impl<#param> #p::Clone for #state<__RowkeyNext> {
                fn clone(&self) -> Self {
                    #state(#p::Clone::clone(&self.0))
                }
            }

            impl<#param> #p::Debug for #state<__RowkeyNext> {
                fn fmt(&self, f: &mut #p::Formatter<'_>) -> #p::FmtResult {
                    #p::Debug::fmt(&self.0, f)
                }
            }
        }
    }
}

/// The constant `ScanLayout` named `name`, read off `layout` (a constant `&Layout` expression:
/// the key's, or a variant's).
pub fn scan_layout(p: &syn::Ident, name: &syn::Ident, layout: TokenStream) -> TokenStream {
    quote! {
        const #name: #p::ScanLayout = #p::ScanLayout::of(#layout);
    }
}

/// The markers of a chain of states over the fields of `s`, and their binding methods.
pub struct Chain {
    pub defs: TokenStream,
    /// The marker of the first state (the finished marker when `s` has no fields).
    pub first: syn::Ident,
}

/// The chain of states over the fields of `s` on `state`: for each field a marker
/// `{prefix}Next{Field}` and the methods of the state it marks. The last field's methods, and
/// every range or prefix, lead to the finished state.
///
/// With `in_any_state` (struct keys), a field's methods are on every state, each bounded on the
/// state being the field's own (`Self: At<EventScan<EventNextTs>>`, which only that state meets),
/// so that binding out of key order fails with `At`'s message, which says the scan's order and
/// where it stands, rather than "no method `ts` on `EventScan<EventNextUser>`". The message
/// lives on a trait of the core: `#[diagnostic::...]` cannot be written in a module without the
/// prelude, where generated code must compile too. Keys where two fields' method names meet (`a`
/// and `a_in`) keep each field's methods on its own state, as enum keys do (their variants'
/// fields share one state type).
pub fn chain(s: &Struct, p: &syn::Ident, state: &State, prefix: &str, in_any_state: bool) -> Chain {
    let key = &state.key;
    let markers: Vec<_> = s
        .fields
        .iter()
        .map(|f| format_ident!("{}Next{}", prefix, camel(&field_name(f))))
        .collect();
    let names: Vec<String> = s.fields.iter().map(field_name).collect();
    let method_names: Vec<[String; 4]> = names
        .iter()
        .map(|n| {
            [
                n.clone(),
                format!("{n}_in"),
                format!("{n}_range"),
                format!("{n}_prefix"),
            ]
        })
        .collect();
    let clash = method_names.iter().enumerate().any(|(i, own)| {
        method_names
            .iter()
            .enumerate()
            .any(|(j, other)| i != j && own.iter().any(|m| other.contains(m)))
    });
    let in_any_state = in_any_state && !clash;
    let done = state.of(&state.done);
    let ranged = state.ranged();
    let state_ident = &state.ident;
    let param = state.param(p);
    let format = &s.format;
    let defs = s.fields.iter().enumerate().map(|(i, field)| {
        let marker = &markers[i];
        let next = match markers.get(i + 1) {
            Some(n) => state.of(n),
            None => done.clone(),
        };
        let name = &names[i];
        let marker_doc = format!("Marks a scan over `{key}` keys whose next field is `{name}`.");
        let marker_def = state.marker(p, marker, &marker_doc);
        let mode = super::mode_ref(s, i);
        if !in_any_state {
            let methods = field_methods(field, format, &mode, p, &next, &ranged, None);
            return quote! {
                #marker_def

                impl #state_ident<#marker> {
                    #methods
                }
            };
        }
        // The methods are on every state, bounded on being this field's state: `At` is
        // implemented by each type for itself alone, and its message says the scan's order.
        let here = state.of(marker);
        let bound = quote!(Self: #p::At<#here>);
        let methods = field_methods(field, format, &mode, p, &next, &ranged, Some(&bound));
        quote! {
            #marker_def

            impl<#param> #state_ident<__RowkeyNext> {
                #methods
            }
        }
    });
    Chain {
        defs: quote!(#(#defs)*),
        first: markers
            .first()
            .cloned()
            .unwrap_or_else(|| state.done.clone()),
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
