//! Quoridor.
