//! The web pages: watching a run (`otau-arena --live`, `otau-arena view`), the game viewer the
//! HTML report embeds, and the server and board the play page (`otau web`) is built on. A layer
//! above the arena (it reads the arena's records and live state) and below the command lines.
//!
//! API, kept stable for the pages built on it:
//! - [`server`]: [`server::Server::start`]`(addr, site)` serves an [`server::Site`] (its `get`,
//!   and `post` where a site takes one: anything else is 405) on its own threads until dropped;
//!   [`server::parse_addr`] reads `PORT`, `HOST:PORT` or nothing (loopback, a port the system
//!   picks: [`server::DEFAULT_ADDR`]); [`server::Server::url`] is what to print;
//!   [`server::query_values`] reads a page's query as a [`crate::key_values::KeyValues`]. A site answers
//!   a [`server::Reply`]: a body (`Reply::html`, `js`, `css`, `json`), 404, 405, 400, or
//!   `Reply::Events(source)`, a Server-Sent Events stream of an [`server::EventSource`] — use a
//!   [`server::Latest`] (`publish(json)` replaces the state; each viewer gets the newest state
//!   when it is ready, at most one per `MIN_EVENT_GAP`, so a slow or vanished viewer never holds
//!   up the publisher). Every read, write and buffer is bounded; a loopback server answers only
//!   requests whose Host is its own address. Served pages may run only scripts the server
//!   serves (the Content-Security-Policy forbids inline scripts).
//! - [`assets`]: the embedded files, [`assets::BOARD_JS`] (the board renderer, `OtauBoard`;
//!   the browser-test contract is at the top of `assets/board.js`) and [`assets::STYLE_CSS`].
//!   A site serves them at [`assets::BOARD_JS_PATH`] and [`assets::STYLE_CSS_PATH`].
//! - [`play`]: `otau web`'s game, a person against one UGI engine on the arena's client,
//!   refereed as the arena's referee judges a move, run by a worker thread that publishes
//!   every state as JSON; [`play_page`] its page. The `otau web` command (its arguments, the
//!   line it prints) is `cli::web`'s: nothing here reads a command line.
//!
//! The pages built on it: [`live`], the live page of a run and `otau-arena view`'s; [`game`] and
//! [`graph`], a game's viewer JSON and its evaluation graph; [`report`], the viewer the HTML
//! report embeds.

pub mod assets;
pub mod game;
pub mod graph;
pub mod live;
pub mod play;
pub mod play_page;
pub mod report;
pub mod server;
