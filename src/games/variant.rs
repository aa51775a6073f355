//! Game ids: which game and which board size. Bottom layer: imports only [`super::text`].
//!
//! [`Variant`] is the one list of the games at this level: one case a game (its rules file in
//! `games/`), carrying the board sizes that game is played on. Code that needs "which game" matches
//! on the case (`Variant::Toguz { .. }`); there is no separate family type.

use std::fmt;

use super::text::{parse_number, shorten};

/// A game and its board size, named by a game id such as `toguz-kumalak` or `giuthi-6x4`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Variant {
    /// Toguz Kumalak on 2x9 (`toguz-kumalak`), 2x7 (`toguz-kumalak-7`) or 2x5 (`bestemshe`, no
    /// tuzdik); N stones a hole.
    Toguz { holes: u8 },
    /// Giuthi with 5..10 holes a row and 4..9 seeds a hole (`giuthi` is 8x8).
    Giuthi { holes: u8, seeds: u8 },
    /// Modiar, 2x3 with 7 stones a hole.
    Modiar,
}

/// A game id that names no game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VariantError(pub String);

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown game id '{}' (known: toguz-kumalak, toguz-kumalak-7, bestemshe, giuthi, \
             giuthi-<5..10>x<4..9>, modiar)",
            self.0
        )
    }
}

impl std::error::Error for VariantError {}

impl Variant {
    pub const TOGUZ: Variant = Variant::Toguz { holes: 9 };
    pub const TOGUZ7: Variant = Variant::Toguz { holes: 7 };
    pub const BESTEMSHE: Variant = Variant::Toguz { holes: 5 };
    pub const GIUTHI: Variant = Variant::Giuthi { holes: 8, seeds: 8 };
    pub const MODIAR: Variant = Variant::Modiar;

    /// Holes per row.
    pub const fn holes(self) -> usize {
        match self {
            Variant::Toguz { holes } | Variant::Giuthi { holes, .. } => holes as usize,
            Variant::Modiar => 3,
        }
    }

    /// Stones in each hole at the start.
    pub const fn seeds_per_hole(self) -> u32 {
        match self {
            Variant::Toguz { holes } => holes as u32,
            Variant::Giuthi { seeds, .. } => seeds as u32,
            Variant::Modiar => 7,
        }
    }

    /// All stones of the game.
    pub const fn total_stones(self) -> u32 {
        2 * self.holes() as u32 * self.seeds_per_hole()
    }

    /// Whether the game has tuzdiks (Toguz Kumalak on 9 and 7 holes).
    pub const fn has_tuzdik(self) -> bool {
        matches!(
            self,
            Variant::Toguz { holes: 9 } | Variant::Toguz { holes: 7 }
        )
    }

    /// The canonical game id.
    pub fn id(self) -> String {
        self.to_string()
    }

    /// A representative list of ids: every game, and a few Giuthi sizes (all 36 sizes are valid).
    pub fn main_ids() -> &'static [&'static str] {
        &[
            "toguz-kumalak",
            "toguz-kumalak-7",
            "bestemshe",
            "giuthi",
            "giuthi-6x4",
            "giuthi-7x6",
            "giuthi-10x9",
            "modiar",
        ]
    }

    /// Every valid variant (the 36 Giuthi sizes included).
    pub fn all() -> Vec<Variant> {
        let mut v = vec![Variant::TOGUZ, Variant::TOGUZ7, Variant::BESTEMSHE];
        for holes in 5..=10 {
            for seeds in 4..=9 {
                v.push(Variant::Giuthi { holes, seeds });
            }
        }
        v.push(Variant::MODIAR);
        v
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Variant::Toguz { holes: 9 } => f.write_str("toguz-kumalak"),
            Variant::Toguz { holes: 5 } => f.write_str("bestemshe"),
            Variant::Toguz { holes } => write!(f, "toguz-kumalak-{holes}"),
            Variant::Giuthi { holes: 8, seeds: 8 } => f.write_str("giuthi"),
            Variant::Giuthi { holes, seeds } => write!(f, "giuthi-{holes}x{seeds}"),
            Variant::Modiar => f.write_str("modiar"),
        }
    }
}

impl std::str::FromStr for Variant {
    type Err = VariantError;

    /// Game ids are case-insensitive on input.
    fn from_str(s: &str) -> Result<Variant, VariantError> {
        let lower = s.trim().to_ascii_lowercase();
        // The id is echoed shortened: a hostile multi-megabyte id stays a one-line error.
        let err = || VariantError(shorten(s.trim()));
        Ok(match lower.as_str() {
            "toguz-kumalak" | "toguz-kumalak-9" => Variant::TOGUZ,
            "toguz-kumalak-7" => Variant::TOGUZ7,
            "bestemshe" | "toguz-kumalak-5" => Variant::BESTEMSHE,
            "giuthi" => Variant::GIUTHI,
            "modiar" => Variant::MODIAR,
            other => {
                let size = other.strip_prefix("giuthi-").ok_or_else(err)?;
                let (h, s) = size.split_once('x').ok_or_else(err)?;
                // Numbers as everywhere in the notation: no sign, no leading zero.
                let number = parse_number;
                let holes = number(h).filter(|n| (5..=10).contains(n)).ok_or_else(err)?;
                let seeds = number(s).filter(|n| (4..=9).contains(n)).ok_or_else(err)?;
                Variant::Giuthi {
                    holes: holes as u8,
                    seeds: seeds as u8,
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for v in Variant::all() {
            assert_eq!(v.id().parse::<Variant>().unwrap(), v);
        }
        assert_eq!(Variant::all().len(), 3 + 36 + 1);
    }

    #[test]
    fn bad_ids_are_rejected() {
        for bad in [
            "",
            "toguz",
            "giuthi-4x4",
            "giuthi-11x4",
            "giuthi-8x10",
            "giuthi-8",
            "chess",
        ] {
            assert!(bad.parse::<Variant>().is_err(), "{bad}");
        }
        assert_eq!(
            "GIUTHI-6X4".parse::<Variant>().unwrap(),
            Variant::Giuthi { holes: 6, seeds: 4 }
        );
    }

    #[test]
    fn totals() {
        assert_eq!(Variant::TOGUZ.total_stones(), 162);
        assert_eq!(Variant::TOGUZ7.total_stones(), 98);
        assert_eq!(Variant::BESTEMSHE.total_stones(), 50);
        assert_eq!(Variant::GIUTHI.total_stones(), 128);
        assert_eq!(Variant::MODIAR.total_stones(), 42);
    }
}
