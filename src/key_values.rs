//! `key=value` lists, read one way: the arena's option lists (`--openings plies=8 policy=random`,
//! an engine's `cmd=... st=1`), a contender's `level=5,depth=4`, a page's query `n=3&ply=0`. The
//! caller splits the text into items (at whitespace, `,` or `&`); [`KeyValues`] holds the pairs
//! and reads each value as what it must be, and every error names the list, the key, the value
//! and what the value may be, so that no two lists word the same mistake differently.
//!
//! Strictness is the caller's: a command-line list refuses an unknown or repeated key
//! ([`KeyValues::only`], [`KeyValues::once`]; a key documented to repeat, an engine's `arg=`,
//! excepted), a page's query ignores what it does not read (a browser or a proxy may add items).
//!
//! The lists read here: `--openings`, `--resign`, `--draw` and `--sprt` (also `merge --sprt` and
//! the `sprt` calculator's keys), an engine's keys (`--engine`, `--each`, `otau web --engine`),
//! `otau selfplay`'s contenders and a page's query.

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// The pairs of one `key=value` list, in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyValues<'t> {
    /// What the list is, as errors name it: `--openings`, `the query`.
    list: String,
    pairs: Vec<(&'t str, &'t str)>,
}

/// What is wrong with a `key=value` list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyValueError {
    /// An item without `=`, or with nothing before it.
    NotKeyValue {
        /// What the list is.
        list: String,
        /// The item as given.
        item: String,
    },
    /// A key the list does not have; `known` lists the keys it has.
    UnknownKey {
        /// What the list is.
        list: String,
        /// The key as given.
        key: String,
        /// The keys the list has, for the message.
        known: String,
    },
    /// A key given twice (the first value would silently lose).
    Repeated {
        /// What the list is.
        list: String,
        /// The key.
        key: String,
        /// The first value given.
        first: String,
        /// The value given again.
        again: String,
    },
    /// A value the key does not take; `expected` says what it takes.
    BadValue {
        /// What the list is.
        list: String,
        /// The key.
        key: String,
        /// The value as given.
        value: String,
        /// What the key takes, in words.
        expected: String,
    },
    /// A key the list must have.
    Missing {
        /// What the list is.
        list: String,
        /// The key missing.
        key: String,
    },
}

impl fmt::Display for KeyValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyValueError::NotKeyValue { list, item } => {
                write!(f, "{list}: '{item}' is not key=value")
            }
            KeyValueError::UnknownKey { list, key, known } => {
                write!(f, "{list}: unknown key '{key}' (keys: {known})")
            }
            KeyValueError::Repeated {
                list,
                key,
                first,
                again,
            } => write!(
                f,
                "{list}: {key}= is given twice ('{key}={first}', then '{key}={again}'): give each \
                 key once"
            ),
            KeyValueError::BadValue {
                list,
                key,
                value,
                expected,
            } => write!(f, "{list} {key}={value}: {expected}"),
            KeyValueError::Missing { list, key } => write!(f, "{list}: {key}= is missing"),
        }
    }
}

impl std::error::Error for KeyValueError {}

