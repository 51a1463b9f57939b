//! The layout model: what the derive knows about the key, built from syn's nodes and keeping them
//! for error spans.

use proc_macro2::Span;
use rowkey_core::{FieldShape, KeyField, SaltHash};
use syn::{Data, DeriveInput, Fields, Ident, Type};

use crate::attr::{self, ContainerAttrs, FieldAttrs};
use crate::ctxt::Ctxt;

mod format;
mod keyed;

pub use format::Format;
pub use keyed::KeyedEnum;

pub enum Input<'a> {
    Struct(Struct<'a>),
    /// A fieldless enum: a one-byte field.
    Enum(Enum<'a>),
    /// An enum whose variants have fields: a key per variant behind the variant's tag.
    Keyed(KeyedEnum<'a>),
}

pub struct Struct<'a> {
    /// The struct, or for a variant of a keyed enum the enum.
    pub original: &'a DeriveInput,
    pub attrs: ContainerAttrs,
    pub fields: Vec<Field<'a>>,
    /// The tag before everything else, as stored.
    pub tag: Option<StoredTag>,
    /// For the key of an enum variant, the variant.
    pub variant: Option<&'a Ident>,
    /// The byte format, chosen once from the attributes.
    pub format: Format,
    /// The prefix component, read once from the attributes.
    pub prefix: Prefix,
}

pub struct Field<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    pub attrs: FieldAttrs,
    pub kind: TypeKind,
    /// Whether this is the last field, whose variable-length content may run to the end of the key.
    pub last: bool,
}

/// A tag's bytes as the layout stores them, and the text delimiter after them.
#[derive(Clone)]
pub struct StoredTag {
    pub bytes: Vec<u8>,
    pub delimiter: String,
    /// The `tag` literal, or the variant when the tag is its discriminant.
    pub span: Span,
}

impl StoredTag {
    /// The bytes the tag takes in a key.
    pub fn len(&self) -> usize {
        self.bytes.len() + self.delimiter.len()
    }
}

/// The prefix component of a valid layout (valid.rs rejects the invalid combinations first).
pub enum Prefix {
    None,
    Salt {
        buckets: u16,
        hash: SaltHash,
        sources: Sources,
    },
    Hash {
        len: usize,
        upper: bool,
        sources: Vec<usize>,
    },
}

/// Where a salt's source bytes come from.
pub enum Sources {
    /// These fields' value bytes, joined in declaration order.
    Fields(Vec<usize>),
    /// The whole key after the salt byte.
    WholeKey,
}

impl Struct<'_> {
    /// Whether syntax alone shows a field of varying length (so the layout has no `LEN`).
    pub fn has_variable_field(&self) -> bool {
        self.fields
            .iter()
            .any(|f| f.kind.is_variable(f.attrs.width.map(|w| w.value)))
    }

    /// The bytes the prefix takes, as the runtime lays it out in the key's format.
    pub fn prefix_len(&self) -> usize {
        self.format.prefix_len(&self.prefix)
    }
}

/// The prefix component, read from the first salt or hash prefix declared (valid.rs rejects the
/// layouts that declare more than one kind).
fn prefix_of(attrs: &ContainerAttrs, format: &Format, fields: &[Field]) -> Prefix {
    if let Some(salt) = &attrs.salt {
        return Prefix::Salt {
            buckets: salt.buckets.value as u16,
            hash: format.salt_hash(salt.hash_kind()),
            sources: Sources::WholeKey,
        };
    }
    let salted: Vec<usize> = (0..fields.len())
        .filter(|&i| fields[i].attrs.salt.is_some())
        .collect();
    if let Some(salt) = salted.first().and_then(|&i| fields[i].attrs.salt) {
        return Prefix::Salt {
            buckets: salt.buckets.value as u16,
            hash: salt.hash_kind(),
            sources: Sources::Fields(salted),
        };
    }
    let hashed: Vec<usize> = (0..fields.len())
        .filter(|&i| fields[i].attrs.hash_prefix.is_some())
        .collect();
    if let Some(hash) = hashed.first().and_then(|&i| fields[i].attrs.hash_prefix) {
        return Prefix::Hash {
            len: hash.len.value as usize,
            upper: hash.upper.is_some(),
            sources: hashed,
        };
    }
    Prefix::None
}

