//! The lab's heatmap as a person sees it: rendered by headless Chromium (Debian's `chromium` and
//! `chromium-driver`, installed by `.ci/servers/install.sh`), driven over WebDriver. The test
//! takes a screenshot (kept in `target/lab/heatmap-browser.png` for a person to look at), rests
//! the pointer on a cell and reads the tooltip the browser would show, checks that the cell is
//! painted in its colour where the picture says it is, and that no row label runs out of the
//! picture. Without Chromium it fails and says how to install it; it never skips.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use common::Rng;
use rowkey::regions::Regions;
use rowkey::RowKey;
use rowkey_lab::Simulation;
use serde_json::{json, Value};

/// The seeds' event key behind 16 buckets, pre-split one region a bucket.
#[derive(RowKey)]
#[rowkey(salt(buckets = 16))]
struct Event {
    ts_millis: u64,
    host: String,
    event_id: u32,
}

const T0: u64 = 1_700_000_000_000;
const WINDOW: (u64, u64) = (1280, 1000);

#[test]
fn chromium_shows_the_heatmap_and_each_cells_tooltip() {
    let sim = Simulation::presplit(Regions::new(Event::split_keys(16)).unwrap());
    let heatmap = events(sim, 30_000, 17);
    let svg = heatmap.to_svg();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("lab");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("heatmap-browser.svg");
    std::fs::write(&file, &svg).unwrap();

    // The cell to point at: band 5, the middle column, as the SVG places it.
    let (column, band) = (heatmap.columns().len() / 2, 5);
    let writes = heatmap.writes(column, band);
    assert!(writes > 0);
    let (start, end) = heatmap.columns()[column];
    let title = format!(
        "region 5 of 16\nkeys from bucket 5 of 16 to bucket 6 of 16\ntime {} to {} UTC\n{writes} writes",
        utc(start),
        utc(end)
    );
    let rect = rect_with_title(&svg, &title);
    let (x, y) = (rect.x + rect.width / 2, rect.y + rect.height / 2);

    let browser = Browser::start();
    browser.post(
        "/url",
        json!({ "url": format!("file://{}", file.display()) }),
    );

    // The pointer on the cell: the element under it is the cell, its tooltip the cell's text.
    browser.post(
        "/actions",
        json!({ "actions": [{
            "type": "pointer", "id": "mouse", "parameters": { "pointerType": "mouse" },
            "actions": [{ "type": "pointerMove", "duration": 0, "x": x, "y": y, "origin": "viewport" }]
        }]}),
    );
    let hovered = browser.script(
        "const all = document.querySelectorAll(':hover'); const el = all[all.length - 1]; \
         return el ? [el.tagName, el.querySelector('title') ? el.querySelector('title').textContent : null] : null;",
    );
    assert_eq!(
        hovered,
        json!(["rect", title]),
        "the element under the pointer"
    );
    let under = browser.script(&format!(
        "const el = document.elementFromPoint({x}, {y}); return el.querySelector('title').textContent;"
    ));
    assert_eq!(under, json!(title));

    // Painted where the picture says, in the cell's colour; white outside the plot.
    let pixels = browser.script_async(&format!(
        "const done = arguments[arguments.length - 1];
         const text = new XMLSerializer().serializeToString(document.documentElement);
         const img = new Image();
         img.onload = () => {{
           const c = document.createElementNS('http://www.w3.org/1999/xhtml', 'canvas');
           c.width = img.width; c.height = img.height;
           const g = c.getContext('2d'); g.drawImage(img, 0, 0);
           const at = (x, y) => Array.from(g.getImageData(x, y, 1, 1).data.slice(0, 3));
           done([at({x}, {y}), at(2, {bottom})]);
         }};
         img.onerror = () => done('the SVG did not load as an image');
         img.src = 'data:image/svg+xml;base64,' + btoa(unescape(encodeURIComponent(text)));",
        bottom = rect.y + 2,
    ));
    assert_eq!(pixels, json!([rgb(&rect.fill), [255, 255, 255]]));

    let size = assert_inside(&browser, 16);
    // The screenshot, for a person: a PNG of the browser's viewport.
    let shot = browser.get("/screenshot");
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot.as_str().unwrap())
        .unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let (w, h) = (
        u32::from_be_bytes(png[16..20].try_into().unwrap()),
        u32::from_be_bytes(png[20..24].try_into().unwrap()),
    );
    assert!(w >= size[0] as u32 && h > 300, "a {w}x{h} screenshot");
    std::fs::write(dir.join("heatmap-browser.png"), &png).unwrap();

    // A table that split by itself, with long keys: bands of several regions, labels
    // shortened in the middle, still inside the picture.
    let heatmap = events(Simulation::auto_split(400), 40_000, 23);
    assert_eq!(heatmap.labels().len(), 48);
    assert!(heatmap.labels().iter().any(|l| l.chars().count() > 80));
    let file = dir.join("heatmap-browser-auto-split.svg");
    std::fs::write(&file, heatmap.to_svg()).unwrap();
    browser.post(
        "/url",
        json!({ "url": format!("file://{}", file.display()) }),
    );
    assert_inside(&browser, 48);
    let shot = browser.get("/screenshot");
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot.as_str().unwrap())
        .unwrap();
    std::fs::write(dir.join("heatmap-browser-auto-split.png"), &png).unwrap();
    eprintln!("screenshots: {}/heatmap-browser*.png", dir.display());
}

