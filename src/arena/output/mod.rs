//! What the user sees while a run goes on: progress lines on the terminal and the live page's
//! state.

pub mod live;
pub mod progress;
