//! Search work off the async runtime: the analysis of finished games and
//! the hints of practice games run on one worker thread of their own, at a
//! lower scheduling priority than the server, so that tables under
//! analysis load still answer moves as fast as ever (bots keep the
//! runtime's blocking pool).
//!
//! * One analysis at a time per client (its address): a second one while
//!   the first runs is refused (429); the same game asked again only
//!   reads its progress.
//! * Analyses wait in a queue of bounded length (a full queue is a 429
//!   too) and run one position at a time; a hint goes before the next
//!   position of any analysis.
//! * A finished analysis is handed back to the table (which stores it in
//!   its event log, so a second visit needs no search).

use sequence_bots::replay::Analysis;
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Condvar, Mutex};
use tokio::sync::oneshot;

/// Analyses that may wait in the queue (besides the one running).
pub const QUEUE: usize = 8;

/// Search iterations per position of an analysis: the default, and the
/// most a request may ask for.
pub const ITERATIONS: (u64, u64) = (1_500, 20_000);

/// Search iterations of one analysis in all: a long game gets fewer per
/// position.
pub const TOTAL_ITERATIONS: u64 = 1_500_000;

/// Search iterations of a hint.
pub const HINT_ITERATIONS: u64 = 4_000;

/// Which game of which table.
pub type GameKey = (String, u32);

/// Where an analysis stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Progress {
    /// Waiting in the queue.
    Queued,
    /// Positions done out of all.
    Running(usize, usize),
}

impl Progress {
    /// As JSON: `{"status": "queued" | "running", "done", "total"}`.
    pub fn to_json(&self) -> Value {
        match *self {
            Progress::Queued => json!({"status": "queued", "done": 0, "total": null}),
            Progress::Running(done, total) => {
                json!({"status": "running", "done": done, "total": total})
            }
        }
    }
}

/// Why a job was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The client has another analysis running.
    Busy,
    /// The queue is full.
    Full,
}

struct Waiting {
    key: GameKey,
    client: IpAddr,
    job: Box<dyn Analysis>,
    done: oneshot::Sender<Value>,
}

#[derive(Default)]
struct State {
    hints: VecDeque<Box<dyn FnOnce() + Send>>,
    jobs: VecDeque<Waiting>,
    /// The game each client has in flight.
    clients: HashMap<IpAddr, GameKey>,
    progress: HashMap<GameKey, Progress>,
    started: bool,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    wake: Condvar,
}

/// The search worker of a server (see the module's docs).
#[derive(Default, Clone)]
pub struct Worker {
    shared: Arc<Shared>,
}

impl Worker {
    /// A worker; its thread starts with the first job.
    pub fn new() -> Worker {
        Worker::default()
    }

    fn start_thread(&self, st: &mut State) {
        if st.started {
            return;
        }
        st.started = true;
        let shared = Arc::downgrade(&self.shared);
        let spawned = std::thread::Builder::new()
            .name("analysis".into())
            .spawn(move || run(&shared));
        if let Err(e) = spawned {
            tracing::error!("cannot start the analysis thread: {e}");
            st.started = false;
        }
    }

    /// Analyses and hints waiting for the worker (`/metrics`).
    pub fn queued(&self) -> usize {
        self.shared
            .state
            .lock()
            .map(|st| st.jobs.len() + st.hints.len())
            .unwrap_or(0)
    }

    /// Where the analysis of `key` stands, if it is queued or running.
    pub fn progress(&self, key: &GameKey) -> Option<Progress> {
        self.shared.state.lock().ok()?.progress.get(key).cloned()
    }

    /// Queues the analysis `job` of `key` for `client`; the receiver gets
    /// the result. A client with another game in flight, or a full queue,
    /// is refused.
    ///
    /// # Errors
    /// [`Refusal`].
    pub fn submit(
        &self,
        key: GameKey,
        client: IpAddr,
        job: Box<dyn Analysis>,
    ) -> Result<oneshot::Receiver<Value>, Refusal> {
        let (tx, rx) = oneshot::channel();
        let mut st = self.shared.state.lock().map_err(|_| Refusal::Full)?;
        if st.clients.contains_key(&client) {
            return Err(Refusal::Busy);
        }
        if st.jobs.len() > QUEUE {
            return Err(Refusal::Full);
        }
        st.clients.insert(client, key.clone());
        st.progress.insert(key.clone(), Progress::Queued);
        st.jobs.push_back(Waiting {
            key,
            client,
            job,
            done: tx,
        });
        self.start_thread(&mut st);
        drop(st);
        self.shared.wake.notify_one();
        Ok(rx)
    }