impl<'t> KeyValues<'t> {
    /// Reads `items`, each `key=value` (the value may be empty and may hold `=`); `list` names
    /// the list in errors. Empty items are skipped (`a=1&&b=2`, a trailing `,`).
    pub fn parse(
        list: &str,
        items: impl IntoIterator<Item = &'t str>,
    ) -> Result<KeyValues<'t>, KeyValueError> {
        let mut pairs = Vec::new();
        for item in items.into_iter().filter(|i| !i.is_empty()) {
            match item.split_once('=') {
                Some((key, value)) if !key.is_empty() => pairs.push((key, value)),
                _ => {
                    return Err(KeyValueError::NotKeyValue {
                        list: list.to_string(),
                        item: item.to_string(),
                    })
                }
            }
        }
        Ok(KeyValues::of_pairs(list, pairs))
    }

    /// A list already read into pairs (an engine's keys, kept from [`KeyValues::parse`] for
    /// reading once `--each` and the engines file are merged in); `list` names it in errors.
    pub fn of_pairs(list: &str, pairs: impl IntoIterator<Item = (&'t str, &'t str)>) -> Self {
        KeyValues {
            list: list.to_string(),
            pairs: pairs.into_iter().collect(),
        }
    }

    /// The list with every key one of `known`; a known key ending in `.` (`option.`) stands for
    /// every key that starts with it and goes on.
    pub fn only(self, known: &[&str]) -> Result<KeyValues<'t>, KeyValueError> {
        let matches = |key: &str, k: &&str| match k.strip_suffix('.') {
            Some(_) => key.len() > k.len() && key.starts_with(*k),
            None => key == *k,
        };
        if let Some((key, _)) = self
            .pairs
            .iter()
            .find(|(key, _)| !known.iter().any(|k| matches(key, k)))
        {
            let known: Vec<String> = known
                .iter()
                .map(|k| match k.strip_suffix('.') {
                    Some(_) => format!("{k}NAME"),
                    None => k.to_string(),
                })
                .collect();
            return Err(KeyValueError::UnknownKey {
                list: self.list.clone(),
                key: key.to_string(),
                known: known.join(", "),
            });
        }
        Ok(self)
    }

    /// The list with no key given twice but those of `repeatable` (keys documented to repeat,
    /// an engine's `arg=`): a repeat is refused by name rather than one value silently losing.
    pub fn once(self, repeatable: &[&str]) -> Result<KeyValues<'t>, KeyValueError> {
        for (i, (key, first)) in self.pairs.iter().enumerate() {
            if repeatable.contains(key) {
                continue;
            }
            if let Some((_, again)) = self.pairs[i + 1..].iter().find(|(k, _)| k == key) {
                return Err(KeyValueError::Repeated {
                    list: self.list.clone(),
                    key: key.to_string(),
                    first: first.to_string(),
                    again: again.to_string(),
                });
            }
        }
        Ok(self)
    }

    /// The pairs in the order given (for lists whose keys repeat or apply in order).
    pub fn pairs(&self) -> &[(&'t str, &'t str)] {
        &self.pairs
    }

    /// The value of `key` (the first, if it is given twice).
    pub fn get(&self, key: &str) -> Option<&'t str> {
        self.pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// Whether the list gives `key`.
    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// `key`'s value as a number in `range` (a plain decimal, as `str::parse` reads it).
    pub fn number<T>(&self, key: &str, range: RangeInclusive<T>) -> Result<Option<T>, KeyValueError>
    where
        T: FromStr + PartialOrd + fmt::Display,
    {
        self.get(key)
            .map(|value| self.in_range(key, value, &range, "a number"))
            .transpose()
    }

    /// `value` (given for `key`) as a whole number in `range`: for lists read pair by pair
    /// ([`KeyValues::pairs`]).
    pub fn whole<T>(
        &self,
        key: &str,
        value: &str,
        range: RangeInclusive<T>,
    ) -> Result<T, KeyValueError>
    where
        T: FromStr + PartialOrd + fmt::Display,
    {
        self.in_range(key, value, &range, "a whole number")
    }

    /// The one range check of [`KeyValues::number`] and [`KeyValues::whole`]: `value` read as a
    /// `T` in `range`, else an error saying it should be `what` in that range (`a whole number
    /// of ms`: a unit the key's name does not say).
    pub fn in_range<T>(
        &self,
        key: &str,
        value: &str,
        range: &RangeInclusive<T>,
        what: &str,
    ) -> Result<T, KeyValueError>
    where
        T: FromStr + PartialOrd + fmt::Display,
    {
        match value.parse::<T>() {
            Ok(n) if range.contains(&n) => Ok(n),
            _ => Err(self.bad_value(
                key,
                value,
                format!("{what} in {}..={}", range.start(), range.end()),
            )),
        }
    }

    /// `key`'s value as one of `choices` (its spelling, and what it reads as).
    pub fn choice<T: Copy>(
        &self,
        key: &str,
        choices: &[(&str, T)],
    ) -> Result<Option<T>, KeyValueError> {
        let Some(value) = self.get(key) else {
            return Ok(None);
        };
        match choices.iter().find(|(name, _)| *name == value) {
            Some(&(_, v)) => Ok(Some(v)),
            None => {
                let names: Vec<&str> = choices.iter().map(|(name, _)| *name).collect();
                Err(self.bad_value(key, value, format!("one of {}", names.join(", "))))
            }
        }
    }

    /// `key`'s value read by `read`, whose error says what the value may be.
    pub fn parsed<T>(
        &self,
        key: &str,
        read: impl FnOnce(&str) -> Result<T, String>,
    ) -> Result<Option<T>, KeyValueError> {
        self.get(key)
            .map(|value| read(value).map_err(|why| self.bad_value(key, value, why)))
            .transpose()
    }

    /// `value`, which the list must give for `key`.
    pub fn required<T>(&self, key: &str, value: Option<T>) -> Result<T, KeyValueError> {
        value.ok_or_else(|| KeyValueError::Missing {
            list: self.list.clone(),
            key: key.to_string(),
        })
    }

    /// The error for `key=value`, which should have been `expected`.
    pub fn bad_value(&self, key: &str, value: &str, expected: String) -> KeyValueError {
        KeyValueError::BadValue {
            list: self.list.clone(),
            key: key.to_string(),
            value: value.to_string(),
            expected,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_in_order_and_values_read() {
        let kv =
            KeyValues::parse("--openings", "plies=8 policy=random x=a=b e=".split(' ')).unwrap();
        assert_eq!(
            kv.pairs(),
            [
                ("plies", "8"),
                ("policy", "random"),
                ("x", "a=b"),
                ("e", "")
            ]
        );
        assert_eq!(kv.number("plies", 0..=1000u32), Ok(Some(8)));
        assert_eq!(kv.number::<u32>("depth", 1..=64), Ok(None));
        let policy = kv.choice("policy", &[("random", 1), ("balanced", 2)]);
        assert_eq!(policy, Ok(Some(1)));
        assert_eq!(kv.get("x"), Some("a=b"));
        assert!(kv.has("e") && !kv.has("f"));
        assert_eq!(kv.parsed("x", |v| Ok(v.len())), Ok(Some(3)));
    }

    #[test]
    fn errors_name_the_list_the_key_the_value_and_what_it_may_be() {
        let e = |r: Result<_, KeyValueError>| r.map(|_: KeyValues| ()).unwrap_err().to_string();
        assert_eq!(
            e(KeyValues::parse("--openings", ["plies=8", "random"])),
            "--openings: 'random' is not key=value"
        );
        assert_eq!(
            e(KeyValues::parse("--openings", ["=8"])),
            "--openings: '=8' is not key=value"
        );
        let kv = KeyValues::parse("--engine 1", ["cmd=x", "bogus=1", "option.Hash=8"]).unwrap();
        assert_eq!(
            e(kv.clone().only(&["cmd", "st", "option."])),
            "--engine 1: unknown key 'bogus' (keys: cmd, st, option.NAME)"
        );
        assert!(kv.clone().only(&["cmd", "bogus", "option."]).is_ok());
        assert!(e(kv.only(&["cmd", "bogus"])).contains("'option.Hash'"));
        let kv = KeyValues::parse("--resign", ["movecount=3", "movecount=5"]).unwrap();
        assert_eq!(
            e(kv.clone().once(&[])),
            "--resign: movecount= is given twice ('movecount=3', then 'movecount=5'): give each \
             key once"
        );
        assert!(kv.clone().once(&["movecount"]).is_ok());
        assert_eq!(
            kv.number("movecount", 4..=9u32).unwrap_err().to_string(),
            "--resign movecount=3: a number in 4..=9"
        );
        let kv = KeyValues::parse("--openings", ["policy=best", "n=-1"]).unwrap();
        assert_eq!(
            kv.choice("policy", &[("random", 1), ("balanced", 2)])
                .unwrap_err()
                .to_string(),
            "--openings policy=best: one of random, balanced"
        );
        assert!(kv.number("n", 0..=9u64).is_err());
        assert_eq!(
            kv.required("elo0", kv.number::<f64>("elo0", -1e3..=1e3).unwrap())
                .unwrap_err()
                .to_string(),
            "--openings: elo0= is missing"
        );
    }
}
