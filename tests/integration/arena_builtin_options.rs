//! The built-in engine's hidden tuning options through `otau-arena`: accepted without the
//! unadvertised-option warning that any other unadvertised option gets (`protocol/arena.md`,
//! "Options").

use crate::support::arena::{arena, scratch};

#[test]
fn hidden_tuning_options_are_not_warned_about() {
    let dir = scratch("builtin-options");
    let run = |option: &str| {
        let (code, _, err) = arena(
            &[
                "--game",
                "bestemshe",
                "--engine",
                "name=a",
                "cmd=builtin:otau",
                option,
                "--engine",
                "name=b",
                "cmd=builtin:otau",
                "--each",
                "depth=1",
                "--rounds",
                "1",
                "--seed",
                "1",
            ],
            &dir,
        );
        assert_eq!(code, 0, "{err}");
        err
    };
    for hidden in ["option.UseLMR=false", "option.QuiescencePlies=2"] {
        let err = run(hidden);
        assert!(!err.contains("does not advertise"), "{hidden}: {err}");
    }
    let err = run("option.Bogus=1");
    assert!(
        err.contains("engine a does not advertise option(s) Bogus"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
