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

/// What `tests/java/<class>.java` prints for `args`: the JDK's answer, checked against the
/// committed vectors `tests/java/vectors/<class>-<hash of args>.txt`, or, on a machine without a
/// JDK, the committed vectors alone (they were computed by the JDK, and the runs with one keep
/// them honest). `ROWKEY_JAVA_VECTORS=update` writes the file from the JDK's answer;
/// `ROWKEY_REQUIRE_JDK` (set by `.ci/test`) makes a missing JDK a failure.
fn run(class: &str, args: impl Iterator<Item = String>) -> String {
    let args: Vec<String> = args.collect();
    let file = format!(
        "{}/tests/java/vectors/{class}-{:016x}.txt",
        env!("CARGO_MANIFEST_DIR"),
        fnv1a(&args.join("\n"))
    );
    checked(&file, || Some(run_jdk(class, &args, None)))
}

/// What `tests/java/<class>.java` prints (with no arguments) on the classpath Maven resolves from
/// `tests/java/<pom_dir>/pom.xml`: checked against `tests/java/vectors/<class>.txt` as [`run`]
/// checks, and the committed answer alone where there is no JDK or Maven (or, without
/// `ROWKEY_REQUIRE_JDK`, no way to Maven Central).
pub fn run_on_maven(class: &str, pom_dir: &str) -> String {
    let file = format!(
        "{}/tests/java/vectors/{class}.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    checked(&file, || {
        let classpath = maven_classpath(pom_dir)?;
        Some(run_jdk(class, &[], Some(&classpath)))
    })
}

/// The classpath of `tests/java/<pom_dir>/pom.xml`, resolved by `mvn dependency:build-classpath`
/// (cached in the target directory), or `None` when Maven cannot give it.
fn maven_classpath(pom_dir: &str) -> Option<String> {
    let out =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("classpath-{pom_dir}.txt"));
    if let Ok(cp) = std::fs::read_to_string(&out) {
        return Some(cp);
    }
    let pom = format!(
        "{}/tests/java/{pom_dir}/pom.xml",
        env!("CARGO_MANIFEST_DIR")
    );
    let status = Command::new("mvn")
        .args(["-q", "-B", "-f", &pom, "dependency:build-classpath"])
        .arg(format!("-Dmdep.outputFile={}", out.display()))
        .status();
    match status {
        Ok(s) if s.success() => std::fs::read_to_string(&out).ok(),
        _ => {
            assert!(
                std::env::var_os("ROWKEY_REQUIRE_JDK").is_none(),
                "ROWKEY_REQUIRE_JDK is set but Maven could not resolve {pom}"
            );
            None
        }
    }
}

/// The answer `compute` gives (`None`: it cannot run here), checked against the committed
/// `file`, or the committed answer where it cannot run.
fn checked(file: &str, compute: impl FnOnce() -> Option<String>) -> String {
    let committed = std::fs::read_to_string(file).ok();
    let has_jdk = Command::new("javac")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_jdk {
        assert!(
            std::env::var_os("ROWKEY_REQUIRE_JDK").is_none(),
            "ROWKEY_REQUIRE_JDK is set but there is no javac (a JDK 17: .ci/servers/install.sh \
             installs openjdk-17-jdk-headless)"
        );
        eprintln!("no JDK here: checking against the JDK's committed answers in {file}");
        return committed.unwrap_or_else(|| {
            panic!(
                "{file} is missing: run the tests once with a JDK and ROWKEY_JAVA_VECTORS=update"
            )
        });
    }
    let Some(answer) = compute() else {
        eprintln!("no Maven here: checking against the committed answers in {file}");
        return committed.unwrap_or_else(|| panic!("{file} is missing"));
    };
    if std::env::var("ROWKEY_JAVA_VECTORS").as_deref() == Ok("update") {
        std::fs::create_dir_all(std::path::Path::new(&file).parent().unwrap()).unwrap();
        std::fs::write(file, &answer).unwrap();
    } else {
        match committed {
            Some(c) => assert_eq!(
                c, answer,
                "the JDK's answer differs from {file}: the committed vectors are stale"
            ),
            None => panic!(
                "{file} is missing: run with ROWKEY_JAVA_VECTORS=update and commit it, so that \
                 machines without a JDK check the same answers"
            ),
        }
    }
    answer
}

/// FNV-1a, 64 bits: a stable name for a list of arguments.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Compiles `tests/java/<class>.java` and runs it with `args`, on `classpath` besides its own.
fn run_jdk(class: &str, args: &[String], classpath: Option<&str>) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("java-{class}"));
    std::fs::create_dir_all(&dir).unwrap();
    let source = format!("{}/tests/java/{class}.java", env!("CARGO_MANIFEST_DIR"));
    let libs = classpath.map(str::trim).unwrap_or_default();
    let own = match libs {
        "" => dir.to_str().unwrap().to_string(),
        libs => format!("{}:{libs}", dir.display()),
    };
    let javac = Command::new("javac")
        .args(["-cp", &own, "-d", dir.to_str().unwrap(), &source])
        .status()
        .expect("javac (a JDK 17: .ci/servers/install.sh installs openjdk-17-jdk-headless)");
    assert!(javac.success(), "javac {source} failed");
    let out = Command::new("java")
        .args(["-cp", &own, class])
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
