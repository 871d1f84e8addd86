//! A size guard in front of the WebSocket codec. actix's codec waits for a
//! whole frame before it compares the frame's length with its limit, and
//! actix-ws keeps appending what it reads meanwhile: a frame whose header
//! declares 512 MiB would be buffered whole before being refused. The
//! guard reads the frame headers as the bytes go by and stops the stream
//! the moment a header declares a frame, or a fragmented message, longer
//! than the limit — having passed on nothing of that frame. The socket
//! then closes with 1009; the connection's reading stops (actix applies
//! back-pressure to a body nobody reads).

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use actix_web::error::PayloadError;
use actix_web::web::Bytes;
use futures_util::Stream;

/// Where the reader is in the client's byte stream.
#[derive(Debug, Default)]
struct Framing {
    /// The header being read (at most 14 bytes).
    header: [u8; 14],
    /// How many header bytes have arrived.
    have: usize,
    /// Payload bytes of the current frame still to come.
    remaining: u64,
    /// Bytes of the data message being assembled from fragments.
    message: u64,
}

/// The header's length once its first two bytes are known.
fn header_len(first_two: [u8; 2]) -> usize {
    let masked = if first_two[1] & 0x80 == 0 { 0 } else { 4 };
    let extended = match first_two[1] & 0x7f {
        126 => 2,
        127 => 8,
        _ => 0,
    };
    2 + extended + masked
}

impl Framing {
    /// Reads `chunk`; `Some(n)` when the header of a frame over `limit`
    /// ends at or before the chunk's end, `n` being how many of its bytes
    /// come before that header (they may be passed on).
    fn scan(&mut self, chunk: &[u8], limit: u64) -> Option<usize> {
        let mut at = 0;
        while at < chunk.len() {
            if self.remaining > 0 {
                let skip = usize::try_from(self.remaining)
                    .unwrap_or(usize::MAX)
                    .min(chunk.len() - at);
                at += skip;
                self.remaining -= skip as u64;
                continue;
            }
            let start = at.saturating_sub(self.have);
            self.header[self.have] = chunk[at];
            self.have += 1;
            at += 1;
            if self.have < 2 || self.have < header_len([self.header[0], self.header[1]]) {
                continue;
            }
            let declared = match self.header[1] & 0x7f {
                126 => u64::from(u16::from_be_bytes([self.header[2], self.header[3]])),
                127 => {
                    let mut eight = [0; 8];
                    eight.copy_from_slice(&self.header[2..10]);
                    u64::from_be_bytes(eight)
                }
                n => u64::from(n),
            };
            let fin = self.header[0] & 0x80 != 0;
            let opcode = self.header[0] & 0x0f;
            self.have = 0;
            self.remaining = declared;
            if declared > limit {
                return Some(start);
            }
            // Data frames (text 1, binary 2) start a message, continuations
            // (0) add to it; control frames (8 and up) stand alone.
            if opcode < 8 {
                self.message = if opcode == 0 {
                    self.message.saturating_add(declared)
                } else {
                    declared
                };
                if self.message > limit {
                    return Some(start);
                }
                if fin {
                    self.message = 0;
                }
            }
        }
        None
    }
}

/// Set when the guard has refused a frame: the socket closes with 1009.
#[derive(Clone, Default)]
pub struct Oversized(Arc<AtomicBool>);

