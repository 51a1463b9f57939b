//! The real servers of the store tests (etcd, the Bigtable emulator), started by
//! `.ci/servers/start.sh`, and the runtime the tests drive their clients on. Included by the
//! store tests with `#[path]`, beside `common`.

use std::process::Command;
use std::sync::{Mutex, MutexGuard, OnceLock};

/// The checkout: the package's directory, or the workspace's above it (the store adapters'
/// crates), whichever holds `.ci/servers`.
pub fn root() -> &'static std::path::Path {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|dir| dir.join(".ci/servers/start.sh").exists())
        .expect("the checkout's .ci/servers/start.sh")
}

/// Where start.sh keeps the servers' binaries, pids and logs.
pub fn servers_dir() -> String {
    format!("{}/target/servers", root().display())
}

/// Starts the servers (or reuses them when healthy, or replaces a member that is down), on ports
/// of this checkout's own, stopped by a guard once the test binaries that use them exit, and holds
/// a lock, so the tests of one binary, which share them, run one at a time. Gives the lines
/// start.sh prints (`export NAME=value`). `missing` says what to install when they do not start.
pub fn start(missing: &str) -> (MutexGuard<'static, ()>, String) {
    static LOCK: Mutex<()> = Mutex::new(());
    let guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let root = root().display();
    // etcd's data on /dev/shm, so loading does not wait on disk syncs.
    let out = Command::new("bash")
        .arg(format!("{root}/.ci/servers/start.sh"))
        .env("ROWKEY_ETCD_DATA_PARENT", "/dev/shm")
        .env("ROWKEY_SERVERS_DIR", servers_dir())
        // The servers stop once this test binary (and every other that uses them) has exited.
        .env("ROWKEY_SERVERS_OWNER", std::process::id().to_string())
        .output()
        .expect("run .ci/servers/start.sh");
    assert!(
        out.status.success(),
        "{missing}: run `.ci/servers/install.sh` (as root, or with sudo), then the tests \
         again.\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (guard, String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The value of `export NAME=value` in start.sh's output.
pub fn export(exports: &str, name: &str) -> String {
    let prefix = format!("export {name}=");
    exports
        .lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .unwrap_or_else(|| panic!("start.sh names {name}"))
        .to_string()
}

/// One current-thread runtime for the binary's tests.
pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    })
}