    /// Forgets the progress of `key` once its result is stored in the
    /// table (or could not be): from then on the table answers for it.
    pub fn stored(&self, key: &GameKey) {
        if let Ok(mut st) = self.shared.state.lock() {
            st.progress.remove(key);
        }
    }

    /// Whether `client` has an analysis in flight, and of which game.
    pub fn in_flight(&self, client: IpAddr) -> Option<GameKey> {
        self.shared.state.lock().ok()?.clients.get(&client).cloned()
    }

    /// Runs `f` on the worker before any further analysis step, and
    /// answers its value.
    pub async fn hint<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let (tx, rx) = oneshot::channel();
        {
            let mut st = self.shared.state.lock().ok()?;
            st.hints.push_back(Box::new(move || {
                let _ = tx.send(f());
            }));
            self.start_thread(&mut st);
        }
        self.shared.wake.notify_one();
        rx.await.ok()
    }
}

/// Lowers the calling thread's scheduling priority (Linux: a thread's
/// nice value is its own), so that the server's threads go first.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority with `who` 0 changes only the calling thread's
    // nice value; no pointers are involved.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// The worker thread: hints first, then one position of the oldest
/// analysis at a time. Ends when the server's state is gone.
fn run(shared: &std::sync::Weak<Shared>) {
    lower_priority();
    loop {
        let Some(sh) = shared.upgrade() else { return };
        // take the next piece of work
        let work = {
            let Ok(mut st) = sh.state.lock() else { return };
            loop {
                if let Some(h) = st.hints.pop_front() {
                    break Ok(h);
                }
                if let Some(w) = st.jobs.pop_front() {
                    break Err(w);
                }
                let (next, _) = match sh.wake.wait_timeout(st, std::time::Duration::from_secs(5)) {
                    Ok(x) => x,
                    Err(_) => return,
                };
                st = next;
                if Arc::strong_count(&sh) <= 1 {
                    return; // the server is gone
                }
            }
        };
        match work {
            Ok(hint) => hint(),
            Err(mut w) => {
                if let Ok(mut st) = sh.state.lock() {
                    // running from its first position on
                    let now = Progress::Running(w.job.done(), w.job.total());
                    st.progress.insert(w.key.clone(), now);
                }
                let finished = w.job.step();
                let progress = Progress::Running(w.job.done(), w.job.total());
                let Ok(mut st) = sh.state.lock() else { return };
                if finished {
                    // the progress stays (all positions done) until the
                    // result is stored ([`Worker::stored`]): a client
                    // polling meanwhile sees `running`, never `none`
                    st.progress.insert(w.key.clone(), progress);
                    st.clients.remove(&w.client);
                    drop(st);
                    let _ = w.done.send(w.job.result());
                } else {
                    st.progress.insert(w.key.clone(), progress);
                    // back to the front: one analysis runs to its end
                    // before the next, hints jump in between positions
                    st.jobs.push_front(w);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Count(usize, usize);

    impl Analysis for Count {
        fn step(&mut self) -> bool {
            self.0 += 1;
            self.0 >= self.1
        }
        fn done(&self) -> usize {
            self.0
        }
        fn total(&self) -> usize {
            self.1
        }
        fn result(&self) -> Value {
            json!(self.0)
        }
    }

    #[tokio::test]
    async fn one_analysis_per_client_and_hints_between_positions() {
        let w = Worker::new();
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let rx = w
            .submit(("t".into(), 1), a, Box::new(Count(0, 50)))
            .expect("taken");
        assert_eq!(
            w.submit(("t".into(), 2), a, Box::new(Count(0, 5))).err(),
            Some(Refusal::Busy)
        );
        let rx2 = w
            .submit(("t".into(), 2), b, Box::new(Count(0, 5)))
            .expect("another client");
        assert_eq!(w.hint(|| 7).await, Some(7));
        assert_eq!(rx.await.unwrap(), json!(50));
        assert_eq!(rx2.await.unwrap(), json!(5));
        assert_eq!(w.in_flight(a), None);
        // finished but not yet stored: still seen as running (a poll
        // between the two never reads `none`)
        let key = ("t".to_string(), 1);
        assert_eq!(w.progress(&key), Some(Progress::Running(50, 50)));
        w.stored(&key);
        assert_eq!(w.progress(&key), None);
        assert!(w.submit(("t".into(), 3), a, Box::new(Count(0, 1))).is_ok());
    }
}