/// Checks the page's heatmap: `bands` row labels, each inside the picture and left of the plot,
/// and the whole drawing inside the SVG's own size, which it returns.
fn assert_inside(browser: &Browser, bands: usize) -> Vec<f64> {
    // Every row label inside the picture, left of the plot; the whole drawing inside the SVG.
    let geometry = browser.script(
        "const frame = document.querySelector('svg > rect[fill=none]').getBBox();
         const labels = Array.from(document.querySelectorAll('g.labels text')).map(t => {
           const b = t.getBBox(); return [b.x, b.x + b.width]; });
         const all = document.documentElement.getBBox();
         const svg = document.documentElement;
         return { plotLeft: frame.x, labels,
                  all: [all.x, all.y, all.x + all.width, all.y + all.height],
                  size: [svg.width.baseVal.value, svg.height.baseVal.value] };",
    );
    let plot_left = geometry["plotLeft"].as_f64().unwrap();
    let labels = geometry["labels"].as_array().unwrap();
    assert_eq!(labels.len(), bands);
    for (i, l) in labels.iter().enumerate() {
        let (from, to) = (l[0].as_f64().unwrap(), l[1].as_f64().unwrap());
        assert!(
            from >= 0.0 && to <= plot_left,
            "label {i} spans {from}..{to}, the plot starts at {plot_left}"
        );
    }
    let all: Vec<f64> = geometry["all"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let size: Vec<f64> = geometry["size"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert!(
        all[0] >= 0.0 && all[1] >= 0.0 && all[2] <= size[0] && all[3] <= size[1],
        "drawing {all:?} in a picture of {size:?}"
    );

    size
}

/// The heatmap of `sim` after `writes` events, one every 20 ms from `T0`, from 40 hosts with
/// long names, in windows of a minute.
fn events(mut sim: Simulation, writes: u64, seed: u64) -> rowkey_lab::Heatmap {
    let mut rng = Rng(seed);
    for i in 0..writes {
        let t = T0 + i * 20;
        let key = Event {
            ts_millis: t,
            host: format!("web-{:04}.eu-west-1.compute.example.com", rng.below(40)),
            event_id: rng.next() as u32,
        };
        sim.write(t, &key.to_vec().unwrap());
    }
    sim.report(60_000).heatmap::<Event>()
}

/// A cell of the SVG: where it is and its fill.
struct Rect {
    x: i64,
    y: i64,
    width: i64,
    height: i64,
    fill: String,
}

/// The `<rect>` whose tooltip is `title`.
fn rect_with_title(svg: &str, title: &str) -> Rect {
    // The tooltip spans lines: the cell is the last `<rect` before it.
    let at = svg
        .find(&format!("<title>{title}</title>"))
        .unwrap_or_else(|| panic!("no cell with the tooltip {title:?}"));
    let line = &svg[svg[..at].rfind("<rect").unwrap()..at];
    let attr = |name: &str| -> String {
        let at = line.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        line[at..].split('"').next().unwrap().to_string()
    };
    Rect {
        x: attr("x").parse().unwrap(),
        y: attr("y").parse().unwrap(),
        width: attr("width").parse().unwrap(),
        height: attr("height").parse().unwrap(),
        fill: attr("fill"),
    }
}

/// `#rrggbb` as `[r, g, b]`.
fn rgb(hex: &str) -> [u8; 3] {
    let byte = |i: usize| u8::from_str_radix(&hex[1 + 2 * i..3 + 2 * i], 16).unwrap();
    [byte(0), byte(1), byte(2)]
}

/// Unix milliseconds as `date -u` prints them, `YYYY-MM-DD HH:MM:SS`.
fn utc(millis: u64) -> String {
    let out = Command::new("date")
        .args([
            "-u",
            "-d",
            &format!("@{}", millis / 1000),
            "+%Y-%m-%d %H:%M:%S",
        ])
        .output()
        .expect("date");
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// A chromedriver on a free loopback port and one headless Chromium session, both ended on drop.
struct Browser {
    driver: Child,
    port: u16,
    session: String,
    _profile: TempDir,
}

/// A directory removed on drop.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn program(var: &str, default: &str) -> String {
    let path = std::env::var(var).unwrap_or_else(|_| default.to_string());
    assert!(
        Path::new(&path).exists(),
        "{path} not found: the heatmap test needs Debian's chromium and chromium-driver \
         (`bash .ci/servers/install.sh` installs them, as root or with sudo; {var} names another)"
    );
    path
}

impl Browser {
    fn start() -> Browser {
        let chromium = program("ROWKEY_CHROMIUM", "/usr/bin/chromium");
        let chromedriver = program("ROWKEY_CHROMEDRIVER", "/usr/bin/chromedriver");
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {chromedriver}: {e}"));
        let profile = TempDir(std::env::temp_dir().join(format!("rowkey-chromium-{port}")));
        let mut browser = Browser {
            driver,
            port,
            session: String::new(),
            _profile: profile,
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        while browser.try_request("GET", "/status", None).is_err() {
            assert!(
                Instant::now() < deadline,
                "chromedriver did not answer in 30 s"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        // As the machine's notes advise for root in a closed network: no sandbox, no background
        // connections, a fresh profile.
        let args = [
            "--headless=new".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--hide-scrollbars".into(),
            format!("--window-size={},{}", WINDOW.0, WINDOW.1),
            format!("--user-data-dir={}", browser._profile.0.display()),
        ];
        let created = browser.request(
            "POST",
            "/session",
            Some(json!({ "capabilities": { "alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": { "binary": chromium, "args": args }
            }}})),
        );
        browser.session = created["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {created}"))
            .to_string();
        browser
    }

    fn post(&self, path: &str, body: Value) -> Value {
        self.request(
            "POST",
            &format!("/session/{}{path}", self.session),
            Some(body),
        )
    }

    fn get(&self, path: &str) -> Value {
        self.request("GET", &format!("/session/{}{path}", self.session), None)
    }

    fn script(&self, body: &str) -> Value {
        self.post("/execute/sync", json!({ "script": body, "args": [] }))
    }

    fn script_async(&self, body: &str) -> Value {
        self.post("/execute/async", json!({ "script": body, "args": [] }))
    }

    /// A WebDriver call's `value`; a WebDriver error fails the test with its message.
    fn request(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let reply = self
            .try_request(method, path, body)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let value = reply["value"].clone();
        if let Some(error) = value.get("error") {
            panic!("{method} {path}: {error}: {}", value["message"]);
        }
        value
    }

    /// One HTTP/1.1 exchange with chromedriver.
    fn try_request(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).map_err(|e| e.to_string())?;
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .map_err(|e| e.to_string())?;
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.port,
            body.len()
        )
        .map_err(|e| e.to_string())?;
        // chromedriver keeps the connection open: read the header, then the body's length.
        let mut response = Vec::new();
        let mut buf = [0u8; 65536];
        let complete = |r: &[u8]| -> Option<usize> {
            let at = r.windows(4).position(|w| w == b"\r\n\r\n")?;
            let head = String::from_utf8_lossy(&r[..at]).to_ascii_lowercase();
            let body = &r[at + 4..];
            if head.contains("transfer-encoding: chunked") {
                return body.ends_with(b"0\r\n\r\n").then_some(at);
            }
            let length: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .map_or(Some(0), |n| n.trim().parse().ok())?;
            (body.len() >= length).then_some(at)
        };
        let at = loop {
            if let Some(at) = complete(&response) {
                break at;
            }
            let n = stream.read(&mut buf).map_err(|e| e.to_string())?;
            if n == 0 {
                return Err("the connection closed before the response was whole".into());
            }
            response.extend_from_slice(&buf[..n]);
        };
        let head = String::from_utf8_lossy(&response[..at]).to_ascii_lowercase();
        let mut content = response[at + 4..].to_vec();
        if head.contains("transfer-encoding: chunked") {
            content = unchunk(&content);
        }
        serde_json::from_slice(&content).map_err(|e| format!("{e}: {head}"))
    }
}

/// The body of a chunked HTTP response.
fn unchunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = data.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(std::str::from_utf8(&data[..eol]).unwrap().trim(), 16)
            .unwrap_or(0);
        if size == 0 {
            break;
        }
        out.extend_from_slice(&data[eol + 2..eol + 2 + size]);
        data = &data[eol + 4 + size..];
    }
    out
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = self.try_request("DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}
