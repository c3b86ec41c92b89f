// boomboard's page: one script, no build step, no network beyond this server.
// Routes: #/ (new game), #/game/ID (play or watch), #/replay/SOURCE/ID,
// #/games (stored games), #/tournaments and #/tournaments/ID.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const CUSTOM = "custom"; // the side menu's "type an agent spec" entry
const VALUE_COLOURS = { win: "#1a9a1a", lose: "#8b0000", tie: "#e0c020", draw: "#b07cc6" };
const view = document.getElementById("view");
let catalog = null;
let current = null; // the page showing now: {kill()} to stop its timers; a game page is also window.page,
// whose .state (the server's last answer) the browser tests read

const api = async (method, path, body) => {
  const response = await fetch(path, {
    method, headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
};

const el = (tag, attrs = {}, ...children) => {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "on") for (const [event, fn] of Object.entries(value)) node.addEventListener(event, fn);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
};

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const scoreColour = (score) => {
  // Green when better, red when worse, grey near even: yellow stays the colour of a tie.
  const t = 1 / (1 + Math.exp(-score / 300)); // 0 losing .. 1 winning
  return `hsl(${t >= 0.5 ? 120 : 0}, ${Math.round(Math.abs(t - 0.5) * 160)}%, 42%)`;
};
const moveColour = (m) => (m.value ? VALUE_COLOURS[m.value] : m.score !== null && m.score !== undefined ? scoreColour(m.score) : null);
// Best first: quick wins, then scores and ties, then slow losses.
const rank = (m) => (m.value === "win" ? 3e6 - (m.remoteness || 0) : m.value === "lose" ? -3e6 + (m.remoteness || 0)
  : m.value ? 0 : m.score);
const describeValue = (m) => (m.value ? `${m.value}${m.remoteness !== null && m.remoteness !== undefined ? " in " + m.remoteness : ""}`
  : m.score !== null && m.score !== undefined ? (m.score / 100).toFixed(2) : "?");

// ---- the board --------------------------------------------------------------------------

const PIECE_COLOURS = {
  jump61: ["#d33c3c", "#2f62c9"], kaboom: ["#e0662a", "#238a6d"],
  expendibots: ["#f6f1e3", "#25252b"], explocus: ["#f6f1e3", "#25252b"], hexplocus: ["#f6f1e3", "#25252b"],
};

// The players' colours: the game's layout names them, or the table above does.
const pieceColours = (state) => state.layout.colours || PIECE_COLOURS[state.name] || ["#d33c3c", "#2f62c9"];

function hexPoints(x, y, r) {
  const points = [];
  for (let i = 0; i < 6; i++) {
    const angle = Math.PI / 180 * (60 * i - 90);
    points.push(`${(x + r * Math.cos(angle)).toFixed(3)},${(y + r * Math.sin(angle)).toFixed(3)}`);
  }
  return points.join(" ");
}

// Draws `cells` on the game's layout; `marks` maps a cell name to CSS classes,
// `tints` a cell name to a colour (analysis), `flip` turns the board round.
function drawBoard(state, cells, { marks = {}, tints = {}, flip = false, onClick = null } = {}) {
  const layout = state.layout;
  const [bx, by, bw, bh] = layout.box;
  const turn = (x, y) => (flip ? [2 * bx + bw - x, 2 * by + bh - y] : [x, y]);
  const svg = el("svg:svg", { viewBox: layout.box.join(" "), class: `board ${layout.shape} game-${state.name}`, role: "group", "aria-label": `${state.title} board` });
  // A game's layout may name its colours and draw counts (a number in the owner's colour) instead of pieces.
  const colours = pieceColours(state);
  const counts = layout.counts || state.name === "jump61";
  layout.cells.forEach((cell, index) => {
    const [x, y] = turn(cell.x, cell.y);
    const [owner, text, mark] = cells[index];
    const classes = ["cell", ...(marks[cell.name] || [])].join(" ");
    // What a screen reader says: "d2: white 3", "C2: x bomb", "1 1: 2 red", "A1: empty".
    const what = state.name === "jump61" ? `${text} ${owner === null ? "white" : state.player_names[owner]}`
      : owner === null ? "empty" : [state.player_names[owner], mark, text].filter(Boolean).join(" ");
    const group = el("svg:g", { class: classes, "data-cell": cell.name, "data-group": cell.group, "aria-label": `${cell.name}: ${what}` });
    const ground = layout.shape === "hex"
      ? el("svg:polygon", { points: hexPoints(x, y, 0.565), class: "ground" })
      : el("svg:rect", { x: x - 0.48, y: y - 0.48, width: 0.96, height: 0.96, rx: 0.06, class: "ground" });
    if (counts && owner !== null) ground.setAttribute("style", `fill:${colours[owner]}33`);
    group.append(ground);
    if (tints[cell.name]) group.append(el("svg:circle", { cx: x, cy: y, r: 0.44, class: "tint", style: `stroke:${tints[cell.name]}` }));
    if (counts) {
      group.append(el("svg:text", { x, y: y + 0.02, class: `spots ${owner === null ? "neutral" : "p" + owner}`,
        style: owner === null ? "" : `fill:${colours[owner]}`, text }));
    } else if (owner !== null) {
      const fill = colours[owner];
      if (mark === "bomb") {
        group.append(el("svg:circle", { cx: x, cy: y + 0.04, r: 0.3, class: "bomb", style: `stroke:${fill}` }));
        group.append(el("svg:path", { d: `M${x + 0.14} ${y - 0.2} q0.1 -0.14 0.2 -0.1`, class: "fuse" }));
      } else {
        group.append(el("svg:circle", { cx: x, cy: y, r: 0.38, class: `piece p${owner}`, style: `fill:${fill}` }));
      }
      if (text) group.append(el("svg:text", { x, y: y + 0.02, class: `height p${owner}`, text }));
    }
    if ((marks[cell.name] || []).includes("boom")) group.append(el("svg:circle", { cx: x, cy: y, r: 0.5, class: "burst" }));
    if (onClick) group.addEventListener("click", (event) => onClick(cell, event));
    svg.append(group);
  });
  for (const label of layout.labels) {
    const [x, y] = turn(label.x, label.y);
    svg.append(el("svg:text", { x, y, class: "label", text: label.text }));
  }
  return svg;
}

// ---- the value chart --------------------------------------------------------------------

function valueChart(points, names, current) {
  const width = 300, height = 110, pad = 6;
  const svg = el("svg:svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img",
    "aria-label": `value history, from ${names[0]}'s side` });
  const n = Math.max(points.length - 1, 1);
  const px = (ply) => pad + (width - 2 * pad) * ply / n;
  const py = (v) => height / 2 - (height / 2 - pad) * v;
  svg.append(el("svg:line", { x1: pad, x2: width - pad, y1: py(0), y2: py(0), class: "axis" }));
  svg.append(el("svg:polyline", { points: points.map((p) => `${px(p.ply)},${py(p.value)}`).join(" "), class: "history" }));
  for (const p of points) {
    svg.append(el("svg:circle", { cx: px(p.ply), cy: py(p.value), r: p.ply === current ? 3.5 : 2, class: "dot" },
      el("svg:title", { text: `ply ${p.ply}: ${p.label}` })));
  }
  svg.append(el("svg:text", { x: pad, y: 12, class: "chart-label", text: `${capital(names[0])} better` }));
  svg.append(el("svg:text", { x: pad, y: height - 4, class: "chart-label", text: `${capital(names[1])} better` }));
  return svg;
}

