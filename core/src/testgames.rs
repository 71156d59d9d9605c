//! Small games solved exactly, for tests of the generic pipeline.
