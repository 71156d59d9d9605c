//! The weights prepared for the kernels, kept per thread: inference runs the same weights
//! for every batch, and preparing them (the stem's most) cost about a tenth of a forward pass.

use super::{As, host, slice};
use crate::kernels::{self, Kernels, MatRef, Weights};
use burn::backend::flex::{FlexTensor, Layout};
use burn::backend::{Bytes, TensorMetadata};
use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;
use std::sync::Arc;

/// A weight tensor prepared for the kernels.
struct PreparedEntry {
    /// The tensor's storage: holding it keeps it alive and unchanged (flex copies shared
    /// storage before writing to it), so a tensor on this storage with this layout holds
    /// the values `weights` was prepared from.
    data: Arc<Bytes>,
    layout: Layout,
    read_as: As,
    kernels: Kernels,
    weights: Rc<Weights>,
}

/// Weight tensors prepared lately on this thread. Enough for the networks of a tournament
/// (about 25 tensors each): when the cache held 32, the two networks of a match evicted each
/// other's tensors on every call (a cyclic pattern defeats first-in-first-out), which cost a
/// quarter of a match's time. The bound is for training, where every step makes new
/// tensors.
const PREPARED_KEPT: usize = 1024;

/// The prepared tensors by storage address (held alive by the entries, so an address is not
/// reused while it is a key), and the order they came in, for eviction.
#[derive(Default)]
struct PreparedCache {
    by_data: HashMap<usize, Vec<PreparedEntry>>,
    order: VecDeque<usize>,
}

std::thread_local! {
    static PREPARED: RefCell<PreparedCache> = RefCell::new(PreparedCache::default());
}

/// `w` prepared for this thread's kernels, from the cache when the same tensor was prepared
/// lately: inference runs the same weights for every batch, and preparing them (the stem's
/// most) cost about a tenth of a forward pass.
pub(super) fn prepared(w: &FlexTensor, read_as: As) -> Rc<Weights> {
    let kernels = kernels::current();
    let data = w.data_arc();
    let key = Arc::as_ptr(&data) as usize;
    let hit = |e: &PreparedEntry| {
        Arc::ptr_eq(&e.data, &data)
            && e.layout == *w.layout()
            && e.read_as == read_as
            && e.kernels == kernels
    };
    if let Some(found) = PREPARED.with(|c| {
        c.borrow()
            .by_data
            .get(&key)
            .and_then(|v| v.iter().find(|e| hit(e)))
            .map(|e| e.weights.clone())
    }) {
        return found;
    }
    let ws = w.shape();
    let host_w = host(w);
    let values = slice(&host_w);
    let weights = Rc::new(match (read_as, ws.num_dims()) {
        (As::Matrix, 2) => Weights::matrix(MatRef::rows(values, ws[1]), ws[0], ws[1]),
        (As::Conv, 4) => Weights::conv(values, ws[0], ws[1], ws[2] * ws[3], false),
        _ => panic!("weights must be [K, N] or [N, I, k, k], got {ws:?}"),
    });
    PREPARED.with(|c| {
        let c = &mut *c.borrow_mut();
        if c.order.len() == PREPARED_KEPT
            && let Some(old) = c.order.pop_front()
            && let Some(v) = c.by_data.get_mut(&old)
        {
            v.remove(0);
            if v.is_empty() {
                c.by_data.remove(&old);
            }
        }
        c.order.push_back(key);
        c.by_data.entry(key).or_default().push(PreparedEntry {
            data,
            layout: w.layout().clone(),
            read_as,
            kernels,
            weights: weights.clone(),
        });
    });
    weights
}