// ---- the game page (play, watch, replay) ----------------------------------------------

class GamePage {
  constructor(source, id, ply) {
    this.source = source; // "live", "web" or "arena"
    this.id = id;
    this.state = null;
    this.selected = null;
    this.chooser = null; // the moves between which a count is asked
    this.bombMode = false;
    this.flip = false;
    this.analysisOn = false;
    this.analysis = null;
    this.values = null;
    this.animating = false;
    this.flash = [];
    this.message = "";
    this.alive = true;
    this.ply = ply;
    this.keys = (event) => this.onKey(event);
    document.addEventListener("keydown", this.keys);
    this.load().then(() => this.poll());
  }

  kill() { this.alive = false; document.removeEventListener("keydown", this.keys); }

  get live() { return this.source === "live"; }

  async load() {
    try {
      const path = this.live ? `/api/games/${this.id}` : `/api/replay/${this.source}/${this.id}${this.ply === undefined ? "" : "?ply=" + this.ply}`;
      await this.show(await api("GET", path));
    } catch (error) { this.fail(error); }
  }

  async poll() {
    while (this.alive && this.live) {
      await sleep(250);
      const s = this.state;
      if (!s || this.animating || !(s.thinking || (s.to_move !== null && s.players[s.to_move] !== "human" && !s.error))) continue;
      try { await this.show(await api("GET", `/api/games/${this.id}`)); } catch (error) { this.fail(error); }
    }
  }

