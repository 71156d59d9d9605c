//! The network's sizes ([`NetConfig`], stored in every checkpoint) and what they imply:
//! validation, the encoder's shapes, the operation count.

use burn::config::Config;

/// Sizes of the network. A checkpoint stores this next to the weights.
///
/// The defaults are the net of `configs/default.toml` (what `crumble train` and
/// `crumble bench net` use), sized for self-play on a 2-core CPU; bigger machines set
/// bigger nets in their config (`configs/large.toml`).
#[derive(Config, Debug, PartialEq)]
pub struct NetConfig {
    /// Resolution `R` (grid units per board cell) of the positions this net reads.
    #[config(default = 8)]
    pub resolution: usize,
    /// Tower pixels per board cell (must divide `resolution`): the stem is a convolution
    /// with kernel and stride `resolution / cell_pixels`.
    #[config(default = 1)]
    pub cell_pixels: usize,
    /// Channels of the residual tower.
    #[config(default = 32)]
    pub channels: usize,
    /// Residual blocks.
    #[config(default = 4)]
    pub blocks: usize,
    /// Every `gpool_every`-th block (1-based) is a global-pooling block; 0 for none.
    #[config(default = 2)]
    pub gpool_every: usize,
    /// Hidden units of the value head.
    #[config(default = 48)]
    pub value_hidden: usize,
    /// Seed of the initial weights.
    #[config(default = 0)]
    pub seed: u64,
    /// Input planes `I` (the encoder's; default: Crumble's rasteriser).
    #[config(default = 33)]
    pub input_planes: usize,
    /// Policy planes `P` on the fine grid (the encoder's; default: Crumble's 8).
    #[config(default = 8)]
    pub policy_planes: usize,
    /// Extra policy logits from pooled features (the encoder's; default: Crumble's `Stop`).
    #[config(default = 1)]
    pub policy_extra: usize,
    /// The input plane that marks the board's cells, for a game whose board does not fill
    /// its square grid (Crumo's hexagon): cells off the board are zeroed after the stem and
    /// every convolution, and global pooling reads only the board. `None` (Crumble, Splinter):
    /// every cell counts.
    pub mask_plane: Option<usize>,
    /// An ownership head (KataGo's auxiliary target): trained where the run weights it
    /// (`[optim] ownership_weight`), never read by the search.
    #[config(default = false)]
    pub ownership: bool,
    /// A short-term value head (KataGo's auxiliary target: the discounted mean of the search
    /// values of the next turns), trained where the run weights it (`[optim]
    /// short_value_weight`), never read by the search.
    #[config(default = false)]
    pub short_value: bool,
    /// A soft policy head (KataGo's auxiliary target: the policy target raised to the power
    /// 1/4 and normalised, which teaches the ranking of the moves the search liked less),
    /// trained where the run weights it (`[optim] soft_policy_weight`), never read by the
    /// search. Its own coarse 1×1 convolution; it shares the fine skip and the extra logits
    /// with the policy.
    #[config(default = false)]
    pub soft_policy: bool,
}

/// Why a configuration cannot build a network.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error("net config: {0}")]
    Invalid(String),
}

impl NetConfig {
    /// This config with the input and policy shapes of a game's encoder.
    pub fn with_encoder<G: crumble_core::GameState, E: crate::encoder::Encoder<G>>(
        self,
        encoder: &E,
    ) -> NetConfig {
        self.with_input_planes(E::INPUT_PLANES)
            .with_policy_planes(E::POLICY_PLANES)
            .with_policy_extra(E::POLICY_EXTRA)
            .with_mask_plane(encoder.board_mask_plane())
    }

    /// Does this net read and write the encoder's shapes?
    pub fn fits<G: crumble_core::GameState, E: crate::encoder::Encoder<G>>(
        &self,
        encoder: &E,
    ) -> Result<(), String> {
        let want = (E::INPUT_PLANES, E::POLICY_PLANES, E::POLICY_EXTRA);
        let have = (self.input_planes, self.policy_planes, self.policy_extra);
        if want == have && self.mask_plane != encoder.board_mask_plane() {
            Err(format!(
                "the network masks the board with input plane {:?}; this game's encoder with {:?}",
                self.mask_plane,
                encoder.board_mask_plane()
            ))
        } else if want == have {
            Ok(())
        } else {
            Err(format!(
                "the network reads {} planes and writes {} policy planes and {} extra logits; \
                 this game needs {}, {} and {}",
                have.0, have.1, have.2, want.0, want.1, want.2
            ))
        }
    }

    /// Stem kernel and stride: `resolution / cell_pixels`.
    pub fn stride(&self) -> usize {
        self.resolution / self.cell_pixels.max(1)
    }

