//! Counting queens for a certificate: one variable per free cell, the board's symmetries,
//! listed by the native count.

use super::{CertFamily, Counting, CountingError, Listing};
use crate::puzzle::queens::Queens;
use crate::puzzle::Family;

impl CertFamily for Queens {
    fn counting(&self, _unique: bool) -> Result<Counting, CountingError> {
        Ok(Counting::of_board(self.compile(), &self.board))
    }

    fn listing(&self) -> Listing<Queens> {
        Listing::Native(Queens::assignment_of)
    }
}
