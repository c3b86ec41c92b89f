// boomboard's page: one script, no build step, no network beyond this server.
// Routes: #/ (new game), #/game/ID (play or watch), #/replay/SOURCE/ID (from ply 0, or ?ply=N),
// #/position?game=GAME&position=NOTATION (a shared position, for analysis or to play on),
// #/games (stored games), #/tournaments and #/tournaments/ID; and the path /rules/GAME.
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
// One scale for every number the analysis shows: the expected score of a side,
// 0% a sure loss, 50% even, 100% a sure win. The solver's values are exact
// (win 100%, tie or draw 50%, lose 0%); a search's evaluation e (hundredths
// of the game's own units, about one token or piece each) maps to
// 50% + 50% * tanh(e / 300), as the value chart plots it.
const SCALE_NOTE = "Expected score for the side named: 100% a sure win, 50% even, 0% a sure loss. "
  + "Exact where the solver has a table (win, tie or lose, with the plies left under best play after \"in\"), "
  + "else estimated by a short search.";
const moveValue = (m) => (m.value === "win" ? 1 : m.value === "lose" ? -1 : m.value ? 0
  : m.score !== null && m.score !== undefined ? Math.tanh(m.score / 300) : null); // -1..1 for the mover
const percent = (v) => `${Math.round(50 + 50 * v)}%`;
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const scoreColour = (score) => {
  // Green when better, red when worse, grey near even: yellow stays the colour of a tie.
  const t = 1 / (1 + Math.exp(-score / 300)); // 0 losing .. 1 winning
  return `hsl(${t >= 0.5 ? 120 : 0}, ${Math.round(Math.abs(t - 0.5) * 160)}%, 42%)`;
};
const moveColour = (m) => (m.value ? VALUE_COLOURS[m.value] : m.score !== null && m.score !== undefined ? scoreColour(m.score) : null);
// Colours relative to the best move (as GamesmanUni shades them): the best
// moves bright green, then yellow, orange and red as a move gives more away.
const relativeColour = (m, bestValue) => {
  if (m.value) return VALUE_COLOURS[m.value];
  const v = moveValue(m);
  if (v === null) return null;
  const loss = Math.min(1, Math.max(0, (bestValue - v) / 0.3)); // 0: as good as the best, 1: 15 points of expected score worse
  return `hsl(${Math.round(120 * (1 - loss))}, 75%, ${loss < 0.02 ? 36 : 45}%)`;
};
// Best first: quick wins, then scores and ties, then slow losses.
const rank = (m) => (m.value === "win" ? 3e6 - (m.remoteness || 0) : m.value === "lose" ? -3e6 + (m.remoteness || 0)
  : m.value ? 0 : m.score);
const describeValue = (m) => (m.value ? `${m.value}${m.remoteness !== null && m.remoteness !== undefined ? " in " + m.remoteness : ""}`
  : m.score !== null && m.score !== undefined ? percent(moveValue(m)) : "?");

// ---- the board --------------------------------------------------------------------------

// How a game looks (its colours, counts or pieces, its labels) is the game's own
// declaration, state.presentation (boomboard.core.geometry.Presentation): this
// script names no game.
const pieceColours = (state) => state.presentation.colours;

function hexPoints(x, y, r) {
  const points = [];
  for (let i = 0; i < 6; i++) {
    const angle = Math.PI / 180 * (60 * i - 90);
    points.push(`${(x + r * Math.cos(angle)).toFixed(3)},${(y + r * Math.sin(angle)).toFixed(3)}`);
  }
  return points.join(" ");
}

// The least box around the cells and their labels: on a phone a board that
// fills the screen wastes no width on margins, so its cells are as big as they can be.
// A label (drawn 0.38 cells high there) keeps room for a phone's wider fonts and
// a gap to the screen's edge: a glyph at the very edge reads as cut off.
function tightBox(layout) {
  const xs = [], ys = [];
  for (const c of layout.cells) { xs.push(c.x - 0.6, c.x + 0.6); ys.push(c.y - 0.6, c.y + 0.6); }
  for (const l of layout.labels) {
    const halfWidth = 0.14 * l.text.length + 0.2;
    xs.push(l.x - halfWidth, l.x + halfWidth);
    ys.push(l.y - 0.35, l.y + 0.35);
  }
  const x = Math.min(...xs), y = Math.min(...ys);
  return [x, y, Math.max(...xs) - x, Math.max(...ys) - y];
}

