//! One game in progress: its seated agents' trees, its record and adjudicator, and one step
//! of play (random, book, forced, solved or searched decisions) until an evaluation is due.

use super::*;

/// The part of an agent the parallel phase reads.
#[derive(Clone, Debug)]
pub(super) enum Meta {
    Random,
    Solver,
    Mcts {
        simulations: u32,
        config: SearchConfig,
    },
}

pub(super) struct Slot<G: GameState> {
    pub(super) active: bool,
    /// Position of the job in the queue.
    pub(super) job: usize,
    index: u64,
    start: G,
    max_turns: u32,
    /// Turn count at which the game is stopped (see [`GameJob::stop_after_turns`]).
    stop_at: Option<u32>,
    game: G,
    /// How the game ended when it was not by the rules (a resignation, a stop).
    adjudicated: Option<(GameResult, Ending)>,
    rng: ChaCha8Rng,
    /// The trees of the agents seated here (indexed by agent; built on first use and kept
    /// for the slot's later games).
    pub(super) trees: Vec<Option<Search<G>>>,
    /// The exact values the `solver` agent found (kept for the slot's later games).
    solver: Option<Negamax<G>>,
    seat: [usize; 2],
    searching: Option<usize>,
    steps: Vec<StepRecord>,
    low: [u32; 2],
    playout: bool,
    would_resign: Option<Player>,
    /// The match adjudication of this game, and whether its verdict ends the game (or the
    /// game is one of those played out to check it).
    judge: Adjudicator,
    judge_ends: bool,
    pub(super) needs: Option<usize>,
    pub(super) pending: Option<usize>,
    legal: Vec<Decision>,
    path: Vec<Decision>,
    joint: Vec<(Decision, Decision, f32)>,
    pub(super) decisions: u64,
}

/// The tree of seated agent `p` (a borrow of the trees alone, not of the whole slot).
fn tree<G: GameState>(trees: &mut [Option<Search<G>>], p: usize) -> &mut Search<G> {
    trees[p].as_mut().expect("a seated agent has a tree")
}

impl<G: GameState> Slot<G> {
    pub(super) fn new(agents: usize, start: &G) -> Slot<G> {
        Slot {
            active: false,
            job: 0,
            index: 0,
            start: start.clone(),
            max_turns: 0,
            stop_at: None,
            game: start.clone(),
            adjudicated: None,
            rng: ChaCha8Rng::seed_from_u64(0),
            trees: (0..agents).map(|_| None).collect(),
            solver: None,
            seat: [0, 0],
            searching: None,
            steps: Vec::new(),
            low: [0, 0],
            playout: false,
            would_resign: None,
            judge: Adjudicator::new(Adjudication::default()),
            judge_ends: false,
            needs: None,
            pending: None,
            legal: Vec::new(),
            path: Vec::new(),
            joint: Vec::new(),
            decisions: 0,
        }
    }

    pub(super) fn start(
        &mut self,
        k: usize,
        job: GameJob<G>,
        metas: &[Meta],
        adjudication: Adjudication,
    ) {
        self.active = true;
        self.job = k;
        self.index = job.index;
        self.start = job.start;
        self.max_turns = job.max_turns;
        self.stop_at = (job.stop_after_turns > 0).then(|| {
            self.start
                .turns_played()
                .saturating_add(job.stop_after_turns)
        });
        self.game.clone_from(&self.start);
        self.game.set_turn_limit(job.max_turns);
        self.adjudicated = None;
        let seed = mix(job.seed ^ mix(job.index));
        self.rng = ChaCha8Rng::seed_from_u64(seed);
        self.seat = job.seats.agents();
        for (p, t) in self.trees.iter_mut().enumerate() {
            if !self.seat.contains(&p) {
                continue;
            }
            let tree = t.get_or_insert_with(|| match &metas[p] {
                Meta::Mcts { config, .. } => Search::new(config.clone(), 0),
                Meta::Random | Meta::Solver => Search::new(SearchConfig::default(), 0),
            });
            tree.reseed(mix(seed ^ (p as u64 + 1)));
        }
        self.searching = None;
        self.steps.clear();
        self.low = [0, 0];
        self.would_resign = None;
        self.needs = None;
        self.pending = None;
        let seated = || self.seat.iter().map(|&p| &metas[p]);
        let resign =
            seated().any(|m| matches!(m, Meta::Mcts { config, .. } if config.resign.enabled));
        let fraction = seated()
            .map(|m| {
                if let Meta::Mcts { config, .. } = m {
                    config.resign.playout_fraction
                } else {
                    0.0
                }
            })
            .fold(0.0f32, f32::max);
        self.playout = resign && self.rng.random_bool(f64::from(fraction));
        self.judge = Adjudicator::new(adjudication);
        // From a stream of its own, so that adjudication changes no game's random choices.
        let draw = (mix(seed ^ 0xAD7) >> 11) as f64 / (1u64 << 53) as f64;
        self.judge_ends = adjudication.is_on() && draw >= f64::from(adjudication.playout_fraction);
    }

