//! The rules of `#[rowkey(text)]` that syntax decides: the field types text writes, and where
//! its delimiter must be able to end a string. Types the derive cannot see into are checked when
//! the crate compiles (`Format::field_check`).

use rowkey_core::TextRule;

use crate::ast::{Format, Struct, TypeKind};
use crate::ctxt::Ctxt;

/// The most digits a text number can have: those of `u128::MAX`.
const MAX_TEXT_DIGITS: usize = TextRule::MAX_DIGITS;

/// The rules of the text format (`#[rowkey(text)]`) that syntax decides.
pub(super) fn check(cx: &Ctxt, s: &Struct) {
    let Format::Text(delimiter) = &s.format else {
        return;
    };
    for field in &s.fields {
        let kind = field.kind.innermost();
        let unsupported = match (&field.kind, kind) {
            (TypeKind::Option(_), _) => Some("`Option`"),
            (_, TypeKind::Float { .. }) => Some("floats"),
            (_, TypeKind::Bytes { .. } | TypeKind::ByteArray { .. }) => Some("byte strings"),
            (_, TypeKind::Bool) => Some("`bool`"),
            (_, TypeKind::Char) => Some("`char`"),
            _ => None,
        };
        if let Some(what) = unsupported {
            cx.error_spanned_by(
                field.ty,
                format!("{what} cannot be written in a text layout, whose segments are integers, strings and fieldless enums"),
            );
            continue;
        }
        if let (TypeKind::Str { .. }, Some(desc)) = (kind, field.attrs.desc) {
            cx.error(
                desc,
                "`desc` on a string cannot be written in a text layout: text has no inverted form",
            );
        }
        if let (TypeKind::Int { .. }, Some(w)) = (kind, field.attrs.width) {
            if w.value > MAX_TEXT_DIGITS {
                cx.error(
                    w.span,
                    format!("`width` of a text number is at most {MAX_TEXT_DIGITS} digits"),
                );
            }
        }
        let variable = matches!(kind, TypeKind::Str { .. }) && field.attrs.width.is_none();
        if delimiter.is_empty() && variable && !field.last {
            cx.error_spanned_by(
                field.ty,
                "with an empty delimiter this string's end cannot be found: give it a `width`, make it the last field, or set a `delimiter`",
            );
        }
    }
}
