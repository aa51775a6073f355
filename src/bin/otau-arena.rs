//! `otau-arena`: engine-vs-engine matches (built by the arena issue).

fn main() {
    eprintln!("otau-arena is not built yet");
}
