//! The pieces the heatmap is drawn with: the colour of a count and the scale that explains it,
//! times as UTC dates (and the rule that says when times are dates, which the report's table
//! follows too), text as XML holds it, counts as people read them.

// The crate is no_std; the lab runs on std.
use std::fmt::{self, Write as _};

use rowkey::TimeUnit;

/// The colour of a cell with `writes` of the busiest cell's `max`: pale yellow for a few writes,
/// deep red for the most (a cell without writes is left white).
pub(super) fn colour(writes: u64, max: u64) -> String {
    let heat = writes as f64 / max.max(1) as f64;
    hsl_hex((1.0 - heat) * 55.0, 0.85 - 0.45 * heat)
}

/// `hsl(hue, 100%, lightness)` as `#rrggbb`.
fn hsl_hex(hue: f64, lightness: f64) -> String {
    let c = 1.0 - (2.0 * lightness - 1.0).abs();
    let h = hue / 60.0;
    let x = c * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = lightness - c / 2.0;
    let byte = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    format!("#{:02x}{:02x}{:02x}", byte(r), byte(g), byte(b))
}

/// The colour scale: white for none, then the gradient from one write to `max`, with numbers.
pub(super) fn write_scale(svg: &mut String, left: i64, y: i64, max: u64) -> fmt::Result {
    let (bar_x, bar_w, bar_h) = (left + 170, 320i64, 14i64);
    writeln!(svg, r#"<g class="scale" font-size="12">"#)?;
    writeln!(
        svg,
        r#"<text x="{left}" y="{}">writes per cell:</text>"#,
        y + 11
    )?;
    writeln!(
        svg,
        r#"<rect x="{}" y="{y}" width="{bar_h}" height="{bar_h}" fill="white" stroke="darkgray"/>"#,
        left + 110
    )?;
    writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">none</text>"#,
        left + 110 + bar_h / 2,
        y + bar_h + 14
    )?;
    writeln!(svg, r#"<defs><linearGradient id="rowkey-heat">"#)?;
    for k in 0..=8u64 {
        // The same colours as the cells: stop k of 8 is the colour of k/8 of the busiest cell.
        let heat = k as f64 / 8.0;
        writeln!(
            svg,
            r#"<stop offset="{:.3}" stop-color="{}"/>"#,
            heat,
            hsl_hex((1.0 - heat) * 55.0, 0.85 - 0.45 * heat)
        )?;
    }
    writeln!(svg, "</linearGradient></defs>")?;
    writeln!(
        svg,
        r#"<rect x="{bar_x}" y="{y}" width="{bar_w}" height="{bar_h}" fill="url(#rowkey-heat)" stroke="darkgray"/>"#
    )?;
    for k in 0..=4u64 {
        let x = bar_x + bar_w * k as i64 / 4;
        let value = max * k / 4;
        writeln!(
            svg,
            r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}" stroke="dimgray"/><text x="{x}" y="{}" text-anchor="middle">{}</text>"#,
            y + bar_h,
            y + bar_h + 3,
            y + bar_h + 14,
            Thousands(value)
        )?;
    }
    writeln!(svg, "</g>\n</svg>")
}

/// Unix times in milliseconds from 2001-09-09 to 2286-11-20: what `System.currentTimeMillis()`
/// and `SystemTime` in milliseconds give. Times in this range read as such unless told otherwise
/// ([`Heatmap::clock`](super::Heatmap::clock)).
const EPOCH_MILLIS: core::ops::Range<u64> = 1_000_000_000_000..10_000_000_000_000;

/// The clock that `spans` of time (`[start, end)`) read in: Unix milliseconds when every bound
/// lies between the years 2001 and 2286 in milliseconds, plain counts (`None`) otherwise or
/// without spans. The heatmap and the report's table decide by this one rule.
pub(super) fn clock_of(spans: impl IntoIterator<Item = (u64, u64)>) -> Option<TimeUnit> {
    let mut spans = spans.into_iter().peekable();
    spans.peek()?;
    spans
        .all(|(start, end)| EPOCH_MILLIS.contains(&start) && EPOCH_MILLIS.contains(&end))
        .then_some(TimeUnit::Millis)
}

