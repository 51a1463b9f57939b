//! The picture people know from Bigtable's Key Visualizer: time across, the key space down, each
//! cell coloured by its writes. [`Heatmap`] labels each band of regions by its start key decoded
//! through the layout and renders a self-contained SVG by hand: a colour scale with its numbers,
//! times as UTC dates when they are Unix times, and each cell's key range, time window and writes
//! as a tooltip (`<title>`), which no plotting library writes.

// The crate is no_std; the lab runs on std.
use std::fmt::{self, Write as _};

use rowkey::{Prefix, TimeUnit};

use super::draw::{clock_of, colour, time_text, utc, write_scale, Thousands, Xml};
use rowkey::RowKey;

/// Writes counted by column (a run of windows) and band (a run of regions), with what each
/// column and band stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Grid {
    /// Each column's time span, `[start, end)`.
    columns: Vec<(u64, u64)>,
    /// Each band's first region; the regions of band `b` run up to the next band's first.
    first_regions: Vec<usize>,
    /// Each band's first region's start key (empty: the start of the table).
    starts: Vec<Vec<u8>>,
    /// The table's regions.
    regions: usize,
    /// `cells[column * bands + band]`.
    cells: Vec<u64>,
}

impl Grid {
    /// A grid of `columns` over `bands` of the regions whose split points are `splits`: band `b`
    /// starts at region `first_regions[b]`.
    pub(super) fn new(
        columns: Vec<(u64, u64)>,
        first_regions: Vec<usize>,
        splits: &[Vec<u8>],
    ) -> Grid {
        let starts = first_regions
            .iter()
            .map(|&r| {
                if r == 0 {
                    Vec::new()
                } else {
                    splits[r - 1].clone()
                }
            })
            .collect();
        let cells = vec![0; columns.len() * first_regions.len()];
        Grid {
            columns,
            first_regions,
            starts,
            regions: splits.len() + 1,
            cells,
        }
    }

    #[inline]
    pub(super) fn add(&mut self, column: usize, band: usize) {
        self.cells[column * self.first_regions.len() + band] += 1;
    }
}

/// Writes over time and key space, ready to render: see
/// [`Report::heatmap`](super::Report::heatmap).
///
/// ```
/// use rowkey_lab::Simulation;
/// use rowkey::RowKey;
///
/// #[derive(RowKey)]
/// struct TimeFirst { ts: u64, id: u32 }
///
/// let mut sim = Simulation::auto_split(100);
/// for ts in 0..1_000u64 {
///     sim.write(ts, &TimeFirst { ts, id: 7 }.to_vec()?);
/// }
/// let heatmap = sim.report(50).heatmap::<TimeFirst>();
/// assert_eq!(heatmap.labels()[0], "start of table");
/// assert!(heatmap.labels()[1].starts_with("ts=")); // a split point, decoded
/// let svg = heatmap.to_svg();
/// assert!(svg.starts_with("<svg") && svg.contains("ts="));
/// // Each cell says what it holds when the pointer rests on it.
/// assert!(svg.contains("<title>region 1 of "));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heatmap {
    title: String,
    columns: Vec<(u64, u64)>,
    labels: Vec<String>,
    first_regions: Vec<usize>,
    regions: usize,
    cells: Vec<u64>,
    clock: Option<TimeUnit>,
}

/// Labels longer than this are shortened in the middle.
const LABEL_CHARS: usize = 56;

impl Heatmap {
    pub(super) fn new<K: RowKey>(grid: &Grid) -> Heatmap {
        Heatmap {
            title: format!(
                "`{}` writes over time (across) and key space (down)",
                K::LAYOUT.name
            ),
            columns: grid.columns.clone(),
            labels: grid.starts.iter().map(|start| label::<K>(start)).collect(),
            first_regions: grid.first_regions.clone(),
            regions: grid.regions,
            cells: grid.cells.clone(),
            clock: clock_of(grid.columns.iter().copied()),
        }
    }

