// The table in the browser: draws what the server sends (this seat's table only) and sends
// back moves as they would be typed at the terminal. Every text from the server is set with
// textContent, never as markup: a rule file's words cannot become code here.
"use strict";

const token = location.pathname.split("/").pop();
let socket = null;
let screen = null;
let selected = [];
let retry = 1000;

function $(id) { return document.getElementById(id); }

// An element with a class and its text (as text).
function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

// Sends a request, or says that it was not sent (while the page reconnects).
function send(request) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(request));
  else say("Not sent: the page is reconnecting to the table. Try again in a moment.", true);
}

function say(text, error) {
  const said = $("said");
  said.textContent = text || "";
  said.className = error ? "error" : "";
}

function moves() { return (screen && screen.table.turn && screen.table.turn.moves) || []; }

// Plays the move at `index` of the list (the terminal's #N).
function play(index) {
  selected = [];
  say("");
  send({ type: "move", text: "#" + (index + 1) });
}

function playText(text) {
  selected = [];
  say("");
  send({ type: "move", text: text });
}

// Whether a move's name holds a card's name as whole words (a move of several cards).
function holds(move, name) {
  const at = move.indexOf(name);
  if (at < 0) return false;
  const before = at === 0 ? " " : move[at - 1];
  const after = move[at + name.length] || " ";
  return !/[\w']/.test(before) && !/\w/.test(after);
}

function clickCard(card) {
  if (!screen || !screen.table.turn) { say("It is not your turn."); return; }
  const list = moves();
  const exact = list.indexOf(card.name);
  if (exact >= 0 && selected.length === 0) { play(exact); return; }
  if (list.some((m) => m !== card.name && holds(m, card.name))) {
    const at = selected.indexOf(card.name);
    if (at >= 0) selected.splice(at, 1); else selected.push(card.name);
    render();
    return;
  }
  // Not a move: the server says why, in the rule file's words.
  playText(card.name);
}

function cardNode(card, options) {
  const legal = options && options.mine && moves().some((m) => m === card.name || holds(m, card.name));
  const node = el(options && options.mine ? "button" : "span", "card" + (card.colour ? " " + card.colour : ""));
  if (options && options.mine) node.type = "button";
  if (legal) node.classList.add("legal");
  if (selected.includes(card.name)) node.classList.add("selected");
  node.append(el("span", "name", options && options.full ? card.name : card.short));
  if (card.times > 1) node.append(el("span", "times", " ×" + card.times));
  if (card.by) node.append(el("span", "by", card.by));
  node.title = card.name;
  if (options && options.mine) node.addEventListener("click", () => clickCard(card));
  return node;
}

function pileNode(pile, mine) {
  const node = el("div", "pile");
  node.append(el("div", "pile-label", pile.label + " (" + pile.count + ")"));
  const row = el("div", "cards");
  const shown = pile.cards;
  if (shown.kind === "counted") {
    for (let i = 0; i < Math.min(pile.count, 13); i++) row.append(el("span", "back"));
    row.append(el("span", "count", pile.count + (pile.count === 1 ? " card" : " cards")));
  } else if (shown.kind === "grouped") {
    for (const group of shown.cards) {
      const g = el("span", "group");
      if (group.label) g.append(el("span", "group-label", group.label));
      for (const card of group.cards) g.append(cardNode(card, { mine: mine }));
      row.append(g);
    }
  } else {
    for (const card of shown.cards) row.append(cardNode(card, { full: true }));
  }
  node.append(row);
  return node;
}

function seatNode(seat) {
  const node = el("div", "seat" + (seat.to_act ? " to-act" : ""));
  node.append(el("div", "seat-name", seat.name + (seat.you ? " (you)" : "")));
  for (const pile of seat.piles) node.append(pileNode(pile, seat.you));
  return node;
}

function sheetNode(rows, current) {
  if (!rows.length) return el("div");
  const table = el("table");
  const head = el("tr");
  for (const [column] of rows[0]) head.append(el("th", null, column));
  table.append(head);
  rows.forEach((row, i) => {
    const tr = el("tr", i + 1 === current ? "current" : null);
    for (const [, value] of row) tr.append(el("td", null, value));
    table.append(tr);
  });
  return table;
}

function fill(id, nodes) {
  const box = $(id);
  box.replaceChildren(...nodes);
}

function render() {
  if (!screen) return;
  const table = screen.table;
  $("game").textContent = screen.game;
  document.title = screen.game + " — paradox";
  $("you").textContent = screen.you === "spectator" ? "watching" : "you play " + screen.you;
  $("heading").textContent = table.heading.join(" · ");
  fill("others", table.seats.filter((s) => !s.you).map(seatNode));
  fill("middle", table.middle.map((p) => pileNode(p, false)));
  fill("mine", table.seats.filter((s) => s.you).map(seatNode));
  const turn = table.turn;
  const list = moves();
  if (screen.waiting.length) {
    $("prompt").textContent = "Waiting for " + screen.waiting.join(", ") + " to read the round's summary.";
  } else if (turn) {
    const how = turn.secret ? "Your secret choice at " + turn.seat + " (the others choose at the same time)" : "Your turn at " + turn.seat;
    const rule = turn.rule ? " (only these: " + turn.rule + ")" : "";
    $("prompt").textContent = how + ": " + list.length + (list.length === 1 ? " move" : " moves") + rule;
  } else if (screen.result) {
    $("prompt").textContent = "";
  } else {
    const acting = table.seats.filter((s) => s.to_act).map((s) => s.name);
    $("prompt").textContent = acting.length ? "Waiting for " + acting.join(", ") + "." : "";
  }
  if (table.refusal && !$("said").textContent) say(table.refusal);
  const buttons = [];
  const seen = new Map();
  list.forEach((name, i) => {
    if (seen.has(name)) { seen.get(name).count++; return; }
    seen.set(name, { index: i, count: 1 });
  });
  if (turn && seen.size <= 60) {
    for (const [name, { index, count }] of seen) {
      const b = el("button", null, count > 1 ? name + " ×" + count : name);
      b.type = "button";
      b.addEventListener("click", () => play(index));
      buttons.push(b);
    }
  } else if (turn && turn.summary) {
    buttons.push(el("span", null, turn.summary));
  }
  if (selected.length) {
    const b = el("button", null, "Play " + selected.join(" + "));
    b.type = "button";
    b.addEventListener("click", () => playText(selected.join(" + ")));
    buttons.unshift(b);
  }
  fill("moves", buttons);
  $("typed").hidden = !turn;
  $("result").textContent = screen.result || "";
  fill("status", table.status.map((line) => el("div", null, line)));
  fill("sheet", [sheetNode(table.sheet, 0)]);
  fill("log", screen.log.map((line) => el("li", null, line)));
  const log = $("log");
  log.scrollTop = log.scrollHeight;
  const summary = screen.summary;
  $("summary").hidden = !summary;
  if (summary) {
    $("summary-title").textContent = "Round " + summary.round;
    fill("summary-news", summary.news.map((line) => el("li", null, line)));
    fill("summary-sheet", [sheetNode(table.sheet, summary.round)]);
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  socket = new WebSocket(scheme + location.host + "/ws/" + token);
  socket.onopen = () => { retry = 1000; $("connection").textContent = "connected"; };
  socket.onmessage = (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    if (message.type === "table") {
      screen = message;
      // How many tables came, for whoever waits on the page (the browser test).
      document.body.dataset.tables = String(Number(document.body.dataset.tables || 0) + 1);
      selected = selected.filter((name) => moves().some((m) => holds(m, name)));
      render();
    } else if (message.type === "said") {
      say(message.text);
    } else if (message.type === "error") {
      say(message.text, true);
    }
  };
  socket.onclose = () => {
    $("connection").textContent = "reconnecting…";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  };
}

$("typed").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("typed-move");
  if (input.value.trim()) playText(input.value.trim());
  input.value = "";
});
$("go-on").addEventListener("click", () => send({ type: "continue" }));
connect();
