//! The JDK as the oracle of Java's bytes: `tests/java/TimeKeys.java` and `FormatKeys.java`,
//! compiled and run by the tests that include this file (with `#[path]`).
#![allow(dead_code)]

use std::process::Command;

/// What the JDK writes for each count: `[Bytes.toBytes(c), Bytes.toBytes(Long.MAX_VALUE - c),
/// %019d of c, %019d of Long.MAX_VALUE - c]`, bytes in hex.
pub fn java(counts: &[i64]) -> Vec<[String; 4]> {
    let out = run("TimeKeys", counts.iter().map(i64::to_string));
    let lines: Vec<[String; 4]> = out
        .lines()
        .map(|l| {
            let f: Vec<String> = l.split(' ').map(str::to_string).collect();
            [f[0].clone(), f[1].clone(), f[2].clone(), f[3].clone()]
        })
        .collect();
    assert_eq!(lines.len(), counts.len());
    lines
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What Java's `LocalDateTime.format(DateTimeFormatter.ofPattern(pattern))` writes for each
/// instant, given as (seconds, nanoseconds) since the epoch in UTC.
pub fn java_format(pattern: &str, instants: &[(i64, u32)]) -> Vec<String> {
    let args = std::iter::once(pattern.to_string())
        .chain(instants.iter().map(|(s, n)| format!("{s}.{n}")));
    let lines: Vec<String> = run("FormatKeys", args)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), instants.len());
    lines
}

/// Compiles `tests/java/<class>.java` and runs it with `args`.
fn run(class: &str, args: impl Iterator<Item = String>) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("java-{class}"));
    std::fs::create_dir_all(&dir).unwrap();
    let source = format!("{}/tests/java/{class}.java", env!("CARGO_MANIFEST_DIR"));
    let javac = Command::new("javac")
        .args(["-d", dir.to_str().unwrap(), &source])
        .status()
        .expect("javac (a JDK 17: .ci/servers/install.sh installs openjdk-17-jdk-headless)");
    assert!(javac.success(), "javac {source} failed");
    let out = Command::new("java")
        .args(["-cp", dir.to_str().unwrap(), class])
        .args(args)
        .output()
        .expect("java");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}
