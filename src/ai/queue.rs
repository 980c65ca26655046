//! The AI pool's queue: first come first served within a user's requests (and so within a
//! game), round-robin across users, and a background class served only when no play request
//! waits. Pure bookkeeping, no threads: [`super::pool`] wraps it.
//!
//! Round-robin is start-time fair queuing with a unit cost: a user's request starts its turn at
//! the later of "now" (the turn of the request last taken) and the end of the same user's
//! previous request; the earliest start is served first (ties: the older). So one user's many
//! requests interleave with the others', and a newcomer's request is served next, after at
//! most the search already running.

use std::collections::{BTreeMap, HashMap, VecDeque};

/// Who a request is served for: round-robin goes across these (a Discord user id).
pub type Owner = u64;

/// A queued request's number, unique within its queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ticket(pub u64);

/// How urgently a request is served.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// The AI's moves and hints: someone is waiting.
    Play,
    /// Analysis no one waits for: served only when no play request waits.
    Background,
}

/// The queue of waiting requests.
pub struct FairQueue<J> {
    /// Play requests by (start turn, ticket): the first is served next.
    play: BTreeMap<(u64, Ticket), J>,
    /// Each waiting play request's start turn.
    turn_of: HashMap<Ticket, u64>,
    /// The turn after each owner's last request (owners whose last turn is past are dropped).
    owner_end: HashMap<Owner, u64>,
    /// The start turn of the play request served last.
    now: u64,
    background: VecDeque<(Ticket, J)>,
    next: u64,
}

impl<J> Default for FairQueue<J> {
    fn default() -> Self {
        FairQueue {
            play: BTreeMap::new(),
            turn_of: HashMap::new(),
            owner_end: HashMap::new(),
            now: 0,
            background: VecDeque::new(),
            next: 0,
        }
    }
}