// The move list's box (14rem at most) scrolls so that the current move sits in its middle:
// a long game's last moves would otherwise stay hidden below the box's fold. Only the box
// scrolls (its scrollTop), never the page, as scrollIntoView would.
function showCurrentMove(root) {
  const box = root.querySelector(".move-scroll"), move = box && box.querySelector("td.current");
  if (!move) return;
  const boxTop = box.getBoundingClientRect().top, moveBox = move.getBoundingClientRect();
  const moveTop = moveBox.top - boxTop + box.scrollTop; // from the top of the list, scrolled or not
  box.scrollTop = moveTop - (box.clientHeight - moveBox.height) / 2;
}

// Draws `cells` on the game's layout; `marks` maps a cell name to CSS classes,
// `tints` a cell name to a colour (analysis), `flip` turns the board round.
function drawBoard(state, cells, { marks = {}, tints = {}, flip = false, onClick = null } = {}) {
  const layout = state.layout;
  const look = state.presentation;
  const box = look.fills_phone && window.matchMedia("(max-width: 600px)").matches ? tightBox(layout) : layout.box;
  const [bx, by, bw, bh] = box;
  const turn = (x, y) => (flip ? [2 * bx + bw - x, 2 * by + bh - y] : [x, y]);
  const svg = el("svg:svg", { viewBox: box.join(" "), class: `board ${layout.shape}${look.fills_phone ? " fills-phone" : ""}`,
    role: "group", "aria-label": `${state.title} board` });
  // A game may draw counts (a number in the owner's colour) instead of pieces.
  const colours = pieceColours(state);
  const counts = look.counts;
  layout.cells.forEach((cell, index) => {
    const [x, y] = turn(cell.x, cell.y);
    const [owner, text, mark] = cells[index];
    const classes = ["cell", ...(marks[cell.name] || [])].join(" ");
    // What a screen reader says: "d2: white 3", "C2: x bomb", "1 1: 2 red" (a game whose unowned
    // cells hold counts too, called look.neutral), "A1: empty".
    const what = look.neutral ? `${text} ${owner === null ? look.neutral : state.player_names[owner]}`
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

function valueChart(points, names, current, onPick) {
  const width = 300, height = 110, pad = 6;
  const svg = el("svg:svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "group",
    "aria-label": `expected score of ${names[0]} along the game; click a point to go to that position` });
  const n = Math.max(points.length - 1, 1);
  const px = (ply) => pad + (width - 2 * pad) * ply / n;
  const py = (v) => height / 2 - (height / 2 - pad) * v;
  svg.append(el("svg:line", { x1: pad, x2: width - pad, y1: py(0), y2: py(0), class: "axis" }));
  svg.append(el("svg:polyline", { points: points.map((p) => `${px(p.ply)},${py(p.value)}`).join(" "), class: "history" }));
  svg.append(el("svg:text", { x: pad, y: 12, class: "chart-label", text: `${capital(names[0])} 100%` }));
  svg.append(el("svg:text", { x: pad, y: py(0) - 3, class: "chart-label", text: "50%" }));
  svg.append(el("svg:text", { x: pad, y: height - 4, class: "chart-label", text: `${capital(names[0])} 0% (${names[1]} wins)` }));
  for (const p of points) {
    const text = `ply ${p.ply}: ${capital(names[0])} ${percent(p.value)} (${p.label})`;
    const group = el("svg:g", { class: `point${p.ply === current ? " current" : ""}`, "data-ply": p.ply, role: "button",
      tabindex: onPick ? 0 : undefined, "aria-label": text });
    group.append(el("svg:circle", { cx: px(p.ply), cy: py(p.value), r: 7, class: "hit" }));
    group.append(el("svg:circle", { cx: px(p.ply), cy: py(p.value), r: p.ply === current ? 3.5 : 2, class: "dot" },
      el("svg:title", { text })));
    if (onPick) {
      group.addEventListener("click", () => onPick(p.ply));
      group.addEventListener("keydown", (event) => { if (event.key === "Enter") onPick(p.ply); });
    }
    svg.append(group);
  }
  return svg;
}

// A bar split between the two sides at the expected score of the first.
function evalBar(value, names, colours) {
  const share = Math.round(50 + 50 * value);
  return el("div", { class: "eval-bar", role: "img", "aria-label": `${names[0]} ${share}%, ${names[1]} ${100 - share}%` },
    el("span", { class: "eval-side", style: `width:${share}%;background:${colours[0]}`, text: `${capital(names[0])} ${share}%` }),
    el("span", { class: "eval-side", style: `width:${100 - share}%;background:${colours[1]}`, text: `${100 - share}%` }));
}

// ---- the game page (play, watch, replay) ----------------------------------------------

class GamePage {
  constructor(source, id, ply, line) {
    this.source = source; // "live", "web", "arena" or "position" (a shared link: `line` is {game, position})
    this.id = id;
    this.line = line;
    this.confirmResign = false;
    this.shareOpen = false;
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
    if (source === "position") this.analysisOn = true;
    this.queue = [];
    this.load().then(() => this.listen());
  }

  kill() {
    this.alive = false;
    document.removeEventListener("keydown", this.keys);
    if (this.events) this.events.close();
  }

  // A live game's changes (the AI's moves above all) come as server-sent
  // events, shown in order as they arrive; without them, the page polls.
  listen() {
    if (!this.live) return;
    if (!window.EventSource) { this.poll(); return; }
    this.events = new EventSource(`/api/games/${this.id}/events`);
    this.events.onmessage = (event) => { this.queue.push(JSON.parse(event.data)); this.drain(); };
    this.events.onerror = () => {
      if (!this.events || this.events.readyState !== EventSource.CLOSED) return; // it reconnects by itself
      this.events = null;
      if (this.alive && this.state && !this.state.outcome) this.poll();
    };
  }

  async drain() {
    if (this.draining) return;
    this.draining = true;
    while (this.queue.length && this.alive) {
      const s = this.queue.shift();
      if (s.outcome && this.events) { this.events.close(); this.events = null; } // the stream ends with the game
      await this.show(s, true);
    }
    this.draining = false;
  }

  get live() { return this.source === "live"; }

  async load() {
    try {
      if (this.source === "position") {
        await this.show(await api("POST", "/api/position", { game: this.line.game, position: this.line.position, actions: [] }));
        return;
      }
      const path = this.live ? `/api/games/${this.id}` : `/api/replay/${this.source}/${this.id}${this.ply === undefined ? "" : "?ply=" + this.ply}`;
      await this.show(await api("GET", path));
    } catch (error) { this.fail(error); }
  }

  async poll() {
    if (this.polling) return;
    this.polling = true;
    while (this.alive && this.live) {
      await sleep(250);
      const s = this.state;
      if (!s || this.animating || !(s.thinking || (s.to_move !== null && s.players[s.to_move] !== "human" && !s.error))) continue;
      try { await this.show(await api("GET", `/api/games/${this.id}`), true); } catch (error) { this.fail(error); }
    }
  }

  // Shows a new state, animating the last action's cascade when it is one ply
  // on. One at a time: a move's answer and the events never animate at once.
  // `onward`: the state is the game's latest (an event, a move's answer),
  // and one older than the state shown is stale (events and answers race);
  // an undo or a replay's step may go back.
  show(state, onward = false) {
    this.showing = (this.showing || Promise.resolve()).then(() => {
      const now = this.state;
      if (onward && now && now.id === state.id) {
        if (state.ply < now.ply) return; // older than what is shown already
        const changed = state.ply !== now.ply || state.thinking !== now.thinking || state.error !== now.error
          || JSON.stringify(state.outcome) !== JSON.stringify(now.outcome) || state.to_move !== now.to_move;
        if (!changed) return;
      }
      return this.showNow(state);
    }).catch((error) => this.fail(error));
    return this.showing;
  }

  async showNow(state) {
    const previous = this.state;
    const oneOn = previous && state.ply === previous.ply + 1 && state.last_steps.length;
    const moved = !previous || state.ply !== previous.ply || state.to_move !== previous.to_move;
    this.state = state;
    if (moved) this.selected = null; // a picked stack stays picked while only "thinking" changes
    if (moved) { this.analysis = this.analysisOn ? { loading: true } : null; this.confirmResign = false; }
    if (oneOn) await this.animate(state.last_steps);
    this.flash = state.last_steps.length ? state.last_steps[state.last_steps.length - 1].flash : [];
    if (this.analysisOn && (moved || !this.analysis || this.analysis.loading)) this.refreshAnalysis();
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
      await this.show(await api(method, path, body), !path.endsWith("/undo"));
      // a finished game taken back (undo) goes on: listen to it again
      if (this.live && this.alive && !this.events && !this.polling && !this.state.outcome) this.listen();
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
    if (event.key === "u") this.send("POST", `/api/games/${this.id}/undo`, {});
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
      if (s.thinking) { this.analysis = { waiting: true }; this.render(); return; } // the AI moves: analyse after
      const [analysis, values] = this.live
        ? await Promise.all([api("GET", `/api/games/${this.id}/analysis`), api("GET", `/api/games/${this.id}/values`)])
        : await Promise.all([api("POST", "/api/analysis", line),
          this.values && this.valuesFor === this.id ? { values: this.values } : api("POST", "/api/values", { ...line, actions: s.all_actions })]);
      this.valuesFor = this.id;
      if (this.state !== s && this.state.ply !== ply) return;
      this.analysis = analysis;
      this.values = values.values;
      // The chart's point for this position agrees with the headline: both from this analysis.
      const headline = this.headlineValue(analysis);
      if (headline !== null && this.values) {
        this.values = this.values.map((p) => (p.ply === ply ? { ...p, value: headline, label: describeValue(analysis) } : p));
      }
    } catch (error) { this.analysis = null; this.message = error.message; }
    this.render();
  }

  // The analysis's value of this position for the first player, -1..1 (null if unknown).
  headlineValue(a) {
    const s = this.state;
    if (!a || a.loading || a.waiting) return null;
    const v = moveValue(a);
    if (v === null) return null;
    const mover = s.to_move === null ? 0 : s.to_move;
    if (s.to_move === null && s.outcome) return s.outcome.winner === null ? 0 : s.outcome.winner === 0 ? 1 : -1;
    return mover === 0 ? v : -v;
  }

  pickPly(ply) {
    if (this.live) location.hash = `#/replay/web/${this.id}?ply=${ply}`;
    else if (this.source !== "position") this.goto(ply);
  }

  shareLink() {
    const s = this.state;
    return `${location.origin}/#/position?game=${encodeURIComponent(s.game)}&position=${encodeURIComponent(s.position)}`;
  }

  async playFromHere(players) {
    const s = this.state;
    try {
      const state = await api("POST", "/api/games", { game: s.game, players, position: s.position });
      location.hash = `#/game/${state.id}`;
    } catch (error) { this.fail(error); }
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
    const bestValue = Math.max(...this.analysis.moves.map((m) => moveValue(m) ?? -1));
    const tints = {};
    const best = {};
    for (const g of this.state.legal) {
      const m = byId.get(g.id);
      if (!m || !relativeColour(m, bestValue)) continue;
      const bomb = this.bombMode;
      let cells = [];
      if (g.from === null && g.to && ((g.kind === "bomb") === bomb)) cells = [g.land || g.to];
      else if (g.from !== null && this.selected === g.from && g.to !== g.from) cells = [g.to];
      else if (g.from !== null && !this.selected) cells = [g.from];
      for (const name of cells) {
        if (best[name] === undefined || rank(m) > best[name]) { best[name] = rank(m); tints[name] = relativeColour(m, bestValue); }
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
      el("h2", { text: `${s.title} ` }, el("small", { text: s.game }), " ",
        el("a", { href: `/rules/${s.name}`, id: "rules-link", class: "rules-link", text: "Rules" })),
      el("ul", { class: "sides" }, sides),
      el("p", { class: `status ${s.outcome ? "over" : ""}`, id: "status", text: status }),
      this.message ? el("p", { class: "error", role: "alert", text: this.message }) : null,
      s.error ? el("p", { class: "error", text: s.error }) : null,
      this.live ? this.controls() : this.source === "position" ? this.positionControls() : this.replayControls(),
      this.shareOpen ? this.sharePanel() : null,
      this.chooser ? this.countChooser() : null,
      this.analysisOn ? this.analysisPanel() : null,
      this.moveList());
    view.replaceChildren(el("div", { class: "game" }, el("div", { class: "board-holder" }, board), panel));
    showCurrentMove(view);
  }

  controls() {
    const s = this.state;
    const buttons = [
      el("button", { id: "new-game", on: { click: () => { location.hash = `#/?game=${encodeURIComponent(s.game)}`; } }, text: "New game" }),
      el("button", { id: "undo", title: "u", on: { click: () => this.send("POST", `/api/games/${this.id}/undo`, {}) }, text: "Undo",
        disabled: s.ply === 0 || !s.players.includes("human") }),
      el("button", { id: "resign", on: { click: () => { this.confirmResign = true; this.render(); } }, text: "Resign",
        disabled: !!s.outcome || !s.players.includes("human") || this.confirmResign }),
      el("button", { id: "flip", title: "f", on: { click: () => { this.flip = !this.flip; this.render(); } }, text: "Flip" }),
      el("button", { id: "analysis", title: "a", "aria-pressed": String(this.analysisOn), on: { click: () => this.toggleAnalysis() }, text: this.analysisOn ? "Hide analysis" : "Analysis" }),
      this.shareButton(),
    ];
    if (s.legal.some((m) => m.kind === "bomb")) {
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
    const confirm = this.confirmResign ? el("div", { class: "confirm", role: "alertdialog", "aria-label": "confirm resignation" },
      el("span", { text: "Resign this game? " }),
      el("button", { id: "confirm-resign", class: "boom", on: { click: () => { this.confirmResign = false; this.send("POST", `/api/games/${this.id}/resign`, {}); } }, text: "Yes, resign" }),
      el("button", { id: "cancel-resign", on: { click: () => { this.confirmResign = false; this.render(); } }, text: "Keep playing" })) : null;
    return el("div", { class: "controls" }, el("div", { class: "buttons" }, buttons), confirm, form);
  }

  shareButton() {
    return el("button", { id: "share", "aria-pressed": String(this.shareOpen), on: { click: () => { this.shareOpen = !this.shareOpen; this.render(); } },
      text: "Share position" });
  }

  sharePanel() {
    const link = this.shareLink();
    const input = el("input", { id: "share-link", value: link, readonly: true, "aria-label": "link to this position",
      on: { focus: (event) => event.target.select() } });
    const copy = el("button", { id: "copy-link", on: { click: () => {
      if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
      input.select();
    } }, text: "Copy" });
    return el("div", { class: "share" }, el("label", {}, "Link to this position (opens it for analysis): "), el("div", { class: "move-entry" }, input, copy));
  }

  positionControls() {
    const over = !!this.state.outcome; // a finished game has no move left to play from it
    return el("div", { class: "controls" }, el("p", { class: "note",
      text: over ? "A shared position: the game is over." : "A shared position. Analyse it, or play on from it." }),
      el("div", { class: "buttons" },
        over ? null : el("button", { id: "play-from-here", class: "primary", on: { click: () => this.playFromHere(["human", "ai:time=0.5"]) }, text: "Play from here against the AI" }),
        over ? null : el("button", { id: "play-both", on: { click: () => this.playFromHere(["human", "human"]) }, text: "Play both sides" }),
        el("button", { id: "flip", on: { click: () => { this.flip = !this.flip; this.render(); } }, text: "Flip" }),
        el("button", { id: "analysis", "aria-pressed": String(this.analysisOn), on: { click: () => this.toggleAnalysis() }, text: this.analysisOn ? "Hide analysis" : "Analysis" }),
        this.shareButton()));
  }

  countChooser() {
    return el("div", { class: "chooser", role: "group", "aria-label": "how many to move" },
      el("span", { text: `Move how many ${this.state.presentation.pieces}? ` }),
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
      el("button", { id: "analysis", "aria-pressed": String(this.analysisOn), on: { click: () => this.toggleAnalysis() }, text: this.analysisOn ? "Hide analysis" : "Analysis" }),
      this.shareButton()));
  }

  analysisPanel() {
    const a = this.analysis;
    if (a && a.waiting) return el("div", { class: "analysis", text: "The AI is thinking; the analysis follows its move." });
    if (!a || a.loading) return el("div", { class: "analysis", text: "analysing..." });
    const s = this.state;
    const names = s.player_names;
    const head = a.source === "solver" ? "solver: perfect play" : a.source === "search" ? "search estimate" : "game over";
    const rows = (a.moves || []).slice().sort((x, y) => rank(y) - rank(x));
    const bestValue = Math.max(...rows.map((m) => moveValue(m) ?? -1));
    const bestRank = rows.length ? rank(rows[0]) : null;
    const headline = this.headlineValue(a);
    const mover = s.to_move === null ? null : names[s.to_move];
    const valueText = a.value ? describeValue(a) : "";
    const summary = headline === null ? "?" : mover
      ? `${capital(mover)} to move: ${percent(s.to_move === 0 ? headline : -headline)}${valueText ? " (" + valueText + ")" : ""}`
      : s.outcome ? s.outcome.text : "";
    return el("div", { class: "analysis" },
      el("p", { class: "headline" }, el("strong", { text: `Analysis (${head}): ` }), summary),
      headline === null ? null : evalBar(headline, names, pieceColours(s)),
      el("p", { class: "note", text: SCALE_NOTE }),
      el("div", { class: "legend" },
        el("span", {}, el("i", { style: `background:${relativeColour({ score: 0 }, 0)}` }), "best"),
        el("span", {}, el("i", { style: `background:${relativeColour({ score: -50 }, 0)}` }), "weaker"),
        el("span", {}, el("i", { style: `background:${relativeColour({ score: -900 }, 0)}` }), "much weaker"),
        Object.entries(VALUE_COLOURS).map(([k, c]) => el("span", {}, el("i", { style: `background:${c}` }), `${k} (exact)`))),
      rows.length ? el("p", { class: "note", text: `Each move, best first, with the mover's expected score once it is played (${mover || ""}).` }) : null,
      el("ul", { class: "move-values" }, rows.map((m) => el("li", { class: rank(m) === bestRank ? "best" : "" },
        el("button", { class: "value-move", style: `border-color:${relativeColour(m, bestValue) || "#999"}`, disabled: !this.humanToMove(),
          on: { click: () => this.play(m.id) }, text: `${rank(m) === bestRank ? "★ " : ""}${m.text}` }), el("span", { text: describeValue(m) })))),
      this.values ? el("div", { class: "chart-box" }, el("p", { class: "note", text: `${capital(names[0])}'s expected score along the game; click a point to see that position.` }),
        valueChart(this.values, names, s.ply, (ply) => this.pickPly(ply))) : null);
  }

  // Numbered in pairs, as game records are read: "1. A B", "2. C D".
  moveList() {
    const s = this.state;
    const moves = s.moves.slice();
    const firstMover = moves.length && moves[0].player !== null && moves[0].player !== undefined ? moves[0].player : 0;
    const cells = firstMover === 1 ? [null, ...moves] : moves;
    const rows = [];
    for (let i = 0; i < cells.length; i += 2) {
      const cell = (m) => (m ? el("td", { class: `move${m.ply === s.ply - 1 ? " current" : ""}`, "data-ply": m.ply + 1,
        on: this.live ? {} : { click: () => this.goto(m.ply + 1) }, text: m.text }) : el("td", { class: "move empty", text: "…" }));
      rows.push(el("tr", {}, el("th", { text: `${i / 2 + 1}.` }), cell(cells[i]), i + 1 < cells.length ? cell(cells[i + 1]) : el("td")));
    }
    const long = s.moves.some((m) => m.text.length > 12); // moves written as sentences: smaller type
    return el("div", { class: "moves" }, el("h3", { text: "Moves" }),
      el("div", { class: "move-scroll" }, el("table", { id: "move-list", class: long ? "long" : "" }, rows)));
  }
}

// ---- the other pages --------------------------------------------------------------------

async function newGamePage(query) {
  catalog = catalog || await api("GET", "/api/catalog");
  // "#/?game=NAME(rows=5,misere=true)": the game and its variant, preselected (else the registry's default).
  const [wanted, inside = ""] = (query.get("game") || catalog.default).replace(/\)$/, "").split("(");
  const given = Object.fromEntries(inside.split(",").filter(Boolean).map((item) => item.split("=")));
  const levels = catalog.levels;
  const gameSelect = el("select", { id: "game-select", "aria-label": "game" },
    catalog.games.map((g) => el("option", { value: g.name, selected: g.name === wanted, text: g.title })));
  const paramsBox = el("div", { class: "params" });
  const sidesBox = el("div", { class: "sides-form" });
  const message = el("p", { class: "error", role: "alert" });
  const positionInput = el("input", { id: "position", placeholder: "the start position, in the game's notation", autocomplete: "off",
    value: query.get("position") || "" });
  const about = el("p", { class: "about" });
  const rulesLink = el("a", { id: "rules-link", class: "rules-link", text: "Rules" });
  // The solver is a side only where it has a table for this game and its parameters.
  const checkSolver = async () => {
    const params = [...paramsBox.querySelectorAll("input")].map((input) => `${input.name}=${input.type === "checkbox" ? input.checked : input.value}`);
    const game = `${gameSelect.value}${params.length ? "(" + params.join(",") + ")" : ""}`;
    const { table } = await api("GET", `/api/solver?game=${encodeURIComponent(game)}`).catch(() => ({ table: false }));
    for (const option of sidesBox.querySelectorAll('option[value="solver"]')) {
      option.disabled = !table;
      option.textContent = table ? "Solver (perfect play)" : "Solver (no table for this game; make one with boomboard solve)";
      if (!table && option.selected) option.parentElement.value = "ai:time=0.5";
    }
    // The learned net likewise, only where a model for this game and its parameters ships.
    const { model, needs } = await api("GET", `/api/learned?game=${encodeURIComponent(game)}`)
      .catch(() => ({ model: false, needs: null }));
    for (const option of sidesBox.querySelectorAll('option[value="learned"]')) {
      option.disabled = !model;
      // A model that ships but cannot play here lacks only the learn extra: the option says which to install.
      option.textContent = model ? "Learned net (self-play, 64 simulations a move)"
        : needs ? `Learned net (a model ships for this game; ${needs})`
        : "Learned net (none ships for this game; train one with boomboard train)";
      if (!model && option.selected) option.parentElement.value = "ai:time=0.5";
    }
  };
  const fill = () => {
    const game = catalog.games.find((g) => g.name === gameSelect.value);
    about.textContent = game.doc + " ";
    rulesLink.href = `/rules/${game.name}`;
    rulesLink.textContent = `How to play ${game.title}`;
    about.append(rulesLink);
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
  gameSelect.addEventListener("change", () => { fill(); checkSolver(); });
  paramsBox.addEventListener("change", checkSolver);
  fill();
  checkSolver();
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
      // AI against AI with the sides chosen above; a side left as Human is played by the medium AI
      el("button", { id: "watch", on: { click: () => start(sides().map((spec) => (spec === "human" || !spec ? "ai:time=0.5" : spec))) }, text: "Watch AI vs AI" })),
    message));
}