  // Shows a new state, animating the last action's cascade when it is one ply on.
  async show(state) {
    const previous = this.state;
    const oneOn = previous && state.ply === previous.ply + 1 && state.last_steps.length;
    this.state = state;
    this.selected = null;
    if (oneOn) await this.animate(state.last_steps);
    this.flash = state.last_steps.length ? state.last_steps[state.last_steps.length - 1].flash : [];
    if (this.analysisOn && state.ply !== (previous && previous.ply)) this.refreshAnalysis();
    this.render();
  }

  async animate(steps) {
    this.animating = true;
    const pause = Math.max(110, Math.min(420, 2600 / steps.length));
    for (const step of steps) {
      if (!this.alive) break;
      this.renderBoard(step.cells, step.flash, "boom");
      await sleep(pause);
    }
    this.animating = false;
  }

  fail(error) { this.message = error.message || String(error); this.render(); }

  async send(method, path, body) {
    try {
      this.message = "";
      await this.show(await api(method, path, body));
    } catch (error) { this.fail(error); }
  }

  play(move) {
    this.bombMode = false;
    this.chooser = null;
    return this.send("POST", `/api/games/${this.id}/moves`, { move });
  }

  humanToMove() {
    const s = this.state;
    return this.live && s && s.to_move !== null && s.players[s.to_move] === "human" && !this.animating;
  }

  // Clicks: pick a stack (or a bomb), then where it goes; one-click actions play at once.
  onCell(cell, event) {
    if (!this.humanToMove()) return;
    const legal = this.state.legal;
    const key = cell.group || cell.name;
    if (this.selected) {
      const moves = legal.filter((m) => m.from === this.selected && m.to === cell.name && m.kind !== "boom");
      if (moves.length === 1) return this.play(moves[0].id);
      if (moves.length > 1) return this.chooseCount(moves);
      if (cell.name === this.selected) { this.selected = null; return this.render(); }
    }
    const detonate = legal.find((m) => m.kind === "detonate" && m.from === cell.name);
    if (detonate) return this.play(detonate.id);
    const bomb = this.bombMode || event.shiftKey;
    const oneClick = legal.filter((m) => m.from === null && m.to === key && (m.kind !== "bomb" || bomb) && (m.kind !== "drop" || !bomb));
    if (oneClick.length) return this.play(oneClick[0].id);
    if (legal.some((m) => m.from === cell.name)) { this.selected = cell.name; this.chooser = null; return this.render(); }
    this.selected = null;
    this.render();
  }

  chooseCount(moves) { this.chooser = moves; this.render(); }

  onKey(event) {
    if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
    if (!this.live) {
      const length = this.state ? this.state.length : 0;
      if (event.key === "ArrowLeft") this.goto(Math.max(0, this.state.ply - 1));
      if (event.key === "ArrowRight") this.goto(Math.min(length, this.state.ply + 1));
      return;
    }
    if (event.key === "u") this.send("POST", `/api/games/${this.id}/undo`);
    if (event.key === "f") { this.flip = !this.flip; this.render(); }
    if (event.key === "a") this.toggleAnalysis();
    if (event.key === "Escape") { this.selected = null; this.chooser = null; this.render(); }
    if (/^[1-9]$/.test(event.key) && this.chooser) {
      const move = this.chooser.find((m) => m.count === Number(event.key));
      if (move) this.play(move.id);
    }
  }

