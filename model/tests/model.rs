//! Tests of crumble-model, in one binary (burn makes every test binary slow to link).

mod model {
    pub mod action;
    pub mod common;
    pub mod cpu_ops;
    pub mod crumo_encoder;
    pub mod mask;
    pub mod net;
    pub mod planes;
    pub mod splinter_encoder;
    pub mod symmetry;
}
