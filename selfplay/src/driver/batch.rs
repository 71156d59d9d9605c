//! One round's evaluations: each agent's cache by state hash, and the batch of the leaves
//! it misses.

use super::*;

/// Evaluation cache of one evaluator: value and priors by state hash.
#[derive(Debug, Default)]
pub(super) struct Cache {
    map: HashMap<u64, (f32, Box<[f32]>)>,
    capacity: usize,
}

impl Cache {
    /// The evaluation cache of an agent that asks for one.
    pub(super) fn for_agent(meta: &Meta) -> Option<Cache> {
        match meta {
            Meta::Mcts { config, .. } if config.eval_cache => Some(Cache {
                map: HashMap::new(),
                capacity: config.eval_cache_capacity,
            }),
            _ => None,
        }
    }
}

/// One round's evaluations, the buffers kept from round to round.
#[derive(Default)]
pub(super) struct Batch {
    /// The evaluations; the first `used` are this round's.
    pub(super) outs: Vec<Evaluation>,
    pub(super) used: usize,
    /// (slot, index in `outs`) of each slot of the current agent whose leaf is evaluated.
    pub(super) hits: Vec<(usize, usize)>,
    /// The slots of the current agent whose leaf is not in its cache.
    pub(super) misses: Vec<usize>,
}

impl Batch {
    /// Sorts the slots waiting on agent `p` into the hits of its `cache` (their evaluations
    /// copied into `outs`) and the misses.
    pub(super) fn look_up<G: GameState>(
        &mut self,
        p: usize,
        slots: &[Slot<G>],
        cache: Option<&Cache>,
        progress: &mut Progress,
    ) {
        for (si, s) in slots.iter().enumerate() {
            if s.needs != Some(p) {
                continue;
            }
            let h = s.trees[p]
                .as_ref()
                .and_then(|t| t.leaf_hash())
                .expect("a pending leaf");
            if let Some((v, pri)) = cache.and_then(|c| c.map.get(&h)) {
                let used = self.used;
                if used >= self.outs.len() {
                    self.outs.push(Evaluation::default());
                }
                self.outs[used].value = *v;
                self.outs[used].priors.clear();
                self.outs[used].priors.extend_from_slice(pri);
                self.hits.push((si, used));
                self.used += 1;
                progress.cache_hits += 1;
            } else {
                self.misses.push(si);
            }
        }
    }

    /// Evaluates the misses' leaves in one batch of agent `p`'s `evaluator`, checks each
    /// answer's size, and keeps them in `cache` (cleared when full).
    pub(super) fn evaluate_misses<G: GameState>(
        &mut self,
        p: usize,
        evaluator: &mut dyn Evaluator<G>,
        slots: &[Slot<G>],
        cache: &mut Option<Cache>,
        progress: &mut Progress,
    ) -> Result<(), RunError> {
        let (first, misses) = (self.used, &self.misses);
        while self.outs.len() < first + misses.len() {
            self.outs.push(Evaluation::default());
        }
        let leaves: Vec<Leaf<'_, G>> = misses
            .iter()
            .map(|&si| {
                slots[si].trees[p]
                    .as_ref()
                    .and_then(|t| t.leaf())
                    .expect("a pending leaf")
            })
            .collect();
        evaluator.evaluate(&leaves, &mut self.outs[first..first + misses.len()])?;
        for (k, leaf) in leaves.iter().enumerate() {
            let o = &self.outs[first + k];
            if o.priors.len() != leaf.legal.len() {
                return Err(RunError::BadEvaluation {
                    evaluator: evaluator.name(),
                    got: o.priors.len(),
                    want: leaf.legal.len(),
                });
            }
        }
        progress.evaluations += misses.len() as u64;
        drop(leaves);
        for (k, &si) in misses.iter().enumerate() {
            let j = first + k;
            if let Some(c) = cache.as_mut() {
                if c.map.len() >= c.capacity {
                    c.map.clear();
                }
                let h = slots[si].trees[p]
                    .as_ref()
                    .and_then(|t| t.leaf_hash())
                    .expect("a pending leaf");
                c.map.insert(
                    h,
                    (
                        self.outs[j].value,
                        self.outs[j].priors.clone().into_boxed_slice(),
                    ),
                );
            }
            self.hits.push((si, j));
        }
        self.used += misses.len();
        Ok(())
    }
}