    /// The trees of the agents seated in this slot's game.
    fn seated_trees(&mut self) -> impl Iterator<Item = &mut Search<G>> {
        let seat = self.seat;
        self.trees
            .iter_mut()
            .enumerate()
            .filter(move |(p, _)| seat.contains(p))
            .filter_map(|(_, t)| t.as_mut())
    }

    fn play(&mut self, d: Decision, kind: StepKind, search: Option<SearchRecord>) {
        self.observe(kind, search.as_ref());
        if self.adjudicated.is_some() {
            // Adjudicated before its move: the game ends where the searches agreed.
            return;
        }
        self.game.apply_unchecked(d);
        for t in self.seated_trees() {
            t.advance(d);
        }
        self.steps.push(StepRecord {
            decision: d,
            kind,
            search,
        });
        self.decisions += 1;
    }

    /// Runs the slot until it needs an evaluation (`needs`) or its game is over.
    fn step(
        &mut self,
        metas: &[Meta],
        books: &[SharedOpening<G>],
        outs: &[Evaluation],
        record_targets: bool,
    ) {
        if let Some(j) = self.pending.take() {
            let t = self.searching.expect("a search waits for its evaluation");
            tree(&mut self.trees, t).provide(&outs[j]);
        }
        self.needs = None;
        loop {
            if let Some(t) = self.stop_at
                && !self.is_over()
                && self.game.turns_played() >= t
            {
                self.adjudicated = Some((GameResult::Draw, Ending::Stopped));
            }
            if self.adjudicated.is_some() {
                return;
            }
            let Some(c) = self.game.decider() else { return };
            if let Some(t) = self.searching {
                if tree(&mut self.trees, t).run() == Step::NeedsEval {
                    self.needs = Some(t);
                    return;
                }
                self.searching = None;
                let Meta::Mcts { config, .. } = &metas[t] else {
                    unreachable!("only search agents search")
                };
                let out = tree(&mut self.trees, t).finish();
                let (value, full, proven) = (out.value, out.full, out.proven);
                if config.resign.enabled {
                    let k = c.index();
                    self.low[k] = if value < config.resign.threshold {
                        self.low[k] + 1
                    } else {
                        0
                    };
                    if self.low[k] >= config.resign.consecutive {
                        if self.playout {
                            self.would_resign.get_or_insert(c);
                        } else {
                            self.adjudicated =
                                Some((GameResult::Win(c.opponent()), Ending::Resignation));
                            return;
                        }
                    }
                }
                let prior = if record_targets {
                    out.prior.clone()
                } else {
                    Vec::new()
                };
                let policy: Vec<(Decision, f32)> = if record_targets {
                    out.legal
                        .iter()
                        .copied()
                        .zip(out.target.iter().copied())
                        .collect()
                } else {
                    Vec::new()
                };
                let tc = &config.temperature;
                let temp = if self.game.turns_played() < tc.turns {
                    tc.initial
                } else {
                    tc.final_
                };
                let joint = if record_targets && self.game.at_turn_start() {
                    tree(&mut self.trees, t).joint_first_two(&mut self.joint);
                    self.joint.clone()
                } else {
                    Vec::new()
                };
                let d = tree(&mut self.trees, t).pick(temp);
                self.play(
                    d,
                    StepKind::Searched,
                    Some(SearchRecord {
                        value,
                        full,
                        proven,
                        policy,
                        prior,
                        joint,
                    }),
                );
                continue;
            }
            let p = self.seat[c.index()];
            if self.play_from_book(books[p].as_deref()) {
                continue;
            }
            self.game.legal_decisions_into(&mut self.legal);
            if self.legal.len() == 1 {
                let d = self.legal[0];
                self.play(d, StepKind::Forced, None);
                continue;
            }
            match &metas[p] {
                Meta::Solver => {
                    let solver = self.solver.get_or_insert_with(Negamax::new);
                    solver.best_decisions(&self.game, &mut self.legal);
                    let d = self.legal[self.rng.random_range(0..self.legal.len())];
                    self.play(d, StepKind::Exact, None);
                }
                Meta::Random => {
                    let mut path = std::mem::take(&mut self.path);
                    self.observe(StepKind::Random, None);
                    self.game
                        .play_random_turn_recorded(&mut self.rng, &mut path);
                    for &d in &path {
                        for t in self.seated_trees() {
                            t.advance(d);
                        }
                        self.steps.push(StepRecord {
                            decision: d,
                            kind: StepKind::Random,
                            search: None,
                        });
                    }
                    self.decisions += path.len() as u64;
                    self.path = path;
                }
                Meta::Mcts {
                    simulations,
                    config,
                } => {
                    let pc = &config.playout_cap;
                    let full = !pc.enabled || self.rng.random_bool(f64::from(pc.full_fraction));
                    let n = if full {
                        *simulations
                    } else {
                        pc.fast_simulations
                    };
                    tree(&mut self.trees, p).begin(&self.game, n, full);
                    self.searching = Some(p);
                }
            }
        }
    }

