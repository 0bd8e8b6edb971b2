//! The rules engine and the CPU players for the browser. JavaScript writes a JSON request into
//! the input buffer ([`input`]), calls [`call`] with an operation number, and reads the JSON
//! answer from [`output`] (its length is what `call` returned). Answers are `{"ok": …}` or
//! `{"error": "…", "code": "…", "params": {…}}` (see [`bridge::RULES`]). No randomness, clock or
//! threads inside: dice and seeds come from the page.

pub mod bridge;

use std::cell::RefCell;

thread_local! {
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Makes the input buffer `len` bytes long and gives its address, for JavaScript to write the
/// request's UTF-8 bytes into (for [`bridge::EXPERT`], the network's bytes).
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn input(len: u32) -> *mut u8 {
    INPUT.with_borrow_mut(|buffer| {
        buffer.clear();
        buffer.resize(len as usize, 0);
        buffer.as_mut_ptr()
    })
}

/// Runs operation `op` (see [`bridge`]) on the input buffer; the answer's length in bytes.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn call(op: u32) -> u32 {
    let answer = INPUT.with_borrow(|bytes| match std::str::from_utf8(bytes) {
        // The expert's network comes as bytes, not JSON.
        _ if op == bridge::EXPERT => bridge::install_expert(bytes),
        Ok(text) => bridge::call(op, text),
        Err(_) => bridge::not_utf8(),
    });
    let text = answer.to_string();
    OUTPUT.with_borrow_mut(|buffer| {
        buffer.clear();
        buffer.extend_from_slice(text.as_bytes());
        buffer.len() as u32
    })
}

/// The address of the last answer.
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
pub extern "C" fn output() -> *const u8 {
    OUTPUT.with_borrow(|buffer| buffer.as_ptr())
}
