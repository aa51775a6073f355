//! A small WebDriver client for the browser tests: chromedriver and headless Chromium (Debian's
//! `chromium` and `chromium-driver`, which `.ci/run` installs when missing), spoken to over plain
//! HTTP/1.1 on a loopback socket with `serde_json`, so the tests need no new crate.
//!
//! Every wait is bounded: each request has socket timeouts, and [`Browser::wait_until`] takes a
//! deadline and fails naming what it waited for and what it last saw. [`Browser`]'s `Drop` ends
//! the session and kills chromedriver's process group (Chromium with it), so no process is left
//! behind, and removes the fresh profile directory.
//!
//! Chromium missing is a failure that says how to install it, not a silent skip; a developer
//! without it may set `OTAU_SKIP_BROWSER_TESTS=1`, and [`Browser::start`] then returns `None`
//! (the test prints that it skipped).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// The environment variable that lets a developer without Chromium skip the browser tests.
pub const SKIP_VAR: &str = "OTAU_SKIP_BROWSER_TESTS";

/// How long chromedriver may take to say its port, and a new session to open Chromium.
const START_TIMEOUT: Duration = Duration::from_secs(30);
/// The bound of one WebDriver request (navigation included).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);
/// W3C WebDriver's key of an element reference.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A found element, as WebDriver names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element(String);

/// One headless Chromium driven through its own chromedriver.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    profile: PathBuf,
}

