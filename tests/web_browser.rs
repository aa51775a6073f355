//! The browser pages, driven in headless Chromium (tests/browser_support).

mod browser_support;

use std::time::Duration;

use browser_support::{screenshot_path, Browser};

#[test]
fn harness_smoke() {
    let Some(b) = Browser::start() else { return };
    b.goto("data:text/html,<div class=board data-ply=3>x</div><button id=b onclick=\"this.textContent='ok'\">go</button><input id=i>");
    let board = b.find(".board").expect("board");
    assert_eq!(b.attr(&board, "data-ply").as_deref(), Some("3"));
    let btn = b.find("#b").unwrap();
    b.click(&btn);
    b.wait_until("ok", Duration::from_secs(2), |b| {
        let t = b.text(&b.find("#b").unwrap());
        if t == "ok" {
            Ok(())
        } else {
            Err(t)
        }
    });
    let i = b.find("#i").unwrap();
    b.send_keys(&i, "hello");
    assert_eq!(
        b.execute(
            "return document.getElementById('i').value",
            serde_json::json!([])
        ),
        "hello"
    );
    b.screenshot(&screenshot_path("smoke"));
}
