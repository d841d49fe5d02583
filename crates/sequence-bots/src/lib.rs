//! Bots for classic Sequence and Sequence Stacks, the arena and the bot
//! protocol. Bots see only a seat's view.

pub mod cli;
