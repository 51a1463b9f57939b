//! Which Rust type a field's bytes hold, beside the codec family that writes them: the fact the
//! layout lock (format 2) records so that a schema reads values as the type that wrote them.

/// Which Rust type a field's bytes hold, where its codec family and lengths leave it open:
/// content that is text or bytes, 16 bytes that are a UUID, a count of time units that is a
/// `SystemTime` or one of chrono's types. The layout lock writes it (format 2), so that a schema
/// reads values as the type that wrote them (`rowkey::schema`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ValueKind {
    /// Nothing to add to the codec family: integers, floats, byte strings, arrays, records.
    Plain,
    /// Content that is UTF-8 text (`str`, `String`, `Cow<str>`).
    Str,
    #[cfg_attr(not(feature = "uuid"), allow(dead_code))]
    Uuid,
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    SystemTime,
    #[cfg_attr(not(feature = "chrono"), allow(dead_code))]
    DateTime,
    #[cfg_attr(not(feature = "chrono"), allow(dead_code))]
    NaiveDateTime,
    #[cfg_attr(not(feature = "chrono"), allow(dead_code))]
    NaiveDate,
    #[cfg_attr(not(feature = "chrono"), allow(dead_code))]
    NaiveTime,
}

impl ValueKind {
    #[cfg(feature = "lock")]
    /// Every kind, with the name the layout lock writes for it.
    pub(crate) const ALL: &'static [(ValueKind, &'static str)] = &[
        (ValueKind::Plain, "plain"),
        (ValueKind::Str, "str"),
        (ValueKind::Uuid, "uuid"),
        (ValueKind::SystemTime, "system-time"),
        (ValueKind::DateTime, "datetime"),
        (ValueKind::NaiveDateTime, "naive-datetime"),
        (ValueKind::NaiveDate, "naive-date"),
        (ValueKind::NaiveTime, "naive-time"),
    ];

    #[cfg(feature = "lock")]
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn name(self) -> &'static str {
        ValueKind::ALL
            .iter()
            .find(|(k, _)| *k == self)
            .map_or("plain", |(_, n)| *n)
    }

    #[cfg(feature = "lock")]
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn from_name(name: &str) -> Option<ValueKind> {
        ValueKind::ALL
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(k, _)| *k)
    }
}