    /// The same heatmap with its times read as `unit`s since the Unix epoch (shown as UTC dates
    /// and times), or with `None` as plain counts (`t=1234`). Without it, times between the
    /// years 2001 and 2286 in milliseconds read as Unix milliseconds and any others as counts.
    ///
    /// ```
    /// use rowkey_lab::Simulation;
    /// use rowkey::{RowKey, TimeUnit};
    ///
    /// #[derive(RowKey)]
    /// struct Reading { sensor: u32, at_secs: u64 }
    ///
    /// let mut sim = Simulation::auto_split(100);
    /// for s in 0..60u64 {
    ///     let at_secs = 1_700_000_000 + s; // seconds since the epoch
    ///     sim.write(at_secs, &Reading { sensor: 7, at_secs }.to_vec()?);
    /// }
    /// let heatmap = sim.report(10).heatmap::<Reading>();
    /// assert!(heatmap.to_svg().contains("t=1700000000"));
    /// let svg = heatmap.clock(Some(TimeUnit::Seconds)).to_svg();
    /// assert!(svg.contains("2023-11-14") && svg.contains("22:13:20"));
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    #[must_use]
    pub fn clock(mut self, unit: Option<TimeUnit>) -> Heatmap {
        self.clock = unit;
        self
    }

    /// Each band's label, lowest keys first: its first region's start key, decoded (the first
    /// band of a salted table is `bucket 0 of N`, of an unprefixed one `start of table`). The
    /// picture shortens a long label in the middle; these are whole.
    pub fn labels(&self) -> &[String] {
        &self.labels
    }

    /// Each column's span of time, `[start, end)`.
    pub fn columns(&self) -> &[(u64, u64)] {
        &self.columns
    }

    /// The writes of one cell (0 outside the grid).
    pub fn writes(&self, column: usize, band: usize) -> u64 {
        if band >= self.labels.len() {
            return 0;
        }
        self.cells
            .get(column * self.labels.len() + band)
            .copied()
            .unwrap_or(0)
    }

    /// The heatmap as a self-contained SVG document: one row a band of regions (its height
    /// follows the number of bands), one column a run of time windows, a colour scale, and a
    /// tooltip on every cell that holds writes.
    pub fn to_svg(&self) -> String {
        let mut svg = String::new();
        // Writing into a String cannot fail.
        let _ = self.write_svg(&mut svg);
        svg
    }

    fn write_svg(&self, svg: &mut String) -> fmt::Result {
        let shown = self.shown_labels();
        let frame = Frame::new(&shown, self.labels.len(), self.columns.len());
        let max = self.cells.iter().copied().max().unwrap_or(0);
        self.write_heading(svg, &frame)?;
        self.write_band_labels(svg, &frame, &shown)?;
        self.write_cells(svg, &frame, max)?;
        let Frame {
            left,
            top,
            plot_w,
            bottom,
            ..
        } = frame;
        writeln!(
            svg,
            r#"<rect x="{left}" y="{top}" width="{plot_w}" height="{}" fill="none" stroke="black"/>"#,
            bottom - top
        )?;
        self.write_time_axis(svg, left, plot_w, bottom, &|c| frame.x_of(c))?;
        write_scale(svg, left, bottom + 76, max)
    }

    /// Each band's label as the picture shows it, shortened against the band above.
    fn shown_labels(&self) -> Vec<String> {
        (0..self.labels.len())
            .map(|b| {
                shorten(
                    &self.labels[b],
                    b.checked_sub(1).map(|a| self.labels[a].as_str()),
                )
            })
            .collect()
    }