// An arena game's result: "white won (reason)", "a tie (reason)".
function resultText(g) {
  const names = (catalog && catalog.games.find((c) => g.game.startsWith(c.name))?.player_names) || ["first", "second"];
  const who = g.winner === null || g.winner === undefined ? "a tie" : `${capital(names[g.winner])} won`;
  return g.status && g.status !== "done" ? g.reason || g.status : `${who}${g.reason ? " (" + g.reason + ")" : ""}`;
}

async function gamesPage() {
  catalog = catalog || await api("GET", "/api/catalog");
  const web = await api("GET", "/api/games");
  const when = (seconds) => (seconds ? new Date(seconds * 1000).toLocaleString() : "");
  const row = (g, href) => el("li", {}, el("a", { href, text: `${g.game}: ${g.players.join(" vs ")}` }),
    ` ${g.plies} plies, ${g.finished === false ? "in progress" : g.result || resultText(g)} ${when(g.updated || g.started)}`);
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

// The width of `text` drawn at `px` pixels in the page's own font (the chart's name column fits its longest name).
function textWidth(text, px) {
  const context = (textWidth.canvas = textWidth.canvas || document.createElement("canvas")).getContext("2d");
  context.font = `${px}px ${getComputedStyle(document.body).fontFamily}`;
  return context.measureText(text).width;
}

// Round Elo steps (1, 2 or 5 times a power of ten) from below `low` to above `high`, about five of them.
function eloTicks(low, high) {
  const rough = Math.max(high - low, 5) / 5; // whole Elo points at least
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((f) => f * power).find((s) => s >= rough);
  const first = Math.floor(low / step) * step, last = Math.max(Math.ceil(high / step) * step, first + step);
  const ticks = [];
  for (let v = first; v <= last + step / 2; v += step) ticks.push(v);
  return ticks;
}

// Each agent's Elo as a dot with its 95% interval, on a labelled Elo scale;
// whole agent names in a column as wide as the longest (drawn at `font` px: .rating-chart text).
function ratingChart(standings) {
  const font = 12, rowHeight = 24, plot = 260, left = 6, gap = 12, right = 18, axisHeight = 38;
  const pad = left + Math.ceil(Math.max(40, ...standings.map((s) => textWidth(s.agent, font)))) + gap;
  const width = pad + plot + right, top = rowHeight * standings.length;
  const finite = (s) => s.elo !== null;
  const half = (s) => (s.elo_error === null ? 0 : s.elo_error || 0);
  const elos = standings.filter(finite).flatMap((s) => [s.elo - half(s), s.elo + half(s)]);
  const ticks = eloTicks(Math.min(...elos, 0), Math.max(...elos, 0));
  const low = ticks[0], high = ticks[ticks.length - 1];
  const x = (v) => pad + plot * (v - low) / (high - low);
  const svg = el("svg:svg", { viewBox: `0 0 ${width} ${top + axisHeight}`, width, height: top + axisHeight,
    class: "rating-chart", role: "img", "aria-label": "Elo ratings with their 95% intervals" });
  svg.append(el("svg:line", { x1: x(0), x2: x(0), y1: 0, y2: top, class: "axis" }));
  svg.append(el("svg:line", { x1: pad, x2: pad + plot, y1: top + 2, y2: top + 2, class: "scale" }));
  for (const v of ticks) {
    svg.append(el("svg:line", { x1: x(v), x2: x(v), y1: top + 2, y2: top + 6, class: "tick" }));
    svg.append(el("svg:text", { x: x(v), y: top + 19, class: "chart-label tick-label", "text-anchor": "middle", text: String(v) }));
  }
  svg.append(el("svg:text", { x: pad + plot / 2, y: top + 35, class: "chart-label", "text-anchor": "middle", text: "Elo (dot: rating; bar: 95% interval)" }));
  standings.forEach((s, i) => {
    const y = 13 + i * rowHeight;
    svg.append(el("svg:text", { x: pad - gap, y: y + 4, class: "chart-label agent-name", "text-anchor": "end", text: s.agent }));
    if (!finite(s)) return;  // no point to draw for an infinite rating
    svg.append(el("svg:line", { x1: x(s.elo - half(s)), x2: x(s.elo + half(s)), y1: y, y2: y, class: "error-bar" }));
    svg.append(el("svg:circle", { cx: x(s.elo), cy: y, r: 4, class: "dot" }, el("svg:title", { text: `${s.agent}: ${eloText(s)}` })));
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

// /rules/GAME: the game's rules (from its own folder), with its example played out.
async function rulesPage(name) {
  const rules = await api("GET", `/api/rules/${encodeURIComponent(name)}`);
  document.title = `${rules.title} rules - boomboard`;
  const holder = el("div", { class: "board-holder example-board" });
  const caption = el("p", { class: "note", id: "example-caption" });
  const body = el("article", { class: "rules-text" });
  body.innerHTML = rules.html; // the game's own rules, from the package: trusted text
  const title = body.querySelector("h1");
  if (title) title.remove(); // the page's heading says it already
  let alive = true;
  current = { kill: () => { alive = false; } };
  const parts = [el("div", { class: "rules-head" }, el("h2", { text: `How to play ${rules.title}` }),
    el("a", { href: `/#/?game=${encodeURIComponent(rules.name)}`, id: "play-this", class: "button-link", text: `Play ${rules.title}` }))];
  if (rules.example) {
    const ex = rules.example;
    parts.push(el("figure", { class: "example" }, holder, el("figcaption", {}, caption)));
    const loop = async () => {
      while (alive) {
        holder.replaceChildren(drawBoard(ex.state, ex.state.cells));
        caption.textContent = `Example: ${ex.move}`;
        await sleep(1400);
        for (const [i, step] of ex.steps.entries()) {
          if (!alive) return;
          const marks = {};
          for (const cellName of step.flash) marks[cellName] = ["boom"];
          holder.replaceChildren(drawBoard(ex.state, step.cells, { marks }));
          caption.textContent = `Example: ${ex.move}, step ${i + 1} of ${ex.steps.length}`;
          await sleep(900);
        }
        await sleep(1800);
      }
    };
    loop();
  }
  parts.push(body);
  view.replaceChildren(el("section", { class: "rules" }, parts));
}

async function route() {
  if (current) current.kill();
  current = null;
  const [path, queryText] = location.hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean);
  const query = new URLSearchParams(queryText || "");
  const rulesPath = location.pathname.match(/^\/rules\/([^/]+)$/);
  try {
    if (rulesPath && !location.hash) await rulesPage(decodeURIComponent(rulesPath[1]));
    else if (rulesPath) { location.replace(`/${location.hash}`); return; }
    else if (parts[0] === "position") current = window.page = new GamePage("position", null, 0, { game: query.get("game"), position: query.get("position") });
    else if (parts[0] === "game") current = window.page = new GamePage("live", parts[1]);
    else if (parts[0] === "replay") current = window.page = new GamePage(parts[1], parts[2], query.has("ply") ? Number(query.get("ply")) : 0);
    else if (parts[0] === "games") await gamesPage();
    else if (parts[0] === "tournaments") await tournamentsPage(parts[1]);
    else await newGamePage(query);
  } catch (error) {
    view.replaceChildren(el("p", { class: "error", text: error.message }));
  }
}

window.addEventListener("hashchange", route);
route();