  goto(ply) {
    this.ply = ply;
    api("GET", `/api/replay/${this.source}/${this.id}?ply=${ply}`).then((s) => this.show(s), (e) => this.fail(e));
  }

  toggleAnalysis() {
    this.analysisOn = !this.analysisOn;
    if (this.analysisOn) this.refreshAnalysis(); else this.render();
  }

  // Live games are analysed by id (the server caches it); a replay sends its line.
  async refreshAnalysis() {
    const s = this.state;
    const ply = s.ply;
    this.analysis = { loading: true };
    this.render();
    try {
      const line = { game: s.game, position: s.start, actions: s.actions };
      const [analysis, values] = this.live
        ? await Promise.all([api("GET", `/api/games/${this.id}/analysis`), api("GET", `/api/games/${this.id}/values`)])
        : await Promise.all([api("POST", "/api/analysis", line),
          this.values && this.valuesFor === this.id ? { values: this.values } : api("POST", "/api/values", { ...line, actions: s.all_actions })]);
      this.valuesFor = this.id;
      if (this.state.ply !== ply) return;
      this.analysis = analysis;
      this.values = values.values;
    } catch (error) { this.analysis = null; this.message = error.message; }
    this.render();
  }

  marks() {
    const marks = {};
    const add = (name, cls) => { (marks[name] = marks[name] || []).push(cls); };
    for (const name of this.flash) add(name, "last");
    for (const name of this.state.lines || []) add(name, "line");
    if (this.humanToMove()) {
      const legal = this.state.legal;
      for (const m of legal) if (m.from !== null) add(m.from, "movable");
      if (this.selected) {
        add(this.selected, "selected");
        for (const m of legal) if (m.from === this.selected && m.to !== this.selected) add(m.to, "target");
      }
      for (const m of legal) if (m.from === null && m.to) add(m.land || m.to, "droppable");
    }
    return marks;
  }

  // Analysis colours: one-click moves tint their cell; a stack shows its best
  // move's colour, and once picked, each target its own.
  tints() {
    if (!this.analysisOn || !this.analysis || !this.analysis.moves) return {};
    const byId = new Map(this.analysis.moves.map((m) => [m.id, m]));
    const tints = {};
    const best = {};
    for (const g of this.state.legal) {
      const m = byId.get(g.id);
      if (!m || !moveColour(m)) continue;
      const bomb = this.bombMode;
      let cells = [];
      if (g.from === null && g.to && ((g.kind === "bomb") === bomb)) cells = [g.land || g.to];
      else if (g.from !== null && this.selected === g.from && g.to !== g.from) cells = [g.to];
      else if (g.from !== null && !this.selected) cells = [g.from];
      for (const name of cells) {
        if (best[name] === undefined || rank(m) > best[name]) { best[name] = rank(m); tints[name] = moveColour(m); }
      }
    }
    return tints;
  }

  renderBoard(cells, flash, extra) {
    const holder = view.querySelector(".board-holder");
    if (!holder) return;
    const marks = {};
    for (const name of flash || []) marks[name] = [extra];
    holder.replaceChildren(drawBoard(this.state, cells, { marks, flip: this.flip }));
  }

