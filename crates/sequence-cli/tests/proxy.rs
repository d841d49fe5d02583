//! docs/deploy.md "Running it as a service: systemd and nginx", run: nginx
//! with the documented site (ports and paths changed) in front of
//! `sequence serve --config` with the documented settings file, games
//! played over WebSocket through it, the headers checked both ways, and
//! `systemd-analyze verify` on the documented unit.
//!
//! Needs nginx, openssl and curl (scripts/test.sh installs them); fails
//! without them, unless `SEQUENCE_TEST_QUICK` is set (then it is left out).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The fenced block right after `<!-- marker -->` in docs/deploy.md.
fn documented(marker: &str) -> String {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/deploy.md"))
            .expect("docs/deploy.md");
    let at = doc
        .find(&format!("<!-- {marker} -->"))
        .unwrap_or_else(|| panic!("no <!-- {marker} --> in docs/deploy.md"));
    let rest = &doc[at..];
    let start = rest.find("```").expect("a fenced block");
    let body = &rest[start..];
    let body = &body[body.find('\n').expect("fence line") + 1..];
    body[..body.find("\n```").expect("fence end")].to_string()
}

/// `text` with `from` replaced by `to`; the test fails if `from` is not
/// in it (the documentation changed under the test).
fn swap(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "{from:?} not in:\n{text}");
    text.replace(from, to)
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

fn tool(name: &str) -> Option<PathBuf> {
    ["/usr/sbin", "/usr/bin", "/sbin", "/bin", "/usr/local/bin"]
        .iter()
        .map(|d| Path::new(d).join(name))
        .find(|p| p.exists())
}

/// A child process killed when the test ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn wait_for_port(port: u16, what: &str, log: &Path) {
    let t = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            t.elapsed() < Duration::from_secs(30),
            "{what} did not listen on {port}: {}",
            std::fs::read_to_string(log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn curl(args: &[&str]) -> String {
    let out: Output = Command::new("curl")
        .args([
            "-sS",
            "-k",
            "-D",
            "-",
            "-o",
            "/dev/null",
            "--max-time",
            "20",
        ])
        .args(args)
        .output()
        .expect("curl runs");
    assert!(out.status.success(), "curl {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).to_lowercase()
}

fn header<'a>(head: &'a str, name: &str) -> Vec<&'a str> {
    head.lines()
        .filter_map(|l| l.strip_prefix(&format!("{name}: ")))
        .map(str::trim)
        .collect()
}

