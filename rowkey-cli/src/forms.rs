//! Keys as text: the HBase shell's form (`Bytes.toStringBinary`), hex and base64, read and written.

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use clap::ValueEnum;

/// How keys are written on the command line, on stdin and in output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Form {
    /// The HBase shell's form (`Bytes.toStringBinary`): printable ASCII as itself, every other
    /// byte as `\xHH`. Read back with `\xHH` (either case) as that byte, everything else as itself.
    Hbase,
    /// Hex digits, two a byte: printed lowercase without separators, read in either case.
    Hex,
    /// Base64, the standard alphabet, padded.
    Base64,
}

impl Form {
    /// The bytes of `text`, or what is wrong with it.
    pub fn read(self, text: &str) -> Result<Vec<u8>, String> {
        match self {
            Form::Hbase => Ok(rowkey::hbase::from_string_binary(text)),
            Form::Hex => hex(text.trim()),
            Form::Base64 => STANDARD
                .decode(text.trim())
                .map_err(|e| format!("{:?} is not base64: {e}", text.trim())),
        }
    }

    /// `bytes` in this form.
    pub fn write(self, bytes: &[u8]) -> String {
        match self {
            Form::Hbase => rowkey::hbase::to_string_binary(bytes),
            Form::Hex => bytes.iter().map(|b| format!("{b:02x}")).collect(),
            Form::Base64 => STANDARD.encode(bytes),
        }
    }
}

fn hex(text: &str) -> Result<Vec<u8>, String> {
    let digits: Vec<u32> = text
        .chars()
        .map(|c| c.to_digit(16))
        .collect::<Option<_>>()
        .ok_or_else(|| format!("{text:?} is not hex: only 0-9, a-f and A-F"))?;
    if digits.len() % 2 != 0 {
        return Err(format!("{text:?} is not hex: an odd number of digits"));
    }
    Ok(digits.chunks(2).map(|p| (p[0] * 16 + p[1]) as u8).collect())
}

/// The key of one line of stdin: the line without its line break, or, for a line of the HBase
/// shell's `scan` output (` ROW   column=cf:q, timestamp=..., value=...`), the row before
/// `column=`.
pub fn line_key(line: &str) -> &str {
    let line = line.trim_end_matches(['\n', '\r']);
    match line.find(" column=") {
        Some(at) => line[..at].trim(),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_reads_what_it_writes() {
        let bytes: Vec<u8> = (0..=255).collect();
        for form in [Form::Hbase, Form::Hex, Form::Base64] {
            assert_eq!(
                form.read(&form.write(&bytes)),
                Ok(bytes.clone()),
                "{form:?}"
            );
        }
        assert_eq!(Form::Hex.read("0A0b"), Ok(vec![10, 11]));
        assert!(Form::Hex.read("0g").is_err() && Form::Hex.read("abc").is_err());
        assert!(Form::Base64.read("!!").is_err());
        assert_eq!(Form::Hbase.write(b"a\\b\x00"), "a\\x5Cb\\x00");
    }

    #[test]
    fn a_line_of_scan_output_gives_its_row() {
        assert_eq!(
            line_key(" k\\x01 column=d:v, timestamp=1, value=x\n"),
            "k\\x01"
        );
        assert_eq!(line_key("k\\x01\r\n"), "k\\x01");
    }
}