    /// The document's opening tag, its white background, the title and the line under it.
    fn write_heading(&self, svg: &mut String, frame: &Frame) -> fmt::Result {
        let Frame {
            left,
            width,
            height,
            bands,
            ..
        } = *frame;
        writeln!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"#
        )?;
        writeln!(
            svg,
            r#"<rect width="{width}" height="{height}" fill="white"/>"#
        )?;
        writeln!(
            svg,
            r#"<text x="{left}" y="24" font-size="17" font-weight="bold">{}</text>"#,
            Xml(&self.title)
        )?;
        writeln!(
            svg,
            r#"<text x="{left}" y="46" font-size="13" fill="dimgray">{} regions in {} bands; point at a cell for its keys, time and writes</text>"#,
            self.regions, bands
        )
    }

    /// The bands' labels, each with its whole label as a tooltip.
    fn write_band_labels(&self, svg: &mut String, frame: &Frame, shown: &[String]) -> fmt::Result {
        writeln!(
            svg,
            r#"<g class="labels" font-family="monospace" font-size="12" text-anchor="end">"#
        )?;
        for (b, label) in shown.iter().enumerate() {
            let y = frame.band_y(b) + frame.cell_h / 2 + 4;
            writeln!(
                svg,
                r#"<text x="{}" y="{y}"><title>{}</title>{}</text>"#,
                frame.left - 8,
                Xml(&self.labels[b]),
                Xml(label)
            )?;
        }
        writeln!(svg, "</g>")
    }

    /// The cells that hold writes, coloured against the busiest (`max`); empty cells stay white.
    fn write_cells(&self, svg: &mut String, frame: &Frame, max: u64) -> fmt::Result {
        let cell_h = frame.cell_h;
        writeln!(svg, r#"<g class="cells">"#)?;
        for b in 0..self.labels.len() {
            let y = frame.band_y(b);
            for c in 0..self.columns.len() {
                let writes = self.writes(c, b);
                if writes == 0 {
                    continue;
                }
                let (x0, x1) = (frame.x_of(c), frame.x_of(c + 1));
                writeln!(
                    svg,
                    r#"<rect x="{x0}" y="{y}" width="{}" height="{cell_h}" fill="{}"><title>{}</title></rect>"#,
                    x1 - x0,
                    colour(writes, max),
                    Xml(&self.tooltip(c, b))
                )?;
            }
        }
        writeln!(svg, "</g>")
    }

    /// Ticks under the plot: five times, as dates and times or as counts.
    fn write_time_axis(
        &self,
        svg: &mut String,
        left: i64,
        plot_w: i64,
        bottom: i64,
        x_of: &dyn Fn(usize) -> i64,
    ) -> fmt::Result {
        let n = self.columns.len();
        if n == 0 {
            return Ok(());
        }
        let mut ticks: Vec<(u64, i64)> = (0..4)
            .map(|k| k * n / 4)
            .map(|c| (self.columns[c].0, x_of(c)))
            .collect();
        ticks.push((self.columns[n - 1].1, left + plot_w));
        ticks.dedup_by_key(|t| t.1);
        writeln!(
            svg,
            r#"<g class="time" font-size="12" text-anchor="middle">"#
        )?;
        for (t, x) in ticks {
            writeln!(
                svg,
                r#"<line x1="{x}" y1="{bottom}" x2="{x}" y2="{}" stroke="black"/>"#,
                bottom + 5
            )?;
            let (first, second) = self.time_lines(t);
            writeln!(
                svg,
                r#"<text x="{x}" y="{}">{}</text>"#,
                bottom + 19,
                Xml(&first)
            )?;
            if let Some(second) = second {
                writeln!(
                    svg,
                    r#"<text x="{x}" y="{}">{}</text>"#,
                    bottom + 34,
                    Xml(&second)
                )?;
            }
        }
        let caption = match self.clock {
            Some(_) => "time (UTC)",
            None => "time",
        };
        writeln!(
            svg,
            r#"<text x="{}" y="{}" font-size="13">{caption}, {} columns</text></g>"#,
            left + plot_w / 2,
            bottom + 52,
            self.columns.len()
        )
    }

    /// A time as the axis shows it: the time of day over the date, or `t=` and the count.
    fn time_lines(&self, t: u64) -> (String, Option<String>) {
        match self.clock {
            Some(unit) => {
                let (date, time) = utc(t, unit);
                (time, Some(date))
            }
            None => (format!("t={t}"), None),
        }
    }

    /// A time as a tooltip shows it.
    fn time_text(&self, t: u64) -> String {
        time_text(t, self.clock)
    }

    /// A cell's tooltip: its regions and their keys, its time window, its writes.
    fn tooltip(&self, column: usize, band: usize) -> String {
        let first = self.first_regions[band];
        let last = self
            .first_regions
            .get(band + 1)
            .map_or(self.regions, |&next| next)
            - 1;
        let regions = if first == last {
            format!("region {first} of {}", self.regions)
        } else {
            format!("regions {first} to {last} of {}", self.regions)
        };
        let to = self
            .labels
            .get(band + 1)
            .map_or("the end of the table", String::as_str);
        let (start, end) = self.columns[column];
        let zone = if self.clock.is_some() { " UTC" } else { "" };
        format!(
            "{regions}\nkeys from {} to {to}\ntime {} to {}{zone}\n{} writes",
            self.labels[band],
            self.time_text(start),
            self.time_text(end),
            Thousands(self.writes(column, band))
        )
    }
}