#[test]
fn the_documented_nginx_site_and_systemd_unit_work() {
    let quick = std::env::var_os("SEQUENCE_TEST_QUICK").is_some();
    let (Some(nginx), Some(_), Some(_)) = (tool("nginx"), tool("openssl"), tool("curl")) else {
        assert!(
            quick,
            "nginx, openssl and curl are needed (apt-get install nginx openssl curl; \
             scripts/test.sh installs them)"
        );
        eprintln!("SEQUENCE_TEST_QUICK: the reverse-proxy test is left out");
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let d = dir.path();
    let (app, metrics, plain, tls, redirect) = (
        free_port(),
        free_port(),
        free_port(),
        free_port(),
        free_port(),
    );

    // The server, with the documented settings file.
    let settings = documented("serve-config");
    let settings = swap(&settings, "127.0.0.1:8081", &format!("127.0.0.1:{app}"));
    let settings = swap(&settings, "127.0.0.1:9464", &format!("127.0.0.1:{metrics}"));
    let db = d.join("sequence.db");
    let settings = swap(
        &settings,
        "/var/lib/sequence/sequence.db",
        db.to_str().expect("utf-8"),
    );
    std::fs::write(d.join("serve.toml"), &settings).expect("write settings");
    let server_log = d.join("server.log");
    let _server = Killed(
        Command::new(env!("CARGO_BIN_EXE_sequence"))
            .args(["serve", "--config"])
            .arg(d.join("serve.toml"))
            .env("RUST_LOG", "info,tower_http=debug")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&server_log).expect("log file"))
            .spawn()
            .expect("sequence serve starts"),
    );
    wait_for_port(app, "sequence serve", &server_log);

    // A certificate for the TLS server block.
    let (cert, key) = (d.join("cert.pem"), d.join("key.pem"));
    let made = Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
        ])
        .args(["-nodes", "-days", "2", "-subj", "/CN=sequence.example.org"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .output()
        .expect("openssl runs");
    assert!(made.status.success(), "openssl: {made:?}");

    // nginx with the documented site; the TLS block also listens on a
    // plain port for the load generator, which speaks no TLS.
    let site = documented("nginx-site");
    let site = swap(
        &site,
        "server 127.0.0.1:8081;",
        &format!("server 127.0.0.1:{app};"),
    );
    let site = swap(
        &site,
        "listen 80;",
        &format!("listen 127.0.0.1:{redirect};"),
    );
    let site = swap(
        &site,
        "listen 443 ssl;",
        &format!("listen 127.0.0.1:{tls} ssl;\n    listen 127.0.0.1:{plain};"),
    );
    let site = swap(
        &site,
        "/etc/letsencrypt/live/sequence.example.org/fullchain.pem",
        cert.to_str().expect("utf-8"),
    );
    let site = swap(
        &site,
        "/etc/letsencrypt/live/sequence.example.org/privkey.pem",
        key.to_str().expect("utf-8"),
    );
    let p = d.display();
    let conf = format!(
        "user root;\ndaemon off;\npid {p}/nginx.pid;\nerror_log {p}/error.log;\n\
         events {{ worker_connections 1024; }}\n\
         http {{\n    access_log {p}/access.log;\n    client_body_temp_path {p}/body;\n\
         proxy_temp_path {p}/proxy;\n    fastcgi_temp_path {p}/fastcgi;\n\
         uwsgi_temp_path {p}/uwsgi;\n    scgi_temp_path {p}/scgi;\n{site}\n}}\n"
    );
    std::fs::write(d.join("nginx.conf"), conf).expect("write nginx.conf");
    let nginx_log = d.join("nginx.out");
    let _nginx = Killed(
        Command::new(&nginx)
            .arg("-p")
            .arg(d)
            .arg("-c")
            .arg(d.join("nginx.conf"))
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&nginx_log).expect("log file"))
            .spawn()
            .expect("nginx starts"),
    );
    wait_for_port(tls, "nginx", &nginx_log);
    wait_for_port(plain, "nginx", &nginx_log);

    // Games over WebSocket through nginx: moves posted, views pushed.
    let report = d.join("loadtest.json");
    let out = Command::new(env!("CARGO_BIN_EXE_sequence"))
        .args(["loadtest", "--server", &format!("http://127.0.0.1:{plain}")])
        .args([
            "--tables",
            "2",
            "--seconds",
            "6",
            "--think-ms",
            "300",
            "--out",
        ])
        .arg(&report)
        .output()
        .expect("loadtest runs");
    assert!(out.status.success(), "loadtest: {out:?}");
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).expect("report")).expect("JSON");
    assert_eq!(r["errors"], 0, "{r}");
    assert_eq!(r["websocket_clients_connected"], 4, "{r}");
    assert!(r["moves"].as_u64().unwrap_or(0) >= 5, "{r}");
    assert!(
        r["move_to_push_ms"]["samples"].as_u64().unwrap_or(0) >= 5,
        "views pushed over the WebSockets: {r}"
    );

    // X-Forwarded-Proto: a session cookie is Secure over https only.
    let signup = |url: String, name: &str| {
        curl(&[
            "-H",
            "content-type: application/json",
            "--data",
            &format!("{{\"name\":\"{name}\",\"password\":\"correct horse\"}}"),
            &url,
        ])
    };
    let over_tls = signup(
        format!("https://127.0.0.1:{tls}/api/account/signup"),
        "Tls1",
    );
    assert!(over_tls.starts_with("http/1.1 201"), "{over_tls}");
    let cookies = header(&over_tls, "set-cookie");
    assert!(
        !cookies.is_empty() && cookies.iter().all(|c| c.contains("; secure")),
        "{over_tls}"
    );
    assert_eq!(
        header(&over_tls, "strict-transport-security").len(),
        1,
        "{over_tls}"
    );
    // X-Request-Id: nginx's id (32 hex digits) reaches the server and
    // comes back.
    let ids = header(&over_tls, "x-request-id");
    assert!(
        ids.len() == 1 && ids[0].len() == 32 && ids[0].chars().all(|c| c.is_ascii_hexdigit()),
        "{over_tls}"
    );
    let over_plain = signup(
        format!("http://127.0.0.1:{plain}/api/account/signup"),
        "Plain1",
    );
    assert!(over_plain.starts_with("http/1.1 201"), "{over_plain}");
    let cookies = header(&over_plain, "set-cookie");
    assert!(
        !cookies.is_empty() && cookies.iter().all(|c| !c.contains("secure")),
        "{over_plain}"
    );
    // Passkeys: the documented `passkey_origin` names the public site
    // whatever Host nginx passes on (here 127.0.0.1, no domain at all).
    let begun = Command::new("curl")
        .args([
            "-sS",
            "-k",
            "--max-time",
            "20",
            "-H",
            "content-type: application/json",
        ])
        .args(["--data", "{}"])
        .arg(format!(
            "https://127.0.0.1:{tls}/api/account/passkey-signin/begin"
        ))
        .output()
        .expect("curl runs");
    let begun: serde_json::Value =
        serde_json::from_slice(&begun.stdout).unwrap_or_else(|e| panic!("JSON: {e}: {begun:?}"));
    assert_eq!(
        begun["options"]["publicKey"]["rpId"], "sequence.example.org",
        "{begun}"
    );
    // Port 80 sends everyone to https; the operators' API is closed to
    // other addresses; /metrics is not on the public site.
    let moved = curl(&[&format!("http://127.0.0.1:{redirect}/")]);
    assert!(moved.starts_with("http/1.1 301"), "{moved}");
    assert_eq!(
        header(&moved, "location"),
        ["https://127.0.0.1/"],
        "{moved}"
    );
    let admin = curl(&[&format!("https://127.0.0.1:{tls}/api/admin/tables")]);
    assert!(admin.starts_with("http/1.1 403"), "{admin}");
    let metrics_page = curl(&[&format!("https://127.0.0.1:{tls}/metrics")]);
    assert!(metrics_page.starts_with("http/1.1 404"), "{metrics_page}");

    // X-Forwarded-For: the server's log (JSON, as the settings file asks)
    // names the client nginx saw.
    let t = Instant::now();
    loop {
        let log = std::fs::read_to_string(&server_log).unwrap_or_default();
        let seen = log
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .any(|v| v["span"]["forwarded_for"] == "127.0.0.1");
        if seen {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "no JSON log line with forwarded_for 127.0.0.1:\n{log}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }

    // The unit, with this build's binary and settings file.
    if let Some(analyze) = tool("systemd-analyze") {
        let unit = documented("systemd-unit");
        let unit = swap(
            &unit,
            "/usr/local/bin/sequence",
            env!("CARGO_BIN_EXE_sequence"),
        );
        let unit = swap(
            &unit,
            "/etc/sequence/serve.toml",
            d.join("serve.toml").to_str().expect("utf-8"),
        );
        let path = d.join("sequence.service");
        std::fs::write(&path, unit).expect("write unit");
        let out = Command::new(analyze)
            .args(["verify", "--man=no"])
            .arg(&path)
            .output()
            .expect("systemd-analyze runs");
        let said = String::from_utf8_lossy(&out.stderr).to_string()
            + &String::from_utf8_lossy(&out.stdout);
        let complaints: Vec<&str> = said
            .lines()
            .filter(|l| l.contains("sequence.service"))
            .collect();
        assert!(out.status.success() && complaints.is_empty(), "{said}");
    }
}
