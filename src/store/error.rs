//! [`StoreError`]: a database failure as the layers above the store hold it.

/// A failure of the database (a lost connection, a constraint the write broke, a row that
/// does not read back). The service answers it with its "something went wrong" line and logs
/// it; it never tells the user what the database said.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct StoreError(#[from] sqlx::Error);

impl StoreError {
    /// Whether this is the violation of a unique constraint (or index) on `table`.
    pub fn is_unique_violation(&self, table: &str) -> bool {
        super::is_unique_violation(&self.0, table)
    }
}
