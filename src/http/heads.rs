//! Request heads, read before the HTTP library sees them.
//!
//! actix answers a head it cannot read itself, before there is a request
//! to route: `431` with no body for a head of 128 KiB or more (or more
//! than 96 header fields), `400` with no body for one that is not HTTP.
//! Every other refusal of the service is a problem, so each connection's
//! bytes pass through [`Guarded`] first: it holds each request head until
//! the head is whole, reads it as actix would, and hands it on only when
//! actix will read it too. A head actix would refuse is never handed on:
//! the connection ends there for actix (the bytes before it are served as
//! usual), and the answer written before it closes is a problem,
//! `431 head-too-large` or `400 malformed-head`, counted in
//! `qipan_refused_requests_total` under the same reasons.
//!
//! To find the next head, a request's body is skipped by its
//! `Content-Length`. After a chunked body, a WebSocket handshake or a
//! `CONNECT`, the rest of the connection is handed on unread: actix's own
//! answers (bare, as before) then cover any later head.

use std::io;
use std::mem::MaybeUninit;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use actix_web::http::{Method, Uri};
use actix_web::rt::net::TcpStream;
use bytes::{Buf, BytesMut};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::metrics;
use crate::problem::{Problem, ProblemKind};

/// A head (request line and header fields, blank line included) this
/// long or longer is refused: actix refuses one whose end it has not seen
/// within 128 KiB.
pub const HEAD_LIMIT: usize = 128 * 1024;

/// The most header fields a head may have (actix's own limit).
pub const MAX_HEADERS: usize = 96;

/// How much is read from the socket at once.
const READ_CHUNK: usize = 16 * 1024;

/// Why a head is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// 128 KiB or more, or more than 96 header fields.
    TooLarge,
    /// Not HTTP/1.x as actix reads it; the text says why.
    Malformed(String),
}

impl Refusal {
    /// The reason counted in `qipan_refused_requests_total`.
    pub fn reason(&self) -> &'static str {
        match self {
            Refusal::TooLarge => "head-too-large",
            Refusal::Malformed(_) => "malformed-head",
        }
    }

    /// The answer written before the connection closes.
    pub fn answer(&self) -> Vec<u8> {
        match self {
            Refusal::TooLarge => Problem::new(
                ProblemKind::HeadTooLarge,
                format!(
                    "the request head is {} KiB or more, or has more than {MAX_HEADERS} \
                     header fields",
                    HEAD_LIMIT / 1024
                ),
            ),
            Refusal::Malformed(why) => Problem::new(ProblemKind::MalformedHead, why.clone()),
        }
        .raw_answer()
    }
}

/// What the bytes after the last head handed on are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Framing {
    /// The next request's head.
    Head,
    /// So many bytes of a request body, then a head.
    Body(u64),
    /// Anything: handed on unread to the end of the connection.
    Opaque,
}

/// A head read whole: its length and what follows it.
#[derive(Debug, PartialEq, Eq)]
struct Head {
    len: usize,
    next: Framing,
}

/// Reads one head at the start of `bytes` as actix does: `None` while it is
/// not whole yet. A plain head (nearly every one) is read in one pass by
/// [`read_plain_head`]; any other by httparse, as actix reads it.
fn read_head(bytes: &[u8]) -> Result<Option<Head>, Refusal> {
    match read_plain_head(bytes) {
        Some(head) => Ok(Some(head)),
        None => read_any_head(bytes),
    }
}

/// A table of the 256 bytes, `true` for those the pattern matches.
macro_rules! byte_table {
    ($($pattern:tt)+) => {{
        let mut table = [false; 256];
        let mut b = 0;
        while b < 256 {
            table[b] = matches!(b as u8, $($pattern)+);
            b += 1;
        }
        table
    }};
}

/// The bytes of a header field's name (a token, RFC 9110 section 5.6.2).
const TOKEN: [bool; 256] = byte_table!(
    b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9'
        | b'!' | b'#' | b'$' | b'%' | b'&' | b'\'' | b'*' | b'+' | b'-' | b'.'
        | b'^' | b'_' | b'`' | b'|' | b'~'
);

/// The bytes of a plain header field's value: visible ASCII, space, tab.
const VALUE: [bool; 256] = byte_table!(0x09 | 0x20..=0x7e);

