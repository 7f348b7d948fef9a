//! The state that matters now, as the rule file's `show` lines put it, for every player.

use super::*;
use crate::eval::Board;

impl State {
    /// The `show` lines as the match stands, in the order declared: a line whose `when` is false
    /// is left out, and so is one that cannot be worked out here (it never stops the match).
    pub fn status(&self) -> Vec<String> {
        let game = self.game.clone();
        let mut scratch = self.scratch_state();
        game.shows.iter().flat_map(|show| scratch.show_lines(show)).collect()
    }

    /// The lines of one `show`: one, or one per element of its `for`.
    fn show_lines(&mut self, show: &Show) -> Vec<String> {
        self.spent = 0;
        let Some(each) = &show.each else { return self.show_line(show, None).into_iter().collect() };
        let items = self.binding_items(each).unwrap_or_default();
        items.into_iter().filter_map(|item| self.show_line(show, Some((each.slot, item)))).collect()
    }

    /// One line, with the `for` name bound to `item`; `None` when it is not shown.
    fn show_line(&mut self, show: &Show, item: Option<(Slot, Value)>) -> Option<String> {
        let line = self.eval(|ev| {
            if let Some((slot, value)) = item {
                ev.pos.set_local(slot, value);
            }
            if let Some(when) = &show.when
                && !ev.truth(when)?
            {
                return Ok(None);
            }
            ev.text(&show.text).map(Some)
        });
        line.ok().flatten()
    }
}
