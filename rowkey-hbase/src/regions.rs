//! A plan's ranges read by region: the ranges whose starts lie in one region of the table (and in
//! one salt bucket) are read by one scanner that carries HBase's `MultiRowRangeFilter` of them,
//! so the region server seeks from one range to the next and an `IN` list of 1,000 keys opens a
//! scanner a region, not a scanner a key. A region that holds one range of the plan reads it with
//! a plain scanner, as every range was read before.
//!
//! Where the regions are comes from `getAllRegionLocations`, asked once a read (so a region that
//! split or moved since the last read is seen). The grouping only decides how many scanners read
//! the ranges and which run in parallel: a group's scanner reads every row of its ranges and no
//! other, wherever the regions have gone since (the Thrift2 server's own client follows splits
//! and moves), and resumes after a failure just after the last row it gave. When the locations
//! cannot be had (a region between servers, which HBase 2.6's Thrift2 server answers with an
//! internal error), each salt bucket's ranges, or the whole plan's, are one group.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use rowkey::KeyRange;

use crate::endpoint::Endpoint;
use crate::hbase::TTHBaseServiceSyncClient;
use crate::link::Idle;

/// A table's regions as one read found them: their start keys in key order (the first empty),
/// and the server of each, numbered from 0.
#[derive(Debug)]
pub(crate) struct Regions {
    starts: Vec<Vec<u8>>,
    servers: Vec<usize>,
}

impl Regions {
    /// Regions from `(start, server)` pairs in any order.
    pub(crate) fn new(mut regions: Vec<(Vec<u8>, String)>) -> Regions {
        regions.sort();
        regions.dedup_by(|a, b| a.0 == b.0);
        let mut names: HashMap<String, usize> = HashMap::new();
        let servers = regions
            .iter()
            .map(|(_, server)| {
                let next = names.len();
                *names.entry(server.clone()).or_insert(next)
            })
            .collect();
        Regions {
            starts: regions.into_iter().map(|(start, _)| start).collect(),
            servers,
        }
    }

    /// The index of the region that holds `key`.
    fn region_of(&self, key: &[u8]) -> usize {
        self.starts
            .partition_point(|start| start.as_slice() <= key)
            .saturating_sub(1)
    }

    /// The server of region `i`.
    fn server_of(&self, i: usize) -> Option<usize> {
        self.servers.get(i).copied()
    }
}

/// The regions of `table` with their servers, on a connection kept between reads (or a new one),
/// or `None` when they cannot be had within `deadline`.
pub(crate) fn locate(
    endpoint: &Endpoint,
    addr: SocketAddr,
    idle: &Idle,
    table: &str,
    deadline: Duration,
) -> Option<Regions> {
    let mut client = match idle.take() {
        Some(client) => client,
        None => endpoint.open(addr, deadline).ok()?,
    };
    let locations = client
        .get_all_region_locations(table.as_bytes().to_vec())
        .ok()?;
    idle.give(client);
    let regions: Vec<(Vec<u8>, String)> = locations
        .into_iter()
        .map(|l| {
            let server = format!(
                "{}:{}",
                l.server_name.host_name,
                l.server_name.port.unwrap_or_default()
            );
            (l.region_info.start_key.unwrap_or_default(), server)
        })
        .collect();
    // No regions at all is a table that does not exist: its read fails as it should.
    (!regions.is_empty()).then(|| Regions::new(regions))
}

/// Ranges read by one scanner: `hull` from the first's start to the last's stop, and the ranges
/// themselves when there are several (`None`: the hull is the one range).
#[derive(Clone, Debug)]
pub(crate) struct Piece {
    pub(crate) hull: KeyRange,
    pub(crate) ranges: Option<Arc<[KeyRange]>>,
    /// The server of the region that holds the first range's start, when known.
    pub(crate) server: Option<usize>,
}

/// `ranges` (sorted, not overlapping) grouped into the pieces one scanner each reads: the ranges
/// of one salt bucket (the first `salt_len` bytes) whose starts lie in one region of `regions`, or
/// in one bucket when the regions are not known. In key order.
pub(crate) fn pieces(
    ranges: Vec<KeyRange>,
    salt_len: usize,
    regions: Option<&Regions>,
) -> Vec<Piece> {
    let group_of = |r: &KeyRange| {
        let bucket = r
            .start()
            .get(..salt_len.min(r.start().len()))
            .map(<[u8]>::to_vec);
        let region = regions.map(|regions| regions.region_of(r.start()));
        (bucket, region)
    };
    let mut pieces = Vec::new();
    let mut group: Vec<KeyRange> = Vec::new();
    let mut current = None;
    for range in ranges {
        let of = group_of(&range);
        if current.as_ref() != Some(&of) && !group.is_empty() {
            pieces.push(piece(std::mem::take(&mut group), regions, current.take()));
        }
        current = Some(of);
        group.push(range);
    }
    if !group.is_empty() {
        pieces.push(piece(group, regions, current));
    }
    pieces
}

/// Each of `ranges` a piece of its own (one scanner a range).
pub(crate) fn single_pieces(ranges: Vec<KeyRange>) -> Vec<Piece> {
    ranges
        .into_iter()
        .map(|hull| Piece {
            hull,
            ranges: None,
            server: None,
        })
        .collect()
}

