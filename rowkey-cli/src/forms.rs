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
                .map_err(|e| format!("not base64: {e}")),
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
        .ok_or_else(|| String::from("not hex: only 0-9, a-f and A-F"))?;
    if digits.len() % 2 != 0 {
        return Err(String::from("not hex: an odd number of digits"));
    }
    Ok(digits.chunks(2).map(|p| (p[0] * 16 + p[1]) as u8).collect())
}

/// Keys longer than this many characters are shown shortened in the middle.
const SHOWN_CHARS: usize = 200;

/// A key as the user gave it, to show in a message: as it was written (so that it pastes back),
/// but every control character as `\xHH`, which the HBase shell's form reads as the same byte;
/// past [`SHOWN_CHARS`] characters, its start and end with the length between.
pub fn shown(text: &str) -> String {
    let visible = |c: char| -> String {
        if c.is_ascii_control() {
            format!("\\x{:02X}", c as u32)
        } else {
            c.to_string()
        }
    };
    let count = text.chars().count();
    if count == 0 {
        return String::from("(empty)");
    }
    if count <= SHOWN_CHARS {
        return text.chars().map(visible).collect();
    }
    let half = SHOWN_CHARS / 2;
    let head: String = text.chars().take(half).map(visible).collect();
    let tail: String = text.chars().skip(count - half).map(visible).collect();
    format!(
        "{head}…[{count} characters, the middle {} not shown]…{tail}",
        count - 2 * half
    )
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
    fn keys_are_shown_as_given_and_long_ones_in_part() {
        assert_eq!(shown(r"\x00\x00(\xD9"), r"\x00\x00(\xD9");
        assert_eq!(shown("a\tb\u{7f}"), r"a\x09b\x7F");
        let long = format!(
            "{}{}{}",
            "a".repeat(150),
            "m".repeat(4_999_700),
            "z".repeat(150)
        );
        let short = shown(&long);
        assert_eq!(
            short,
            format!(
                "{}…[5000000 characters, the middle 4999800 not shown]…{}",
                "a".repeat(100),
                "z".repeat(100)
            )
        );
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
