//! Counting chess placements for a certificate: one variable per free square, the board's
//! symmetries, listed by the native count (the domination and independence search).

use super::{CertFamily, Counting, CountingError, Listing};
use crate::puzzle::chess::Chess;
use crate::puzzle::Family;

impl CertFamily for Chess {
    fn counting(&self, _unique: bool) -> Result<Counting, CountingError> {
        Ok(Counting::of_board(self.compile(), &self.board))
    }

    fn listing(&self) -> Listing<Chess> {
        Listing::Native(Chess::assignment_of)
    }
}
