//! The picture people know from Bigtable's Key Visualizer: time across, the key space down, each
//! cell coloured by its writes. [`Heatmap`] labels each band of regions by its start key decoded
//! through the layout, and renders SVG with `plotters` (SVG text, no font library).

// The crate is no_std; the lab runs on std.
use std::prelude::rust_2021::*;
use std::{format, vec};

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::RowKey;

/// Writes counted by column (a run of windows) and band (a run of regions), with what each
/// column and band stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Grid {
    /// Each column's time span, `[start, end)`.
    columns: Vec<(u64, u64)>,
    /// Each band's first region's start key (empty: the start of the table).
    bands: Vec<Vec<u8>>,
    /// `cells[column * bands + band]`.
    cells: Vec<u64>,
}

impl Grid {
    pub(super) fn new(columns: Vec<(u64, u64)>, bands: Vec<Vec<u8>>) -> Grid {
        let cells = vec![0; columns.len() * bands.len()];
        Grid {
            columns,
            bands,
            cells,
        }
    }

    #[inline]
    pub(super) fn add(&mut self, column: usize, band: usize) {
        self.cells[column * self.bands.len() + band] += 1;
    }
}

/// Writes over time and key space, ready to render: see
/// [`Report::heatmap`](super::Report::heatmap).
///
/// ```
/// use rowkey::lab::Simulation;
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
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Heatmap {
    title: String,
    columns: Vec<(u64, u64)>,
    labels: Vec<String>,
    cells: Vec<u64>,
}

/// Labels longer than this are cut, with an ellipsis.
const LABEL_CHARS: usize = 48;

impl Heatmap {
    pub(super) fn new<K: RowKey>(grid: &Grid) -> Heatmap {
        Heatmap {
            title: format!(
                "`{}` writes over time (across) and key space (down)",
                K::LAYOUT.name
            ),
            columns: grid.columns.clone(),
            labels: grid.bands.iter().map(|start| label::<K>(start)).collect(),
            cells: grid.cells.clone(),
        }
    }

    /// Each band's label, lowest keys first: its first region's start key, decoded.
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

    /// The heatmap as an SVG document.
    pub fn to_svg(&self) -> String {
        let bands = self.labels.len().max(1);
        let columns = self.columns.len().max(1);
        let (left, top, cell_h) = (330i32, 48i32, 14i32);
        let width = 1000u32;
        // Room on the right for the last time tick.
        let plot_w = width as i32 - left - 70;
        let height = (top + cell_h * bands as i32 + 60) as u32;
        let max = self.cells.iter().copied().max().unwrap_or(0).max(1);
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
            // Drawing into a String cannot fail but for a coordinate bug: draw what can be drawn.
            let _ = root.fill(&WHITE);
            let _ = root.draw(&Text::new(
                self.title.clone(),
                (left, 16),
                ("sans-serif", 19).into_font(),
            ));
            let label_style = TextStyle::from(("sans-serif", 14).into_font())
                .pos(Pos::new(HPos::Right, VPos::Center));
            let x_of = |c: usize| left + (c as i32 * plot_w) / columns as i32;
            for (b, label) in self.labels.iter().enumerate() {
                let y = top + b as i32 * cell_h;
                let _ = root.draw(&Text::new(
                    label.clone(),
                    (left - 6, y + cell_h / 2),
                    label_style.clone(),
                ));
                for c in 0..self.columns.len() {
                    let writes = self.writes(c, b);
                    if writes == 0 {
                        continue;
                    }
                    let heat = writes as f64 / max as f64;
                    // Pale yellow for a few writes, deep red for the most.
                    let colour = HSLColor((1.0 - heat) * 55.0 / 360.0, 1.0, 0.85 - 0.45 * heat);
                    let _ = root.draw(&Rectangle::new(
                        [(x_of(c), y), (x_of(c + 1), y + cell_h)],
                        colour.filled(),
                    ));
                }
            }
            let bottom = top + cell_h * bands as i32;
            let _ = root.draw(&Rectangle::new(
                [(left, top), (left + plot_w, bottom)],
                BLACK.stroke_width(1),
            ));
            let tick = TextStyle::from(("sans-serif", 14).into_font())
                .pos(Pos::new(HPos::Center, VPos::Top));
            if let (Some(first), Some(last)) = (self.columns.first(), self.columns.last()) {
                let middle = self.columns[self.columns.len() / 2];
                for (t, x) in [
                    (first.0, left),
                    (middle.0, x_of(self.columns.len() / 2)),
                    (last.1, left + plot_w),
                ] {
                    let _ = root.draw(&Text::new(format!("t={t}"), (x, bottom + 6), tick.clone()));
                }
            }
            let _ = root.draw(&Text::new(
                format!(
                    "time: {} columns; colour: writes per cell, up to {max}",
                    self.columns.len()
                ),
                (left, bottom + 26),
                ("sans-serif", 14).into_font(),
            ));
            let _ = root.present();
        }
        svg
    }
}

/// A region's start key in words: each decoded segment as `name=value`, or `start of table`.
fn label<K: RowKey>(start: &[u8]) -> String {
    if start.is_empty() {
        return "start of table".into();
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
    let text = words.join(", ");
    if text.chars().count() <= LABEL_CHARS {
        text
    } else {
        let mut cut: String = text.chars().take(LABEL_CHARS - 1).collect();
        cut.push('…');
        cut
    }
}
