//! Cross-field and per-field rules that syntax alone can decide. Rules that need a type's
//! `KeyField::SHAPE` (users' own types, nested keys) are emitted as const assertions instead
//! (see `expand::checks`).

use rowkey_core::private::PLAN_METHODS;
use rowkey_core::{HashPrefix, Salt, SaltHash};

use crate::ast::{Field, Format, KeyedEnum, Struct, TypeKind};
use crate::attr::{HashAttr, SaltAttr};
use crate::ctxt::Ctxt;

mod phoenix;
mod text;

pub fn check_struct(cx: &Ctxt, s: &Struct) {
    check_field_count(cx, s);
    for field in &s.fields {
        check_field(cx, field, &s.format);
    }
    check_prefix(cx, s);
    text::check(cx, s);
    phoenix::check(cx, s);
}

/// An enum key: each variant's fields as a struct's, without a prefix component.
pub fn check_keyed(cx: &Ctxt, e: &KeyedEnum) {
    for v in &e.variants {
        // Every scan state has the plan methods: a variant method of the same name would be a
        // second method of that name on the whole-enum state.
        let method = crate::unraw::unraw(&v.scan_method());
        if PLAN_METHODS.contains(&method.as_str()) {
            cx.error_spanned_by(
                v.ident,
                format!("a variant named `{}` would be the scan method `{method}`, which every plan has (`Row::scan().{method}()`): rename the variant", v.ident),
            );
        }
        let s = &v.key;
        check_field_count(cx, s);
        for field in &s.fields {
            check_field(cx, field, &s.format);
            let why = "an enum key cannot have a salt or hash prefix: its tag comes first, so each variant's keys sit together (salt a struct key instead)";
            if let Some(salt) = field.attrs.salt {
                cx.error(salt.span, why);
            }
            if let Some(hash) = field.attrs.hash_prefix {
                cx.error(hash.span, why);
            }
        }
        text::check(cx, s);
    }
}

/// Largest bucket count: the bucket must fit the one salt byte.
const MAX_BUCKETS: u64 = Salt::MAX_BUCKETS as u64;
/// Longest binary hash prefix: an MD5 digest.
const MAX_HASH_LEN: u64 = HashPrefix::MAX_LEN as u64;
/// Longest text hash prefix: an MD5 digest in hex.
const MAX_TEXT_HASH_LEN: u64 = HashPrefix::MAX_TEXT_LEN as u64;

/// One prefix component, its parameters valid and the same on every source.
fn check_prefix(cx: &Ctxt, s: &Struct) {
    let field_salts = field_salts(s);
    let hashes = hash_sources(s);
    for salt in s
        .attrs
        .salt
        .iter()
        .chain(field_salts.iter().map(|(_, a)| a))
    {
        check_buckets(cx, salt);
    }
    for (_, hash) in &hashes {
        check_hash_params(cx, hash, &s.format);
    }
    // The salt that sets the prefix: the whole-key one, else the first field's.
    let first_salt = s
        .attrs
        .salt
        .as_ref()
        .or(field_salts.first().map(|(_, a)| a));
    check_one_component(cx, s, first_salt, &field_salts, &hashes);
    check_salts_agree(cx, &field_salts);
    check_hashes_agree(cx, &hashes);
    if let Some(salt) = first_salt.filter(|salt| salt.hash_kind() == SaltHash::Mod) {
        check_mod_source(cx, s, salt, &field_salts);
    }
}

/// The fields that are salt sources, with their `salt`, in declaration order.
fn field_salts<'s, 'a>(s: &'s Struct<'a>) -> Vec<(&'s Field<'a>, SaltAttr)> {
    s.fields
        .iter()
        .filter_map(|f| f.attrs.salt.map(|a| (f, a)))
        .collect()
}

