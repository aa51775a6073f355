//! The set of games recorded, one bit a game.

/// The numbers of the games recorded: one bit a game (a records file of ten million games
/// takes 1.25 MB), so a run, its resumption and a merge know what is done without keeping games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameSet {
    words: Vec<u64>,
    len: u64,
}

impl GameSet {
    /// No game recorded.
    pub fn new() -> GameSet {
        GameSet::default()
    }

    /// Adds `index`; false if it was there already.
    pub fn insert(&mut self, index: u64) -> bool {
        let (word, bit) = ((index / 64) as usize, index % 64);
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        let fresh = self.words[word] & (1 << bit) == 0;
        self.words[word] |= 1 << bit;
        self.len += u64::from(fresh);
        fresh
    }

    /// Whether game `index` is recorded.
    pub fn contains(&self, index: u64) -> bool {
        self.words
            .get((index / 64) as usize)
            .is_some_and(|w| w & (1 << (index % 64)) != 0)
    }

    /// The number of games recorded.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// True when no game is recorded.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The numbers, ascending.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &bits)| {
            (0..64)
                .filter(move |b| bits & (1 << b) != 0)
                .map(move |b| w as u64 * 64 + b)
        })
    }
}
