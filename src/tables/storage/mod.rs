//! Where a table lives: on disk in the shared file format with its header, checksum and digest
//! ([`file_format`]), in the cache folder ([`cache`]), and in the process once read, in a
//! [`slot`] every search shares.

pub mod cache;
pub mod file_format;
pub mod slot;
