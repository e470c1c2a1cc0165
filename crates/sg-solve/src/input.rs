//! The bytes of a judge input, memory-mapped when they are a regular file.
//!
//! Reading a file copies every byte into a growing buffer and faults in
//! that buffer's pages: about half of the time of a program that only
//! parses its input. A regular file (named, or standard input redirected
//! from one) is therefore mapped instead, and only pipes and terminals are
//! read. The mapping is private and read-only.
//!
//! The input must not change while grundy runs: a file truncated or
//! rewritten meanwhile may show the solver different bytes than it checked,
//! or end the process with SIGBUS. Judges and shells never do that to an
//! input they feed; whoever does must use a pipe (`cat FILE | grundy ...`).

use memmap2::Mmap;
use std::fs::File;
use std::io::{self, Read};
use std::ops::Deref;
use std::path::Path;

/// The input's bytes: mapped or read.
#[derive(Debug)]
pub enum InputBytes {
    /// A regular file, mapped.
    Mapped(Mmap),
    /// Read into memory (pipes, terminals, empty files).
    Read(Vec<u8>),
}

impl Deref for InputBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            InputBytes::Mapped(map) => map,
            InputBytes::Read(bytes) => bytes,
        }
    }
}

/// The bytes of the file at `path`, or of standard input when `path` is
/// `None`: mapped when that is a non-empty regular file, else read.
pub fn input_bytes(path: Option<&Path>) -> io::Result<InputBytes> {
    match path {
        Some(path) => bytes_of(File::open(path)?),
        None => {
            #[cfg(unix)]
            {
                use std::os::fd::AsFd;
                // Map standard input through a duplicate of its descriptor
                // (the File closes only the duplicate).
                let stdin = io::stdin();
                let file = File::from(stdin.as_fd().try_clone_to_owned()?);
                bytes_of(file)
            }
            #[cfg(not(unix))]
            {
                let mut bytes = Vec::new();
                io::stdin().lock().read_to_end(&mut bytes)?;
                Ok(InputBytes::Read(bytes))
            }
        }
    }
}

fn bytes_of(mut file: File) -> io::Result<InputBytes> {
    let meta = file.metadata()?;
    if meta.is_file() && meta.len() > 0 {
        // SAFETY: the mapping is private and read-only, and the module's
        // contract is that the input does not change while grundy runs
        // (see the module documentation); the bytes are only read through
        // the returned value, which owns the mapping.
        let map = unsafe { Mmap::map(&file) }?;
        return Ok(InputBytes::Mapped(map));
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(InputBytes::Read(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn maps_regular_files_and_reads_empty_ones() {
        let dir = std::env::temp_dir().join(format!("grundy-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("in.txt");
        std::fs::File::create(&path)
            .unwrap()
            .write_all(b"3 1 2 3\n")
            .unwrap();
        let bytes = input_bytes(Some(&path)).unwrap();
        assert!(matches!(bytes, InputBytes::Mapped(_)));
        assert_eq!(&*bytes, b"3 1 2 3\n");
        drop(bytes); // unmap before the file changes
        std::fs::File::create(&path).unwrap();
        let empty = input_bytes(Some(&path)).unwrap();
        assert!(matches!(empty, InputBytes::Read(_)));
        assert!(empty.is_empty());
        assert!(input_bytes(Some(&dir.join("missing"))).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
