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
    Toguz {
        /// Holes a row: 9, 7 or 5.
        holes: u8,
    },
    /// Giuthi with 5..10 holes a row and 4..9 seeds a hole (`giuthi` is 8x8).
    Giuthi {
        /// Holes a row, 5..=10.
        holes: u8,
        /// Seeds a hole at the start, 4..=9.
        seeds: u8,
    },
    /// Modiar, 2x3 with 7 stones a hole.
    Modiar,
}

/// A game id that names no game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct VariantError(pub String);

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown game id '{}' (known: ", self.0)?;
        let mut first = true;
        for &(id, variant) in &IDS {
            let known = match variant {
                Variant::GIUTHI => "giuthi, giuthi-<5..10>x<4..9>",
                Variant::Giuthi { .. } => continue,
                _ => id,
            };
            f.write_str(if first { "" } else { ", " })?;
            f.write_str(known)?;
            first = false;
        }
        f.write_str(")")
    }
}

impl std::error::Error for VariantError {}

impl Variant {
    /// Toguz Kumalak on 2x9 (`toguz-kumalak`).
    pub const TOGUZ: Variant = Variant::Toguz { holes: 9 };
    /// Toguz Kumalak on 2x7 (`toguz-kumalak-7`).
    pub const TOGUZ7: Variant = Variant::Toguz { holes: 7 };
    /// Bestemshe: Toguz Kumalak on 2x5 without tuzdik (`bestemshe`).
    pub const BESTEMSHE: Variant = Variant::Toguz { holes: 5 };
    /// Giuthi on 2x8 with 8 seeds a hole (`giuthi`).
    pub const GIUTHI: Variant = Variant::Giuthi { holes: 8, seeds: 8 };
    /// Modiar (`modiar`).
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
        &MAIN_IDS
    }

    /// Every valid variant (the 36 Giuthi sizes included), in the order of [`IDS`].
    pub fn all() -> Vec<Variant> {
        let mut v = Vec::new();
        for &(_, variant) in &IDS {
            match variant {
                Variant::GIUTHI => {
                    for holes in GIUTHI_HOLES {
                        for seeds in GIUTHI_SEEDS {
                            v.push(Variant::Giuthi { holes, seeds });
                        }
                    }
                }
                Variant::Giuthi { .. } => {}
                other => v.push(other),
            }
        }
        v
    }
}

/// The named game ids, in the order the UGI `Game` option lists them: every game and board of a
/// fixed size, and a few Giuthi sizes (every `giuthi-<holes>x<seeds>` of [`GIUTHI_HOLES`] and
/// [`GIUTHI_SEEDS`] is valid). A new game adds its row here.
const IDS: [(&str, Variant); 8] = [
    ("toguz-kumalak", Variant::TOGUZ),
    ("toguz-kumalak-7", Variant::TOGUZ7),
    ("bestemshe", Variant::BESTEMSHE),
    ("giuthi", Variant::GIUTHI),
    ("giuthi-6x4", Variant::Giuthi { holes: 6, seeds: 4 }),
    ("giuthi-7x6", Variant::Giuthi { holes: 7, seeds: 6 }),
    (
        "giuthi-10x9",
        Variant::Giuthi {
            holes: 10,
            seeds: 9,
        },
    ),
    ("modiar", Variant::MODIAR),
];

/// Other spellings read on input (never written).
const ALIASES: [(&str, Variant); 2] = [
    ("toguz-kumalak-9", Variant::TOGUZ),
    ("toguz-kumalak-5", Variant::BESTEMSHE),
];

/// The ids of [`IDS`], for [`Variant::main_ids`].
const MAIN_IDS: [&str; IDS.len()] = {
    let mut ids = [""; IDS.len()];
    let mut i = 0;
    while i < IDS.len() {
        ids[i] = IDS[i].0;
        i += 1;
    }
    ids
};

/// Giuthi's board sizes: holes a row, and seeds a hole at the start.
const GIUTHI_HOLES: std::ops::RangeInclusive<u8> = 5..=10;
const GIUTHI_SEEDS: std::ops::RangeInclusive<u8> = 4..=9;

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(&(id, _)) = IDS.iter().find(|(_, v)| v == self) {
            return f.write_str(id);
        }
        match *self {
            Variant::Toguz { holes } => write!(f, "toguz-kumalak-{holes}"),
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
        if let Some(&(_, variant)) = IDS.iter().chain(&ALIASES).find(|(id, _)| *id == lower) {
            return Ok(variant);
        }
        // The id is echoed shortened: a hostile multi-megabyte id stays a one-line error.
        let err = || VariantError(shorten(s.trim()));
        let size = lower.strip_prefix("giuthi-").ok_or_else(err)?;
        let (h, s) = size.split_once('x').ok_or_else(err)?;
        // Numbers as everywhere in the notation: no sign, no leading zero.
        let size = |text: &str, range: std::ops::RangeInclusive<u8>| {
            parse_number(text)
                .and_then(|n| u8::try_from(n).ok())
                .filter(|n| range.contains(n))
                .ok_or_else(err)
        };
        Ok(Variant::Giuthi {
            holes: size(h, GIUTHI_HOLES)?,
            seeds: size(s, GIUTHI_SEEDS)?,
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
            "chess".parse::<Variant>().unwrap_err().to_string(),
            "unknown game id 'chess' (known: toguz-kumalak, toguz-kumalak-7, bestemshe, giuthi, \
             giuthi-<5..10>x<4..9>, modiar)"
        );
        assert_eq!("toguz-kumalak-9".parse::<Variant>(), Ok(Variant::TOGUZ));
        assert_eq!("Toguz-Kumalak-5".parse::<Variant>(), Ok(Variant::BESTEMSHE));
        assert_eq!(Variant::Giuthi { holes: 6, seeds: 4 }.id(), "giuthi-6x4");
        assert_eq!(Variant::Giuthi { holes: 9, seeds: 5 }.id(), "giuthi-9x5");
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