    /// Plays the book's move at a turn's start when it has one that is legal here; whether it
    /// did.
    fn play_from_book(&mut self, book: Option<&dyn OpeningSource<G>>) -> bool {
        let Some(book) = book else { return false };
        if !self.game.at_turn_start() {
            return false;
        }
        // A move the rules refuse is not played: the agent searches instead.
        let Some(turn) = book.legal_turn(&self.game) else {
            return false;
        };
        for d in turn {
            self.play(d, StepKind::Book, None);
        }
        true
    }

    /// Shows the step about to be played to the match adjudication; its verdict ends the game
    /// unless the game is played out.
    fn observe(&mut self, kind: StepKind, search: Option<&SearchRecord>) {
        if let Some(v) = self.judge.step(&self.game, kind, search)
            && self.judge_ends
            && self.adjudicated.is_none()
        {
            let ending = match v.result {
                GameResult::Win(_) => Ending::Resignation,
                GameResult::Draw => Ending::Stopped,
            };
            self.adjudicated = Some((v.result, ending));
        }
    }

    /// Is the game over, by the rules or adjudicated?
    pub(super) fn is_over(&self) -> bool {
        self.adjudicated.is_some() || self.game.is_over()
    }

    pub(super) fn take_record(&mut self) -> GameRecord {
        let (result, ending) = self.adjudicated.unwrap_or_else(|| {
            let r = self.game.game_result().expect("a finished game");
            (r, Ending::Rules)
        });
        GameRecord {
            index: self.index,
            game: G::NAME.to_string(),
            start: crate::record::start_json::<G>(&self.start.to_start()),
            max_turns: self.max_turns,
            steps: std::mem::take(&mut self.steps),
            result,
            ending,
            would_resign: self.would_resign,
            agents: None,
        }
    }
}

impl Meta {
    pub(super) fn of<G: GameState>(agent: &Agent<G>) -> Meta {
        match &agent.kind {
            AgentKind::Random => Meta::Random,
            AgentKind::Solver => Meta::Solver,
            AgentKind::Mcts {
                simulations,
                config,
                ..
            } => Meta::Mcts {
                simulations: *simulations,
                config: config.clone(),
            },
        }
    }
}

/// Steps every active slot in parallel until it needs an evaluation or its game ends (the
/// slots reading their evaluations from `outs`); returns the simulations of all the trees.
pub(super) fn step_all<G: GameState>(
    slots: &mut [Slot<G>],
    metas: &[Meta],
    books: &[SharedOpening<G>],
    outs: &[Evaluation],
    record: bool,
) -> u64 {
    // One contiguous chunk of slots per thread: a slot's games mostly stay on one
    // thread (and its allocator arena).
    let chunk = slots
        .len()
        .div_ceil(rayon::current_num_threads().max(1))
        .max(1);
    slots.par_chunks_mut(chunk).for_each(|c| {
        for s in c.iter_mut().filter(|s| s.active) {
            s.step(metas, books, outs, record);
        }
    });
    slots
        .iter()
        .map(|s| {
            s.trees
                .iter()
                .flatten()
                .map(|t| t.total_simulations)
                .sum::<u64>()
        })
        .sum::<u64>()
}
