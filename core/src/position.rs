//! Position JSON. WIP
