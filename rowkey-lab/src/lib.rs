//! The key lab of rowkey: a layout's write pattern seen before production. A
//! [`Simulation`] plays a stream of writes into a table that is pre-split or splits by itself,
//! and its [`Report`] shows, window by window, how much of the writes the busiest region took,
//! how many regions there were, how long the keys were against the stores' limits, and a
//! [`Heatmap`] of time against the key space with each band labelled by its decoded start key.
//! [`advise`] judges the layout alone; [`Report::advise`] judges what the run saw (regions that
//! took no write, a region over twice its share, a salt or hash prefix with too few values).
//!
//! ```
//! use rowkey_lab::{advise, AdviceKind, Simulation};
//! use rowkey::regions::Regions;
//! use rowkey::RowKey;
//!
//! #[derive(RowKey)]
//! struct TimeFirst { ts_millis: u64, event_id: u32 }
//!
//! #[derive(RowKey)]
//! #[rowkey(salt(buckets = 16))]
//! struct Salted { ts_millis: u64, event_id: u32 }
//!
//! let mut hot = Simulation::auto_split(1_000);
//! let mut spread = Simulation::presplit(Regions::new(Salted::split_keys(16))?);
//! for i in 0..20_000u64 {
//!     let (ts_millis, event_id) = (1_700_000_000_000 + i, i as u32);
//!     hot.write(ts_millis, &TimeFirst { ts_millis, event_id }.to_vec()?);
//!     spread.write(ts_millis, &Salted { ts_millis, event_id }.to_vec()?);
//! }
//! let (hot, spread) = (hot.report(1_000), spread.report(1_000));
//! assert_eq!(hot.hottest_share(), 1.0); // one region takes every write of a window
//! assert!(spread.hottest_share() < 0.1); // 16 regions share them
//! println!("{hot}");
//! std::fs::write(std::env::temp_dir().join("hot.svg"), hot.heatmap::<TimeFirst>().to_svg())?;
//! assert!(!advise::<TimeFirst>().is_empty() && advise::<Salted>().is_empty());
//!
//! // A hash prefix of 3 hosts over 8 regions: a fine layout, too few values to spread.
//! #[derive(RowKey)]
//! struct Metric { #[rowkey(hash_prefix(len = 4))] host: String, ts_millis: u64 }
//!
//! let mut sim = Simulation::presplit(Regions::new(Metric::split_keys(8))?);
//! for i in 0..3_000u64 {
//!     let (host, ts_millis) = (format!("web-{}", i % 3), 1_700_000_000_000 + i);
//!     sim.write(ts_millis, &Metric { host, ts_millis }.to_vec()?);
//! }
//! assert!(advise::<Metric>().is_empty());
//! let run = sim.report(1_000).advise::<Metric>();
//! assert_eq!(run[0].kind, AdviceKind::EmptyRegions); // 6 of 8 regions took no write
//! assert!(run.iter().any(|a| a.kind == AdviceKind::FewDistinctPrefixes));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs, missing_debug_implementations)]
#![forbid(unsafe_code)]

mod advice;
mod draw;
mod heads;
mod heatmap;
mod report;
mod run_advice;
mod simulation;
mod sizes;

pub use advice::{advise, advise_for, Advice, AdviceKind};
pub use heatmap::Heatmap;
pub use report::{RegionWrites, Report, Window};
pub use simulation::Simulation;
pub use sizes::KeySizes;

/// The README's Rust examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
