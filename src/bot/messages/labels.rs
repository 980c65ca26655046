//! The buttons' labels.

/// A tournament's sign-up: join it.
pub const JOIN: &str = "Join";
/// A tournament's sign-up: leave it.
pub const LEAVE: &str = "Leave";
/// A challenge: accept it.
pub const ACCEPT: &str = "Accept";
/// A challenge or a draw offer: decline it.
pub const DECLINE: &str = "Decline";
/// A challenge, for its challenger: cancel it.
pub const CANCEL: &str = "Cancel";
/// A draw offer: accept it.
pub const ACCEPT_DRAW: &str = "Accept the draw";
/// The daily puzzle's post: solve it.
pub const SOLVE_DAILY_PUZZLE: &str = "Solve today's puzzle";
/// `/tablut forget-me`'s question, asked a second time.
pub const FORGET_ME: &str = "Forget me";
/// A list's previous page.
pub const PREVIOUS_PAGE: &str = "◀ Previous";
/// A list's next page.
pub const NEXT_PAGE: &str = "Next ▶";
