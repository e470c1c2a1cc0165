//! What a path that is not a regular file is, in words: the refusals of
//! [`safe_write`](crate::safe_write) and those of `sg-tables`' readers
//! ("... is not a regular file (it is a FIFO)") say it the same way.

use std::fs::FileType;

/// What a file that is not regular is: "a FIFO", "a device", "a socket",
/// "a folder", or "a special file" for anything else.
pub fn describe_type(file_type: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a folder"
    } else {
        "a special file"
    }
}
