//! Raw identifiers (`r#type`): generated items that are the field itself keep the raw form, so they
//! parse; names built from a field (`type_in`) and names in messages and `LAYOUT` use it without
//! the `r#`.

use proc_macro2::Ident;

/// The identifier as users read it: `r#type` is `type`.
pub fn unraw(ident: &Ident) -> String {
    let name = ident.to_string();
    match name.strip_prefix("r#") {
        Some(bare) => bare.to_owned(),
        None => name,
    }
}