  render() {
    if (!this.alive) return;
    const s = this.state;
    if (!s) { view.replaceChildren(el("p", { class: "error", text: this.message || "loading..." })); return; }
    const board = drawBoard(s, s.cells, { marks: this.marks(), tints: this.tints(), flip: this.flip,
      onClick: (cell, event) => this.onCell(cell, event) });
    const sides = s.players.map((spec, p) => el("li", { class: s.to_move === p ? "to-move" : "" },
      el("span", { class: `swatch p${p}`, style: `background:${pieceColours(s)[p]}` }),
      `${capital(s.player_names[p])}: ${spec}`));
    const status = s.outcome ? s.outcome.text : s.thinking ? `${capital(s.player_names[s.to_move])} (${s.players[s.to_move]}) is thinking...` : s.caption;
    const panel = el("section", { class: "panel" },
      el("h2", { text: `${s.title} ` }, el("small", { text: s.game })),
      el("ul", { class: "sides" }, sides),
      el("p", { class: `status ${s.outcome ? "over" : ""}`, id: "status", text: status }),
      this.message ? el("p", { class: "error", role: "alert", text: this.message }) : null,
      s.error ? el("p", { class: "error", text: s.error }) : null,
      this.live ? this.controls() : this.replayControls(),
      this.chooser ? this.countChooser() : null,
      this.analysisOn ? this.analysisPanel() : null,
      this.moveList());
    view.replaceChildren(el("div", { class: "game" }, el("div", { class: "board-holder" }, board), panel));
  }

  controls() {
    const s = this.state;
    const buttons = [
      el("button", { id: "new-game", on: { click: () => { location.hash = `#/?game=${encodeURIComponent(s.game)}`; } }, text: "New game" }),
      el("button", { id: "undo", title: "u", on: { click: () => this.send("POST", `/api/games/${this.id}/undo`) }, text: "Undo", disabled: s.ply === 0 }),
      el("button", { id: "resign", on: { click: () => this.send("POST", `/api/games/${this.id}/resign`, {}) }, text: "Resign", disabled: !!s.outcome || !s.players.includes("human") }),
      el("button", { id: "flip", title: "f", on: { click: () => { this.flip = !this.flip; this.render(); } }, text: "Flip" }),
      el("button", { id: "analysis", title: "a", "aria-pressed": String(this.analysisOn), on: { click: () => this.toggleAnalysis() }, text: this.analysisOn ? "Hide analysis" : "Analysis" }),
    ];
    if (s.name === "kaboom" && s.legal.some((m) => m.kind === "bomb")) {
      buttons.push(el("button", { id: "bomb-mode", "aria-pressed": String(this.bombMode), class: this.bombMode ? "on" : "",
        on: { click: () => { this.bombMode = !this.bombMode; this.render(); } }, text: this.bombMode ? "Dropping bombs" : "Drop a bomb" }));
    }
    const pass = s.legal.find((m) => m.kind === "pass");
    if (pass && this.humanToMove()) buttons.push(el("button", { id: "pass", on: { click: () => this.play(pass.id) }, text: "Pass" }));
    const booms = this.selected ? s.legal.filter((m) => m.kind === "boom" && m.from === this.selected) : [];
    for (const m of booms) buttons.push(el("button", { class: "boom", id: "boom", on: { click: () => this.play(m.id) }, text: `Boom ${m.from}` }));
    const input = el("input", { id: "move-input", placeholder: s.legal[0] ? `move, e.g. ${s.legal[0].text}` : "move", autocomplete: "off",
      "aria-label": "move in notation", disabled: !this.humanToMove() });
    const form = el("form", { class: "move-entry", on: { submit: (event) => { event.preventDefault(); if (input.value.trim()) this.play(input.value.trim()); } } },
      input, el("button", { type: "submit", text: "Play" }));
    return el("div", { class: "controls" }, el("div", { class: "buttons" }, buttons), form);
  }

  countChooser() {
    return el("div", { class: "chooser", role: "group", "aria-label": "how many to move" },
      el("span", { text: `Move how many ${this.state.name === "expendibots" ? "tokens" : "stones"}? ` }),
      this.chooser.map((m) => el("button", { class: "count", "data-count": m.count, on: { click: () => { this.chooser = null; this.play(m.id); } }, text: String(m.count) })),
      el("button", { on: { click: () => { this.chooser = null; this.render(); } }, text: "Cancel" }));
  }

