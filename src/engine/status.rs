//! The state that matters now, as the rule file's `show` lines put it, for every player.

use super::program::ShowX;
use super::vm::Vm;
use super::*;
use crate::eval::Out;

impl State {
    /// The `show` lines as the match stands, in the order declared: a line whose `when` is false
    /// is left out, and so is one that cannot be worked out here (it never stops the match).
    pub fn status(&self) -> Vec<String> {
        let mut locals = self.pos.locals.clone();
        let prog = self.program();
        let mut vm = Vm::new(&self.game, prog, self.pos.board(), &mut locals, 0);
        prog.shows.iter().flat_map(|show| show_lines(&mut vm, show)).collect()
    }
}

/// The lines of one `show`: one, or one per element of its `for`.
fn show_lines(vm: &mut Vm<'_>, show: &ShowX) -> Vec<String> {
    vm.steps = 0;
    let Some(each) = &show.each else { return show_line(vm, show, None).into_iter().collect() };
    let mut items = Vec::new();
    if vm.items(&each.domain, &mut items).is_err() {
        return Vec::new();
    }
    if let Some(start) = &each.start {
        let Ok(first) = vm.value(start) else { return Vec::new() };
        if let Some(i) = items.iter().position(|x| *x == first) {
            items.rotate_left(i);
        }
    }
    let mut kept = Vec::new();
    for item in items {
        vm.set_local(each.slot, item);
        match each.filter.as_ref().map_or(Ok(true), |f| vm.keep(f)) {
            Ok(true) => kept.push(item),
            Ok(false) => {}
            Err(_) => return Vec::new(),
        }
    }
    kept.into_iter().filter_map(|item| show_line(vm, show, Some((each.slot, item)))).collect()
}

/// The cells of a line with a `for` (the score sheet's row): each element's name, by `name`,
/// and its text.
pub(super) fn cells(vm: &mut Vm<'_>, line: &ShowX, name: &dyn Fn(Value) -> String) -> Out<Vec<(String, String)>> {
    let mut items = Vec::new();
    if let Some(each) = &line.each {
        vm.items(&each.domain, &mut items)?;
    }
    let mut row = Vec::with_capacity(items.len());
    for item in items {
        if let Some(each) = &line.each {
            vm.set_local(each.slot, item);
        }
        row.push((name(item), vm.text(&line.text)?));
    }
    Ok(row)
}

/// One line, with the `for` name bound to `item`; `None` when it is not shown.
fn show_line(vm: &mut Vm<'_>, show: &ShowX, item: Option<(Slot, Value)>) -> Option<String> {
    if let Some((slot, value)) = item {
        vm.set_local(slot, value);
    }
    if let Some(when) = &show.when
        && !vm.truth(when).ok()?
    {
        return None;
    }
    vm.text(&show.text).ok()
}
