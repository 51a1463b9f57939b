//! The codec family of a field's bytes, [`Form`]: what `LAYOUT` describes them as and the name
//! the layout lock writes for them.

/// The codec family of a built-in shape, for describing its encoding (`LAYOUT`); users' shapes
/// built with [`FieldShape::fixed`](super::FieldShape::fixed) are `Custom`, and a shape copied from a built-in type keeps
/// its family, as its bytes do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    Int,
    Float,
    Bool,
    Char,
    ByteArray,
    Content,
    Discriminant,
    Record,
    /// The first bytes of an MD5 digest (`Hashed`).
    Digest,
    /// A count of time units since the Unix epoch (`SystemTime`, which needs `std`).
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    Time,
    /// A decimal number: sign, exponent and base-100 digits (`rust_decimal::Decimal`).
    #[cfg(feature = "decimal")]
    Decimal,
    Custom,
}

impl Form {
    #[cfg(feature = "lock")]
    /// Every form, with the name the layout lock writes for it (`rowkey::lock`).
    pub(crate) const ALL: &'static [(Form, &'static str)] = &[
        (Form::Int, "int"),
        (Form::Float, "float"),
        (Form::Bool, "bool"),
        (Form::Char, "char"),
        (Form::ByteArray, "byte-array"),
        (Form::Content, "content"),
        (Form::Discriminant, "discriminant"),
        (Form::Record, "record"),
        (Form::Digest, "digest"),
        (Form::Time, "time"),
        #[cfg(feature = "decimal")]
        (Form::Decimal, "decimal"),
        (Form::Custom, "custom"),
    ];

    #[cfg(feature = "lock")]
    /// The form's name in a layout lock.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn name(self) -> &'static str {
        Form::ALL
            .iter()
            .find(|(form, _)| *form == self)
            .map_or("custom", |(_, name)| *name)
    }

    #[cfg(feature = "lock")]
    /// The form named `name` in a layout lock.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn from_name(name: &str) -> Option<Form> {
        Form::ALL.iter().find(|(_, n)| *n == name).map(|(f, _)| *f)
    }
}