  replayControls() {
    const s = this.state;
    const go = (ply) => () => this.goto(ply);
    return el("div", { class: "controls" }, el("div", { class: "buttons" },
      el("button", { id: "first", on: { click: go(0) }, text: "«", "aria-label": "first position" }),
      el("button", { id: "back", on: { click: go(Math.max(0, s.ply - 1)) }, text: "‹", "aria-label": "back" }),
      el("span", { class: "ply", text: `${s.ply} / ${s.length}` }),
      el("button", { id: "forward", on: { click: go(Math.min(s.length, s.ply + 1)) }, text: "›", "aria-label": "forward" }),
      el("button", { id: "last", on: { click: go(s.length) }, text: "»", "aria-label": "last position" }),
      el("button", { id: "flip", on: { click: () => { this.flip = !this.flip; this.render(); } }, text: "Flip" }),
      el("button", { id: "analysis", "aria-pressed": String(this.analysisOn), on: { click: () => this.toggleAnalysis() }, text: this.analysisOn ? "Hide analysis" : "Analysis" })));
  }

  analysisPanel() {
    const a = this.analysis;
    if (!a || a.loading) return el("div", { class: "analysis", text: "analysing..." });
    const s = this.state;
    const head = a.source === "solver" ? "solver (perfect play)" : a.source === "search" ? "search estimate" : "game over";
    const rows = (a.moves || []).slice().sort((x, y) => rank(y) - rank(x));
    return el("div", { class: "analysis" },
      el("p", {}, el("strong", { text: `Analysis (${head}): ` }),
        `${s.to_move === null ? "" : capital(s.player_names[s.to_move]) + " to move: "}${describeValue(a)}`),
      el("div", { class: "legend" }, Object.entries(VALUE_COLOURS).map(([k, c]) => el("span", {}, el("i", { style: `background:${c}` }), k))),
      el("p", { class: "note", text: "For each move: its value for the mover and, after \"in\", the plies left to the end once it is played (best play)." }),
      el("ul", { class: "move-values" }, rows.map((m) => el("li", {},
        el("button", { class: "value-move", style: `border-color:${moveColour(m) || "#999"}`, disabled: !this.humanToMove(),
          on: { click: () => this.play(m.id) }, text: m.text }), el("span", { text: describeValue(m) })))),
      this.values ? valueChart(this.values, s.player_names, s.ply) : null);
  }

  moveList() {
    const s = this.state;
    const items = s.moves.map((m) => el("li", { class: m.ply === s.ply - 1 ? "current" : "",
      on: this.live ? {} : { click: () => this.goto(m.ply + 1) } }, m.text));
    const long = s.moves.some((m) => m.text.length > 8); // Expendibots' sentences: one column
    return el("div", { class: "moves" }, el("h3", { text: "Moves" }), el("ol", { id: "move-list", class: long ? "long" : "" }, items));
  }
}

// ---- the other pages --------------------------------------------------------------------

