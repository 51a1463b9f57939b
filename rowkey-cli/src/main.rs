//! `rowkey`: encode, decode, explain and plan row keys from a layout lock file, for
//! the engineer on call with a key from the HBase shell, a Bigtable error or a log line, and no
//! Rust program to hand. Everything it does is `rowkey::schema`; this file is the shell around it.

mod args;
mod forms;
mod json;
mod phoenix;

use std::io::{self, BufRead, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use rowkey::schema::{Schema, Value};

use forms::Form;

const VALUES: &str = "\
Values, by field type (`rowkey fields LOCK` lists a layout's fields and types):
  integers                    decimal digits, `-` in front when negative: 42, -7
  floats                      as Rust reads them: 1.5, -0, inf, NaN
  bool, char                  true or false; one character
  String, &str, Cow<str>      the text; \\xHH is the byte HH, as the HBase shell prints it
  Vec<u8>, &[u8], [u8; N]     the same, any bytes: web\\x002
  Hashed<N>                   the value to hash (host=web-2), or 0x and its 2N hex digits
  a fieldless enum            the variant's name: Click
  std::time::SystemTime       a date, RFC 3339: 2023-11-14T22:13:20Z, 1969-12-31T23:59:59.5+00:00;
                              or a count of the field's unit (ms unless `unit`) since the epoch;
                              shown as the date in UTC
  chrono's times              ISO 8601: 2024-01-31T10:00:00Z, 2024-01-31T10:00:00, 2024-01-31, 10:00:00
  rust_decimal::Decimal, Uuid their own text: -1.50, 67e55044-10b1-426f-9247-bb680e5fe0c8
  your own KeyField type      its bytes as they stand in the key, in hex
  Option<T>                   null for None (write \\x6Eull for the text \"null\"), else T's value
  a nested struct             its fields by dotted path: inner.region=3 inner.name=eu
  an enum with data           the variant, then its fields: V2.user=3; a variant without fields alone: Gone
  FIELD=                      the empty string";

#[derive(Parser, Debug)]
#[command(
    name = "rowkey",
    version,
    about = "Encode, decode, explain and plan row keys from a layout lock file (rowkey::lock), without the Rust type",
    after_help = VALUES
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Prints the key whose fields have these values.
    #[command(after_help = VALUES)]
    Encode {
        /// The layout lock file (`rowkey::lock`).
        lock: PathBuf,
        /// Every field's value, by dotted path.
        #[arg(value_name = "FIELD=VALUE")]
        values: Vec<String>,
        /// How to print the key.
        #[arg(long = "out", value_enum, default_value_t = Form::Hbase)]
        out: Form,
    },
    /// Prints each key's fields, one JSON object a line (or a table).
    #[command(after_help = VALUES)]
    Decode {
        /// The layout lock file (`rowkey::lock`).
        lock: PathBuf,
        /// Keys; `-` reads them from stdin, one a line (a line of the HBase shell's scan output
        /// gives its row). An empty line is the empty key, as `''` is.
        #[arg(required = true, value_name = "KEY")]
        keys: Vec<String>,
        /// How the keys are written.
        #[arg(long = "in", value_enum, default_value_t = Form::Hbase)]
        form: Form,
        /// JSON (one object a line) or a table for people.
        #[arg(long, value_enum, default_value_t = Format::Json)]
        format: Format,
        /// Starts each output line with the number of the key it comes from and a tab: its line
        /// of stdin, or its place among the KEY arguments.
        #[arg(long)]
        line: bool,
    },
    /// Shows each part of each key beside its value, as `K::explain` does.
    ///
    /// A key that does not decode is shown as far as it goes, as `K::explain_best_effort` shows
    /// it (in full when only its salt or hash prefix is wrong, a salt byte past the bucket count
    /// included; otherwise its tag and prefix, then the rest undecoded), its error goes to
    /// stderr, and the exit status is 2.
    Explain {
        /// The layout lock file (`rowkey::lock`).
        lock: PathBuf,
        /// Keys; `-` reads them from stdin, one a line. An empty line is the empty key, as `''`
        /// is.
        #[arg(required = true, value_name = "KEY")]
        keys: Vec<String>,
        /// How the keys are written.
        #[arg(long = "in", value_enum, default_value_t = Form::Hbase)]
        form: Form,
        /// Starts each output line with the number of the key it comes from and a tab: its line
        /// of stdin, or its place among the KEY arguments.
        #[arg(long)]
        line: bool,
    },
    /// Prints the key ranges that hold the rows a query asks for: `START<TAB>STOP` a line (an
    /// empty STOP: to the end), the typed builder's ranges for the same query.
    #[command(after_help = concat!(
        "Conditions bind fields in key order, as the typed builder does: equalities on leading fields,\n",
        "then at most one range or prefix.\n",
        "  FIELD=V       equal to V\n",
        "  FIELD=A..B    from A (included) to B (excluded); A..=B includes B; ..B and A.. leave an end open\n",
        "  FIELD^=P      a string or bytes field starting with P\n",
        "A value holding `..` writes one dot as \\x2E."
    ))]
    Scan {
        /// The layout lock file (`rowkey::lock`).
        lock: PathBuf,
        /// Conditions on fields, in key order.
        #[arg(value_name = "CONDITION")]
        conditions: Vec<String>,
        /// How to print the ranges' keys.
        #[arg(long = "out", value_enum, default_value_t = Form::Hbase)]
        out: Form,
        /// Prints shell commands instead: `--shell hbase TABLE` gives one `scan 'TABLE', {...}` a range.
        #[arg(long, num_args = 2, value_names = ["SHELL", "TABLE"])]
        shell: Option<Vec<String>>,
    },
    /// Lists the layout's fields by dotted path, with their types and the values they take.
    Fields {
        /// The layout lock file (`rowkey::lock`).
        lock: PathBuf,
    },
    /// Prints the Apache Phoenix `CREATE TABLE` statement whose primary key is the lock's
    /// Phoenix layout (`#[rowkey(phoenix)]`), as `rowkey::phoenix::ddl` does.
    PhoenixDdl {
        /// The layout lock file of a Phoenix layout (`format=phoenix`).
        lock: PathBuf,
        /// The table's name, as the statement writes it (`WEB.VISITS`).
        table: String,
    },
    /// Reads an Apache Phoenix `CREATE TABLE` statement and prints the layout lock of its row key,
    /// for `decode`, `explain`, `encode` and `scan` on the table's keys.
    ///
    /// A table option neither Phoenix nor HBase knows is read past, as Phoenix reads past it (a
    /// misspelt `SALT_BUCKET = 4` leaves the table unsalted), with a warning on stderr that names
    /// its line, column and the nearest known option.
    PhoenixLock {
        /// The file holding the statement; `-` reads it from stdin.
        ddl_file: PathBuf,
        /// Writes the lock to this file instead of stdout.
        #[arg(short, long, value_name = "LOCK")]
        output: Option<PathBuf>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Json,
    Table,
}