/// The fields that are hash prefix sources, with their `hash_prefix`, in declaration order.
fn hash_sources<'s, 'a>(s: &'s Struct<'a>) -> Vec<(&'s Field<'a>, HashAttr)> {
    s.fields
        .iter()
        .filter_map(|f| f.attrs.hash_prefix.map(|a| (f, a)))
        .collect()
}

/// A salt's `buckets`, which must fit the one salt byte.
fn check_buckets(cx: &Ctxt, salt: &SaltAttr) {
    if !(1..=MAX_BUCKETS).contains(&salt.buckets.value) {
        cx.error(
            salt.buckets.span,
            format!("`buckets` must be in 1..={MAX_BUCKETS}: the bucket is stored in one byte"),
        );
    }
}

/// A hash prefix's `len`, at most an MD5 digest in the layout's form, and `upper` only where the
/// prefix is hex digits.
fn check_hash_params(cx: &Ctxt, hash: &HashAttr, format: &Format) {
    let hex = format.hash_prefix_is_hex();
    if hex && !(1..=MAX_TEXT_HASH_LEN).contains(&hash.len.value) {
        cx.error(
            hash.len.span,
            format!("`len` of a text hash prefix must be in 1..={MAX_TEXT_HASH_LEN}: the hex digits of an MD5 digest"),
        );
    } else if !hex && !(1..=MAX_HASH_LEN).contains(&hash.len.value) {
        cx.error(
            hash.len.span,
            format!("`len` of a binary hash prefix must be in 1..={MAX_HASH_LEN}: the bytes of an MD5 digest"),
        );
    }
    if let Some(upper) = hash.upper.filter(|_| !hex) {
        cx.error(
            upper,
            "`upper` applies to text layouts, whose hash prefix is hex digits; a binary hash prefix is raw bytes",
        );
    }
}

/// A key has one prefix component: a whole-key salt or field salts, and a salt or a hash prefix.
/// Each clash is reported once, on the first source of the second kind.
fn check_one_component(
    cx: &Ctxt,
    s: &Struct,
    first_salt: Option<&SaltAttr>,
    field_salts: &[(&Field, SaltAttr)],
    hashes: &[(&Field, HashAttr)],
) {
    if let (Some(_), Some((field, salt))) = (&s.attrs.salt, field_salts.first()) {
        cx.error(
            salt.span,
            format!(
                "the struct already has a whole-key `salt`; remove the one on field `{}`",
                field.ident
            ),
        );
    }
    if let (Some(_), Some((_, hash))) = (first_salt, hashes.first()) {
        cx.error(
            hash.span,
            "a key has one prefix component: a salt or a hash prefix, not both",
        );
    }
}

/// Every salt source shares the first one's `buckets` and `hash`.
fn check_salts_agree(cx: &Ctxt, field_salts: &[(&Field, SaltAttr)]) {
    let Some(((first_field, first), rest)) = field_salts.split_first() else {
        return;
    };
    for (_, salt) in rest {
        if salt.buckets.value != first.buckets.value {
            cx.error(
                salt.buckets.span,
                format!(
                    "every salt source must use the same `buckets`: field `{}` has {}",
                    first_field.ident, first.buckets.value
                ),
            );
        }
        if salt.hash_kind() != first.hash_kind() {
            cx.error(
                salt.hash_span(),
                format!(
                    "every salt source must use the same `hash`: field `{}` uses {:?}",
                    first_field.ident,
                    first.hash_kind().name()
                ),
            );
        }
    }
}

/// Every hash prefix source shares the first one's `len`.
fn check_hashes_agree(cx: &Ctxt, hashes: &[(&Field, HashAttr)]) {
    let Some(((first_field, first), rest)) = hashes.split_first() else {
        return;
    };
    for (_, hash) in rest {
        if hash.len.value != first.len.value {
            cx.error(
                hash.len.span,
                format!(
                    "every hash prefix source must use the same `len`: field `{}` has {}",
                    first_field.ident, first.len.value
                ),
            );
        }
    }
}

