//! The game viewer inside the HTML report (`--report`, `otau-arena report`): the board and
//! viewer scripts and the games' JSON inlined, so the page stays one file that works offline.

use std::fmt::Write;

use super::assets::{BOARD_JS, GRAPH_JS, STYLE_CSS};
use super::game::{game_view, script_json};
use super::live::VIEWER_JS;
use crate::arena::records::GameRecord;

/// Games the report's viewer holds at most (a Toguz Kumalak game is some 10 KB of positions):
/// the first this many in the order given.
pub const MAX_VIEWER_GAMES: usize = 500;

/// The report's last section: the list of games (rows of class `finished-game`), the viewer,
/// and the scripts and data it needs, for `games` in the order they finished.
pub fn viewer_section(games: &[&GameRecord]) -> String {
    let shown = &games[..games.len().min(MAX_VIEWER_GAMES)];
    let data: Vec<serde_json::Value> = shown.iter().map(|g| game_view(g)).collect();
    let mut html = String::new();
    html.push_str("<section id=\"game-viewer\">\n<h2>Game viewer</h2>\n");
    let _ = writeln!(
        html,
        "<p>Click a game to replay it (buttons or the arrow keys).{}</p>",
        if shown.len() < games.len() {
            format!(" The first {} of {} games.", shown.len(), games.len())
        } else {
            String::new()
        }
    );
    html.push_str("<section id=\"viewer\" hidden></section>\n");
    html.push_str(
        "<table><thead><tr><th>game</th><th>South</th><th>North</th><th>result</th>\
         <th>ending</th><th>plies</th></tr></thead>\n<tbody id=\"otau-game-list\"></tbody></table>\n",
    );
    let _ = write!(
        html,
        "<style>{STYLE_CSS}</style>\n<script type=\"application/json\" id=\"otau-games\">{}</script>\n",
        script_json(&serde_json::Value::Array(data))
    );
    let _ = write!(
        html,
        "<script>{BOARD_JS}</script>\n<script>{GRAPH_JS}</script>\n<script>{VIEWER_JS}</script>\n\
         <script>window.OtauViewer.embedded();</script>\n</section>\n"
    );
    html
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_inlined_scripts_cannot_end_their_element() {
        for script in [super::BOARD_JS, super::GRAPH_JS, super::VIEWER_JS] {
            assert!(!script.to_ascii_lowercase().contains("</script"));
        }
    }
}