/// A failure: what to print, and whether it was bad input (exit 2) or the output closing.
pub(crate) enum Failure {
    Input(String),
    Closed,
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::Closed
        } else {
            Failure::Input(format!("cannot write: {e}"))
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = run(cli.command, &mut out).and_then(|ok| {
        out.flush()?;
        Ok(ok)
    });
    match result {
        Ok(true) => ExitCode::SUCCESS,
        // Bad keys were reported as they came.
        Ok(false) => ExitCode::from(2),
        Err(Failure::Closed) => ExitCode::SUCCESS,
        Err(Failure::Input(message)) => {
            let _ = out.flush();
            eprintln!("rowkey: {message}");
            ExitCode::from(2)
        }
    }
}

fn schema(lock: &PathBuf) -> Result<Schema, Failure> {
    Schema::read(lock).map_err(|e| Failure::Input(e.to_string()))
}

/// Runs a command; `Ok(false)` when some key in a stream was bad (reported on stderr).
fn run(command: Command, out: &mut impl Write) -> Result<bool, Failure> {
    match command {
        Command::Encode {
            lock,
            values,
            out: form,
        } => encode(&lock, &values, form, out),
        Command::Decode {
            lock,
            keys,
            form,
            format,
            line,
        } => decode(&lock, &keys, form, format, line, out),
        Command::Explain {
            lock,
            keys,
            form,
            line,
        } => explain(&lock, &keys, form, line, out),
        Command::Scan {
            lock,
            conditions,
            out: form,
            shell,
        } => scan(&lock, &conditions, form, shell.as_deref(), out),
        Command::Fields { lock } => fields(&lock, out),
        Command::PhoenixDdl { lock, table } => phoenix::ddl(&schema(&lock)?, &table, out),
        Command::PhoenixLock { ddl_file, output } => {
            phoenix::lock(&ddl_file, output.as_deref(), out)
        }
    }
}

