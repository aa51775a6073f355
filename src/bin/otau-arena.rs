//! `otau-arena`: engine-vs-engine matches. Everything lives in `otau::arena`.

fn main() -> std::process::ExitCode {
    otau::arena::cli::main()
}
