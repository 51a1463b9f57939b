//! What a new user copies from the docs works as written: every dependency line of the READMEs
//! resolves (a scratch crate with all of them, the `../rowkey` of the lines pointing at this
//! checkout, through `cargo metadata`), names the one version every crate of the repository
//! carries, and the user docs cite no file a user of the crates does not have.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The READMEs a user reads: the repository's and each published crate's.
const READMES: [&str; 4] = [
    "README.md",
    "rowkey-lab/README.md",
    "rowkey-bigtable/README.md",
    "rowkey-etcd/README.md",
];

/// The lines `rowkey... = ...` of the ```toml blocks of `text`.
fn dependency_lines(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut in_toml = false;
    for line in text.lines() {
        match line.trim() {
            "```toml" => in_toml = true,
            "```" => in_toml = false,
            l if in_toml && l.starts_with("rowkey") && l.contains(" = ") => lines.push(l.into()),
            _ => {}
        }
    }
    lines
}

/// The version of the workspace, which every published crate takes.
fn workspace_version() -> String {
    let manifest = std::fs::read_to_string(Path::new(ROOT).join("Cargo.toml")).unwrap();
    let after = manifest.split("[workspace.package]").nth(1).unwrap();
    let line = after.lines().find(|l| l.starts_with("version = ")).unwrap();
    line.trim_start_matches("version = ")
        .trim_matches('"')
        .into()
}

#[test]
fn every_published_crate_carries_the_workspace_version() {
    for krate in [
        "rowkey-core",
        "rowkey-derive",
        "rowkey-cli",
        "rowkey-lab",
        "rowkey-hbase",
        "rowkey-bigtable",
        "rowkey-etcd",
    ] {
        let manifest =
            std::fs::read_to_string(Path::new(ROOT).join(krate).join("Cargo.toml")).unwrap();
        assert!(
            manifest.contains("\nversion.workspace = true\n"),
            "{krate} has a version of its own; the crates are released together"
        );
    }
}

#[test]
fn the_readmes_dependency_lines_resolve_at_the_workspace_version() {
    let version = workspace_version();
    // One line a crate, features merged, as a user adding them all would write.
    let mut deps: BTreeMap<String, (String, Vec<String>)> = BTreeMap::new();
    let mut seen = 0;
    for readme in READMES {
        let text = std::fs::read_to_string(Path::new(ROOT).join(readme)).unwrap();
        for line in dependency_lines(&text) {
            seen += 1;
            let (name, spec) = line.split_once(" = ").unwrap();
            assert!(
                spec.contains(&format!("version = \"{version}\"")),
                "{readme}: `{line}` does not name version {version}"
            );
            let path = spec
                .split("path = \"")
                .nth(1)
                .and_then(|rest| rest.split('"').next())
                .unwrap_or_else(|| panic!("{readme}: `{line}` has no path (not on crates.io yet)"));
            let inside = path
                .strip_prefix("../rowkey")
                .unwrap_or_else(|| panic!("{readme}: `{line}`: a path outside ../rowkey"));
            let features: Vec<String> = spec
                .split("features = [")
                .nth(1)
                .map(|f| f.split(']').next().unwrap())
                .into_iter()
                .flat_map(|f| f.split(','))
                .map(|f| f.trim().trim_matches('"').to_string())
                .filter(|f| !f.is_empty())
                .collect();
            let entry = deps
                .entry(name.trim().to_string())
                .or_insert((inside.to_string(), Vec::new()));
            assert_eq!(entry.0, inside, "{name} at two paths");
            entry.1.extend(features);
        }
    }
    assert!(
        seen >= 8,
        "only {seen} dependency lines found: did the READMEs change form?"
    );
    for krate in [
        "rowkey",
        "rowkey-lab",
        "rowkey-hbase",
        "rowkey-bigtable",
        "rowkey-etcd",
    ] {
        assert!(
            deps.contains_key(krate),
            "no README gives a line for {krate}"
        );
    }

    // A scratch crate outside the workspace, with the lines as a user writes them.
    let dir = scratch_dir();
    let mut manifest = String::from(
        "[package]\nname = \"first-hour\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[dependencies]\n",
    );
    for (name, (inside, features)) in &deps {
        let path = PathBuf::from(ROOT).join(inside.trim_start_matches('/'));
        manifest.push_str(&format!(
            "{name} = {{ path = {:?}, version = \"{version}\", features = {features:?} }}\n",
            path.display().to_string()
        ));
    }
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(dir.join("Cargo.toml"), &manifest).unwrap();
    std::fs::write(dir.join("src/lib.rs"), "").unwrap();
    // The workspace's lock: the scratch crate resolves to the versions the tests built, offline.
    std::fs::copy(Path::new(ROOT).join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--offline", "--format-version", "1"])
        .current_dir(&dir)
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the READMEs' lines do not resolve:\n{manifest}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let metadata = String::from_utf8_lossy(&out.stdout);
    for name in deps.keys() {
        let resolved = format!("\"name\":\"{name}\",\"version\":\"{version}\"");
        assert!(
            metadata.contains(&resolved),
            "{name} did not resolve at {version}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A user's build of any one crate (`cargo install --path rowkey-cli`) warns of nothing in the
/// workspace's manifest: per-package profile settings name packages such a build does not have,
/// and cargo warns of each, so they live in `.ci/test-profile.toml`, which the test scripts pass.
#[test]
fn the_manifest_names_no_package_a_users_build_lacks() {
    let manifest = std::fs::read_to_string(Path::new(ROOT).join("Cargo.toml")).unwrap();
    let named: Vec<&str> = manifest
        .lines()
        .filter(|l| l.starts_with("[profile.") && l.contains(".package.") && !l.contains("\"*\""))
        .collect();
    assert!(
        named.is_empty(),
        "move these to .ci/test-profile.toml: {named:?}"
    );
    let ci_test = std::fs::read_to_string(Path::new(ROOT).join(".ci/test")).unwrap();
    assert!(ci_test.contains("--config .ci/test-profile.toml"));
}

/// User docs name no file of the project's own process (its design contract, by section).
#[test]
fn user_docs_cite_no_design_sections() {
    let mut docs: Vec<PathBuf> = ["CHANGELOG.md", "BENCHMARKS.md"]
        .iter()
        .chain(READMES.iter())
        .map(|p| Path::new(ROOT).join(p))
        .collect();
    for krate in [
        "src",
        "rowkey-core/src",
        "rowkey-derive/src",
        "rowkey-cli/src",
        "rowkey-lab/src",
        "rowkey-hbase/src",
        "rowkey-bigtable/src",
        "rowkey-etcd/src",
    ] {
        collect_rs(&Path::new(ROOT).join(krate), &mut docs);
    }
    let mut cited = Vec::new();
    for path in docs {
        let text = std::fs::read_to_string(&path).unwrap();
        let is_rust = path.extension().is_some_and(|e| e == "rs");
        for (n, line) in text.lines().enumerate() {
            let doc = !is_rust || line.trim_start().starts_with("//");
            if doc && line.contains("DESIGN") {
                cited.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(cited.is_empty(), "docs cite DESIGN:\n{}", cited.join("\n"));
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect_rs(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rowkey-first-hour-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}
