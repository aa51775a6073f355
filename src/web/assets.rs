//! The files embedded in the binary (no build step: plain JavaScript, SVG and CSS), served by
//! every site and inlined into the HTML report.

/// The board renderer (`window.OtauBoard`), with the browser-test contract at its top.
pub const BOARD_JS: &str = include_str!("assets/board.js");
/// The pages' style sheet.
pub const STYLE_CSS: &str = include_str!("assets/style.css");

/// Where sites serve [`BOARD_JS`].
pub const BOARD_JS_PATH: &str = "/board.js";
/// Where sites serve [`STYLE_CSS`].
pub const STYLE_CSS_PATH: &str = "/style.css";

/// The reply for a shared asset's path, if `path` is one.
pub fn asset(path: &str) -> Option<super::server::Reply> {
    use super::server::Reply;
    match path {
        BOARD_JS_PATH => Some(Reply::js(BOARD_JS)),
        STYLE_CSS_PATH => Some(Reply::css(STYLE_CSS)),
        _ => None,
    }
}
