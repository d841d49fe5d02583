//! A request body with a deadline for the whole of it. tower-http's
//! `RequestBodyTimeout` restarts its clock at every frame, so a client
//! sending a byte every few seconds would never be cut off; here the
//! clock starts when the request's headers arrive and is never reset.

use axum::body::Bytes;
use http_body::{Body, Frame, SizeHint};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::Sleep;

/// The body did not arrive within the deadline (`408`).
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within {0:?}")]
pub struct BodyTimeout(pub Duration);

/// Whether `e` or one of its sources is a [`BodyTimeout`].
pub fn is_body_timeout(e: &(dyn std::error::Error + 'static)) -> Option<Duration> {
    let mut cur = Some(e);
    while let Some(e) = cur {
        if let Some(t) = e.downcast_ref::<BodyTimeout>() {
            return Some(t.0);
        }
        cur = e.source();
    }
    None
}

/// `B` that fails with [`BodyTimeout`] when it has not ended within its
/// deadline.
pub struct DeadlineBody<B> {
    inner: B,
    limit: Duration,
    deadline: Pin<Box<Sleep>>,
}

impl<B> DeadlineBody<B> {
    /// `inner`, which must end within `limit` from now.
    pub fn new(inner: B, limit: Duration) -> DeadlineBody<B> {
        DeadlineBody {
            inner,
            limit,
            deadline: Box::pin(tokio::time::sleep(limit)),
        }
    }
}

impl<B> Body for DeadlineBody<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Poll::Ready(f) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(f.map(|r| r.map_err(Into::into)));
        }
        if self.deadline.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Some(Err(Box::new(BodyTimeout(self.limit)))));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A body whose bytes never come.
    struct Stalled;

    impl Body for Stalled {
        type Data = Bytes;
        type Error = std::io::Error;

        fn poll_frame(
            self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
            Poll::Pending
        }
    }

    #[tokio::test]
    async fn a_body_that_stalls_times_out_and_says_so() {
        let limit = Duration::from_millis(50);
        let t0 = std::time::Instant::now();
        let b = axum::body::Body::new(DeadlineBody::new(Stalled, limit));
        let e = axum::body::to_bytes(b, 1024).await.expect_err("times out");
        assert!(t0.elapsed() >= limit);
        assert_eq!(is_body_timeout(&e), Some(limit));
        let full = DeadlineBody::new(axum::body::Body::from("{}"), limit);
        let got = axum::body::to_bytes(axum::body::Body::new(full), 1024).await;
        assert_eq!(got.expect("whole"), Bytes::from("{}"));
    }
}
