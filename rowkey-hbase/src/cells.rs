//! Rows as HBase holds them: a key and any cells (family, qualifier, value, an optional
//! timestamp). Rows of many cells are written in one `putMultiple`, fetched by key in one
//! `getMultiple` with the families, columns, time range and versions a [`Columns`] names, and
//! deleted whole, column by column, or as the rows of a plan. Every key is checked against
//! HBase's row limit before anything is sent.

use std::ops::Range;

use rowkey::phoenix::{PhoenixKey, EMPTY_CELL};
use rowkey::{DecodeError, DecodeKey, EncodeError, KeyField, Scan};

use crate::hbase::{
    TColumn, TColumnValue, TDelete, TDeleteType, TGet, TPut, TResult, TTHBaseServiceSyncClient,
    TTimeRange,
};
use crate::{check_row, row_key, Cell, Error, HBase, ReadOptions, Row};

/// Phoenix's default column family, of a non-key column named without one.
const DEFAULT_PHOENIX_FAMILY: &str = "0";

impl Cell {
    /// The cell `family:qualifier = value`, with no timestamp of its own (HBase gives it the
    /// time of the write).
    pub fn new(
        family: impl Into<Vec<u8>>,
        qualifier: impl Into<Vec<u8>>,
        value: impl Into<Vec<u8>>,
    ) -> Cell {
        Cell {
            family: family.into(),
            qualifier: qualifier.into(),
            value: value.into(),
            timestamp: None,
        }
    }

    /// The cell of Phoenix column `column` holding `value` as Phoenix stores it
    /// ([`rowkey::phoenix::column_value`]), for a table made with `COLUMN_ENCODED_BYTES = 0`
    /// (what [`rowkey::phoenix::ddl`] writes): `FAMILY.COLUMN` is the column in that family,
    /// `COLUMN` the column in Phoenix's default family `0`, each name as Phoenix stores it
    /// (unquoted names in capitals). A NULL is no cell: leave the column out of the row.
    ///
    /// ```
    /// use rowkey_hbase::Cell;
    /// let cell = Cell::phoenix("READING", &-1i32)?;
    /// assert_eq!((&cell.family[..], &cell.qualifier[..], &cell.value[..]), (&b"0"[..], &b"READING"[..], &[0x7f, 0xff, 0xff, 0xff][..]));
    /// assert_eq!(Cell::phoenix("M.NOTE", "hello")?.family, b"M");
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    pub fn phoenix<T: KeyField + ?Sized>(column: &str, value: &T) -> Result<Cell, EncodeError> {
        let (family, qualifier) = column
            .split_once('.')
            .unwrap_or((DEFAULT_PHOENIX_FAMILY, column));
        Ok(Cell::new(
            family,
            qualifier,
            rowkey::phoenix::column_value(value)?,
        ))
    }

    /// This cell at `timestamp` (milliseconds since the epoch, HBase's cell version).
    #[must_use]
    pub fn at(self, timestamp: i64) -> Cell {
        Cell {
            timestamp: Some(timestamp),
            ..self
        }
    }
}

impl Row {
    /// The row `key` with `cells`.
    pub fn new(key: impl Into<Vec<u8>>, cells: Vec<Cell>) -> Row {
        Row {
            key: key.into(),
            cells,
        }
    }

    /// The row of Phoenix key `key` (`#[rowkey(phoenix)]`) with the value cells `cells`
    /// ([`Cell::phoenix`]) and Phoenix's empty cell ([`rowkey::phoenix::EMPTY_CELL`]), without
    /// which Phoenix's queries do not see a row: what Phoenix's `UPSERT` writes. The key is
    /// checked against HBase's row limit.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey_hbase::{Cell, Row};
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(phoenix)]
    /// struct Reading { site: String, at: i64 }
    ///
    /// let row = Row::phoenix(
    ///     &Reading { site: "web-1".into(), at: 1_700_000_000_000 },
    ///     vec![Cell::phoenix("CELSIUS", &21.5f64)?, Cell::phoenix("NOTE", "ok")?],
    /// )?;
    /// assert_eq!(row.value(b"0", b"_0"), Some(&b"x"[..])); // the empty cell
    /// assert_eq!(row.value(b"0", b"NOTE"), Some(&b"ok"[..]));
    /// # Ok::<(), rowkey::EncodeError>(())
    /// ```
    pub fn phoenix<K: PhoenixKey>(key: &K, mut cells: Vec<Cell>) -> Result<Row, EncodeError> {
        let empty = EMPTY_CELL;
        cells.push(Cell::new(empty.family, empty.qualifier, empty.value));
        Ok(Row::new(row_key(key)?, cells))
    }

    /// The row's key as the layout `K` decodes it: `row.key_as::<EventKey>()?`.
    pub fn key_as<'a, K: DecodeKey<'a>>(&'a self) -> Result<K, DecodeError> {
        K::decode(&self.key)
    }

    /// The value of the newest cell `family:qualifier` the row holds, if any.
    pub fn value(&self, family: &[u8], qualifier: &[u8]) -> Option<&[u8]> {
        self.cells
            .iter()
            .filter(|c| c.family == family && c.qualifier == qualifier)
            .max_by_key(|c| c.timestamp)
            .map(|c| &c.value[..])
    }
}

