//! TEMPORARY STUB (not committed): the engine lands from its own branch.
use crate::base::shard::Shard;
use crate::base::Control;
use crate::geometry::board::Board;
use crate::geometry::chess::Piece;
use std::collections::BTreeMap;
pub enum Question { Dominate, IndependentDominate, Independent }
pub struct Instance;
impl Instance { pub fn new(_b: &Board, _p: Piece, _q: Question) -> Instance { Instance } pub fn with_known_bound(self, _b: usize) -> Instance { self } }
pub struct Answer { pub best: Option<Vec<usize>>, pub proven: bool, pub bound: usize, pub nodes: u64, pub stopped: bool }
pub fn solve(_i: &Instance, _l: Option<usize>, _c: &Control) -> Answer { Answer { best: None, proven: false, bound: 0, nodes: 0, stopped: true } }
pub struct CountAnswer { pub count: u64, pub classes: BTreeMap<usize, u64>, pub complete: bool, pub nodes: u64, pub subproblems: (u64, u64) }
pub fn count(_i: &Instance, _v: usize, _s: Option<Shard>, _u: bool, _c: &Control, _o: &mut dyn FnMut(&[usize])) -> CountAnswer { CountAnswer { count: 0, classes: BTreeMap::new(), complete: false, nodes: 0, subproblems: (0, 0) } }
