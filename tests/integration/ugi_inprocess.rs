//! `otau::ugi::serve` in process over `std::io::pipe()`, the way the arena hosts its built-in
//! players: same protocol, clean return on `quit` and on end of input.

use std::io::{BufRead, BufReader, Write};
use std::thread;

use otau::games::{AnyGame, Game, Variant};

struct InProcess {
    to_engine: Option<std::io::PipeWriter>,
    from_engine: BufReader<std::io::PipeReader>,
    engine: thread::JoinHandle<anyhow::Result<()>>,
}

impl InProcess {
    fn start(game: Variant) -> InProcess {
        let (engine_in, to_engine) = std::io::pipe().unwrap();
        let (from_engine, engine_out) = std::io::pipe().unwrap();
        let engine =
            thread::spawn(move || otau::ugi::serve(BufReader::new(engine_in), engine_out, game));
        InProcess {
            to_engine: Some(to_engine),
            from_engine: BufReader::new(from_engine),
            engine,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.to_engine.as_mut().unwrap(), "{line}").unwrap();
    }

    fn read_line(&mut self) -> String {
        let mut line = String::new();
        assert!(
            self.from_engine.read_line(&mut line).unwrap() > 0,
            "output closed"
        );
        line.trim_end().to_string()
    }

    fn until(&mut self, prefix: &str) -> String {
        loop {
            let line = self.read_line();
            if line.starts_with(prefix) {
                return line;
            }
        }
    }
}

#[test]
fn serves_a_game_over_pipes_and_returns_on_quit() {
    let mut e = InProcess::start(Variant::BESTEMSHE);
    e.send("ugi");
    e.until("ugiok");
    e.send("setoption name Player value random");
    e.send("setoption name Seed value 3");
    e.send("isready");
    assert_eq!(e.read_line(), "readyok");
    e.send("position startpos moves 1");
    e.send("go nodes 100");
    let best = e.until("bestmove");
    let mv = best.strip_prefix("bestmove ").unwrap();
    let mut line = otau::games::GameLine::new(AnyGame::start(Variant::BESTEMSHE));
    line.play_token("1").unwrap();
    assert!(line.position().parse_move(mv).is_ok(), "{best}");
    e.send("quit");
    e.engine.join().unwrap().unwrap();
}

#[test]
fn returns_cleanly_at_end_of_input_even_mid_search() {
    let mut e = InProcess::start(Variant::TOGUZ);
    e.send("go infinite");
    e.send("isready");
    e.until("readyok");
    e.to_engine = None;
    e.until("bestmove");
    e.engine.join().unwrap().unwrap();
}

#[test]
fn many_engines_side_by_side() {
    let mut engines: Vec<InProcess> = (0..4).map(|_| InProcess::start(Variant::TOGUZ7)).collect();
    for e in &mut engines {
        e.send("go depth 2");
    }
    for mut e in engines {
        e.until("bestmove");
        e.send("quit");
        e.engine.join().unwrap().unwrap();
    }
}
