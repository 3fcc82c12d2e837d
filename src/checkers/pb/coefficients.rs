//! A signed coefficient per variable in a dense table, with the variables that have one
//! listed in the order they came: sums are built here without hashing, and emptied in
//! the time of their own terms.

/// Coefficients by variable (0: none), and the variables given one.
#[derive(Default)]
pub(super) struct Coefficients {
    value: Vec<i128>,
    /// Whether a variable is in `listed`.
    seen: Vec<bool>,
    listed: Vec<u32>,
}

impl Coefficients {
    /// The coefficient of `var`, which is listed from now on.
    pub(super) fn entry(&mut self, var: u32) -> &mut i128 {
        let v = var as usize;
        if v >= self.value.len() {
            self.value.resize(v + 1, 0);
            self.seen.resize(v + 1, false);
        }
        if !self.seen[v] {
            self.seen[v] = true;
            self.listed.push(var);
        }
        &mut self.value[v]
    }

    /// The coefficient of `var`, set to 0.
    pub(super) fn take(&mut self, var: u32) -> i128 {
        self.value.get_mut(var as usize).map_or(0, std::mem::take)
    }

    /// Sets every listed variable's coefficient to what `f` makes of it.
    pub(super) fn update<E>(
        &mut self,
        mut f: impl FnMut(i128) -> Result<i128, E>,
    ) -> Result<(), E> {
        for &var in &self.listed {
            let c = &mut self.value[var as usize];
            *c = f(*c)?;
        }
        Ok(())
    }

    /// Hands out each listed variable with its coefficient (0 included), in the order
    /// they came, and empties the table.
    pub(super) fn drain(&mut self, mut f: impl FnMut(u32, i128)) {
        for &var in &self.listed {
            self.seen[var as usize] = false;
            f(var, std::mem::take(&mut self.value[var as usize]));
        }
        self.listed.clear();
    }

    /// Whether no variable is listed.
    pub(super) fn is_empty(&self) -> bool {
        self.listed.is_empty()
    }
}
