//! A built-in game of `sg-search` (Cram, Node-Kayles, Chomp) that a stop
//! request interrupts: the game itself, each expansion first looking at
//! the computation's [`Stop`] (one relaxed load), so that Ctrl-C ends a
//! search or the writing of a certificate within a few milliseconds
//! (see `run`). Everything else is the game's, so the answers, the
//! certificates and their checks are those of the command.

use sg_search::proof::ProofGame;
use sg_search::{Game, Nimber, Reduced};
use std::sync::Arc;

use crate::run::{Stop, current_stop};

/// `G`, interrupted by `stop`.
pub(crate) struct Stoppable<G> {
    pub(crate) game: G,
    stop: Arc<Stop>,
}

impl<G> Stoppable<G> {
    /// `game`, interrupted by `stop`.
    pub(crate) fn new(game: G, stop: Arc<Stop>) -> Self {
        Stoppable { game, stop }
    }
}

impl<G: Game> Game for Stoppable<G> {
    type Position = G::Position;
    type Move = G::Move;

    #[inline]
    fn moves(&self, position: &Self::Position, moves: &mut Vec<Self::Move>) {
        self.stop.check();
        self.game.moves(position, moves);
    }

    #[inline]
    fn play(&self, position: &Self::Position, mv: &Self::Move) -> Self::Position {
        self.game.play(position, mv)
    }

    #[inline]
    fn split(&self, position: &Self::Position, components: &mut Vec<Self::Position>) {
        self.game.split(position, components);
    }

    #[inline]
    fn canonical(&self, component: &Self::Position) -> Self::Position {
        self.game.canonical(component)
    }

    #[inline]
    fn known_nimber(&self, component: &Self::Position) -> Option<Nimber> {
        self.game.known_nimber(component)
    }

    #[inline]
    fn reduce(&self, component: &Self::Position) -> Reduced<Self::Position> {
        self.game.reduce(component)
    }

    #[inline]
    fn size(&self, component: &Self::Position) -> u64 {
        self.game.size(component)
    }
}

impl<G: ProofGame> ProofGame for Stoppable<G> {
    const NAME: &'static str = G::NAME;
    type Rules = G::Rules;

    fn rules(&self) -> Self::Rules {
        self.game.rules()
    }

    /// The game of `rules`, interrupted by the stop of the computation
    /// that builds it (the writer of a certificate builds its game anew).
    fn from_rules(rules: &Self::Rules) -> Result<Self, String> {
        Ok(Stoppable::new(G::from_rules(rules)?, current_stop()))
    }

    fn root(&self) -> Self::Position {
        self.game.root()
    }

    fn describe(&self) -> String {
        self.game.describe()
    }

    fn code(&self, position: &Self::Position) -> Vec<u8> {
        self.game.code(position)
    }

    fn position_of(&self, code: &[u8]) -> Option<Self::Position> {
        self.game.position_of(code)
    }

    fn show(&self, position: &Self::Position) -> String {
        self.game.show(position)
    }

    fn show_move(&self, mv: &Self::Move) -> String {
        self.game.show_move(mv)
    }
}