/// `hash = "mod"` reads its one source as a number: exactly one unsigned integer.
fn check_mod_source(cx: &Ctxt, s: &Struct, salt: &SaltAttr, field_salts: &[(&Field, SaltAttr)]) {
    let whole_key = s.attrs.salt.is_some();
    let sources: Vec<&Field> = if whole_key {
        s.fields.iter().collect()
    } else {
        field_salts.iter().map(|(f, _)| *f).collect()
    };
    if let Some(problem) = mod_source_problem(&sources, whole_key) {
        cx.error(
            salt.hash_span(),
            format!("`hash = \"mod\"` takes the source `% buckets`, so it needs exactly one unsigned integer source; {problem}"),
        );
    }
}

/// Why `sources` (all the fields, for a `whole_key` salt) are not one unsigned integer, if they
/// are not.
fn mod_source_problem(sources: &[&Field], whole_key: bool) -> Option<String> {
    match sources {
        [f] if matches!(&f.kind, TypeKind::Int { name, .. } if name.starts_with('u')) => None,
        [f] => Some(format!(
            "field `{}` is `{}`, not an unsigned integer",
            f.ident,
            quote::ToTokens::to_token_stream(f.ty)
                .to_string()
                .replace(' ', "")
        )),
        many if whole_key => Some(format!("a whole-key salt reads all {} fields", many.len())),
        many => Some(format!(
            "it has {} sources: {}",
            many.len(),
            many.iter()
                .map(|f| format!("`{}`", f.ident))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The rules of one field in a key of `format`.
fn check_field(cx: &Ctxt, field: &Field, format: &Format) {
    let attrs = &field.attrs;
    // The scan builder's state for this field has a method named after it, and every state has
    // the plan methods: the two cannot share a name.
    let name = crate::unraw::unraw(field.ident);
    if PLAN_METHODS.contains(&name.as_str()) {
        cx.error_spanned_by(
            field.ident,
            format!("a field named `{name}` clashes with the scan plan method `{name}`: a scan builder state cannot offer both `.{name}(value)`, which binds the field, and the plan's `.{name}(..)`; rename the field (the name is not stored in the key's bytes)"),
        );
    }
    if let (Some(_), Some(reverse)) = (attrs.desc, attrs.reverse) {
        cx.error(
            reverse,
            "`desc` and `reverse` cannot both apply: a reversed field has no order to invert",
        );
    }
    let kind = field.kind.innermost();
    // Whether the type takes each attribute is its shape's rule (the core's); the words are ours.
    let shape = kind.shape();
    if let Some(width) = attrs.width {
        match (kind, shape) {
            _ if width.value == 0 => cx.error(width.span, "`width` must be at least 1"),
            // A text number's width counts digits (check_text).
            (TypeKind::Int { .. }, _) if format.width_counts_digits() => {}
            (_, Some(shape)) if !rowkey_core::private::accepts_width(shape, width.value) => match kind {
                TypeKind::Int { name, .. } => cx.error(
                    width.span,
                    format!(
                        "`width` of a `{name}` is at most {} bytes: integers are narrowed, never widened",
                        shape.fixed_len(rowkey_core::FieldMode::LAST).unwrap_or_default()
                    ),
                ),
                _ => cx.error(
                    width.span,
                    format!(
                        "`width` applies to integers, strings and bytes, not to {}{}",
                        describe(kind),
                        inside_option(field)
                    ),
                ),
            },
            _ => {}
        }
    }
    if let Some(reverse) = attrs.reverse {
        if shape.is_some_and(|s| !rowkey_core::private::is_reversible(s)) {
            cx.error(
                reverse,
                format!(
                    "`reverse` applies to numbers, strings and bytes, not to {}{}",
                    describe(kind),
                    inside_option(field)
                ),
            );
        }
    }
    if let Some(unit) = attrs.unit {
        // Other types are checked by their shape when the crate compiles (expand::checks).
        if shape.is_some_and(|s| !s.is_time()) {
            let ty = quote::ToTokens::to_token_stream(field.ty)
                .to_string()
                .replace(' ', "");
            cx.error(
                unit.span,
                format!("`unit` applies to time fields (`SystemTime`), not to `{ty}`"),
            );
        }
    }
    check_format(cx, field, kind, format.takes_time_format());
    check_borrowed(cx, field, kind, !format.escapes_content());
    check_static_cow(cx, field.ty);
    check_hashed_len(cx, field.ty);
}

/// `format = "..."`: a fixed-length chrono format, on a time in a text layout, alone. Whether the
/// type is one of chrono's, and the format keeps what it needs, is checked by its shape when the
/// crate compiles (expand::checks).
fn check_format(cx: &Ctxt, field: &Field, kind: &TypeKind, applies: bool) {
    use rowkey_core::private::timefmt::{spec, Problem};
    let attrs = &field.attrs;
    let Some(format) = &attrs.format else {
        return;
    };
    let fmt = format.value.as_str();
    // The specifier at byte `i`: `%` and its letter, or three characters for `%.3f`, `%-d`.
    let at = |i: usize| {
        let rest = fmt.get(i..).unwrap_or_default();
        let long = rest
            .chars()
            .nth(1)
            .is_some_and(|c| ".-_0123456789".contains(c));
        rest.chars()
            .take(if long { 3 } else { 2 })
            .collect::<String>()
    };
    match spec(fmt) {
        Ok(_) => {}
        Err(Problem::Variable { at: i }) => cx.error(
            format.span,
            format!("`format` must write every time in the same length, but `{}` does not (names, time zones, seconds since the epoch and `%-` vary); use numbers: `%Y%m%d`, `%H%M%S`", at(i)),
        ),
        Err(Problem::Unsupported { at: i }) => cx.error(
            format.span,
            format!("`{}` is not supported in a key's `format`; use `%Y` `%y` `%m` `%d` `%e` `%j` `%H` `%k` `%I` `%l` `%M` `%S` `%f` `%3f` `%6f` `%9f` `%.3f` `%.6f` `%.9f` `%b` `%a` `%p` `%u` `%w` `%F` `%T` `%R` `%D` `%%`", at(i)),
        ),
        Err(Problem::Constant) => cx.error(
            format.span,
            "this `format` writes nothing of the time: every key would hold the same text",
        ),
    }
    if !applies {
        cx.error(format.span, "`format` writes text: it applies in text layouts (`#[rowkey(text)]`); a binary layout writes the count of `unit`s");
    }
    if let Some(unit) = attrs.unit {
        cx.error(
            unit.span,
            "`unit` and `format` exclude each other: the format says what is written",
        );
    }
    if let Some(width) = attrs.width {
        cx.error(
            width.span,
            "`width` has no meaning with `format`, whose length is fixed by the format",
        );
    }
    if let Some(desc) = attrs.desc {
        cx.error(
            desc,
            "`desc` cannot be written with `format`: text has no inverted form",
        );
    }
    if let Some(reverse) = attrs.reverse {
        cx.error(reverse, "`reverse` cannot be written with `format`");
    }
    if *kind != TypeKind::Other {
        let ty = quote::ToTokens::to_token_stream(field.ty)
            .to_string()
            .replace(' ', "");
        cx.error(
            format.span,
            format!("`format` applies to chrono's `DateTime<Utc>`, `NaiveDateTime`, `NaiveDate` and `NaiveTime`, not to `{ty}`"),
        );
    }
}

/// `Hashed<N>` keeps 1 to 16 bytes of MD5: an `N` outside that, written as a number, is an error
/// on the number (the type's own const check would point into rowkey). Looks through the type's
/// generic arguments (`Option<Hashed<0>>`).
fn check_hashed_len(cx: &Ctxt, ty: &syn::Type) {
    let syn::Type::Path(path) = ty else { return };
    for segment in &path.path.segments {
        let syn::PathArguments::AngleBracketed(args) = &segment.arguments else {
            continue;
        };
        for arg in &args.args {
            match arg {
                syn::GenericArgument::Type(inner) => check_hashed_len(cx, inner),
                syn::GenericArgument::Const(syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Int(n),
                    ..
                })) if segment.ident == "Hashed" => {
                    let len = n.base10_parse::<usize>().ok();
                    if !len.is_some_and(|n| (1..=HashPrefix::MAX_LEN).contains(&n)) {
                        cx.error(
                            n.span(),
                            format!(
                                "`Hashed<N>` keeps 1 to {} bytes of MD5, not {n}",
                                HashPrefix::MAX_LEN
                            ),
                        );
                    }
                }
                _ => {}
            }
        }
    }
}

/// `Cow<'static, _>` would have to borrow key bytes for `'static`; decoding could never compile.
fn check_static_cow(cx: &Ctxt, ty: &syn::Type) {
    let syn::Type::Path(path) = ty else { return };
    let Some(last) = path.path.segments.last() else {
        return;
    };
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return;
    };
    for arg in &args.args {
        match arg {
            syn::GenericArgument::Lifetime(l) if last.ident == "Cow" && l.ident == "static" => {
                cx.error_spanned_by(
                    l,
                    "a `Cow<'static, _>` field cannot borrow from the key being decoded; use a lifetime parameter (`Cow<'a, str>`) or an owned `String`/`Vec<u8>`",
                );
            }
            syn::GenericArgument::Type(inner) => check_static_cow(cx, inner),
            _ => {}
        }
    }
}

/// `&str` and `&[u8]` borrow from the key, so their stored bytes must be the content itself.
/// `unescaped`: a text or Phoenix layout, where content another field follows is stored as it is.
fn check_borrowed(cx: &Ctxt, field: &Field, kind: &TypeKind, unescaped: bool) {
    let (TypeKind::Str { borrowed: true } | TypeKind::Bytes { borrowed: true }) = kind else {
        return;
    };
    let attrs = &field.attrs;
    let why = if attrs.desc.is_some() {
        Some("its bytes are inverted by `desc`")
    } else if attrs.reverse.is_some() {
        Some("its bytes are reversed")
    } else if attrs.width.is_none() && !field.last && !unescaped {
        Some("it is not the last field, so its content is escaped")
    } else {
        None
    };
    if let Some(why) = why {
        let cow = if matches!(kind, TypeKind::Str { .. }) {
            "Cow<'a, str>"
        } else {
            "Cow<'a, [u8]>"
        };
        cx.error_spanned_by(
            field.ty,
            format!("a borrowed field cannot be decoded here: {why}; use `{cow}`, which borrows when it can, or an owned type"),
        );
    }
}

fn describe(kind: &TypeKind) -> String {
    match kind {
        TypeKind::Bool => "`bool`".into(),
        TypeKind::Char => "`char`".into(),
        TypeKind::Float { name, .. } => format!("`{name}`"),
        TypeKind::ByteArray { .. } => "byte arrays (their length is their width)".into(),
        _ => "this type".into(),
    }
}

/// " (the value inside `Option<..>`)" for optional fields, so the message matches the declared type.
fn inside_option(field: &Field) -> String {
    if matches!(field.kind, TypeKind::Option(_)) {
        let ty = quote::ToTokens::to_token_stream(field.ty)
            .to_string()
            .replace(' ', "");
        format!(" (the value inside `{ty}`)")
    } else {
        String::new()
    }
}

/// At most `MAX_FIELDS` fields a key (or variant): the key walk's limit.
fn check_field_count(cx: &Ctxt, s: &Struct) {
    let max = rowkey_core::private::walk::MAX_FIELDS;
    if let Some(field) = s.fields.get(max) {
        cx.error_spanned_by(
            field.ident,
            format!("a key has at most {max} fields, and this is field {}: split the key, or group fields into a nested key", max + 1),
        );
    }
}
