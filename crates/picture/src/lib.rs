//! Pictures of positions of every qipan game.
#![deny(missing_docs)]
