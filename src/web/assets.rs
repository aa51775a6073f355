//! The files embedded in the binary (no build step: plain JavaScript, SVG and CSS), served by
//! every site and inlined into the HTML report.

/// The board renderer (`window.OtauBoard`), with the browser-test contract at its top.
pub const BOARD_JS: &str = include_str!("assets/board.js");
/// The viewer's evaluation graph (`window.OtauGraph`), its contract at its top.
pub const GRAPH_JS: &str = include_str!("assets/graph.js");
/// The live page's crosstable (`window.OtauCrosstable`), its contract at its top.
pub const CROSSTABLE_JS: &str = include_str!("assets/crosstable.js");
/// The live page's Swiss standings (`window.OtauSwiss`), its contract at its top.
pub const SWISS_JS: &str = include_str!("assets/swiss.js");
/// The pages' style sheet.
pub const STYLE_CSS: &str = include_str!("assets/style.css");

/// Where sites serve [`BOARD_JS`].
pub const BOARD_JS_PATH: &str = "/board.js";
/// Where sites serve [`GRAPH_JS`].
pub const GRAPH_JS_PATH: &str = "/graph.js";
/// Where sites serve [`CROSSTABLE_JS`].
pub const CROSSTABLE_JS_PATH: &str = "/crosstable.js";
/// Where sites serve [`SWISS_JS`].
pub const SWISS_JS_PATH: &str = "/swiss.js";
/// Where sites serve [`STYLE_CSS`].
pub const STYLE_CSS_PATH: &str = "/style.css";

/// The reply for a shared asset's path, if `path` is one.
pub fn asset(path: &str) -> Option<super::server::Reply> {
    use super::server::Reply;
    match path {
        BOARD_JS_PATH => Some(Reply::js(BOARD_JS)),
        GRAPH_JS_PATH => Some(Reply::js(GRAPH_JS)),
        CROSSTABLE_JS_PATH => Some(Reply::js(CROSSTABLE_JS)),
        SWISS_JS_PATH => Some(Reply::js(SWISS_JS)),
        STYLE_CSS_PATH => Some(Reply::css(STYLE_CSS)),
        _ => None,
    }
}