/// A time as text under `clock`: the UTC date and time (`2023-11-14 22:13:20`), or the count.
pub(super) fn time_text(t: u64, clock: Option<TimeUnit>) -> String {
    match clock {
        Some(unit) => {
            let (date, time) = utc(t, unit);
            format!("{date} {time}")
        }
        None => format!("{t}"),
    }
}

/// `t` `unit`s after the Unix epoch as a UTC date (`2023-11-14`) and time of day (`22:13:20`,
/// with milliseconds when `t` has them).
pub(super) fn utc(t: u64, unit: TimeUnit) -> (String, String) {
    let per_second = 1_000_000_000 / unit.nanos();
    let (seconds, rest) = (t / per_second, t % per_second);
    let (days, of_day) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil_from_days(days);
    let mut time = format!(
        "{:02}:{:02}:{:02}",
        of_day / 3_600,
        of_day / 60 % 60,
        of_day % 60
    );
    if rest != 0 {
        let millis = rest * 1_000 / per_second;
        let _ = write!(time, ".{millis:03}");
    }
    (format!("{year:04}-{month:02}-{day:02}"), time)
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

/// Text escaped for XML.
pub(super) struct Xml<'a>(pub(super) &'a str);

impl fmt::Display for Xml<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            match c {
                '&' => f.write_str("&amp;")?,
                '<' => f.write_str("&lt;")?,
                '>' => f.write_str("&gt;")?,
                '"' => f.write_str("&quot;")?,
                // Characters XML 1.0 cannot hold at all.
                c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t') => {
                    write!(f, "\\x{:02X}", c as u32)?
                }
                c => f.write_char(c)?,
            }
        }
        Ok(())
    }
}

/// A count with thousands separators: `1,234,567`.
pub(super) struct Thousands(pub(super) u64);

impl fmt::Display for Thousands {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = self.0.to_string();
        for (i, d) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                f.write_char(',')?;
            }
            f.write_char(d)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_the_proleptic_gregorian_calendar() {
        // Checked against `date -u -d @SECONDS`.
        assert_eq!(
            utc(1_700_000_000_000, TimeUnit::Millis),
            ("2023-11-14".into(), "22:13:20".into())
        );
        assert_eq!(
            utc(0, TimeUnit::Seconds),
            ("1970-01-01".into(), "00:00:00".into())
        );
        assert_eq!(
            utc(951_782_400_123, TimeUnit::Millis),
            ("2000-02-29".into(), "00:00:00.123".into())
        );
        assert_eq!(
            utc(4_102_444_799, TimeUnit::Seconds),
            ("2099-12-31".into(), "23:59:59".into())
        );
        assert_eq!(
            time_text(1_700_000_000_000, Some(TimeUnit::Millis)),
            "2023-11-14 22:13:20"
        );
        assert_eq!(time_text(1_700_000_000_000, None), "1700000000000");
    }

    #[test]
    fn times_read_as_unix_milliseconds_only_when_every_bound_is_one() {
        let t0 = 1_700_000_000_000;
        for (spans, clock) in [
            (vec![(t0, t0 + 60_000)], Some(TimeUnit::Millis)),
            (vec![(t0, t0 + 1), (0, 1)], None),
            // Seconds since the epoch are counts unless the heatmap is told.
            (vec![(1_700_000_000, 1_700_000_010)], None),
            (vec![], None),
        ] {
            assert_eq!(clock_of(spans.clone()), clock, "{spans:?}");
        }
    }

    #[test]
    fn counts_have_thousands_separators_and_text_is_escaped() {
        assert_eq!(Thousands(0).to_string(), "0");
        assert_eq!(Thousands(999).to_string(), "999");
        assert_eq!(Thousands(1_234_567).to_string(), "1,234,567");
        assert_eq!(
            Xml("a<b & \"c\"\u{1}").to_string(),
            "a&lt;b &amp; &quot;c&quot;\\x01"
        );
    }

    #[test]
    fn the_colour_scale_runs_from_pale_yellow_to_deep_red() {
        // Checked against Python's colorsys.hls_to_rgb: (51, 187, 255) and (255, 248.6, 178.5),
        // a half rounded away from zero.
        assert_eq!(hsl_hex(200.0, 0.6), "#33bbff");
        assert_eq!(hsl_hex(55.0, 0.85), "#fff9b3");
        assert_eq!(hsl_hex(0.0, 0.40), "#cc0000");
        assert_eq!(colour(10, 10), "#cc0000");
    }
}