impl<J> FairQueue<J> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Queues `job` for `owner`.
    pub fn push(&mut self, owner: Owner, class: Class, job: J) -> Ticket {
        let ticket = Ticket(self.next);
        self.next += 1;
        match class {
            Class::Background => self.background.push_back((ticket, job)),
            Class::Play => {
                let end = self.owner_end.entry(owner).or_default();
                let start = (*end).max(self.now);
                *end = start + 1;
                self.play.insert((start, ticket), job);
                self.turn_of.insert(ticket, start);
            }
        }
        ticket
    }

    /// The next request to serve: the play request with the earliest turn, else the oldest
    /// background request.
    pub fn pop(&mut self) -> Option<(Ticket, J)> {
        let Some(((start, ticket), job)) = self.play.pop_first() else {
            return self.background.pop_front();
        };
        self.turn_of.remove(&ticket);
        self.now = start;
        if self.owner_end.len() > 2 * self.play.len() + 16 {
            // Owners whose turns are all past start afresh: forgetting them changes nothing.
            let now = self.now;
            self.owner_end.retain(|_, end| *end > now);
        }
        Some((ticket, job))
    }

    /// The next play request, leaving background requests waiting (when no worker may take
    /// one now).
    pub fn pop_play(&mut self) -> Option<(Ticket, J)> {
        if self.play.is_empty() {
            return None;
        }
        self.pop()
    }

    /// How many requests waiting now will be served before `ticket`; `None` if it is not
    /// waiting.
    pub fn ahead(&self, ticket: Ticket) -> Option<usize> {
        if let Some(at) = self.background.iter().position(|(t, _)| *t == ticket) {
            return Some(self.play.len() + at);
        }
        let start = *self.turn_of.get(&ticket)?;
        Some(self.play.range(..(start, ticket)).count())
    }

    /// How many requests waiting now will be served before `ticket` while it waits for a
    /// worker to be free: `None` if it is not waiting, and for a play request that one of
    /// `free` idle workers takes next (fewer than `free` play requests are ahead of it). Such a
    /// request waits for no search, only for an idle worker's thread to run, however long a
    /// loaded machine keeps it from running. A background request is waiting whenever it is
    /// queued (a free worker may have no room for it).
    pub fn waiting_for_worker(&self, ticket: Ticket, free: usize) -> Option<usize> {
        let ahead = self.ahead(ticket)?;
        let play = self.turn_of.contains_key(&ticket);
        (!play || ahead >= free).then_some(ahead)
    }

    /// Takes a waiting request out of the queue.
    pub fn remove(&mut self, ticket: Ticket) -> Option<J> {
        if let Some(at) = self.background.iter().position(|(t, _)| *t == ticket) {
            return self.background.remove(at).map(|(_, j)| j);
        }
        let start = self.turn_of.remove(&ticket)?;
        self.play.remove(&(start, ticket))
    }

    /// The play requests waiting.
    pub fn waiting(&self) -> usize {
        self.play.len()
    }

    /// Every request waiting, background included.
    pub fn len(&self) -> usize {
        self.waiting() + self.background.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The order the queue serves its requests in, with each one's `ahead` checked against it.
    fn drain(q: &mut FairQueue<&'static str>) -> Vec<&'static str> {
        let mut tickets: Vec<Ticket> = (0..q.next).map(Ticket).collect();
        tickets.retain(|t| q.ahead(*t).is_some());
        let mut predicted: Vec<(usize, Ticket)> =
            tickets.iter().map(|t| (q.ahead(*t).unwrap(), *t)).collect();
        predicted.sort();
        let mut out = Vec::new();
        let mut served = Vec::new();
        while let Some((t, j)) = q.pop() {
            served.push(t);
            out.push(j);
        }
        let predicted: Vec<Ticket> = predicted.into_iter().map(|(_, t)| t).collect();
        assert_eq!(predicted, served, "ahead() tells the serving order");
        out
    }

    #[test]
    fn one_owners_many_requests_do_not_starve_anothers_one() {
        let mut q = FairQueue::new();
        let names = ["a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9"];
        for n in names {
            q.push(1, Class::Play, n);
        }
        let b = q.push(2, Class::Play, "b0");
        assert_eq!(q.ahead(b), Some(1), "at most one of the ten goes first");
        assert_eq!(q.waiting(), 11);
        let order = drain(&mut q);
        assert_eq!(order[..3], ["a0", "b0", "a1"]);
        assert_eq!(order[3..], names[2..], "each owner's requests in order");
    }

    #[test]
    fn owners_take_turns_in_the_order_they_came() {
        let mut q = FairQueue::new();
        q.push(1, Class::Play, "a0");
        q.push(1, Class::Play, "a1");
        q.push(2, Class::Play, "b0");
        q.push(3, Class::Play, "c0");
        q.push(3, Class::Play, "c1");
        q.push(2, Class::Play, "b1");
        q.push(1, Class::Play, "a2");
        // Round by round; within a round, the older request first.
        assert_eq!(drain(&mut q), ["a0", "b0", "c0", "a1", "c1", "b1", "a2"]);
    }

    #[test]
    fn a_newcomer_is_served_right_after_the_search_that_is_running() {
        let mut q = FairQueue::new();
        for n in ["a0", "a1", "a2", "a3", "a4", "a5"] {
            q.push(1, Class::Play, n);
        }
        assert_eq!(q.pop().unwrap().1, "a0");
        assert_eq!(q.pop().unwrap().1, "a1");
        let b = q.push(2, Class::Play, "b0");
        assert_eq!(q.ahead(b), Some(0));
        let c = q.push(3, Class::Play, "c0");
        assert_eq!(q.ahead(c), Some(1), "after b0, still before a2");
        assert_eq!(drain(&mut q), ["b0", "c0", "a2", "a3", "a4", "a5"]);
        // Back after a while, an owner starts from now, not from its old turns.
        q.push(1, Class::Play, "a6");
        q.push(1, Class::Play, "a7");
        assert_eq!(q.pop().unwrap().1, "a6");
        let b = q.push(2, Class::Play, "b1");
        assert_eq!(q.ahead(b), Some(0));
    }

    #[test]
    fn a_play_request_an_idle_worker_takes_next_waits_for_no_worker() {
        let mut q = FairQueue::new();
        let a = q.push(1, Class::Play, "a0");
        let b = q.push(2, Class::Play, "b0");
        let x = q.push(9, Class::Background, "x");
        // Every worker busy: each waits, with what is ahead of it.
        assert_eq!(q.waiting_for_worker(a, 0), Some(0));
        assert_eq!(q.waiting_for_worker(b, 0), Some(1));
        assert_eq!(q.waiting_for_worker(x, 0), Some(2));
        // One idle worker: it takes a0 next; b0 still waits for a worker.
        assert_eq!(q.waiting_for_worker(a, 1), None);
        assert_eq!(q.waiting_for_worker(b, 1), Some(1));
        // Two: neither waits; background work may find no room on an idle worker.
        assert_eq!(q.waiting_for_worker(b, 2), None);
        assert_eq!(q.waiting_for_worker(x, 3), Some(2));
        // Taken: no longer waiting.
        assert_eq!(q.pop().unwrap().1, "a0");
        assert_eq!(q.waiting_for_worker(a, 0), None);
        assert_eq!(q.waiting_for_worker(b, 0), Some(0));
    }

    #[test]
    fn background_requests_wait_for_every_play_request() {
        let mut q = FairQueue::new();
        let x = q.push(9, Class::Background, "x");
        q.push(9, Class::Background, "y");
        q.push(1, Class::Play, "a0");
        assert_eq!(q.ahead(x), Some(1));
        assert_eq!(q.pop().unwrap().1, "a0");
        q.push(2, Class::Play, "b0");
        assert_eq!(drain(&mut q), ["b0", "x", "y"]);
        assert!(q.is_empty());
    }

    #[test]
    fn a_removed_request_is_not_served_and_its_owner_leaves_the_line() {
        let mut q = FairQueue::new();
        let a = q.push(1, Class::Play, "a0");
        q.push(2, Class::Play, "b0");
        let y = q.push(3, Class::Background, "y");
        assert_eq!(q.remove(a), Some("a0"));
        assert_eq!(q.remove(a), None, "only once");
        assert_eq!(q.remove(y), Some("y"));
        assert_eq!(q.ahead(a), None);
        assert_eq!(drain(&mut q), ["b0"]);
        assert_eq!(q.pop(), None);
    }
}