impl Oversized {
    /// Whether a frame over the limit was declared.
    pub fn tripped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The request body of a WebSocket, passed on up to the first frame
/// header that declares more than the limit.
pub struct FrameGuard<S> {
    inner: S,
    limit: u64,
    framing: Framing,
    oversized: Oversized,
    /// Once refused, nothing more is read.
    stopped: bool,
}

impl<S> FrameGuard<S> {
    /// Guards `inner`, refusing frames and messages over `limit` bytes.
    pub fn new(inner: S, limit: usize) -> (FrameGuard<S>, Oversized) {
        let oversized = Oversized::default();
        let guard = FrameGuard {
            inner,
            limit: limit as u64,
            framing: Framing::default(),
            oversized: oversized.clone(),
            stopped: false,
        };
        (guard, oversized)
    }
}

impl<S> Stream for FrameGuard<S>
where
    S: Stream<Item = Result<Bytes, PayloadError>> + Unpin,
{
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if this.stopped {
            return Poll::Ready(None);
        }
        match Pin::new(&mut this.inner).poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => match this.framing.scan(&chunk, this.limit) {
                None => Poll::Ready(Some(Ok(chunk))),
                Some(before) => {
                    this.stopped = true;
                    this.oversized.0.store(true, Ordering::Relaxed);
                    if before > 0 {
                        Poll::Ready(Some(Ok(chunk.slice(..before))))
                    } else {
                        Poll::Ready(Some(Err(PayloadError::Overflow)))
                    }
                }
            },
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::StreamExt;

    /// A masked client frame header.
    fn header(fin: bool, opcode: u8, len: u64) -> Vec<u8> {
        let mut h = vec![u8::from(fin) << 7 | opcode];
        match len {
            0..=125 => h.push(0x80 | len as u8),
            126..=65535 => {
                h.push(0x80 | 126);
                h.extend_from_slice(&(len as u16).to_be_bytes());
            }
            _ => {
                h.push(0x80 | 127);
                h.extend_from_slice(&len.to_be_bytes());
            }
        }
        h.extend_from_slice(&[1, 2, 3, 4]);
        h
    }

    fn frame(fin: bool, opcode: u8, len: usize) -> Vec<u8> {
        let mut f = header(fin, opcode, len as u64);
        f.resize(f.len() + len, b'x');
        f
    }

    /// Feeds `bytes` in chunks of `size`; what the guard passed on, and
    /// whether it refused.
    fn run(bytes: &[u8], size: usize, limit: usize) -> (usize, bool, usize) {
        let chunks: Vec<Result<Bytes, PayloadError>> = bytes
            .chunks(size)
            .map(|c| Ok(Bytes::copy_from_slice(c)))
            .collect();
        let pulled = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counter = pulled.clone();
        let inner = futures_util::stream::iter(chunks).inspect(move |c| {
            if let Ok(c) = c {
                counter.fetch_add(c.len(), Ordering::Relaxed);
            }
        });
        let (guard, oversized) = FrameGuard::new(inner, limit);
        let passed = futures_util::FutureExt::now_or_never(guard.collect::<Vec<_>>())
            .expect("the chunks are all ready");
        let n = passed.iter().flatten().map(Bytes::len).sum();
        (n, oversized.tripped(), pulled.load(Ordering::Relaxed))
    }

    #[test]
    fn frames_within_the_limit_pass_whole() {
        let mut bytes = frame(true, 1, 100);
        bytes.extend(frame(true, 9, 4));
        bytes.extend(frame(false, 1, 60_000));
        bytes.extend(frame(true, 0, 5_536));
        bytes.extend(frame(true, 2, 65_536));
        for size in [1, 7, 4096, bytes.len()] {
            assert_eq!(run(&bytes, size, 65_536), (bytes.len(), false, bytes.len()));
        }
    }

    #[test]
    fn a_header_declaring_too_much_stops_the_stream_at_once() {
        let mut bytes = frame(true, 1, 10);
        let before = bytes.len();
        bytes.extend(header(true, 2, 64 << 20));
        bytes.resize(bytes.len() + (4 << 20), b'x');
        for size in [1, 3, 4096, 65_536] {
            let (passed, tripped, pulled) = run(&bytes, size, 65_536);
            assert!(tripped);
            // A header split across chunks has its first bytes passed on
            // before its length is known (at most 13 of them), never a
            // byte of the payload it declares.
            assert!(passed < before + 14, "{passed} bytes passed");
            // Reading stopped at the chunk holding the header's end.
            assert!(pulled <= before + 14 + size, "{pulled} bytes read");
        }
    }

    #[test]
    fn fragments_summing_over_the_limit_are_refused() {
        let mut bytes = frame(false, 1, 40_000);
        let before = bytes.len();
        bytes.extend(header(false, 0, 30_000));
        bytes.resize(bytes.len() + 30_000, b'x');
        let (passed, tripped, _) = run(&bytes, 1024, 65_536);
        assert!(tripped);
        assert_eq!(passed, before);
        // A ping between fragments does not reset the count.
        let mut bytes = frame(false, 1, 40_000);
        bytes.extend(frame(true, 9, 3));
        bytes.extend(header(true, 0, 30_000));
        assert!(run(&bytes, 1024, 65_536).1);
    }
}