/// Which cells a get, a read or a delete takes: every cell (the default), or the families and
/// columns named; within a time range; and up to a number of versions of each.
///
/// ```
/// use rowkey_hbase::Columns;
///
/// // The `d` family whole and the `m:count` column, written in 2024, the 3 newest versions.
/// let columns = Columns::all()
///     .family("d")
///     .column("m", "count")
///     .time_range(1_704_067_200_000..1_735_689_600_000)
///     .versions(3);
/// # let _ = columns;
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    /// `(family, None)` for a whole family, `(family, Some(qualifier))` for a column.
    named: Vec<(Vec<u8>, Option<Vec<u8>>)>,
    time_range: Option<(i64, i64)>,
    versions: Option<u32>,
}

impl Columns {
    /// Every cell of the row, its newest version.
    pub fn all() -> Columns {
        Columns::default()
    }

    /// These columns and the whole family `family` (naming any family or column narrows the
    /// cells to those named).
    #[must_use]
    pub fn family(mut self, family: impl Into<Vec<u8>>) -> Columns {
        self.named.push((family.into(), None));
        self
    }

    /// These columns and `family:qualifier`.
    #[must_use]
    pub fn column(mut self, family: impl Into<Vec<u8>>, qualifier: impl Into<Vec<u8>>) -> Columns {
        self.named.push((family.into(), Some(qualifier.into())));
        self
    }

    /// Only cells whose timestamps lie in `range` (milliseconds, the end excluded).
    #[must_use]
    pub fn time_range(self, range: Range<i64>) -> Columns {
        Columns {
            time_range: Some((range.start, range.end)),
            ..self
        }
    }

    /// Up to `versions` versions of each cell, newest first (0 counts as 1).
    #[must_use]
    pub fn versions(self, versions: u32) -> Columns {
        Columns {
            versions: Some(versions.max(1)),
            ..self
        }
    }

    /// The Thrift2 columns named, none for every cell.
    pub(crate) fn thrift_columns(&self) -> Option<Vec<TColumn>> {
        (!self.named.is_empty()).then(|| {
            self.named
                .iter()
                .map(|(family, qualifier)| TColumn {
                    family: family.clone(),
                    qualifier: qualifier.clone(),
                    timestamp: None,
                })
                .collect()
        })
    }

    pub(crate) fn thrift_time_range(&self) -> Option<TTimeRange> {
        self.time_range.map(|(min_stamp, max_stamp)| TTimeRange {
            min_stamp,
            max_stamp,
        })
    }

    pub(crate) fn thrift_versions(&self) -> Option<i32> {
        self.versions.map(|v| i32::try_from(v).unwrap_or(i32::MAX))
    }

    fn get(&self, row: Vec<u8>) -> TGet {
        TGet {
            row,
            columns: self.thrift_columns(),
            timestamp: None,
            time_range: self.thrift_time_range(),
            max_versions: self.thrift_versions(),
            filter_string: None,
            attributes: None,
            authorizations: None,
            consistency: None,
            target_replica_id: None,
            cache_blocks: None,
            store_limit: None,
            store_offset: None,
            existence_only: None,
            filter_bytes: None,
        }
    }
}

/// A Thrift2 result as a [`Row`] (none without a row key: a get of a row that does not exist).
pub(crate) fn row(r: TResult) -> Option<Row> {
    Some(Row {
        key: r.row.filter(|k| !k.is_empty())?,
        cells: r
            .column_values
            .into_iter()
            .map(|c| Cell {
                family: c.family,
                qualifier: c.qualifier,
                value: c.value,
                timestamp: c.timestamp,
            })
            .collect(),
    })
}

