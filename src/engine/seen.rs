//! What a computer player is given: the position as one player may know it. A bot holds a
//! [`Seen`], never the [`State`], so it cannot read a hidden card; the only way it reaches a
//! whole position is [`Seen::sample`], which deals the cards it cannot see afresh.

use super::*;

/// One player's window on a match in progress.
#[derive(Clone, Copy)]
pub struct Seen<'a> {
    state: &'a State,
    player: usize,
}

impl State {
    /// The match as `player` may know it, for a computer player.
    pub fn seen_by(&self, player: usize) -> Seen<'_> {
        Seen { state: self, player }
    }
}

impl<'a> Seen<'a> {
    /// The player whose window this is.
    pub fn player(&self) -> usize {
        self.player
    }

    /// The compiled game being played.
    pub fn game(&self) -> &'a Game {
        self.state.game()
    }

    /// Who must act now (a secret round lists only the seats still to choose).
    pub fn actor(&self) -> Actor {
        self.state.actor()
    }

    /// How many decisions the match has seen: a clock every player can read.
    pub fn decisions(&self) -> u64 {
        self.state.pos.decisions
    }

    /// How many legal actions one of this player's seats has (0 for another player's seat).
    pub fn action_count(&self, seat: SeatId) -> usize {
        if self.mine(seat) { self.state.action_count(seat) } else { 0 }
    }

    /// The name of one of this player's actions.
    pub fn action_name(&self, seat: SeatId, action: Action) -> Option<String> {
        if self.mine(seat) { self.state.action_name(seat, action) } else { None }
    }

    /// The piles and variables as this player sees them.
    pub fn view(&self) -> View {
        self.state.view(self.player)
    }

    /// The event log as this player may read it.
    pub fn log(&self) -> Vec<String> {
        self.state.log_for(self.player)
    }

    /// How many events the match's log holds (0 where it keeps none): where the next
    /// [`Seen::secret_choices`] read begins.
    pub fn logged(&self) -> usize {
        self.state.events().len()
    }

    /// The other players' secret choices revealed from the `from`-th event of the log on, as
    /// this player saw them: each event's number, the seat, and what it chose (`None` where its
    /// cards stayed out of sight).
    pub fn secret_choices(&self, from: usize) -> Vec<(usize, SeatId, Option<Value>)> {
        self.state.secret_choices_seen(self.player, from)
    }

    /// A whole match this player cannot tell from the real one, to search: every card whose
    /// place it does not know is dealt afresh among the places of such cards (keeping what the
    /// rules have shown it, such as a seat void in a suit or a revealed card, and putting each card
    /// only where the rules leave it possible), other seats' secret choices not yet
    /// revealed are taken back, and chance is reseeded from `rng`. Variables and local names are
    /// kept (a card they hold is renamed with the cards): the checker refuses a variable or name
    /// computed from cards not everyone sees, so they hold nothing hidden. The same knowledge and
    /// `rng` give the same world, whatever the hidden cards really are.
    pub fn sample(&self, rng: &mut rand_chacha::ChaCha8Rng) -> State {
        self.sampler().sample(rng)
    }

    /// The worlds of [`Seen::sample`], one after another, for a search that deals many: what
    /// the player does not know is worked out once, and each world can be dealt into memory
    /// kept for it.
    pub fn sampler(&self) -> Sampler<'a> {
        Sampler::new(self.state, self.player)
    }

    fn mine(&self, seat: SeatId) -> bool {
        self.game().seats.get(seat as usize).is_some_and(|s| s.player == self.player)
    }
}
