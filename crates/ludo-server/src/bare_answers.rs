//! The answers hyper writes on its own, below the router, given the headers every other answer
//! carries.
//!
//! hyper answers a request it cannot read without asking the router: `400 Bad Request` for bytes
//! that are not HTTP or a request with two `Content-Length` headers, `431 Request Header Fields
//! Too Large` for a head over the read buffer. Those answers have no body and only hyper's own
//! headers, and hyper offers no hook to add any. So the connection's socket looks at what is
//! written: the head of an error answer that lacks the headers the router puts on every answer
//! it makes (see [`crate::routes::SECURITY_HEADERS`]) is written with them added.

use crate::routes::{CONTENT_SECURITY_POLICY, SECURITY_HEADERS};

/// The header every answer made by the router carries, in the lower case hyper writes.
const ROUTER_MARK: &[u8] = b"\r\nx-content-type-options:";

/// `bytes` with the security headers added, when they begin with the whole head of an error
/// answer (4xx or 5xx) that lacks them; `None` for anything else: an answer made by the router,
/// a body, a WebSocket frame.
pub fn with_security_headers(bytes: &[u8]) -> Option<Vec<u8>> {
    if !(bytes.starts_with(b"HTTP/1.1 4") || bytes.starts_with(b"HTTP/1.1 5")) {
        return None;
    }
    let end = find(bytes, b"\r\n\r\n")?;
    let head = bytes[..end].to_ascii_lowercase();
    if find(&head, ROUTER_MARK).is_some() {
        return None;
    }
    let mut answer = Vec::with_capacity(bytes.len() + 256);
    answer.extend_from_slice(&bytes[..end]);
    let policy = (
        axum::http::header::CONTENT_SECURITY_POLICY,
        CONTENT_SECURITY_POLICY,
    );
    for (name, value) in SECURITY_HEADERS.into_iter().chain([policy]) {
        answer.extend_from_slice(format!("\r\n{name}: {value}").as_bytes());
    }
    answer.extend_from_slice(&bytes[end..]);
    Some(answer)
}

/// Where `needle` first occurs in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_error_answer_gets_the_security_headers_before_its_blank_line() {
        let bare = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n";
        let answer = String::from_utf8(with_security_headers(bare).unwrap()).unwrap();
        assert!(answer.starts_with("HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n"));
        assert!(answer.contains("\r\nx-content-type-options: nosniff\r\n"));
        assert!(answer.contains("\r\ncontent-security-policy: default-src 'none'"));
        assert!(answer.ends_with("\r\n\r\n"));
    }

    #[test]
    fn answers_of_the_router_bodies_and_frames_are_left_alone() {
        let routed = b"HTTP/1.1 404 Not Found\r\nx-content-type-options: nosniff\r\n\r\n";
        assert_eq!(with_security_headers(routed), None);
        assert_eq!(with_security_headers(b"HTTP/1.1 200 OK\r\n\r\n"), None);
        assert_eq!(with_security_headers(b"{\"error\":\"HTTP/1.1 400\"}"), None);
        assert_eq!(with_security_headers(&[0x81, 0x02, b'h', b'i']), None);
        // A head split over two writes is not the whole head: left alone.
        assert_eq!(with_security_headers(b"HTTP/1.1 400 Bad Request\r\n"), None);
    }
}