/// How many bytes at the start of `bytes` are [`VALUE`] bytes, when a byte
/// that is not follows them: eight bytes at a time while they are all
/// visible ASCII or spaces, then one by one from the first that is not.
fn value_run(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    let mut i = 0;
    while let Some(chunk) = bytes.get(i..i + 8) {
        // Little-endian whatever the machine: the first byte is the lowest.
        let x = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        // A byte under 0x20 (its high bit set by the subtraction, not in
        // `x`), or of 0x7f and over (set by the addition, or in `x`): a
        // borrow or carry may mark a later (higher) byte too, never an
        // earlier one, so the lowest mark is a byte that is no visible
        // ASCII or space (a tab, or the end of the value).
        let below = x.wrapping_sub(ONES * 0x20) & !x & HIGHS;
        let above = (x.wrapping_add(ONES) | x) & HIGHS;
        let marks = below | above;
        if marks != 0 {
            i += (marks.trailing_zeros() / 8) as usize;
            break;
        }
        i += 8;
    }
    Some(i + bytes[i..].iter().position(|&b| !VALUE[usize::from(b)])?)
}

/// How many bytes at the start of `bytes` the table takes, when a byte it
/// does not take follows them: eight bytes a step (one table look each,
/// no branch between them) while all eight are taken, then one by one.
fn run_of(table: &[bool; 256], bytes: &[u8]) -> Option<usize> {
    let mut i = 0;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let chunk: &[u8; 8] = chunk.try_into().expect("eight bytes");
        if !chunk
            .iter()
            .fold(true, |all, &b| all & table[usize::from(b)])
        {
            break;
        }
        i += 8;
    }
    Some(i + bytes[i..].iter().position(|&b| !table[usize::from(b)])?)
}

/// A whole head at the start of `bytes` in the plainest form, read in one
/// pass: a usual method, a plain path, `HTTP/1.1`, lines ending in CRLF,
/// field values of visible ASCII, one `Host`, at most one `Content-Length`
/// of digits, no `Transfer-Encoding` or `Upgrade`, at most
/// [`MAX_HEADERS`] fields. Such a head is one httparse and actix read, and
/// [`read_any_head`] would read it the same (a test checks both agree);
/// anything else is `None`, left to [`read_any_head`].
fn read_plain_head(bytes: &[u8]) -> Option<Head> {
    let method_end = bytes.iter().take(8).position(|&b| b == b' ')?;
    // Methods whose requests are framed by their fields alone (not
    // CONNECT, left to httparse).
    if !matches!(
        &bytes[..method_end],
        b"GET" | b"HEAD" | b"POST" | b"PUT" | b"DELETE" | b"PATCH" | b"OPTIONS"
    ) {
        return None;
    }
    let target = method_end + 1;
    if bytes.get(target) != Some(&b'/') {
        return None;
    }
    let mut i = target + run_of(&PLAIN, &bytes[target..])?;
    if i - target >= usize::from(u16::MAX) - 1 || !bytes[i..].starts_with(b" HTTP/1.1\r\n") {
        return None;
    }
    i += b" HTTP/1.1\r\n".len();
    let (mut length, mut host, mut fields) = (None, false, 0);
    while !bytes[i..].starts_with(b"\r\n") {
        fields += 1;
        let name_end = i + run_of(&TOKEN, &bytes[i..])?;
        if fields > MAX_HEADERS || name_end == i || bytes[name_end] != b':' {
            return None;
        }
        let name = &bytes[i..name_end];
        let value_end = name_end + 1 + value_run(&bytes[name_end + 1..])?;
        if !bytes[value_end..].starts_with(b"\r\n") {
            return None;
        }
        let value = &bytes[name_end + 1..value_end];
        i = value_end + 2;
        match name.len() {
            4 if name.eq_ignore_ascii_case(b"host") => {
                if host {
                    return None;
                }
                host = true;
            }
            14 if name.eq_ignore_ascii_case(b"content-length") => {
                let value = value.trim_ascii();
                let digits =
                    !value.is_empty() && value.len() < 20 && value.iter().all(u8::is_ascii_digit);
                if length.is_some() || !digits {
                    return None;
                }
                length = Some(
                    value
                        .iter()
                        .fold(0, |n: u64, &d| n * 10 + u64::from(d - b'0')),
                );
            }
            7 if name.eq_ignore_ascii_case(b"upgrade") => return None,
            17 if name.eq_ignore_ascii_case(b"transfer-encoding") => return None,
            _ => {}
        }
    }
    if !host {
        return None;
    }
    let next = match length {
        Some(n) if n > 0 => Framing::Body(n),
        _ => Framing::Head,
    };
    Some(Head { len: i + 2, next })
}