/// Where the picture's parts go, in pixels: the label column on the left, the plot to its right
/// (one row a band, one column a run of windows), the time axis and scale below.
#[derive(Clone, Copy)]
struct Frame {
    /// The plot's left edge, after the widest label.
    left: i64,
    width: i64,
    height: i64,
    /// The plot's top edge, under the title.
    top: i64,
    plot_w: i64,
    cell_h: i64,
    /// The plot's bottom edge, where the time axis starts.
    bottom: i64,
    /// Bands and columns, at least one of each so that an empty heatmap still divides.
    bands: usize,
    columns: usize,
}

impl Frame {
    /// The frame for `bands` rows whose labels are `shown` and `columns` columns.
    fn new(shown: &[String], bands: usize, columns: usize) -> Frame {
        let bands = bands.max(1);
        let columns = columns.max(1);
        let longest = shown.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        // Labels in a 12px monospace font, about 7.3px a character.
        let left = (longest as f64 * 7.3 + 24.0).clamp(120.0, 460.0).round() as i64;
        let (width, top) = (1100i64, 64i64);
        let plot_w = width - left - 60;
        // The figure's height follows the bands: tall cells for a few regions, 14px for many.
        let cell_h = (480 / bands as i64).clamp(14, 48);
        let bottom = top + cell_h * bands as i64;
        let height = bottom + 118;
        Frame {
            left,
            width,
            height,
            top,
            plot_w,
            cell_h,
            bottom,
            bands,
            columns,
        }
    }

    /// The left edge of column `c` (or the plot's right edge, for `c` = the number of columns).
    fn x_of(&self, c: usize) -> i64 {
        self.left + (c as i64 * self.plot_w) / self.columns as i64
    }

    /// The top edge of band `b`.
    fn band_y(&self, b: usize) -> i64 {
        self.top + b as i64 * self.cell_h
    }
}

/// A region's start key in words: each decoded segment as `name=value`. The table's first
/// region starts with the lowest prefix: `bucket 0 of N` for a salt, zeros for a hash prefix, and
/// otherwise `start of table`.
pub(super) fn label<K: RowKey>(start: &[u8]) -> String {
    if start.is_empty() {
        return match K::LAYOUT.prefix {
            Prefix::Salt(salt) => format!("bucket 0 of {}", salt.buckets()),
            Prefix::Hash(hash) if hash.is_text() => {
                format!("md5 {}", "0".repeat(hash.prefix_len()))
            }
            Prefix::Hash(hash) => format!("md5 {}", "\\x00".repeat(hash.prefix_len())),
            _ => "start of table".into(),
        };
    }
    let explained = K::explain_best_effort(start);
    let words: Vec<String> = explained
        .rows
        .iter()
        .map(|row| match row.segment {
            // "bucket 3 of 16" says what it is.
            "salt" => row.value.clone(),
            "hash" => format!("md5 {}", row.bytes),
            _ if row.value == "(not decoded)" => format!("{}={}", row.segment, row.bytes),
            _ => format!("{}={}", row.segment, row.value),
        })
        .collect();
    words.join(", ")
}

