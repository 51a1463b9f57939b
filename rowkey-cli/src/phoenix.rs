//! `rowkey phoenix-ddl` and `rowkey phoenix-lock`: an Apache Phoenix table's `CREATE TABLE`
//! statement from a lock file, and a lock file from the statement, both `rowkey::phoenix` and
//! `rowkey::schema`'s.

use std::io::{self, Read, Write};
use std::path::Path;

use rowkey::schema::Schema;

use crate::Failure;

/// `rowkey phoenix-ddl LOCK TABLE`: the statement whose primary key is the lock's layout.
pub(crate) fn ddl(schema: &Schema, table: &str, out: &mut impl Write) -> Result<bool, Failure> {
    let ddl = schema
        .phoenix_ddl(table)
        .map_err(|e| Failure::Input(e.to_string()))?;
    writeln!(out, "{ddl};")?;
    Ok(true)
}

/// `rowkey phoenix-lock DDL_FILE [-o LOCK]`: the lock of the statement's row key; each table
/// option neither Phoenix nor HBase knows is a warning on stderr, and the lock is written all the
/// same (Phoenix creates the table all the same).
pub(crate) fn lock(
    ddl_file: &Path,
    output: Option<&Path>,
    out: &mut impl Write,
) -> Result<bool, Failure> {
    let mut sql = String::new();
    let read = if ddl_file == Path::new("-") {
        io::stdin().read_to_string(&mut sql)
    } else {
        std::fs::File::open(ddl_file).and_then(|mut f| f.read_to_string(&mut sql))
    };
    read.map_err(|e| Failure::Input(format!("cannot read {}: {e}", ddl_file.display())))?;
    let (lock, warnings) = rowkey::phoenix::lock_from_ddl_with_warnings(&sql)
        .map_err(|e| Failure::Input(format!("{}: {e}", ddl_file.display())))?;
    for warning in &warnings {
        eprintln!("rowkey: warning: {}: {warning}", ddl_file.display());
    }
    match output {
        Some(path) => std::fs::write(path, lock)
            .map_err(|e| Failure::Input(format!("cannot write {}: {e}", path.display())))?,
        None => out.write_all(lock.as_bytes())?,
    }
    Ok(true)
}