/// `rowkey encode`: prints the key whose fields have these values.
fn encode(
    lock: &PathBuf,
    values: &[String],
    form: Form,
    out: &mut impl Write,
) -> Result<bool, Failure> {
    let schema = schema(lock)?;
    let values = args::values(&schema, values).map_err(Failure::Input)?;
    let key = schema
        .encode(&values)
        .map_err(|e| Failure::Input(e.to_string()))?;
    writeln!(out, "{}", form.write(&key))?;
    Ok(true)
}

/// `rowkey decode`: prints each key's fields as JSON or a table.
fn decode<W: Write>(
    lock: &PathBuf,
    keys: &[String],
    form: Form,
    format: Format,
    line: bool,
    out: &mut W,
) -> Result<bool, Failure> {
    let schema = schema(lock)?;
    // One list for every key: a stream of keys decodes in constant memory.
    let mut fields = Vec::new();
    each_key(keys, form, line, out, |out, key| {
        if let Err(e) = schema.decode_into(key, &mut fields) {
            return Ok(Err(e.to_string()));
        }
        match format {
            Format::Json => writeln!(out, "{}", json::object(&fields))?,
            Format::Table => write_field_table(out, &fields)?,
        }
        Ok(Ok(()))
    })
}

/// One decoded key for people: each path padded to the longest, its value, then a blank line.
fn write_field_table(out: &mut impl Write, fields: &[(&str, Value)]) -> io::Result<()> {
    let width = fields.iter().map(|(p, _)| p.len()).max().unwrap_or(0);
    for (path, value) in fields {
        writeln!(out, "{path:<width$}  {value}")?;
    }
    writeln!(out)
}

/// `rowkey explain`: shows each part of each key beside its value; a key that does not decode
/// as far as it goes, with its error on stderr (once: the parts on stdout, the error where every
/// bad key's goes) and exit status 2.
fn explain<W: Write>(
    lock: &PathBuf,
    keys: &[String],
    form: Form,
    line: bool,
    out: &mut W,
) -> Result<bool, Failure> {
    let schema = schema(lock)?;
    each_key(keys, form, line, out, |out, key| {
        let mut explained = schema.explain_best_effort(key);
        let error = explained.error.take();
        write!(out, "{explained}")?;
        Ok(error.map_or(Ok(()), |e| Err(e.to_string())))
    })
}

/// `rowkey scan`: prints the ranges that hold the rows the conditions ask for, or their shell
/// commands.
fn scan(
    lock: &PathBuf,
    conditions: &[String],
    form: Form,
    shell: Option<&[String]>,
    out: &mut impl Write,
) -> Result<bool, Failure> {
    // The lock is read before `--shell` is judged, so a bad lock is the error a user sees first.
    let schema = schema(lock)?;
    let table = hbase_table(shell)?;
    let query = args::conditions(&schema, conditions).map_err(Failure::Input)?;
    let plan = schema
        .plan(&query)
        .map_err(|e| Failure::Input(e.to_string()))?;
    if plan.ranges().next().is_none() {
        return Err(Failure::Input(args::empty_query(
            &schema, conditions, &query,
        )));
    }
    for range in plan.ranges() {
        match &table {
            Some(table) => writeln!(
                out,
                "{}",
                rowkey::hbase::scan_command(table, range.start(), range.stop())
            )?,
            None => writeln!(
                out,
                "{}\t{}",
                form.write(range.start()),
                form.write(range.stop())
            )?,
        }
    }
    Ok(true)
}

