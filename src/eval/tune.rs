//! Tuning.