impl Browser {
    /// Starts chromedriver on a free loopback port and opens a headless Chromium session with a
    /// fresh profile. `None` only when Chromium is missing and [`SKIP_VAR`] is set; panics with
    /// the way to install it otherwise.
    pub fn start() -> Option<Browser> {
        let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER]
            .into_iter()
            .filter(|p| !Path::new(p).exists())
            .collect();
        if !missing.is_empty() {
            if std::env::var_os(SKIP_VAR).is_some() {
                eprintln!(
                    "browser test skipped: {} missing and {SKIP_VAR} is set",
                    missing.join(", ")
                );
                return None;
            }
            panic!(
                "the browser tests need {}: install Debian's chromium and chromium-driver \
                 (bash .ci/run does it: apt-get install chromium chromium-driver), or set \
                 {SKIP_VAR}=1 to skip them locally",
                missing.join(" and ")
            );
        }
        let profile =
            std::env::temp_dir().join(format!("otau-browser-{}-{}", std::process::id(), unique()));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).expect("profile directory");
        // Its own process group: the drop kills chromedriver and the Chromium it started.
        let mut driver = Command::new(CHROMEDRIVER)
            .arg("--port=0")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {CHROMEDRIVER}: {e}"));
        let port = match driver_port(&mut driver) {
            Ok(p) => p,
            Err(why) => {
                kill_group(&mut driver);
                panic!("{CHROMEDRIVER}: {why}");
            }
        };
        let mut b = Browser {
            driver,
            port,
            session: String::new(),
            profile,
        };
        let args = [
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--window-size=1200,900".into(),
            format!("--user-data-dir={}", b.profile.display()),
        ];
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": CHROMIUM, "args": args},
        }}});
        let v = b.request("POST", "/session", Some(&caps), START_TIMEOUT);
        b.session = v["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("new session: no sessionId in {v}"))
            .to_string();
        Some(b)
    }

    /// Opens `url` (WebDriver waits for the page's load event).
    pub fn goto(&self, url: &str) {
        self.cmd("POST", "url", Some(&json!({ "url": url })));
    }

    /// The first element matching the CSS selector, if any.
    pub fn find(&self, css: &str) -> Option<Element> {
        self.find_all(css).into_iter().next()
    }

    /// Every element matching the CSS selector, in document order.
    pub fn find_all(&self, css: &str) -> Vec<Element> {
        let v = self.cmd(
            "POST",
            "elements",
            Some(&json!({"using": "css selector", "value": css})),
        );
        v.as_array()
            .map(|a| a.iter().filter_map(element).collect())
            .unwrap_or_default()
    }

    /// Runs `script` (a function body; `arguments` holds `args`) in the page; its return value.
    pub fn execute(&self, script: &str, args: Value) -> Value {
        self.cmd(
            "POST",
            "execute/sync",
            Some(&json!({"script": script, "args": args})),
        )
    }

    /// Polls `probe` until it gives a value, at most `timeout`; panics naming `what` and the
    /// probe's last note (what it saw instead) when the deadline passes.
    pub fn wait_until<T>(
        &self,
        what: &str,
        timeout: Duration,
        mut probe: impl FnMut(&Browser) -> Result<T, String>,
    ) -> T {
        let deadline = Instant::now() + timeout;
        loop {
            match probe(self) {
                Ok(v) => return v,
                Err(seen) if Instant::now() >= deadline => panic!(
                    "waited {} ms for {what}; last seen: {seen}",
                    timeout.as_millis()
                ),
                Err(_) => std::thread::sleep(Duration::from_millis(50)),
            }
        }
    }

    /// A PNG of the page as shown, written to `path` (its folder created).
    pub fn screenshot(&self, path: &Path) {
        let v = self.cmd("GET", "screenshot", None);
        let png = base64_decode(v.as_str().expect("screenshot: base64 text"))
            .expect("screenshot: valid base64");
        assert!(png.starts_with(b"\x89PNG"), "screenshot is no PNG");
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(path, png).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }

    /// The process id of chromedriver (its process group holds Chromium too).
    pub fn driver_pid(&self) -> u32 {
        self.driver.id()
    }

    /// A command on the session: its `value`.
    fn cmd(&self, method: &str, what: &str, body: Option<&Value>) -> Value {
        let path = format!("/session/{}/{what}", self.session);
        self.request(method, &path, body, REQUEST_TIMEOUT)
    }

    /// One HTTP/1.1 request to chromedriver; the response's `value`, or a panic with the
    /// WebDriver error.
    fn request(&self, method: &str, path: &str, body: Option<&Value>, timeout: Duration) -> Value {
        self.try_request(method, path, body, timeout)
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"))
    }

    /// [`Browser::request`], the WebDriver error returned (`stale element reference: ...`).
    fn try_request(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        timeout: Duration,
    ) -> Result<Value, String> {
        match http(self.port, method, path, body, timeout)? {
            (status, v) if status < 300 => Ok(v["value"].clone()),
            (status, v) => Err(format!(
                "HTTP {status}: {}: {}",
                v["value"]["error"].as_str().unwrap_or_default(),
                v["value"]["message"]
                    .as_str()
                    .unwrap_or_default()
                    .lines()
                    .next()
                    .unwrap_or_default()
            )),
        }
    }

    /// Clicks the first element matching `css` once there is one, within `timeout`; a page that
    /// redraws it between the find and the click (a stale element) is tried again.
    pub fn click_css(&self, css: &str, timeout: Duration) {
        self.wait_until(&format!("a clickable {css}"), timeout, |b| {
            let el = b.find(css).ok_or_else(|| "no such element".to_string())?;
            let path = format!("/session/{}/element/{}/click", b.session, el.0);
            b.try_request("POST", &path, Some(&json!({})), REQUEST_TIMEOUT)
                .map(|_| ())
        });
    }

    /// Attributes of the first element matching `css`, read at one instant in the page (no
    /// stale element between two reads); `None` when no element matches.
    pub fn attrs(&self, css: &str, names: &[&str]) -> Option<Vec<Option<String>>> {
        let v = self.execute(
            "var e = document.querySelector(arguments[0]); \
             return e ? arguments[1].map(function (n) { return e.getAttribute(n); }) : null;",
            json!([css, names]),
        );
        v.as_array()
            .map(|a| a.iter().map(|x| x.as_str().map(String::from)).collect())
    }

    /// The text of the first element matching `css` (empty when none), read in the page.
    pub fn text_of(&self, css: &str) -> String {
        let v = self.execute(
            "var e = document.querySelector(arguments[0]); return e ? e.textContent : '';",
            json!([css]),
        );
        v.as_str().unwrap_or_default().to_string()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = http(self.port, "DELETE", &path, None, Duration::from_secs(5));
        }
        kill_group(&mut self.driver);
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Kills the process group `child` leads and reaps the child.
fn kill_group(child: &mut Child) {
    // SAFETY: killpg takes no pointers; the group is the one this test started.
    unsafe {
        libc::killpg(child.id() as libc::pid_t, libc::SIGKILL);
    }
    let _ = child.wait();
}

