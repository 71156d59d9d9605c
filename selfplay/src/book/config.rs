//! The `[book]` section of a config: how the opening book grows. Every key has a default;
//! unknown keys are errors; [`BookConfig::validate`] names a key out of range.
//!
//! ```toml
//! [book]
//! batch = 16                  # expansions per step (fixes the book: not a speed knob only)
//! cost_per_value_loss = 8.0   # a move 0.125 worse than the best costs one more move
//! ```

use crate::config::{ConfigError, bad};
use serde::{Deserialize, Serialize};

/// How the book grows (see the module docs of [`crate::book`] for the cost these weigh).
/// Values are in the game's value scale, −1 (a loss) to +1 (a win).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BookConfig {
    /// Expansions per step: the cheapest `batch` nodes add their best move outside the book
    /// at once, and their searches run together. Part of what the book is (a different
    /// batch grows a different book), so a book keeps the value it was started with.
    pub batch: usize,
    /// Half-width of a search value's interval per `1/√visits`: a value `v` from `n` visits
    /// lies in `v ± error_factor / √n` (the standard error of a mean of `n` values in
    /// [−1, 1] is at most `1/√n`). Proven values have no width.
    pub error_factor: f32,
    /// The cost of one move along a line: how much depth costs against breadth.
    pub cost_per_move: f32,
    /// The cost per unit of value a move gives up against the node's best option, both
    /// taken at their optimistic bound (so an uncertain move is not written off early).
    pub cost_per_value_loss: f32,
    /// The cost per unit of `−ln(prior)`: moves the network finds unlikely cost more.
    pub cost_per_log_prior: f32,
    /// The cost of a node's next move outside the book, per move the node has in the book
    /// already: breadth at one node gets dearer as it grows.
    pub cost_per_move_expanded: f32,
    /// Taken off a move's cost per unit of the width of its value interval (at most three
    /// quarters of the cost): uncertain lines are cheaper to look into.
    pub bonus_per_uncertainty: f32,
    /// Taken off the cost of each node's best option, as the share
    /// `tanh(bonus_for_best · (1 − v²))` of it: the principal line is cheap where its value
    /// `v` is undecided and gets no bonus once it is a clear win or loss.
    pub bonus_for_best: f32,
}

impl Default for BookConfig {
    fn default() -> Self {
        BookConfig {
            batch: 16,
            error_factor: 1.0,
            cost_per_move: 1.0,
            cost_per_value_loss: 8.0,
            cost_per_log_prior: 0.5,
            cost_per_move_expanded: 0.5,
            bonus_per_uncertainty: 2.0,
            bonus_for_best: 1.0,
        }
    }
}

impl BookConfig {
    /// Checks every value's range; the error names the key (as written under `[book]`).
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.batch == 0 || self.batch > 4096 {
            return Err(bad("book.batch", self.batch, "must be 1 to 4096"));
        }
        for (key, v, hi) in [
            ("book.error_factor", self.error_factor, 100.0),
            ("book.cost_per_move", self.cost_per_move, 1e3),
            ("book.cost_per_value_loss", self.cost_per_value_loss, 1e3),
            ("book.cost_per_log_prior", self.cost_per_log_prior, 1e3),
            (
                "book.cost_per_move_expanded",
                self.cost_per_move_expanded,
                1e3,
            ),
            (
                "book.bonus_per_uncertainty",
                self.bonus_per_uncertainty,
                1e3,
            ),
            ("book.bonus_for_best", self.bonus_for_best, 1e3),
        ] {
            if !(v.is_finite() && (0.0..=hi).contains(&v)) {
                return Err(bad(key, v, &format!("must lie in [0, {hi}]")));
            }
        }
        if self.cost_per_move <= 0.0 {
            return Err(bad(
                "book.cost_per_move",
                self.cost_per_move,
                "must be above 0 (every line must cost something, or the book never stops deepening one)",
            ));
        }
        Ok(())
    }

    /// The TOML of this section (the body of a `[book]` table), as a book file stores it.
    pub fn to_toml_string(&self) -> String {
        toml::to_string(self).expect("a book config always serialises")
    }

    /// Parses the body of a `[book]` table, then validates it.
    pub fn from_toml_str(text: &str, path: &str) -> Result<BookConfig, ConfigError> {
        let c: BookConfig = toml::from_str(text).map_err(|e| ConfigError::Parse {
            path: path.into(),
            message: e.to_string(),
        })?;
        c.validate().map_err(|e| e.in_path(path))?;
        Ok(c)
    }
}