pub struct Enum<'a> {
    pub original: &'a DeriveInput,
    pub attrs: ContainerAttrs,
    pub variants: Vec<&'a Ident>,
}

/// What the derive can tell of a field's type from its syntax. `Other` covers enums, nested keys,
/// aliases and users' own types: their rules are checked through their `KeyField::SHAPE` instead.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TypeKind {
    Int { bytes: usize, name: String },
    Bool,
    Char,
    Float { bytes: usize, name: String },
    ByteArray { len: Option<usize> },
    Str { borrowed: bool },
    Bytes { borrowed: bool },
    Option(Box<TypeKind>),
    Other,
}

impl<'a> Input<'a> {
    /// The model of `input`, or `None` for shapes the derive does not accept (reported in `cx`).
    pub fn from_syn(cx: &Ctxt, input: &'a DeriveInput) -> Option<Self> {
        let attrs = attr::container_attrs(cx, &input.attrs);
        match &input.data {
            Data::Struct(data) => Struct::from_syn(cx, input, data, attrs).map(Input::Struct),
            Data::Enum(data) => Input::from_enum(cx, input, data, attrs),
            Data::Union(u) => {
                cx.error(
                    u.union_token.span,
                    "#[derive(RowKey)] does not accept unions",
                );
                None
            }
        }
    }

    /// An enum key when a variant has fields, else a fieldless enum (one field of a key).
    fn from_enum(
        cx: &Ctxt,
        input: &'a DeriveInput,
        data: &'a syn::DataEnum,
        attrs: ContainerAttrs,
    ) -> Option<Self> {
        let keyed = data
            .variants
            .iter()
            .any(|v| !matches!(v.fields, Fields::Unit));
        let ok = check_enum_shape(cx, input, data, keyed);
        if keyed {
            return KeyedEnum::from_syn(cx, input, data, attrs)
                .filter(|_| ok)
                .map(Input::Keyed);
        }
        let fieldless = Enum::from_syn(cx, input, data, attrs);
        ok.then_some(Input::Enum(fieldless))
    }
}

/// Whether the enum has a shape the derive accepts: a variant, no generics but an enum key's
/// lifetimes, named fields in variants. Reports every problem, not only the first.
fn check_enum_shape(cx: &Ctxt, input: &DeriveInput, data: &syn::DataEnum, keyed: bool) -> bool {
    let mut ok = true;
    if data.variants.is_empty() {
        cx.error_spanned_by(
            &input.ident,
            "#[derive(RowKey)] needs an enum with at least one variant",
        );
        ok = false;
    }
    // An enum key may borrow (`&'a str` fields); a fieldless enum has nothing to borrow.
    let generic = input
        .generics
        .params
        .iter()
        .any(|g| !keyed || !matches!(g, syn::GenericParam::Lifetime(_)));
    if generic {
        cx.error_spanned_by(
            &input.generics,
            "#[derive(RowKey)] does not accept generic enums (an enum key may have lifetimes)",
        );
        ok = false;
    }
    for v in &data.variants {
        if let Fields::Unnamed(fields) = &v.fields {
            cx.error_spanned_by(
                fields,
                "#[derive(RowKey)] needs named fields in a variant (`Order { user: u64 }`): scans bind fields by name (`Row::scan().order().user(42)`)",
            );
            ok = false;
        }
    }
    ok
}

