//! `otau-arena`: engine-vs-engine matches. The command line lives in `otau::cli::arena`, the arena in `otau::arena`.

fn main() -> std::process::ExitCode {
    otau::cli::arena::main()
}