async function newGamePage(query) {
  catalog = catalog || await api("GET", "/api/catalog");
  // "#/?game=kaboom(rows=5,misere=true)": the game and its variant, preselected.
  const [wanted, inside = ""] = (query.get("game") || "kaboom").replace(/\)$/, "").split("(");
  const given = Object.fromEntries(inside.split(",").filter(Boolean).map((item) => item.split("=")));
  const levels = catalog.levels.filter((level) => level.spec !== "solver" || catalog.solver);
  const gameSelect = el("select", { id: "game-select", "aria-label": "game" },
    catalog.games.map((g) => el("option", { value: g.name, selected: g.name === wanted, text: g.title })));
  const paramsBox = el("div", { class: "params" });
  const sidesBox = el("div", { class: "sides-form" });
  const message = el("p", { class: "error", role: "alert" });
  const positionInput = el("input", { id: "position", placeholder: "the start position, in the game's notation", autocomplete: "off" });
  const about = el("p", { class: "about" });
  const fill = () => {
    const game = catalog.games.find((g) => g.name === gameSelect.value);
    about.textContent = game.doc;
    paramsBox.replaceChildren(...game.parameters.map((p) => {
      const id = `param-${p.name}`;
      const value = game.name === wanted && p.name in given ? given[p.name] : p.text;
      const input = p.kind === "bool" ? el("input", { type: "checkbox", id, name: p.name, checked: value === "true" })
        : el("input", { id, name: p.name, value, type: p.kind === "int" ? "number" : "text", min: p.minimum, max: p.maximum });
      return el("label", { title: p.help }, `${p.name} `, input);
    }));
    sidesBox.replaceChildren(...game.player_names.map((name, index) => {
      // The menu's levels, or any agent spec typed in ("mcts:simulations=2000,seed=3").
      const spec = el("input", { id: `spec-${index}`, placeholder: "agent spec, e.g. alphabeta:depth=5", hidden: true,
        "aria-label": `${name}'s agent spec` });
      const menu = el("select", { id: `side-${index}`, name: `side-${index}`, on: { change: () => { spec.hidden = menu.value !== CUSTOM; } } },
        levels.map((level) => el("option", { value: level.spec, text: level.label,
          selected: level.spec === (index === 0 ? "human" : "ai:time=0.5") })),
        el("option", { value: CUSTOM, text: "Other agent spec..." }));
      return el("label", {}, `${capital(name)} `, menu, spec);
    }));
  };
  gameSelect.addEventListener("change", fill);
  fill();
  const start = async (players) => {
    const params = {};
    for (const input of paramsBox.querySelectorAll("input")) params[input.name] = input.type === "checkbox" ? input.checked : input.value;
    try {
      const position = positionInput.value.trim() || null;
      const state = await api("POST", "/api/games", { game: gameSelect.value, params, players, position });
      location.hash = `#/game/${state.id}`;
    } catch (error) { message.textContent = error.message; }
  };
  const sides = () => [0, 1].map((i) => {
    const choice = document.getElementById(`side-${i}`).value;
    return choice === CUSTOM ? document.getElementById(`spec-${i}`).value : choice;
  });
  view.replaceChildren(el("section", { class: "new-game" },
    el("h2", { text: "New game" }),
    el("label", {}, "Game ", gameSelect), about, paramsBox, sidesBox,
    el("label", { class: "position" }, "Start from (optional) ", positionInput),
    el("div", { class: "buttons" },
      el("button", { id: "start", class: "primary", on: { click: () => start(sides()) }, text: "Start" }),
      el("button", { id: "watch", on: { click: () => start(["ai:time=0.5", "alphabeta:depth=3"]) }, text: "Watch AI vs AI" })),
    message));
}

async function gamesPage() {
  catalog = catalog || await api("GET", "/api/catalog");
  const web = await api("GET", "/api/games");
  const when = (seconds) => (seconds ? new Date(seconds * 1000).toLocaleString() : "");
  const row = (g, href) => el("li", {}, el("a", { href, text: `${g.game}: ${g.players.join(" vs ")}` }),
    ` ${g.plies} plies, ${g.finished === false ? "in progress" : g.reason || "finished"} ${when(g.updated || g.started)}`);
  const list = (games, href) => (games.length ? el("ul", { class: "game-list" }, games.map((g) => row(g, href(g))))
    : el("p", { text: "No games yet." }));
  const sections = [el("h2", { text: "Games played here" }),
    list(web.games, (g) => (g.finished ? `#/replay/web/${g.id}` : `#/game/${g.id}`))];
  if (catalog.arena) {
    const arena = await api("GET", "/api/archive/arena").catch(() => ({ games: [] }));
    sections.push(el("h2", { text: "Arena games" }), list(arena.games, (g) => `#/replay/arena/${g.id}`));
  }
  view.replaceChildren(el("section", { class: "listing" }, sections));
}

// An Elo or its interval is null where it is infinite (an agent that won or lost every game).
function eloText(s) {
  if (s.elo === null) return "±∞";
  return `${Math.round(s.elo)} ± ${s.elo_error === null ? "∞" : Math.round(s.elo_error || 0)}`;
}