    /// Checks the sizes (all positive, `cell_pixels` divides `resolution`, nothing huge).
    pub fn validate(&self) -> Result<(), ConfigError> {
        let bad = |m: String| Err(ConfigError::Invalid(m));
        if self.resolution == 0 || self.resolution > 64 {
            return bad(format!("resolution {} is not in 1..=64", self.resolution));
        }
        if self.cell_pixels == 0 || !self.resolution.is_multiple_of(self.cell_pixels) {
            return bad(format!(
                "cell_pixels {} must be positive and divide resolution {}",
                self.cell_pixels, self.resolution
            ));
        }
        if self.channels == 0 || self.channels > 1024 {
            return bad(format!("channels {} is not in 1..=1024", self.channels));
        }
        if self.blocks > 64 {
            return bad(format!("blocks {} is more than 64", self.blocks));
        }
        if self.input_planes == 0 || self.input_planes > 1024 {
            return bad(format!(
                "input_planes {} is not in 1..=1024",
                self.input_planes
            ));
        }
        if self.policy_planes == 0 || self.policy_planes > 64 {
            return bad(format!(
                "policy_planes {} is not in 1..=64",
                self.policy_planes
            ));
        }
        if self.policy_extra > 64 {
            return bad(format!(
                "policy_extra {} is more than 64",
                self.policy_extra
            ));
        }
        if let Some(m) = self.mask_plane
            && m >= self.input_planes
        {
            return bad(format!(
                "mask_plane {m} is not one of the {} input planes",
                self.input_planes
            ));
        }
        if self.value_hidden == 0 || self.value_hidden > 4096 {
            return bad(format!(
                "value_hidden {} is not in 1..=4096",
                self.value_hidden
            ));
        }
        Ok(())
    }

    /// Number of parameters (weights and biases, all `f32`) of the net this config builds:
    /// what [`NetConfig::init`] allocates. A checkpoint's weights must be at least four bytes
    /// per parameter, which lets the loader refuse a config that claims a huge net before
    /// allocating it. Saturates instead of overflowing for absurd sizes.
    pub fn parameter_count(&self) -> u64 {
        let c = self.channels as u64;
        let s = self.stride() as u64;
        let p = self.input_planes as u64;
        let q = self.policy_planes as u64;
        let e = self.policy_extra as u64;
        let h = self.value_hidden as u64;
        let conv = |cin: u64, cout: u64, k: u64| {
            cout.saturating_mul(cin)
                .saturating_mul(k * k)
                .saturating_add(cout)
        };
        let dense = |din: u64, dout: u64| din.saturating_mul(dout).saturating_add(dout);
        let mut n = conv(p, c, s);
        for b in 0..self.blocks {
            n = n
                .saturating_add(2u64.saturating_mul(conv(c, c, 3)))
                .saturating_add(1); // + alpha
            if self.gpool_every > 0 && (b + 1) % self.gpool_every == 0 {
                n = n.saturating_add(dense(2 * c, c));
            }
        }
        let extra = if e > 0 { dense(2 * c, e) } else { 0 };
        let ownership = if self.ownership { conv(c, s * s, 1) } else { 0 };
        let short = if self.short_value { dense(h, 1) } else { 0 };
        let soft = if self.soft_policy {
            conv(c, q.saturating_mul(s * s), 1)
        } else {
            0
        };
        n.saturating_add(conv(c, q.saturating_mul(s * s), 1))
            .saturating_add(conv(p, q, 1))
            .saturating_add(extra)
            .saturating_add(dense(2 * c, h))
            .saturating_add(dense(h, 1))
            .saturating_add(ownership)
            .saturating_add(short)
            .saturating_add(soft)
    }

    /// Floating-point operations (multiply and add counted separately) of one forward pass
    /// for an `n × n` board: convolutions, linear layers, pooling and the depth-to-space are
    /// counted; activations are not.
    pub fn flops_per_position(&self, n: usize) -> u64 {
        let c = self.channels as u64;
        let s = self.stride() as u64;
        let tn = (n * self.cell_pixels) as u64; // tower side
        let g = (n * self.resolution) as u64; // fine side
        let px = tn * tn;
        let (p, q) = (self.input_planes as u64, self.policy_planes as u64);
        let mut f = 2 * px * c * p * s * s; // stem
        for b in 0..self.blocks {
            f += 2 * 2 * px * c * c * 9;
            if self.gpool_every > 0 && (b + 1) % self.gpool_every == 0 {
                f += 2 * px * c + 2 * (2 * c) * c;
            }
        }
        f += 2 * px * c * q * s * s; // policy 1x1 to P·s² channels
        f += 2 * g * g * p * q; // fine skip
        f += 2 * px * c; // head pooling
        f += 2 * 2 * c * self.policy_extra as u64; // extra logits
        f += 2 * 2 * c * self.value_hidden as u64 + 2 * self.value_hidden as u64; // value
        if self.ownership {
            f += 2 * px * c * s * s; // ownership 1x1 to s² channels
        }
        if self.short_value {
            f += 2 * self.value_hidden as u64;
        }
        if self.soft_policy {
            f += 2 * px * c * q * s * s; // its own policy 1x1
        }
        f
    }
}
