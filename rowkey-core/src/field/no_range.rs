//! A field whose stored bytes do not sort as its values has no range scan: only equality and IN
//! lists find its rows. This file decides it once ([`NoRange::of`]) and says why once (each
//! reason's message): the derive asks it which scan methods to generate, and the schema asks it
//! which conditions to refuse, so the typed builder and the schema refuse the same fields with the
//! same words.
//!
//! Each reason also makes a sealed trait that no type implements: the derive bounds a stub
//! `_range` (and a reversed string's `_prefix`) on it, so calling one is a compile error carrying
//! the same message (`#[diagnostic::on_unimplemented]`), where without the method rustc would
//! suggest `_in`, which compiles and lists every value of the range.

/// What decides whether a field keeps its order: the field's attributes and the key's format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OrderFacts {
    /// Stored `reverse`.
    pub reverse: bool,
    /// A time written in a `format` that does not sort as times do (`%d%m%Y`, `%y`).
    pub unordered_format: bool,
    /// A field of an Apache Phoenix key.
    pub phoenix: bool,
    /// Stored `desc`.
    pub desc: bool,
    /// An `Option` (a nullable column).
    pub nullable: bool,
    /// A string of a declared `width` (Phoenix's `CHAR(n)` in a Phoenix key).
    pub fixed_width_string: bool,
}

/// Keeps the traits the table below makes unimplemented outside this crate, so that the methods
/// bound on them can never be called.
mod sealed {
    pub trait Sealed {}
}

/// Each reason a field has no range scan: its variant, the trait the derive bounds the stub on,
/// the message (shared by the compile error and the schema's refusal), and the compile error's
/// label and notes.
macro_rules! reasons {
    ($(
        $(#[$doc:meta])*
        $variant:ident => $trait_name:ident {
            message: $message:literal,
            label: $label:literal,
            notes: [$($note:literal),* $(,)?],
        }
    )*) => {
        /// Why a field has no range scan.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[non_exhaustive]
        pub enum NoRange {
            $($(#[$doc])* $variant,)*
        }

        impl NoRange {
            /// Why, in one sentence: the compile error of a misused `_range`, and the schema's
            /// refusal of a range condition.
            pub const fn message(self) -> &'static str {
                match self {
                    $(NoRange::$variant => $message,)*
                }
            }

            /// The name of the trait (under the derive's hidden module) whose stub says why.
            pub const fn trait_name(self) -> &'static str {
                match self {
                    $(NoRange::$variant => stringify!($trait_name),)*
                }
            }
        }

        $(
            #[doc = concat!("The bound on a misused `_range`: ", $message, ".")]
            #[diagnostic::on_unimplemented(
                message = $message,
                label = $label,
                $(note = $note,)*
            )]
            pub trait $trait_name: sealed::Sealed {
                /// No value of a type that implements this exists.
                fn impossible(self) -> core::convert::Infallible;
            }
        )*
    };
}

reasons! {
    /// Stored `reverse`: its bytes are reversed, so they no longer sort as its values (and a
    /// string's prefix is no prefix of its bytes).
    Reverse => ReverseHasNoRange {
        message: "a `reverse` field has no range or prefix scan: its bytes are stored reversed, so they no longer sort as its values",
        label: "this field is stored `reverse`",
        notes: [
            "bind it by value (`.field(v)`) or by a short list (`.field_in([a, b])`)",
            "to scan ranges of it, drop `reverse` and spread the writes with a salt or a hash prefix in front instead (`#[rowkey(salt(buckets = N))]` on the key), which keeps the field's order",
        ],
    }
    /// A nullable `desc` column of a Phoenix key: Phoenix stores NULL first, where the
    /// descending order of `Option` puts `None` last.
    PhoenixDescNull => PhoenixDescNullHasNoRange {
        message: "a nullable DESC column of a Phoenix key has no range scan: Phoenix stores NULL first, where the descending order of `Option` puts `None` last",
        label: "this `Option` field is `desc` in a `#[rowkey(phoenix)]` key",
        notes: [
            "bind it by value (`.field(Some(v))`, `.field(None)`) or by a list (`.field_in([..])`)",
            "for range scans, make the column ascending, or NOT NULL (a field that is not an `Option`)",
        ],
    }
    /// A `CHAR(n)` column of a Phoenix key: Phoenix pads it with spaces, so `"a\u{1}"` is stored
    /// below `"a"`. Its prefixes still apply: the content starts with a prefix exactly when its
    /// padded bytes do.
    PhoenixChar => PhoenixCharHasNoRange {
        message: "a CHAR(n) column of a Phoenix key (a `width` string) has no range scan: Phoenix pads it with spaces, so a control character after `a` is stored below `a`, against the order of strings",
        label: "this field is Phoenix's CHAR(n)",
        notes: [
            "bind it by value (`.field(v)`), by a list (`.field_in([..])`), or by a prefix (`.field_prefix(p)`)",
            "for range scans, make it a VARCHAR: drop `width`",
        ],
    }
    /// A time whose `format` does not sort as times do.
    UnorderedFormat => UnorderedFormatHasNoRange {
        message: "this time's `format` does not sort as times do: the field has no range scan",
        label: "the field's `format` puts a smaller unit (day, month, two-digit year) before a larger one",
        notes: [
            "bind it by value (`.field(v)`) or by a list (`.field_in(days)`)",
            "for range scans, write the time largest unit first (`%Y%m%d`, `%Y-%m-%dT%H:%M:%S`)",
        ],
    }
}

impl NoRange {
    /// Why a field with these facts has no range scan, `None` when it has one. The first reason
    /// that holds, in the order above.
    pub const fn of(facts: OrderFacts) -> Option<NoRange> {
        // Phoenix's two refusals stay here, beside the others: this is the one rule the derive's
        // generated check (at compile time) and the schema both call.
        if facts.reverse {
            Some(NoRange::Reverse)
        } else if facts.phoenix && facts.desc && facts.nullable {
            Some(NoRange::PhoenixDescNull)
        } else if facts.phoenix && facts.fixed_width_string {
            Some(NoRange::PhoenixChar)
        } else if facts.unordered_format {
            Some(NoRange::UnorderedFormat)
        } else {
            None
        }
    }

    /// Whether a string or byte field with this reason (or none) keeps `_prefix`: a Phoenix
    /// `CHAR(n)` does, since its content starts with a prefix exactly when its padded bytes do.
    pub const fn keeps_prefix(reason: Option<NoRange>) -> bool {
        matches!(reason, None | Some(NoRange::PhoenixChar))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_reason_that_holds_decides() {
        let none = OrderFacts::default();
        assert_eq!(NoRange::of(none), None);
        let all = OrderFacts {
            reverse: true,
            unordered_format: true,
            phoenix: true,
            desc: true,
            nullable: true,
            fixed_width_string: true,
        };
        assert_eq!(NoRange::of(all), Some(NoRange::Reverse));
        let phoenix = OrderFacts {
            reverse: false,
            ..all
        };
        assert_eq!(NoRange::of(phoenix), Some(NoRange::PhoenixDescNull));
        let char_n = OrderFacts {
            nullable: false,
            ..phoenix
        };
        assert_eq!(NoRange::of(char_n), Some(NoRange::PhoenixChar));
        // Without Phoenix, `desc`, `Option` and `width` keep the order.
        let binary = OrderFacts {
            phoenix: false,
            unordered_format: false,
            ..phoenix
        };
        assert_eq!(NoRange::of(binary), None);
        assert!(NoRange::keeps_prefix(Some(NoRange::PhoenixChar)));
        assert!(!NoRange::keeps_prefix(Some(NoRange::Reverse)));
    }
}