function ratingChart(standings) {
  const width = 320, rowHeight = 22, pad = 90;
  const finite = (s) => s.elo !== null;
  const half = (s) => (s.elo_error === null ? 0 : s.elo_error || 0);
  const elos = standings.filter(finite).flatMap((s) => [s.elo - half(s), s.elo + half(s)]);
  const low = Math.min(...elos, 0), high = Math.max(...elos, 0);
  const x = (v) => pad + (width - pad - 10) * (v - low) / Math.max(high - low, 1);
  const svg = el("svg:svg", { viewBox: `0 0 ${width} ${rowHeight * standings.length + 10}`, class: "rating-chart", role: "img", "aria-label": "ratings" });
  svg.append(el("svg:line", { x1: x(0), x2: x(0), y1: 0, y2: rowHeight * standings.length, class: "axis" }));
  standings.forEach((s, i) => {
    const y = 14 + i * rowHeight;
    svg.append(el("svg:text", { x: 2, y: y + 4, class: "chart-label", text: s.agent.slice(0, 14) }));
    if (!finite(s)) return;  // no point to draw for an infinite rating
    svg.append(el("svg:line", { x1: x(s.elo - half(s)), x2: x(s.elo + half(s)), y1: y, y2: y, class: "error-bar" }));
    svg.append(el("svg:circle", { cx: x(s.elo), cy: y, r: 4, class: "dot" }));
  });
  return svg;
}

async function tournamentsPage(id) {
  catalog = catalog || await api("GET", "/api/catalog");
  const listing = await api("GET", "/api/tournaments").catch((error) => ({ tournaments: [], error: error.message }));
  const items = listing.tournaments.map((t) => el("li", {}, el("a", { href: `#/tournaments/${t.id}`, text: `#${t.id} ${t.game}${t.name ? " " + t.name : ""}` })));
  const parts = [el("h2", { text: "Tournaments" }), listing.error ? el("p", { text: listing.error }) : el("ul", {}, items)];
  if (id !== undefined) {
    const { standings } = await api("GET", `/api/tournaments/${id}`);
    const head = ["agent", "games", "wins", "ties", "losses", "score", "Elo"];
    parts.push(el("h3", { text: `Standings of tournament ${id}` }),
      el("table", { class: "standings" }, el("tr", {}, head.map((h) => el("th", { text: h }))),
        standings.map((s) => el("tr", {}, [s.agent, s.games, s.wins, s.ties, s.losses, s.score,
          eloText(s)].map((v) => el("td", { text: String(v) }))))),
      ratingChart(standings),
      catalog && catalog.arena_chart ? el("img", { src: `/api/tournaments/${id}/chart.png`, alt: "the arena's rating chart", class: "arena-chart" }) : null,
      el("p", {}, el("a", { href: `#/games?tournament=${id}`, text: "Replay its games" })));
    const games = await api("GET", `/api/archive/arena?tournament=${id}`).catch(() => ({ games: [] }));
    parts.push(el("ul", { class: "game-list" }, games.games.map((g) => el("li", {},
      el("a", { href: `#/replay/arena/${g.id}`, text: `${g.players.join(" vs ")}` }), ` ${g.reason || ""}`))));
  }
  view.replaceChildren(el("section", { class: "listing" }, parts));
}

async function route() {
  if (current) current.kill();
  current = null;
  const [path, queryText] = location.hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean);
  const query = new URLSearchParams(queryText || "");
  try {
    if (parts[0] === "game") current = window.page = new GamePage("live", parts[1]);
    else if (parts[0] === "replay") current = window.page = new GamePage(parts[1], parts[2], query.has("ply") ? Number(query.get("ply")) : undefined);
    else if (parts[0] === "games") await gamesPage();
    else if (parts[0] === "tournaments") await tournamentsPage(parts[1]);
    else await newGamePage(query);
  } catch (error) {
    view.replaceChildren(el("p", { class: "error", text: error.message }));
  }
}

window.addEventListener("hashchange", route);
route();