type GroupOf = (Option<Vec<u8>>, Option<usize>);

fn piece(group: Vec<KeyRange>, regions: Option<&Regions>, of: Option<GroupOf>) -> Piece {
    let server = regions
        .zip(of.and_then(|(_, region)| region))
        .and_then(|(regions, i)| regions.server_of(i));
    let hull = KeyRange::new(group[0].start(), group[group.len() - 1].stop());
    let ranges = (group.len() > 1).then(|| Arc::from(group));
    Piece {
        hull,
        ranges,
        server,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(start: &[u8], stop: &[u8]) -> KeyRange {
        KeyRange::new(start, stop)
    }

    /// A deterministic generator (xorshift), for the grouping's brute-force test.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    #[test]
    fn ranges_group_by_the_region_of_their_start() {
        let regions = Regions::new(vec![
            (vec![], "a:1".into()),
            (vec![0x40], "b:1".into()),
            (vec![0x80], "a:1".into()),
        ]);
        let ranges = vec![
            r(&[0x01], &[0x02]),
            r(&[0x03], &[0x41]), // starts in region 0, runs into region 1
            r(&[0x50], &[0x51]),
            r(&[0x90], &[]),
        ];
        let pieces = pieces(ranges, 0, Some(&regions));
        let hulls: Vec<&KeyRange> = pieces.iter().map(|p| &p.hull).collect();
        assert_eq!(
            hulls,
            [&r(&[0x01], &[0x41]), &r(&[0x50], &[0x51]), &r(&[0x90], &[])]
        );
        assert_eq!(pieces[0].ranges.as_deref().map(<[_]>::len), Some(2));
        assert!(pieces[1].ranges.is_none() && pieces[2].ranges.is_none());
        let servers: Vec<Option<usize>> = pieces.iter().map(|p| p.server).collect();
        assert_eq!(servers, [Some(0), Some(1), Some(0)]);
    }

    #[test]
    fn without_regions_each_salt_bucket_is_one_group() {
        let ranges = vec![
            r(&[0, 1], &[0, 2]),
            r(&[0, 5], &[0, 6]),
            r(&[1, 1], &[1, 2]),
            r(&[1, 5], &[1, 6]),
            r(&[2, 1], &[2, 2]),
        ];
        let pieces = pieces(ranges, 1, None);
        let sizes: Vec<usize> = pieces
            .iter()
            .map(|p| p.ranges.as_deref().map_or(1, <[_]>::len))
            .collect();
        assert_eq!(sizes, [2, 2, 1]);
        assert_eq!(pieces[1].hull, r(&[1, 1], &[1, 6]));
    }

    #[test]
    fn pieces_hold_every_range_once_each_in_one_region_and_bucket() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for round in 0..500 {
            // Sorted, disjoint ranges of two-byte keys; the first byte is the bucket.
            let mut points: Vec<u16> = (0..rng.below(40) * 2)
                .map(|_| rng.below(4096) as u16)
                .collect();
            points.sort_unstable();
            points.dedup();
            let ranges: Vec<KeyRange> = points
                .chunks_exact(2)
                .map(|p| r(&p[0].to_be_bytes(), &p[1].to_be_bytes()))
                .collect();
            let starts: Vec<(Vec<u8>, String)> = (0..rng.below(6))
                .map(|_| {
                    (
                        vec![rng.below(16) as u8, rng.below(256) as u8],
                        format!("s{}", rng.below(3)),
                    )
                })
                .chain([(vec![], "s0".to_string())])
                .collect();
            let regions = Regions::new(starts);
            for (salt_len, regions) in [
                (0, Some(&regions)),
                (1, Some(&regions)),
                (1, None),
                (0, None),
            ] {
                let pieces = pieces(ranges.clone(), salt_len, regions);
                let flat: Vec<KeyRange> = pieces
                    .iter()
                    .flat_map(|p| match &p.ranges {
                        Some(group) => group.to_vec(),
                        None => vec![p.hull.clone()],
                    })
                    .collect();
                assert_eq!(flat, ranges, "round {round}: every range, once, in order");
                for p in &pieces {
                    let group = p
                        .ranges
                        .as_deref()
                        .map_or(vec![p.hull.clone()], <[_]>::to_vec);
                    assert!(
                        group.len() > 1 || p.ranges.is_none(),
                        "a group of one is a plain range"
                    );
                    assert_eq!(p.hull.start(), group[0].start());
                    assert_eq!(p.hull.stop(), group[group.len() - 1].stop());
                    let bucket = |k: &KeyRange| k.start()[..salt_len].to_vec();
                    assert!(group.iter().all(|g| bucket(g) == bucket(&group[0])));
                    if let Some(regions) = regions {
                        let region = regions.region_of(group[0].start());
                        assert!(group.iter().all(|g| regions.region_of(g.start()) == region));
                    }
                }
                for w in pieces.windows(2) {
                    assert!(!w[0].hull.stop().is_empty() && w[0].hull.stop() <= w[1].hull.start());
                }
            }
        }
    }
}