impl<'a> Struct<'a> {
    /// A struct key, or `None` without named fields (reported in `cx`).
    fn from_syn(
        cx: &Ctxt,
        input: &'a DeriveInput,
        data: &'a syn::DataStruct,
        attrs: ContainerAttrs,
    ) -> Option<Self> {
        let Fields::Named(named) = &data.fields else {
            cx.error_spanned_by(
                &input.ident,
                "#[derive(RowKey)] needs a struct with named fields: scans are built by field name",
            );
            return None;
        };
        let fields = fields_of(cx, named);
        if fields.is_empty() {
            cx.error_spanned_by(
                &data.fields,
                "a row key needs at least one field: an empty key cannot be stored",
            );
            return None;
        }
        let format = Format::of_struct(cx, &attrs);
        let tag = attrs.tag.as_ref().and_then(|tag| {
            Some(StoredTag {
                bytes: format.stored_tag(cx, tag)?,
                delimiter: format.delimiter().unwrap_or_default().to_owned(),
                span: tag.span,
            })
        });
        Some(Struct {
            original: input,
            prefix: prefix_of(&attrs, &format, &fields),
            format,
            tag,
            variant: None,
            attrs,
            fields,
        })
    }
}

impl<'a> Enum<'a> {
    /// A fieldless enum, with an error on each attribute it takes no meaning from.
    fn from_syn(
        cx: &Ctxt,
        input: &'a DeriveInput,
        data: &'a syn::DataEnum,
        attrs: ContainerAttrs,
    ) -> Self {
        // A fieldless enum is a one-byte field; the layout it sits in decides its format and
        // prefix, so these mean nothing here.
        Format::refuse_on_fieldless_enum(cx, &attrs);
        if let Some(salt) = &attrs.salt {
            cx.error(salt.span, "`salt` has no meaning on a fieldless enum, which is one field of a key: put it on the struct, or on the field that holds the enum");
        }
        if let Some(m) = &attrs.max_len {
            cx.error(m.span, "`max_len` has no meaning on a fieldless enum, which is one byte of a key: put it on the struct");
        }
        if let Some(tag) = &attrs.tag {
            cx.error(tag.span, "`tag` has no meaning on a fieldless enum, which is one byte of a key: put it on the struct that holds it (an enum whose variants have fields takes tags)");
        }
        for v in &data.variants {
            if let Some(tag) = attr::variant_attrs(cx, &v.attrs).tag {
                cx.error(tag.span, "a fieldless enum stores its discriminant, one byte: a variant `tag` applies to enums whose variants have fields");
            }
        }
        Enum {
            original: input,
            attrs,
            variants: data.variants.iter().map(|v| &v.ident).collect(),
        }
    }
}

/// The fields of a struct or variant, in key order.
fn fields_of<'a>(cx: &Ctxt, named: &'a syn::FieldsNamed) -> Vec<Field<'a>> {
    let count = named.named.len();
    named
        .named
        .iter()
        .enumerate()
        // Named fields always have an ident; filter_map keeps the derive panic-free.
        .filter_map(|(i, f)| {
            Some(Field {
                ident: f.ident.as_ref()?,
                ty: &f.ty,
                attrs: attr::field_attrs(cx, &f.attrs),
                kind: TypeKind::of(&f.ty),
                last: i + 1 == count,
            })
        })
        .collect()
}