/// Reads chromedriver's "started successfully on port N." line, within [`START_TIMEOUT`].
fn driver_port(driver: &mut Child) -> Result<u16, String> {
    let out = driver.stdout.take().expect("piped stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut seen = Vec::new();
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            let port = line
                .split("on port ")
                .nth(1)
                .and_then(|p| p.trim_end_matches('.').trim().parse::<u16>().ok())
                .filter(|_| line.contains("started successfully"));
            if let Some(p) = port {
                let _ = tx.send(Ok(p));
                // Keep draining so chromedriver never blocks on a full pipe.
                continue;
            }
            seen.push(line);
        }
        let _ = tx.send(Err(format!(
            "exited without a port; said: {}",
            seen.join(" | ")
        )));
    });
    rx.recv_timeout(START_TIMEOUT)
        .map_err(|_| format!("no port within {} s", START_TIMEOUT.as_secs()))?
}

/// A request with `Connection: close`; the status and the body as JSON.
fn http(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&Value>,
    timeout: Duration,
) -> Result<(u16, Value), String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    s.set_write_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes())
        .and_then(|_| s.write_all(body.as_bytes()))
        .map_err(|e| format!("write: {e}"))?;
    let raw = read_response(&mut s).map_err(|e| {
        format!(
            "no complete response within {} ms: {e}",
            timeout.as_millis()
        )
    })?;
    let (status, body) = parse_response(&raw)?;
    let v = if body.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&body).map_err(|e| format!("response body: {e}"))?
    };
    Ok((status, v))
}

/// Reads one response: the head, then `Content-Length` bytes (chromedriver keeps the connection
/// open whatever the request says), or to the end of a chunked body or of the stream.
fn read_response(s: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut raw = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
            let length = head.lines().find_map(|l| {
                l.strip_prefix("content-length:")
                    .and_then(|v| v.trim().parse::<usize>().ok())
            });
            let body = raw.len() - end - 4;
            match length {
                Some(n) if body >= n => return Ok(raw),
                None if head.contains("chunked") && raw.ends_with(b"0\r\n\r\n") => return Ok(raw),
                _ => {}
            }
        }
        let n = s.read(&mut buf)?;
        if n == 0 {
            return Ok(raw);
        }
        raw.extend_from_slice(&buf[..n]);
    }
}

/// An HTTP/1.1 response read to its end: the status and the body (de-chunked when chunked).
pub fn parse_response(raw: &[u8]) -> Result<(u16, Vec<u8>), String> {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("response without a header end")?;
    let head = String::from_utf8_lossy(&raw[..end]);
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("bad status line: {}", head.lines().next().unwrap_or("")))?;
    let mut body = raw[end + 4..].to_vec();
    let chunked = head.lines().any(|l| {
        let l = l.to_ascii_lowercase();
        l.starts_with("transfer-encoding:") && l.contains("chunked")
    });
    if chunked {
        let mut out = Vec::new();
        let mut rest = &body[..];
        loop {
            let nl = rest
                .windows(2)
                .position(|w| w == b"\r\n")
                .ok_or("bad chunk")?;
            let size_text = String::from_utf8_lossy(&rest[..nl]);
            let size = usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16)
                .map_err(|_| format!("bad chunk size {size_text}"))?;
            rest = &rest[nl + 2..];
            if size == 0 {
                break;
            }
            if rest.len() < size {
                return Err("truncated chunk".into());
            }
            out.extend_from_slice(&rest[..size]);
            rest = rest.get(size + 2..).unwrap_or_default();
        }
        body = out;
    }
    Ok((status, body))
}