/// The put of `row`.
pub(crate) fn put(row: &Row) -> TPut {
    TPut {
        row: row.key.clone(),
        column_values: row
            .cells
            .iter()
            .map(|c| TColumnValue {
                family: c.family.clone(),
                qualifier: c.qualifier.clone(),
                value: c.value.clone(),
                timestamp: c.timestamp,
                tags: None,
                type_: None,
            })
            .collect(),
        timestamp: None,
        attributes: None,
        durability: None,
        cell_visibility: None,
    }
}

fn delete(key: &[u8], columns: Option<Vec<TColumn>>) -> TDelete {
    TDelete {
        row: key.to_vec(),
        columns,
        timestamp: None,
        delete_type: Some(TDeleteType::DELETE_COLUMNS),
        attributes: None,
        durability: None,
    }
}

/// How many rows a `deleteMultiple` of a plan's rows takes at once.
const DELETE_BATCH: usize = 1_000;

impl HBase {
    /// Writes `rows`, each its key and cells, in one `putMultiple` (each key checked against
    /// HBase's row limit first: a key over it is an error before anything is sent).
    pub fn put(&mut self, table: &str, rows: &[Row]) -> Result<(), Error> {
        for row in rows {
            check_row(&row.key)?;
        }
        let table = table.as_bytes();
        self.call(
            |client| client.put_multiple(table.to_vec(), rows.iter().map(put).collect()),
            |_| false,
        )
    }

    /// The rows of `keys`, in one `getMultiple`, in the order of `keys`: `None` for a key whose
    /// row does not exist (or holds none of the cells `columns` names).
    pub fn get_rows<B: AsRef<[u8]>>(
        &mut self,
        table: &str,
        keys: &[B],
        columns: &Columns,
    ) -> Result<Vec<Option<Row>>, Error> {
        for key in keys {
            check_row(key.as_ref())?;
        }
        let table = table.as_bytes();
        let gets: Vec<TGet> = keys
            .iter()
            .map(|k| columns.get(k.as_ref().to_vec()))
            .collect();
        let results = self.call(
            |client| client.get_multiple(table.to_vec(), gets.clone()),
            |_| false,
        )?;
        Ok(results.into_iter().map(row).collect())
    }

    /// Deletes the rows of `keys`, every cell and version, in one `deleteMultiple`.
    pub fn delete_rows<B: AsRef<[u8]>>(&mut self, table: &str, keys: &[B]) -> Result<(), Error> {
        self.delete_columns(table, keys, &Columns::all())
    }

    /// Deletes every version of the cells `columns` names (its families and columns; every
    /// cell when it names none) from the rows of `keys`, in one `deleteMultiple`.
    pub fn delete_columns<B: AsRef<[u8]>>(
        &mut self,
        table: &str,
        keys: &[B],
        columns: &Columns,
    ) -> Result<(), Error> {
        for key in keys {
            check_row(key.as_ref())?;
        }
        let table = table.as_bytes();
        let deletes: Vec<TDelete> = keys
            .iter()
            .map(|k| delete(k.as_ref(), columns.thrift_columns()))
            .collect();
        let refused = self.call(
            |client| client.delete_multiple(table.to_vec(), deletes.clone()),
            |_| false,
        )?;
        if refused.is_empty() {
            Ok(())
        } else {
            Err(Error::new(
                crate::ErrorKind::HBase,
                Some(self.endpoint()),
                format!(
                    "HBase did not delete {} of {} rows",
                    refused.len(),
                    keys.len()
                ),
            ))
        }
    }

    /// Deletes the rows `scan` matches, every cell and version, read with `options` (only the
    /// rows it `matches()`, in batches of 1,000), and gives how many were deleted. Rows written
    /// into the plan's ranges meanwhile may stay.
    pub fn delete_plan<K: ?Sized + 'static>(
        &mut self,
        table: &str,
        scan: impl Into<Scan<K>>,
        options: &ReadOptions,
    ) -> Result<u64, Error> {
        // The keys alone: the rows are found as `options` says, their cells stay in HBase.
        let keys_only = options.clone().with_keys_only();
        let rows = self.read_rows_with(table, scan, &keys_only)?;
        let mut batch: Vec<Vec<u8>> = Vec::with_capacity(DELETE_BATCH);
        let mut deleted = 0u64;
        for row in rows {
            batch.push(row?.key);
            if batch.len() == DELETE_BATCH {
                self.delete_rows(table, &batch)?;
                deleted += batch.len() as u64;
                batch.clear();
            }
        }
        if !batch.is_empty() {
            self.delete_rows(table, &batch)?;
            deleted += batch.len() as u64;
        }
        Ok(deleted)
    }
}
