//! Describing a field's bytes in words, from what the runtime knows of it: its type's shape and
//! the mode the layout places it with. Nested keys, type aliases and users' own types are
//! described by what they are, not by how their type is spelled.

use core::fmt;

use crate::codec::{with_format, Format};
use crate::field::mode::FieldMode;
use crate::field::shape::FieldShape;

use crate::field::layout::Encoding;

impl Encoding {
    /// The encoding of a field of `shape` placed with `mode`.
    pub(crate) const fn of(shape: FieldShape, mode: FieldMode) -> Encoding {
        Encoding { shape, mode }
    }

    /// The field type's shape: what the type is, whatever the layout does with it.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// #[derive(RowKey)]
    /// struct Hit { at: std::time::SystemTime, id: u32 }
    /// assert!(Hit::LAYOUT.segments[0].encoding.shape().is_time());
    /// ```
    pub const fn shape(&self) -> FieldShape {
        self.shape
    }

    /// The mode the layout places the field with: `desc`, `reverse`, `width`, text.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// #[derive(RowKey)]
    /// struct Hit { #[rowkey(reverse)] id: u32, page: String }
    /// assert!(Hit::LAYOUT.segments[0].encoding.mode().is_reverse());
    /// ```
    pub const fn mode(&self) -> FieldMode {
        self.mode
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        with_format!(self.mode.key_format(), F => F::describe_field(self.shape, self.mode, f))
    }
}

impl fmt::Debug for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{self}\"")
    }
}

/// Compares the words of an encoding with a string, without building the string.
impl PartialEq<str> for Encoding {
    fn eq(&self, other: &str) -> bool {
        struct Compare<'a> {
            rest: &'a str,
            same: bool,
        }
        impl fmt::Write for Compare<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                match self.rest.strip_prefix(s) {
                    Some(rest) => self.rest = rest,
                    None => self.same = false,
                }
                Ok(())
            }
        }
        let mut cmp = Compare {
            rest: other,
            same: true,
        };
        fmt::write(&mut cmp, format_args!("{self}")).is_ok() && cmp.same && cmp.rest.is_empty()
    }
}

impl PartialEq<&str> for Encoding {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}