/// The table of `--shell hbase TABLE`; `None` without `--shell`. `hbase` is the only shell.
fn hbase_table(shell: Option<&[String]>) -> Result<Option<String>, Failure> {
    match shell {
        None => Ok(None),
        Some([shell, table]) if shell == "hbase" => Ok(Some(table.clone())),
        Some([shell, _]) => Err(Failure::Input(format!(
            "--shell {shell:?}: the shell rowkey writes for is `hbase`"
        ))),
        Some(_) => Err(Failure::Input(String::from(
            "--shell takes SHELL and TABLE",
        ))),
    }
}

/// `rowkey fields`: lists the layout's fields in aligned columns: path, type, values taken.
fn fields(lock: &PathBuf, out: &mut impl Write) -> Result<bool, Failure> {
    let schema = schema(lock)?;
    writeln!(
        out,
        "`{}` keys (at most {} bytes):",
        schema.name(),
        schema.limit()
    )?;
    let fields = schema.fields();
    let width = fields.iter().map(|f| f.path.len()).max().unwrap_or(0);
    let ty_width = fields.iter().map(|f| f.ty.len()).max().unwrap_or(0);
    for f in &fields {
        writeln!(
            out,
            "  {:<width$}  {:<ty_width$}  {}",
            f.path, f.ty, f.takes
        )?;
    }
    Ok(true)
}

/// Runs `f` on every key of `keys` (`-`: every line of stdin, read one at a time; an empty line is
/// the empty key); a key that does not read or decode is reported on stderr with where it came
/// from and the key as it was given, and the rest go on. With `numbered`, every line `f` prints
/// starts with the key's number (its line of stdin, or its place among the arguments) and a tab.
fn each_key<W: Write>(
    keys: &[String],
    form: Form,
    numbered: bool,
    out: &mut W,
    mut f: impl FnMut(&mut Numbered<'_, W>, &[u8]) -> io::Result<Result<(), String>>,
) -> Result<bool, Failure> {
    let mut ok = true;
    let mut one = |out: &mut W, text: Result<&str, String>, number: usize, place: &str| {
        let result = match text.clone().and_then(|t| form.read(t)) {
            Ok(key) => {
                let mut lines = Numbered::new(out, numbered.then_some(number));
                f(&mut lines, &key)?
            }
            Err(e) => Err(e),
        };
        if let Err(e) = result {
            // The output so far first, so that errors and output interleave as they happened.
            out.flush()?;
            match text {
                Ok(text) => eprintln!("rowkey: {place}{e}\n  key: {}", forms::shown(text)),
                Err(_) => eprintln!("rowkey: {place}{e}"),
            }
            ok = false;
        }
        Ok::<(), Failure>(())
    };
    let mut argument = 0usize;
    for key in keys {
        if key != "-" {
            argument += 1;
            let place = if keys.len() > 1 {
                format!("key {argument}: ")
            } else {
                String::new()
            };
            one(out, Ok(key), argument, &place)?;
            continue;
        }
        let stdin = io::stdin();
        let mut input = stdin.lock();
        let mut line = Vec::new();
        let mut number = 0usize;
        loop {
            line.clear();
            match input.read_until(b'\n', &mut line) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => return Err(Failure::Input(format!("stdin, line {}: {e}", number + 1))),
            }
            number += 1;
            let text = std::str::from_utf8(&line).map_err(|_| {
                String::from(
                    "the line is not UTF-8 text (the HBase shell's form writes any other byte \
                     as \\xHH)",
                )
            });
            one(
                out,
                text.map(forms::line_key),
                number,
                &format!("stdin, line {number}: "),
            )?;
        }
    }
    Ok(ok)
}

/// Output that starts every line with a key's number and a tab, when it has one.
struct Numbered<'w, W: Write> {
    out: &'w mut W,
    number: Option<usize>,
    at_line_start: bool,
}

impl<'w, W: Write> Numbered<'w, W> {
    fn new(out: &'w mut W, number: Option<usize>) -> Self {
        Numbered {
            out,
            number,
            at_line_start: true,
        }
    }
}

impl<W: Write> Write for Numbered<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let Some(number) = self.number else {
            return self.out.write(buf);
        };
        for line in buf.split_inclusive(|&b| b == b'\n') {
            if self.at_line_start {
                write!(self.out, "{number}\t")?;
            }
            self.out.write_all(line)?;
            self.at_line_start = line.ends_with(b"\n");
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}