/// `label` in at most [`LABEL_CHARS`] characters. Its parts (`name=value`, split at `, `) are
/// kept whole, in order of what tells the band apart: the first part, then the first part that
/// differs from the band above (`previous`) and those after it, as many as fit; what is left out
/// shows as `…`. A part too long alone keeps its start and end characters.
fn shorten(label: &str, previous: Option<&str>) -> String {
    if label.chars().count() <= LABEL_CHARS {
        return label.into();
    }
    let parts: Vec<&str> = label.split(", ").collect();
    let before: Vec<&str> = previous.map_or(Vec::new(), |p| p.split(", ").collect());
    let differs = (0..parts.len())
        .find(|&i| before.get(i) != Some(&parts[i]))
        .unwrap_or(0);
    let mut keep = vec![false; parts.len()];
    let mut len = 0;
    for i in core::iter::once(0).chain(differs.max(1)..parts.len()) {
        // The part, its separator and room for one `…, `.
        let more = parts[i].chars().count() + 2;
        if len + more + 3 > LABEL_CHARS {
            break;
        }
        len += more;
        keep[i] = true;
    }
    if !keep[0] || !keep[differs] {
        // The first part, or the one that tells the band apart, does not fit beside it: the
        // whole label's start and end instead.
        return cut_middle(label);
    }
    let mut out: Vec<String> = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        if keep[i] {
            out.push(cut_middle(part));
        } else if out.last().map_or(true, |last| last != "…") {
            out.push("…".into());
        }
    }
    out.join(", ")
}

/// `text` in at most [`LABEL_CHARS`] characters: its start and end, `…` between.
fn cut_middle(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= LABEL_CHARS {
        return text.into();
    }
    let head = (LABEL_CHARS - 1) / 3;
    let tail = LABEL_CHARS - 1 - head;
    let mut cut: String = chars[..head].iter().collect();
    cut.push('…');
    cut.extend(&chars[chars.len() - tail..]);
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_labels_keep_their_first_part_and_what_tells_them_apart() {
        let above = "bucket 3 of 16, ts_millis=1700000000000, host=web-0042.eu-west.example.com, event_id=12";
        let label = "bucket 3 of 16, ts_millis=1700000500000, host=web-0007.eu-west.example.com, event_id=99";
        // Differs from the band above at `ts_millis`: the first part, then from there on.
        assert_eq!(
            shorten(label, Some(above)),
            "bucket 3 of 16, ts_millis=1700000500000, …"
        );
        // Differs at the host: the part before it gives way.
        let same_time = "bucket 3 of 16, ts_millis=1700000000000, host=web-0099.eu-west.example.com, event_id=1";
        assert_eq!(
            shorten(same_time, Some(above)),
            "bucket 3 of 16, …, host=web-0099.eu-west.example.com, …"
        );
        for (l, p) in [
            (label, Some(above)),
            (same_time, Some(above)),
            (label, None),
        ] {
            assert!(
                shorten(l, p).chars().count() <= LABEL_CHARS,
                "{}",
                shorten(l, p)
            );
        }
        // One long part: its start and end characters, cut in the middle.
        let one = format!("url={}", "abcdefghij".repeat(10));
        let short = shorten(&one, None);
        assert_eq!(short.chars().count(), LABEL_CHARS);
        assert!(short.starts_with("url=abc") && short.ends_with("hij") && short.contains('…'));
        assert_eq!(shorten("ts=5", None), "ts=5");
    }
}
