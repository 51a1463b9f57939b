//! The JDK as the oracle of Java's bytes: `tests/java/TimeKeys.java`, compiled and run by the
//! tests that include this file (with `#[path]`).

use std::process::Command;

/// What the JDK writes for each count: `[Bytes.toBytes(c), Bytes.toBytes(Long.MAX_VALUE - c),
/// %019d of c, %019d of Long.MAX_VALUE - c]`, bytes in hex.
pub fn java(counts: &[i64]) -> Vec<[String; 4]> {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("java-time-keys");
    std::fs::create_dir_all(&dir).unwrap();
    let source = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/java/TimeKeys.java");
    let javac = Command::new("javac")
        .args(["-d", dir.to_str().unwrap(), source])
        .status()
        .expect("javac (a JDK 17: .ci/servers/install.sh installs openjdk-17-jdk-headless)");
    assert!(javac.success(), "javac tests/java/TimeKeys.java failed");
    let out = Command::new("java")
        .args(["-cp", dir.to_str().unwrap(), "TimeKeys"])
        .args(counts.iter().map(i64::to_string))
        .output()
        .expect("java");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<[String; 4]> = String::from_utf8(out.stdout)
        .unwrap()
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
