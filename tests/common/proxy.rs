//! A fault-injecting TCP proxy on loopback, between a client and a real server: it cuts
//! connections (a reset, as a dropped link or a load balancer gives) after a number of bytes from
//! the server drawn from a seeded generator, stalls every connection (no data, no error) while
//! told to, and refuses new connections while told to. The same seed cuts the same connections
//! after the same byte counts.
//!
//! Debian has no toxiproxy, and `noxious` (its Rust port) is a server driven over HTTP: a proxy of
//! a hundred lines in the tests' own tokio runtime is simpler to drive from a test, deterministic
//! by its seed, and needs nothing installed.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use super::Rng;

/// What the proxy does to connections on its own.
#[derive(Clone, Copy, Debug)]
pub struct Faults {
    /// Seeds the byte counts after which connections are cut.
    pub seed: u64,
    /// Each connection is cut after a number of bytes from the server drawn from this range
    /// (`None`: never cut by count).
    pub cut_after: Option<(u64, u64)>,
    /// No more cuts by count after this many.
    pub max_cuts: u64,
}

impl Faults {
    /// Passes everything through.
    pub const NONE: Faults = Faults {
        seed: 0,
        cut_after: None,
        max_cuts: 0,
    };
}

/// A running proxy (a handle: clones drive the same one); it stops with the runtime.
#[derive(Clone)]
pub struct Proxy {
    pub addr: SocketAddr,
    shared: Arc<Shared>,
}

struct Shared {
    upstream: SocketAddr,
    faults: Faults,
    /// Connections accepted, for each one's draw of the generator.
    connections: AtomicU64,
    /// Cuts made, by count or by `cut_all`.
    cuts: AtomicU64,
    stalled: AtomicBool,
    refusing: AtomicBool,
    refused: AtomicU64,
    /// Raised by `cut_all`: every connection open when it rose ends.
    generation: AtomicU64,
}

impl Proxy {
    /// Starts a proxy to `upstream` on a free loopback port, in the current tokio runtime.
    pub async fn start(upstream: SocketAddr, faults: Faults) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the proxy");
        let addr = listener.local_addr().unwrap();
        let shared = Arc::new(Shared {
            upstream,
            faults,
            connections: AtomicU64::new(0),
            cuts: AtomicU64::new(0),
            stalled: AtomicBool::new(false),
            refusing: AtomicBool::new(false),
            refused: AtomicU64::new(0),
            generation: AtomicU64::new(0),
        });
        let accepting = shared.clone();
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                if accepting.refusing.load(Ordering::SeqCst) {
                    accepting.refused.fetch_add(1, Ordering::SeqCst);
                    reset(client);
                    continue;
                }
                tokio::spawn(serve(accepting.clone(), client));
            }
        });
        Proxy { addr, shared }
    }

    /// Cuts made so far.
    pub fn cuts(&self) -> u64 {
        self.shared.cuts.load(Ordering::SeqCst)
    }

    /// Connections accepted so far (refused ones included).
    pub fn connections(&self) -> u64 {
        self.shared.connections.load(Ordering::SeqCst) + self.shared.refused.load(Ordering::SeqCst)
    }

    /// While `on`, every connection passes nothing either way, and nothing fails.
    pub fn stall(&self, on: bool) {
        self.shared.stalled.store(on, Ordering::SeqCst);
    }

    /// While `on`, new connections are reset as soon as they are accepted.
    pub fn refuse(&self, on: bool) {
        self.shared.refusing.store(on, Ordering::SeqCst);
    }

    /// Cuts every open connection now.
    pub fn cut_all(&self) {
        self.shared.generation.fetch_add(1, Ordering::SeqCst);
    }
}

/// Closes `stream` with a reset rather than an orderly end, as a dropped link does.
fn reset(stream: TcpStream) {
    let _ = stream.set_zero_linger();
    drop(stream);
}

async fn serve(shared: Arc<Shared>, client: TcpStream) {
    let n = shared.connections.fetch_add(1, Ordering::SeqCst);
    let Ok(server) = TcpStream::connect(shared.upstream).await else {
        return reset(client);
    };
    let _ = (client.set_nodelay(true), server.set_nodelay(true));
    let limit = match shared.faults.cut_after {
        Some((low, high)) => {
            // The n-th connection's count, whatever happened to the others.
            let mut rng = Rng(shared.faults.seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            low + rng.below(high - low + 1)
        }
        None => u64::MAX,
    };
    let generation = shared.generation.load(Ordering::SeqCst);
    let (mut client_read, mut client_write) = client.into_split();
    let (mut server_read, mut server_write) = server.into_split();
    let (mut up, mut down) = ([0u8; 16 * 1024], [0u8; 16 * 1024]);
    let mut sent_down = 0u64;
    let cut = loop {
        if shared.generation.load(Ordering::SeqCst) != generation {
            break true;
        }
        if shared.stalled.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(5)).await;
            continue;
        }
        tokio::select! {
            read = client_read.read(&mut up) => match read {
                Ok(0) | Err(_) => break false,
                Ok(len) => {
                    if server_write.write_all(&up[..len]).await.is_err() {
                        break false;
                    }
                }
            },
            read = server_read.read(&mut down) => match read {
                Ok(0) | Err(_) => break false,
                Ok(len) => {
                    let room = limit.saturating_sub(sent_down);
                    let by_count = (len as u64) >= room
                        && shared.cuts.load(Ordering::SeqCst) < shared.faults.max_cuts;
                    let pass = if by_count { room as usize } else { len };
                    if client_write.write_all(&down[..pass]).await.is_err() {
                        break false;
                    }
                    sent_down += pass as u64;
                    if by_count {
                        break true;
                    }
                }
            },
            // Wake to look at the flags.
            _ = tokio::time::sleep(Duration::from_millis(20)) => {}
        }
    };
    if cut {
        shared.cuts.fetch_add(1, Ordering::SeqCst);
        if let (Ok(client), Ok(server)) = (
            client_read.reunite(client_write),
            server_read.reunite(server_write),
        ) {
            reset(client);
            reset(server);
        }
    }
}