/// Reads one head at the start of `bytes` as actix does, with httparse:
/// `None` while it is not whole yet.
fn read_any_head(bytes: &[u8]) -> Result<Option<Head>, Refusal> {
    // Left uninitialized: httparse writes the fields it finds.
    let mut fields = [const { MaybeUninit::<httparse::Header<'_>>::uninit() }; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut []);
    let len = match request.parse_with_uninit_headers(bytes, &mut fields) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => return Err(Refusal::TooLarge),
        Err(e) => return Err(Refusal::Malformed(format!("the request head: {e}"))),
    };
    let malformed = |why: &str| Err(Refusal::Malformed(why.to_owned()));
    let method = request.method.unwrap_or_default();
    let Ok(method) = Method::from_bytes(method.as_bytes()) else {
        return malformed("the method is not a token");
    };
    if !is_uri(request.path.unwrap_or_default()) {
        return malformed("the request target is not a URI");
    }
    let http11 = request.version == Some(1);
    let (mut length, mut chunked, mut transfer, mut host, mut websocket) =
        (None, false, false, false, false);
    for field in request.headers.iter() {
        let value = || std::str::from_utf8(field.value).map(str::trim);
        if field.name.eq_ignore_ascii_case("content-length") {
            if length.is_some() {
                return malformed("Content-Length is given twice");
            }
            match value() {
                Ok(v) if !v.starts_with('+') => match v.parse::<u64>() {
                    Ok(n) => length = Some(n),
                    Err(_) => return malformed("Content-Length is not a number"),
                },
                _ => return malformed("Content-Length is not a number"),
            }
        } else if field.name.eq_ignore_ascii_case("transfer-encoding") {
            if transfer {
                return malformed("Transfer-Encoding is given twice");
            }
            transfer = true;
            if !http11 {
                return malformed("Transfer-Encoding in an HTTP/1.0 request");
            }
            match value() {
                Ok(v) if v.eq_ignore_ascii_case("chunked") => chunked = true,
                Ok(v) if v.eq_ignore_ascii_case("identity") => {}
                _ => return malformed("Transfer-Encoding is neither chunked nor identity"),
            }
        } else if field.name.eq_ignore_ascii_case("host") {
            if host {
                return malformed("Host is given twice");
            }
            host = true;
        } else if field.name.eq_ignore_ascii_case("upgrade") {
            websocket |= value().is_ok_and(|v| v.eq_ignore_ascii_case("websocket"));
        }
    }
    if http11 && !host {
        return malformed("an HTTP/1.1 request without Host");
    }
    if transfer && !chunked {
        return malformed("Transfer-Encoding is not chunked");
    }
    if transfer && length.is_some() {
        return malformed("both Content-Length and Transfer-Encoding");
    }
    if !http11 && method == Method::POST && length.is_none() {
        return malformed("an HTTP/1.0 POST without Content-Length");
    }
    let next = if chunked || websocket || (method == Method::CONNECT && length.is_none()) {
        Framing::Opaque
    } else {
        match length {
            Some(n) if n > 0 => Framing::Body(n),
            _ => Framing::Head,
        }
    };
    Ok(Some(Head { len, next }))
}

/// The bytes of a path and query that every URI reader takes, in the path
/// as in the query: letters, digits, `-._~`, percent escapes and the
/// sub-delimiters, `:@/?`.
const PLAIN: [bool; 256] = byte_table!(
    b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9'
        | b'-' | b'.' | b'_' | b'~' | b'%'
        | b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
        | b':' | b'@' | b'/' | b'?'
);

/// Whether actix reads `target` as a request target: a plain path (the
/// usual case, checked byte by byte) at once, anything else as `http`'s
/// `Uri` reads it, which is what actix does.
fn is_uri(target: &str) -> bool {
    let plain = target.len() < usize::from(u16::MAX) - 1
        && target.starts_with('/')
        && target.bytes().all(|b| PLAIN[usize::from(b)]);
    plain || Uri::try_from(target).is_ok()
}

/// What the checking knows of the bytes after those checked.
#[derive(Debug, Default)]
struct Scan {
    /// How many bytes after the checked ones had been read when the head
    /// there was last looked at: it is read again only once a line has
    /// ended since, so a head sent a byte at a time costs one parse a line.
    looked: usize,
    framing: Option<Framing>,
    /// The head refused; nothing after it is handed on.
    refused: Option<Refusal>,
}

impl Scan {
    fn framing(&self) -> Framing {
        self.framing.unwrap_or(Framing::Head)
    }

    /// Checks `bytes` after the first `checked`, as far as it can: how many
    /// bytes may be handed on now.
    fn check(&mut self, bytes: &[u8], mut checked: usize) -> usize {
        loop {
            let pending = bytes.len() - checked;
            match self.framing() {
                Framing::Opaque => return bytes.len(),
                Framing::Body(n) => {
                    let k = n.min(pending as u64);
                    checked += k as usize;
                    if k == n {
                        self.framing = Some(Framing::Head);
                    } else {
                        self.framing = Some(Framing::Body(n - k));
                        return checked;
                    }
                }
                Framing::Head => {
                    if pending == 0 {
                        return checked;
                    }
                    let rest = &bytes[checked..];
                    // A head seen before, not whole then, is read again
                    // once a line has ended since (a head usually comes
                    // whole, and is read at once).
                    if self.looked > 0 && rest.len() < HEAD_LIMIT {
                        let new_line = rest[self.looked.min(rest.len())..].contains(&b'\n');
                        if !new_line {
                            self.looked = rest.len();
                            return checked;
                        }
                    }
                    self.looked = rest.len();
                    match read_head(rest) {
                        Ok(Some(head)) if head.len < HEAD_LIMIT => {
                            checked += head.len;
                            self.looked = 0;
                            self.framing = Some(head.next);
                        }
                        Ok(None) if rest.len() < HEAD_LIMIT => return checked,
                        Ok(_) => {
                            self.refused = Some(Refusal::TooLarge);
                            return checked;
                        }
                        Err(refusal) => {
                            self.refused = Some(refusal);
                            return checked;
                        }
                    }
                }
            }
        }
    }
}

/// Where a connection's reading stands.
#[derive(Debug, Default)]
struct Reading {
    /// Read from the socket, not yet handed on.
    buf: BytesMut,
    /// How many bytes at the start of `buf` may be handed on.
    checked: usize,
    scan: Scan,
    /// The client closed its side.
    eof: bool,
}

impl Reading {
    /// Checks what has arrived in `buf` since the last call.
    fn check(&mut self) {
        self.checked = self.scan.check(&self.buf, self.checked);
    }
}

/// The least room in actix's buffer for a read to go straight into it.
const DIRECT_ROOM: usize = 1024;

/// A connection whose request heads are checked before actix reads them.
pub struct Guarded {
    io: TcpStream,
    reading: Reading,
    /// The refusal's answer, and how much of it is written.
    answer: Option<(Vec<u8>, usize)>,
}

impl Guarded {
    /// Wraps an accepted connection.
    pub fn new(io: TcpStream) -> Guarded {
        Guarded {
            io,
            reading: Reading::default(),
            answer: None,
        }
    }

    /// The socket itself.
    pub fn tcp(&self) -> &TcpStream {
        &self.io
    }

    /// Marks the refusal found by the last check: counted once, and its
    /// answer kept for when actix closes the connection.
    fn note_refusal(&mut self) {
        if self.answer.is_some() {
            return;
        }
        if let Some(refusal) = &self.reading.scan.refused {
            metrics::metrics().refused(refusal.reason());
            self.answer = Some((refusal.answer(), 0));
        }
    }
}

impl AsyncRead for Guarded {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        out: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            let reading = &mut this.reading;
            if reading.checked > 0 {
                let n = reading.checked.min(out.remaining());
                out.put_slice(&reading.buf[..n]);
                reading.buf.advance(n);
                reading.checked -= n;
                return Poll::Ready(Ok(()));
            }
            if reading.scan.refused.is_some() || reading.eof {
                // The end of the connection, as far as actix knows: a head
                // left unfinished by the client's close is dropped, as
                // actix would.
                return Poll::Ready(Ok(()));
            }
            if reading.scan.framing() == Framing::Opaque && reading.buf.is_empty() {
                return Pin::new(&mut this.io).poll_read(cx, out);
            }
            if reading.buf.is_empty() && out.remaining() >= DIRECT_ROOM {
                // Nothing held back (the usual case): read straight into
                // actix's buffer and check the bytes there. Only what may
                // not be handed on yet (a head not whole, or refused) is
                // taken back out of it, and held.
                let start = out.filled().len();
                ready!(Pin::new(&mut this.io).poll_read(cx, out))?;
                let fresh = &out.filled()[start..];
                if fresh.is_empty() {
                    reading.eof = true;
                    continue;
                }
                let ok = reading.scan.check(fresh, 0);
                if ok < fresh.len() {
                    reading.buf.extend_from_slice(&fresh[ok..]);
                    out.set_filled(start + ok);
                }
                this.note_refusal();
                if ok > 0 {
                    return Poll::Ready(Ok(()));
                }
                continue;
            }
            // Read straight into the buffer's spare room: nothing is zeroed
            // or copied on the way, whether the read finds bytes or not.
            reading.buf.reserve(READ_CHUNK);
            let n = ready!(tokio_util::io::poll_read_buf(
                Pin::new(&mut this.io),
                cx,
                &mut reading.buf
            ))?;
            if n == 0 {
                reading.eof = true;
                continue;
            }
            reading.check();
            this.note_refusal();
        }
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    /// Writes a refusal's answer first, then closes the sending side and
    /// reads (and drops) what the client had already sent, so that closing
    /// with unread bytes does not reset the connection before the client
    /// has read the answer.
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if let Some((answer, written)) = &mut this.answer {
            while *written < answer.len() {
                let n = ready!(Pin::new(&mut this.io).poll_write(cx, &answer[*written..]))?;
                if n == 0 {
                    return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
                }
                *written += n;
            }
            ready!(Pin::new(&mut this.io).poll_shutdown(cx))?;
            let mut chunk = [0u8; READ_CHUNK];
            for _ in 0..16 {
                if !matches!(this.io.try_read(&mut chunk), Ok(n) if n > 0) {
                    break;
                }
            }
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut this.io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use proptest::sample::select;

    use super::*;

    /// A head of the parts given, fields ending in CRLF.
    fn head_of(method: &str, target: &str, version: &str, fields: &[&str]) -> Vec<u8> {
        let mut head = format!("{method} {target} {version}\r\n");
        for field in fields {
            head.push_str(field);
            head.push_str("\r\n");
        }
        head.push_str("\r\n");
        head.into_bytes()
    }

    #[test]
    fn value_runs_end_at_the_first_byte_not_of_a_value() {
        for b in 0u8..=255 {
            for at in 0..20 {
                for fill in [b'a', b' ', b'~', b'\t'] {
                    let mut bytes = vec![fill; 24];
                    bytes[at] = b;
                    let expected = bytes.iter().position(|&b| !VALUE[usize::from(b)]);
                    assert_eq!(value_run(&bytes), expected, "{b:#x} at {at}");
                }
            }
        }
        assert_eq!(value_run(b"abcdefghijklmnop\r\n"), Some(16));
        assert_eq!(value_run(b"abcdefghij"), None);
    }

    #[test]
    fn table_runs_end_at_the_first_byte_the_table_does_not_take() {
        for table in [&TOKEN, &PLAIN, &VALUE] {
            for b in 0u8..=255 {
                for at in 0..20 {
                    let mut bytes = vec![b'a'; 24];
                    bytes[at] = b;
                    let expected = bytes.iter().position(|&b| !table[usize::from(b)]);
                    assert_eq!(run_of(table, &bytes), expected, "{b:#x} at {at}");
                }
            }
        }
        assert_eq!(run_of(&TOKEN, b"content-length:"), Some(14));
        assert_eq!(run_of(&TOKEN, b"content-length"), None);
    }

    #[test]
    fn usual_heads_are_read_in_one_pass() {
        for head in [
            head_of(
                "GET",
                "/v1/xiangqi/VVRWU1dBRT1SHEMqNjo-WgQDBQIGFCsBBxJaGx8jL1o",
                "HTTP/1.1",
                &[
                    "Host: 127.0.0.1:8080",
                    "User-Agent: curl/7.88.1",
                    "Accept: */*",
                ],
            ),
            head_of(
                "POST",
                "/v1/matches/1bd60e27-c383-4edc-8f73-622531a147e5/play?x=1",
                "HTTP/1.1",
                &[
                    "host: qipan.example",
                    "content-type: application/json",
                    "authorization: Bearer abc",
                    "content-length: 21",
                    "accept-language: zh-CN,zh;q=0.9,en;q=0.8",
                ],
            ),
        ] {
            let plain = read_plain_head(&head).expect("a plain head");
            assert_eq!(read_any_head(&head), Ok(Some(plain)));
        }
    }

    /// Fields, plain and not, for the agreement tests.
    const FIELDS: [&str; 22] = [
        "Host: a",
        "host:a",
        "HOST: b:8080 ",
        "Content-Length: 5",
        "content-length: 0",
        "Content-Length: 007",
        "Content-Length: +5",
        "Content-Length: 99999999999999999999",
        "Content-Length: 18446744073709551615",
        "Content-Length: 5 ",
        "Content-Length:",
        "Content-Length: 5, 5",
        "Transfer-Encoding: chunked",
        "Upgrade: websocket",
        "Upgrade: h2c",
        "X-A: \t v \t",
        "X-B: é",
        "X-C: a\x7fb",
        "Bad Name: x",
        ": x",
        " folded",
        "X:\x00",
    ];

    /// Bytes that matter to a head's reading, and some that do not.
    const BYTES: [u8; 20] = [
        0x00, 0x7f, 0x80, 0xff, b'\t', b' ', b'\r', b'\n', b':', b'+', b'a', b'9', b'/', b'%',
        b'|', b'"', b'{', b'-', b'0', 0x0c,
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Whatever the one-pass reader reads, httparse reads the same.
        #[test]
        fn a_plain_head_is_read_as_httparse_reads_it(
            method in select(vec!["GET", "GET", "HEAD", "POST", "POST", "PUT", "DELETE", "PATCH",
                "OPTIONS", "CONNECT", "TRACE", "get", "G\x01T", ""]),
            target in select(vec!["/", "/v1/xiangqi/abc", "/v1/2048/x?y=%20", "/a?b=c&d=%20",
                "*", "/a b", "/\x7f", "http://h/", "/é", "", "/a|b"]),
            version in select(vec!["HTTP/1.1", "HTTP/1.1", "HTTP/1.1", "HTTP/1.0", "HTTP/2.0",
                "http/1.1", "HTTP/1.1 "]),
            host in any::<bool>(),
            mut fields in prop::collection::vec(select(FIELDS.to_vec()), 0..4),
            tail in select(vec!["", "GET / HTTP/1.1\r\n", "ab"]),
        ) {
            if host {
                fields.insert(0, "Host: a");
            }
            let mut bytes = head_of(method, target, version, &fields);
            bytes.extend_from_slice(tail.as_bytes());
            if let Some(head) = read_plain_head(&bytes) {
                prop_assert_eq!(read_any_head(&bytes), Ok(Some(head)));
            }
        }

        /// Eight bytes a step, a value ends where a look byte by byte ends
        /// it, whatever bytes follow its end.
        #[test]
        fn a_value_ends_where_a_byte_by_byte_look_ends_it(
            bytes in prop::collection::vec(
                prop_oneof![3 => Just(b'a'), 1 => select(BYTES.to_vec())],
                0..40,
            ),
        ) {
            let expected = bytes.iter().position(|&b| !VALUE[usize::from(b)]);
            prop_assert_eq!(value_run(&bytes), expected);
        }

        /// The same for a usual head with one byte changed, or cut short.
        #[test]
        fn a_changed_head_is_read_as_httparse_reads_it(
            at in 0usize..200, byte in select(BYTES.to_vec()), cut in any::<bool>(),
        ) {
            let mut bytes = head_of(
                "POST",
                "/v1/xiangqi/abc/play",
                "HTTP/1.1",
                &["Host: a:1", "Content-Length: 12", "Accept: */*"],
            );
            let at = at % bytes.len();
            if cut {
                bytes.truncate(at);
            } else {
                bytes[at] = byte;
            }
            if let Some(head) = read_plain_head(&bytes) {
                prop_assert_eq!(read_any_head(&bytes), Ok(Some(head)));
            }
        }
    }

    fn checked(chunks: &[&[u8]]) -> Reading {
        let mut reading = Reading::default();
        for chunk in chunks {
            reading.buf.extend_from_slice(chunk);
            reading.check();
        }
        reading
    }

    #[test]
    fn a_whole_head_is_handed_on_and_a_partial_one_waits() {
        let r = checked(&[b"GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /x HT"]);
        assert_eq!(r.checked, 27);
        assert_eq!(r.scan.refused, None);
    }

    #[test]
    fn bodies_are_skipped_by_their_length() {
        let r = checked(&[
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nab",
            b"\x00\xffGET / HTTP/1.1\r\nHost: a\r\n\r\n",
        ]);
        assert_eq!(r.scan.refused, None);
        assert_eq!(r.checked, r.buf.len());
    }

    #[test]
    fn heads_actix_refuses_are_refused() {
        for head in [
            &b"GET /v1/g\x00ames HTTP/1.1\r\nHost: a\r\n\r\n"[..],
            b"GET /v1/games\xff HTTP/1.1\r\nHost: a\r\n\r\n",
            b"GET / HTTP/7.1\r\nHost: a\r\n\r\n",
            b"GET / HTTP/1.1\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +1\r\n\r\n",
            b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n",
            b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n",
            b"POST / HTTP/1.0\r\n\r\n",
        ] {
            let r = checked(&[head]);
            assert!(
                matches!(r.scan.refused, Some(Refusal::Malformed(_))),
                "{:?}",
                String::from_utf8_lossy(head)
            );
            assert_eq!(r.checked, 0);
        }
    }

    #[test]
    fn large_heads_are_refused_before_they_end() {
        let mut big = b"GET / HTTP/1.1\r\nHost: a\r\nX: ".to_vec();
        big.resize(HEAD_LIMIT, b'a');
        let r = checked(&[&big]);
        assert_eq!(r.scan.refused, Some(Refusal::TooLarge));
        let many: Vec<u8> = (0..=MAX_HEADERS)
            .flat_map(|i| format!("X-{i}: a\r\n").into_bytes())
            .collect();
        let r = checked(&[b"GET / HTTP/1.1\r\n", &many, b"\r\n"]);
        assert_eq!(r.scan.refused, Some(Refusal::TooLarge));
        let mut near = b"GET / HTTP/1.1\r\nHost: a\r\nX: ".to_vec();
        near.resize(HEAD_LIMIT - 5, b'a');
        near.extend_from_slice(b"\r\n\r\n");
        let r = checked(&[&near]);
        assert_eq!(r.scan.refused, None);
        assert_eq!(r.checked, near.len());
    }

    #[test]
    fn a_websocket_handshake_hands_on_the_rest_unread() {
        let r = checked(&[
            b"GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: upgrade\r\n\r\n",
            b"\x81\xff\x00\x00",
        ]);
        assert_eq!(r.scan.refused, None);
        assert_eq!(r.checked, r.buf.len());
    }

    #[test]
    fn plain_targets_are_read_as_uri_reads_them() {
        let mut targets = vec![
            "/".to_owned(),
            "/v1/xiangqi/VVRWU1dBRT1SHEMqNjo-WgQDBQIGFCsBBxJaGx8jL1o".to_owned(),
            "/v1/matches?x=1&y=%20!$'()*+,;=:@/?~".to_owned(),
            "/a b".to_owned(),
            "/a\"b".to_owned(),
            "/{}".to_owned(),
            "*".to_owned(),
            "http://h/x".to_owned(),
            "/#f".to_owned(),
            "/a^".to_owned(),
            format!("/{}", "a".repeat(70_000)),
        ];
        for b in 0u8..=255 {
            if let Ok(text) = std::str::from_utf8(&[b'/', b]) {
                targets.push(text.to_owned());
            }
        }
        for target in targets {
            assert_eq!(
                is_uri(&target),
                Uri::try_from(target.as_str()).is_ok(),
                "{target:?}"
            );
        }
    }

    #[test]
    fn a_head_sent_a_byte_at_a_time_is_read() {
        let head = b"GET / HTTP/1.1\r\nHost: a\r\n\r\n";
        let mut r = Reading::default();
        for b in head {
            r.buf.extend_from_slice(&[*b]);
            r.check();
        }
        assert_eq!(r.checked, head.len());
    }
}