fn element(v: &Value) -> Option<Element> {
    v[ELEMENT_KEY].as_str().map(|s| Element(s.to_string()))
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

/// Standard base64 (the screenshot's encoding), padding optional.
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
    {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6 | u32::from(v)) & 0xFFFF;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

/// GET `url` (`http://127.0.0.1:PORT/path`) without the browser: its status and body as text.
pub fn get(url: &str) -> (u16, String) {
    plain("GET", url, "")
}

/// POST `body` to `url` without the browser: its status and body as text.
pub fn post(url: &str, body: &str) -> (u16, String) {
    plain("POST", url, body)
}

fn plain(method: &str, url: &str, body: &str) -> (u16, String) {
    let rest = url
        .strip_prefix("http://127.0.0.1:")
        .expect("a loopback URL");
    let (port, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let port: u16 = port.parse().expect("a port");
    let path = if path.is_empty() { "/" } else { path };
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(REQUEST_TIMEOUT)).unwrap();
    s.set_write_timeout(Some(REQUEST_TIMEOUT)).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let raw = read_response(&mut s).expect("a response");
    let (status, body) = parse_response(&raw).expect("an HTTP response");
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// A page server run as its own process (`otau web`, `otau-arena --live`, `otau-arena view`):
/// started, its URL read from what it prints, killed at drop.
pub struct Served {
    child: Child,
    pub url: String,
}

impl Served {
    /// Runs `program args` and waits at most `timeout` for the first `http://` URL on its
    /// stdout or stderr.
    pub fn start(program: &str, args: &[&str], dir: &Path, timeout: Duration) -> Served {
        let mut child = super::command(program)
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let (tx, rx) = mpsc::channel::<String>();
        let out = child.stdout.take().unwrap();
        let err = child.stderr.take().unwrap();
        for stream in [Box::new(out) as Box<dyn Read + Send>, Box::new(err)] {
            let tx = tx.clone();
            // Reads to the end (so the server never blocks on a full pipe).
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines() {
                    let Ok(line) = line else { break };
                    let _ = tx.send(line);
                }
            });
        }
        let deadline = Instant::now() + timeout;
        let mut said = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) => {
                    let url = line
                        .split_whitespace()
                        .find(|w| w.starts_with("http://"))
                        .map(|w| w.trim_end_matches(['.', ',', ')']).to_string());
                    said.push(line);
                    if let Some(url) = url {
                        return Served { child, url };
                    }
                }
                Err(_) => {
                    kill_group(&mut child);
                    panic!(
                        "{program} {}: no URL within {} ms; it said: {}",
                        args.join(" "),
                        timeout.as_millis(),
                        said.join(" | ")
                    );
                }
            }
        }
    }

    /// The URL of `path` on this server (`path` without its leading slash).
    pub fn at(&self, path: &str) -> String {
        format!("{}{}", self.url, path.trim_start_matches('/'))
    }

    /// Whether the process has ended, and how.
    pub fn exited(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        kill_group(&mut self.child);
    }
}

/// The live (not zombie) processes of process group `pgid`, from /proc.
pub fn group_members(pgid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in dir.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // After the command's closing parenthesis: state, ppid, pgrp.
        let Some(rest) = stat.rsplit_once(')').map(|r| r.1) else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() > 2 && fields[0] != "Z" && fields[2] == pgid.to_string() {
            out.push(pid);
        }
    }
    out
}

/// Where a test's screenshots go: `target/browser-screenshots/` (kept out of git by `target/`).
pub fn screenshot_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target")
        .join("browser-screenshots")
        .join(format!("{name}.png"))
}
