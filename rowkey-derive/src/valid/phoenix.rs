//! The rules of `#[rowkey(phoenix)]` that syntax decides: what Phoenix's primary key cannot
//! hold besides the column types, which are checked against each field type's `SHAPE` (in
//! expand/checks.rs, from the runtime's one mapping).

use rowkey_core::SaltHash;

use crate::ast::{Format, Struct};
use crate::ctxt::Ctxt;

/// What Phoenix's primary key cannot hold, that syntax tells (the column types of the fields
/// are checked against their `SHAPE`s, in expand/checks.rs).
pub(super) fn check(cx: &Ctxt, s: &Struct) {
    let Format::Phoenix(phoenix) = s.format else {
        return;
    };
    let generics = &s.original.generics;
    if generics.type_params().next().is_some() || generics.const_params().next().is_some() {
        cx.error(phoenix, "a Phoenix layout's columns are checked when it compiles, and a type parameter's column is not known then: `phoenix` applies to structs without type parameters (lifetimes are fine)");
    }
    if let Some(tag) = &s.attrs.tag {
        cx.error(tag.span, "a Phoenix key starts with its first column (after the salt byte): `tag` does not apply");
    }
    if let Some(salt) = &s.attrs.salt {
        if let Some(hash) = salt.hash.filter(|h| h.value != SaltHash::Java) {
            cx.error(hash.span, "Phoenix's salt byte is `abs(h % N)` of Java's `Arrays.hashCode` of the key after it: leave `hash` out (it is \"java\")");
        }
    }
    for field in &s.fields {
        let a = &field.attrs;
        if let Some(span) = a.reverse {
            cx.error(
                span,
                "Phoenix stores no column reversed: `reverse` does not apply to a Phoenix layout",
            );
        }
        if let Some(salt) = a.salt {
            cx.error(
                salt.span,
                "Phoenix salts the whole key: put `salt(buckets = N)` on the struct",
            );
        }
        if let Some(hash) = a.hash_prefix {
            cx.error(hash.span, "Phoenix has no hash prefix: its keys start with the first column, or the salt byte (`salt(buckets = N)` on the struct)");
        }
        if let Some(format) = &a.format {
            cx.error(
                format.span,
                "`format` applies to text layouts, and a Phoenix layout is Phoenix's bytes",
            );
        }
    }
}