impl TypeKind {
    pub fn of(ty: &Type) -> TypeKind {
        match ty {
            Type::Group(g) => TypeKind::of(&g.elem),
            Type::Paren(p) => TypeKind::of(&p.elem),
            Type::Reference(r) => match &*r.elem {
                Type::Path(p) if p.qself.is_none() && p.path.is_ident("str") => {
                    TypeKind::Str { borrowed: true }
                }
                Type::Slice(s) if is_u8(&s.elem) => TypeKind::Bytes { borrowed: true },
                _ => TypeKind::Other,
            },
            Type::Array(a) if is_u8(&a.elem) => TypeKind::ByteArray {
                len: match &a.len {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Int(n),
                        ..
                    }) => n.base10_parse().ok(),
                    _ => None,
                },
            },
            Type::Path(p) if p.qself.is_none() => {
                let Some(last) = p.path.segments.last() else {
                    return TypeKind::Other;
                };
                let name = last.ident.to_string();
                let args: Vec<&syn::GenericArgument> = match &last.arguments {
                    syn::PathArguments::AngleBracketed(a) => a.args.iter().collect(),
                    _ => Vec::new(),
                };
                let type_args: Vec<&Type> = args
                    .iter()
                    .filter_map(|a| match a {
                        syn::GenericArgument::Type(t) => Some(t),
                        _ => None,
                    })
                    .collect();
                match (name.as_str(), type_args.as_slice()) {
                    ("u8" | "i8", []) => TypeKind::Int { bytes: 1, name },
                    ("u16" | "i16", []) => TypeKind::Int { bytes: 2, name },
                    ("u32" | "i32", []) => TypeKind::Int { bytes: 4, name },
                    ("u64" | "i64" | "usize" | "isize", []) => TypeKind::Int { bytes: 8, name },
                    ("u128" | "i128", []) => TypeKind::Int { bytes: 16, name },
                    ("f32", []) => TypeKind::Float { bytes: 4, name },
                    ("f64", []) => TypeKind::Float { bytes: 8, name },
                    ("bool", []) => TypeKind::Bool,
                    ("char", []) => TypeKind::Char,
                    ("String", []) => TypeKind::Str { borrowed: false },
                    ("Vec", [t]) if is_u8(t) => TypeKind::Bytes { borrowed: false },
                    ("Cow", [Type::Path(t)]) if t.path.is_ident("str") => {
                        TypeKind::Str { borrowed: false }
                    }
                    ("Cow", [Type::Slice(s)]) if is_u8(&s.elem) => {
                        TypeKind::Bytes { borrowed: false }
                    }
                    ("Option", [t]) => TypeKind::Option(Box::new(TypeKind::of(t))),
                    _ => TypeKind::Other,
                }
            }
            _ => TypeKind::Other,
        }
    }

    /// The kind inside any number of `Option`s.
    pub fn innermost(&self) -> &TypeKind {
        match self {
            TypeKind::Option(inner) => inner.innermost(),
            other => other,
        }
    }

    /// The core's `KeyField::SHAPE` of a type syntax names (of the type inside, for an `Option`;
    /// `None` for a type the derive cannot see into, whose shape is asserted when the crate
    /// compiles, expand::checks). What a field of it accepts (`width`, `reverse`, `unit`) is the
    /// core's rule, asked here rather than written again. A byte array's rules do not depend on
    /// its length.
    pub fn shape(&self) -> Option<FieldShape> {
        Some(match self.innermost() {
            TypeKind::Int { name, .. } => match name.as_str() {
                "u8" => u8::SHAPE,
                "i8" => i8::SHAPE,
                "u16" => u16::SHAPE,
                "i16" => i16::SHAPE,
                "u32" => u32::SHAPE,
                "i32" => i32::SHAPE,
                "u64" => u64::SHAPE,
                "i64" => i64::SHAPE,
                "usize" => usize::SHAPE,
                "isize" => isize::SHAPE,
                "u128" => u128::SHAPE,
                "i128" => i128::SHAPE,
                _ => return None,
            },
            TypeKind::Bool => bool::SHAPE,
            TypeKind::Char => char::SHAPE,
            TypeKind::Float { bytes: 4, .. } => f32::SHAPE,
            TypeKind::Float { .. } => f64::SHAPE,
            TypeKind::ByteArray { .. } => <[u8; 1]>::SHAPE,
            TypeKind::Str { .. } => str::SHAPE,
            TypeKind::Bytes { .. } => <[u8]>::SHAPE,
            TypeKind::Option(_) | TypeKind::Other => return None,
        })
    }

    /// Whether syntax alone shows the type is variable-length (so the layout has no `LEN`).
    pub fn is_variable(&self, width: Option<usize>) -> bool {
        match self {
            TypeKind::Option(_) => true,
            TypeKind::Str { .. } | TypeKind::Bytes { .. } => width.is_none(),
            _ => false,
        }
    }
}

fn is_u8(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.is_ident("u8"))
}
