// boomboard's page: one script, no build step, no network beyond this server.
// Routes: #/ (new game), #/game/ID (play or watch), #/replay/SOURCE/ID (from ply 0, or ?ply=N),
// #/position?game=GAME&position=NOTATION (a shared position, for analysis or to play on),
// #/record?ply=N&r=RECORD (a whole game shared as its game record, base64url, shown at ply N),
// #/games (stored games), #/tournaments and #/tournaments/ID; and the path /rules/GAME.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const CUSTOM = "custom"; // the side menu's "type an agent spec" entry
// Exact results' colours (a winning, tying or drawing, and losing move) come with each game,
// its presentation's `results`: GamesmanUni's green, yellow and red, but for a colour a player wears.
const view = document.getElementById("view");
let catalog = null;
let current = null; // the page showing now: {kill()} to stop its timers; a game page is also window.page,
// whose .state (the server's last answer) the browser tests read

// This browser's owner token: the games it makes are its own, and only a
// request carrying the token may change them (the server keeps its hash).
const OWNER_HEADER = "X-Boomboard-Owner";
let ownerTokenKept = null;
function ownerToken() {
  if (ownerTokenKept) return ownerTokenKept;
  try { ownerTokenKept = localStorage.getItem("boomboard-owner"); } catch { /* storage off: a token for this tab */ }
  if (!ownerTokenKept) {
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    ownerTokenKept = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    try { localStorage.setItem("boomboard-owner", ownerTokenKept); } catch { /* kept for this tab only */ }
  }
  return ownerTokenKept;
}

const api = async (method, path, body) => {
  const headers = body === undefined ? {} : { "content-type": "application/json" };
  // every request carries this browser's token: a change, to be allowed; a read, to hear whether the game is its own
  headers[OWNER_HEADER] = ownerToken();
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw refusal(response, data);
  return data;
};

// The value chart's points of a line, one at a time as the server finishes
// each (it sends one JSON line a point): the first comes within a second,
// not after the whole game is analysed. Aborting `signal` closes the
// request, and the server stops the analyses not done.
async function* valuePoints(method, path, body, signal) {
  const response = await fetch(path, {
    method, signal, headers: { accept: "application/x-ndjson", ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw refusal(response, await response.json().catch(() => ({ error: `HTTP ${response.status}` })));
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    text += decoder.decode(value || new Uint8Array(), { stream: !done });
    const lines = text.split("\n");
    text = lines.pop();
    for (const line of lines.filter(Boolean)) {
      const point = JSON.parse(line);
      if (point.error) throw Object.assign(new Error(point.error), { status: point.retry_after ? 503 : 500, retryAfter: point.retry_after });
      yield point;
    }
    if (done) return;
  }
}

// An error answer as an Error that keeps its status and, for a server that
// sheds load (429, 503), the seconds it asks the page to wait (Retry-After).
function refusal(response, data) {
  const error = new Error(data.error || `HTTP ${response.status}`);
  error.status = response.status;
  error.retryAfter = Number(response.headers.get("retry-after")) || null;
  return error;
}

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
// A person who asks their system for less motion sees each move's result at
// once, not its cascade drawn step by step over up to 2.6 seconds.
const lessMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
// One voice: every number the analysis shows (headline, bar, chart, moves,
// marks) is the server's `eval` of one analysis of the position
// (boomboard.web.analysis): the first player's expected score, value -1..1
// shown as 50% + 50% * value, exact where proved ("White wins in 7"), else
// an estimate. This script words nothing itself, so no two parts can disagree.
const scaleNote = (names) => `Every number is ${capital(names[0])}'s expected score (100% a sure ${capital(names[0])} win, `
  + `0% a sure ${capital(names[1])} win). Results written out are exact, "in N": N plies left under best play; `
  + `percentages are a short search's estimates.`;
const percent = (v) => `${Math.round(50 + 50 * v)}%`;
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
// Estimated quality, apart from GamesmanUni's green/yellow/red and from every
// game's player colours: one purple hue whose lightness grows with what a move
// gives away (light = worse), readable with any colour vision. `loss` is on
// the value scale; 0.3 (15 points of expected score) and more, the palest.
const QUALITY_HUE = 275;
const qualityColour = (loss) => `hsl(${QUALITY_HUE}, 48%, ${Math.round(24 + 52 * Math.min(1, loss / 0.3))}%)`;
// A move's colour: its exact result for the mover, else its estimated quality.
const relativeColour = (m, results) => (m.value ? results[m.value] : m.loss !== undefined ? qualityColour(m.loss) : null);
// Lichess's marks, given by the server from the loss: what each one means.
const MARK_MEANINGS = [["?!", "inaccuracy", 0.1], ["?", "mistake", 0.2], ["??", "blunder", 0.3]];
// Best first: quick wins, then scores and ties (a quick tie first, as GamesmanUni
// orders them; a score is in hundredths, so a tie stays between -1 and 0), then slow losses.
const rank = (m) => (m.value === "win" ? 3e6 - (m.remoteness || 0) : m.value === "lose" ? -3e6 + (m.remoteness || 0)
  : m.value ? -Math.min(m.remoteness ?? 999, 999) / 1000 : m.score);
const describeValue = (m) => (m.eval ? `${m.eval.text}${m.mark ? " " + m.mark : ""}` : "?");

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

// `plies`: the line's length, so that a chart still filling keeps its scale.
function valueChart(points, names, current, onPick, plies) {
  const width = 300, height = 110, pad = 6;
  const svg = el("svg:svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "group",
    "aria-label": `expected score of ${names[0]} along the game; click a point to go to that position` });
  const n = Math.max(plies ?? points.length - 1, 1);
  const px = (ply) => pad + (width - 2 * pad) * ply / n;
  const py = (v) => height / 2 - (height / 2 - pad) * v;
  svg.append(el("svg:line", { x1: pad, x2: width - pad, y1: py(0), y2: py(0), class: "axis" }));
  svg.append(el("svg:polyline", { points: points.map((p) => `${px(p.ply)},${py(p.value)}`).join(" "), class: "history" }));
  svg.append(el("svg:text", { x: pad, y: 12, class: "chart-label", text: `${capital(names[0])} 100%` }));
  svg.append(el("svg:text", { x: pad, y: py(0) - 3, class: "chart-label", text: "50%" }));
  svg.append(el("svg:text", { x: pad, y: height - 4, class: "chart-label", text: `${capital(names[0])} 0% (${capital(names[1])} wins)` }));
  for (const p of points) {
    const text = `ply ${p.ply}: ${p.label}${p.exact ? " (exact)" : " (estimate)"}`;
    const group = el("svg:g", { class: `point${p.ply === current ? " current" : ""}`, "data-ply": p.ply, role: "button",
      tabindex: onPick ? 0 : undefined, "aria-label": text });
    group.append(el("svg:circle", { cx: px(p.ply), cy: py(p.value), r: 7, class: "hit" }));
    group.append(chartDot(px(p.ply), py(p.value), p.ply === current ? 3.5 : 2.2, p.exact, text));
    if (onPick) {
      group.addEventListener("click", () => onPick(p.ply));
      group.addEventListener("keydown", (event) => { if (event.key === "Enter") onPick(p.ply); });
    }
    svg.append(group);
  }
  return svg;
}

// A chart point: a circle for an estimate, a square for an exact result.
function chartDot(x, y, r, exact, title) {
  const dot = exact ? el("svg:rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, class: "dot exact" })
    : el("svg:circle", { cx: x, cy: y, r, class: "dot" });
  dot.append(el("svg:title", { text: title }));
  return dot;
}

// A bar split between the two sides at the expected score of the first. Its
// labels sit above it, in ink on the page, so that each is legible and whole
// at any share (a side of 0% has no room inside the bar).
function evalBar(value, names, colours) {
  const share = Math.round(50 + 50 * value);
  return el("div", { class: "eval", role: "img", "aria-label": `${capital(names[0])} ${share}%, ${capital(names[1])} ${100 - share}%` },
    el("div", { class: "eval-labels" },
      el("span", { class: "eval-label" }, el("i", { class: "swatch", style: `background:${colours[0]}` }), `${capital(names[0])} ${share}%`),
      el("span", { class: "eval-label" }, `${capital(names[1])} ${100 - share}%`, el("i", { class: "swatch", style: `background:${colours[1]}` }))),
    el("div", { class: "eval-bar" },
      el("span", { class: "eval-side", style: `width:${share}%;background:${colours[0]}` }),
      el("span", { class: "eval-side", style: `width:${100 - share}%;background:${colours[1]}` })));
}

// What the analysis's colours and marks mean: exact results in GamesmanUni's
// colours, estimated quality on its own scale, the board's rings and outlines.
function analysisLegend(results) {
  const swatch = (style) => el("i", { style });
  const ramp = `background:linear-gradient(90deg, ${qualityColour(0)}, ${qualityColour(0.15)}, ${qualityColour(0.3)})`;
  return el("div", { class: "legend", role: "list", "aria-label": "legend" },
    el("span", { role: "listitem" }, swatch(`background:${results.win}`), "winning move (exact)"),
    el("span", { role: "listitem" }, swatch(`background:${results.tie}`), "tie or draw (exact)"),
    el("span", { role: "listitem" }, swatch(`background:${results.lose}`), "losing move (exact)"),
    el("span", { role: "listitem" }, el("i", { class: "ramp", style: ramp }),
      "estimate: darkest the best, paler the worse"),
    el("span", { role: "listitem", text: MARK_MEANINGS.map(([symbol, name, loss]) => `${symbol} ${name} (${Math.round(50 * loss)}+ points lost)`).join(", ") }),
    el("span", { role: "listitem", text: "ring on a cell: its best move's colour; dashed outline: the last move" }));
}

// Move numbers for a line of moves (buttons) from a position `ply` plies into the game, as
// the move list numbers them: "3." before the first player's move, "3…" where a line starts
// with the second's; each move kept on one line with its number. The sides alternate, as the
// move list has them.
function withMoveNumbers(buttons, ply, toMove) {
  const first = toMove === null || toMove === undefined ? null : (((toMove - ply) % 2) + 2) % 2; // who moved first in the game
  return buttons.map((button, i) => {
    const place = ply + i + first; // its place in the move list's pairs
    const number = first === null ? "" : place % 2 === 0 ? `${Math.floor(place / 2) + 1}.` : i === 0 ? `${Math.floor(place / 2) + 1}…` : "";
    return el("span", { class: "line-move" }, number ? el("span", { class: "move-number", text: number }) : null, button);
  });
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
    this.sideline = null; // the side line shown, if any (see exploring())
    this.keys = (event) => this.onKey(event);
    document.addEventListener("keydown", this.keys);
    if (source === "position") this.analysisOn = true;
    this.queue = [];
    this.load().then(() => this.listen());
  }

  kill() {
    this.alive = false;
    if (this.valuesStream) this.valuesStream.abort(); // the server stops analysing for nobody
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
      if (this.source === "record") { await this.show(await recordAt(this.line.record, this.ply)); return; }
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
    if (this.keepMainLine(state, onward)) return this.showing || Promise.resolve();
    this.showing = (this.showing || Promise.resolve()).then(() => {
      const now = this.state;
      if (onward && now && now.id === state.id) {
        if (state.ply < now.ply) return; // older than what is shown already
        const changed = state.ply !== now.ply || state.thinking !== now.thinking || state.error !== now.error
          || JSON.stringify(state.outcome) !== JSON.stringify(now.outcome) || state.to_move !== now.to_move
          || state.paused !== now.paused;
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
    // an event (a stream carries no owner token) says nothing of whose the game is: the last answer did
    if (state.owned === undefined && previous && previous.id === state.id) state.owned = previous.owned;
    this.state = state;
    if (moved) this.selected = null; // a picked stack stays picked while only "thinking" changes
    if (moved) { this.analysis = this.analysisOn ? { loading: true } : null; this.confirmResign = false; }
    if (oneOn && !lessMotion.matches) {
      // the panel (status, buttons, move list) follows the new state at once; only the board plays the cascade
      this.animating = true;
      this.render();
      await this.animate(state.last_steps);
    }
    this.flash = state.last_steps.length ? state.last_steps[state.last_steps.length - 1].flash : [];
    // "waiting" too: the AI's move can come while its task still runs (thinking), and the next state says only that it ended
    const asked = !this.analysis || this.analysis.loading || (this.analysis.waiting && !state.thinking);
    if (this.analysisOn && (moved || asked)) this.refreshAnalysis();
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
    if (this.exploring()) return this.playSideline(move);
    return this.send("POST", `/api/games/${this.id}/moves`, { move });
  }

  humanToMove() {
    const s = this.state;
    if (this.exploring()) return !!s && s.legal.length > 0 && !this.animating;
    return this.live && s && this.own && s.to_move !== null && s.players[s.to_move] === "human" && !this.animating;
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

  // ---- side lines: moves tried from the position shown, never played in the game ----
  // A side line lives in the page: its positions come from the server's stateless
  // POST /api/position (the game's start and the actions since), so the game on
  // the server never changes. `branch` is the main-line state it starts from,
  // `main` the game's latest (a live game goes on meanwhile), `line` one state a
  // move tried, `at` how many of them are shown.

  // Whether a move played now goes into a side line: always on a replay or a
  // shared position, in a live game once "Try a side line" is chosen.
  exploring() { return !this.live || this.sideline !== null; }

  startSideline() {
    this.sideline = { branch: this.state, main: this.state, line: [], at: 0, analyses: new Map() };
    this.selected = null;
    this.chooser = null;
    this.render();
  }

  // A move picked on the board, in the analysis or typed (its id, or its text).
  playSideline(move) {
    const legal = this.state.legal;
    const wanted = String(move).trim().toLowerCase();
    const gesture = legal.find((m) => m.id === move) || legal.find((m) => m.text.toLowerCase() === wanted);
    if (!gesture) { this.fail(new Error(`not a legal move here: ${move}`)); return Promise.resolve(); }
    return this.extendSideline([gesture.id]);
  }

  // Plays `ids` on from the position shown: moves already next in the side line
  // are stepped through; from the first that differs, the side line is replaced.
  async extendSideline(ids) {
    const side = this.sideline;
    const s = this.state;
    const at = side ? side.at : 0;
    const ahead = side ? side.line.slice(at) : [];
    let same = 0;
    while (same < ids.length && same < ahead.length && ahead[same].actions[s.actions.length + same] === ids[same]) same += 1;
    if (same === ids.length) { this.stepSideline(at + same); return; }
    try {
      this.message = "";
      const states = await Promise.all(ids.map((_, i) => api("POST", "/api/position",
        { game: s.game, position: s.start, actions: [...s.actions, ...ids.slice(0, i + 1)] })));
      if (this.sideline !== side || this.state !== s || !this.alive) return; // the page moved on meanwhile
      const next = side || { branch: s, main: s, line: [], at: 0, analyses: new Map() };
      // the game's sides stay named: a side line only tries moves for them
      next.line = [...next.line.slice(0, at), ...states.map((state) => ({ ...state, players: next.branch.players }))];
      next.at = next.line.length;
      this.sideline = next;
      this.selected = null;
      await this.show(next.line[next.at - 1]);
    } catch (error) { this.fail(error); }
  }

  stepSideline(at) {
    const side = this.sideline;
    if (!side || at < 0 || at > side.line.length || at === side.at) return;
    side.at = at;
    this.selected = null;
    this.chooser = null;
    this.show(at === 0 ? side.branch : side.line[at - 1]);
  }

  backToMainLine() {
    const main = this.sideline.main;
    this.sideline = null;
    this.selected = null;
    this.chooser = null;
    this.message = "";
    return this.show(main);
  }

  // While a side line is shown, a live game's own new states (its events and
  // polls) are kept for the way back rather than shown.
  keepMainLine(state, onward) {
    const side = this.sideline;
    if (!side || !this.live || !onward || state.id !== this.id) return false;
    if (state.ply >= side.main.ply) side.main = state;
    this.render();
    return true;
  }

  // Keys within a side line: ← and → step through it (u steps back, never
  // undoing the game), Esc returns to the main line.
  sidelineKey(event) {
    const side = this.sideline;
    if (!side || event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return false;
    if (event.key === "ArrowLeft" || event.key === "u") this.stepSideline(side.at - 1);
    else if (event.key === "ArrowRight") this.stepSideline(side.at + 1);
    else if (event.key === "Escape" && !this.selected && !this.chooser) this.backToMainLine();
    else return false;
    return true;
  }

  // A side line's analysis: any line is analysed by POST /api/analysis; each
  // position's is kept, so stepping back and forth asks again for none.
  async refreshSidelineAnalysis() {
    const s = this.state;
    const analyses = this.sideline.analyses;
    const key = JSON.stringify([s.start, s.actions]);
    if (analyses.has(key)) { this.analysis = analyses.get(key); this.render(); return; }
    this.analysis = { loading: true };
    this.render();
    try {
      const analysis = await api("POST", "/api/analysis", { game: s.game, position: s.start, actions: s.actions });
      analyses.set(key, analysis);
      if (this.state === s) this.analysis = analysis;
    } catch (error) {
      if (this.state === s) { this.analysis = null; this.message = error.message; }
    }
    this.render();
  }

  // The search's expected line (from the position shown) and its depth; a
  // click on a move plays the line up to it into a side line.
  engineLine(a) {
    if (!a || !a.pv || !a.pv.length) return null;
    const s = this.state;
    const moves = a.pv.map((m, i) => el("button", { class: "pv-move", title: "try this line up to here in a side line",
      on: { click: () => this.extendSideline(a.pv.slice(0, i + 1).map((p) => p.id)) }, text: m.text }));
    return el("p", { class: "engine-line" }, el("span", { text: `Engine line (depth ${a.depth}): ` }),
      withMoveNumbers(moves, s.ply, s.to_move));
  }

  // The buttons a move may need besides the board (a bomb, a pass, a boom) on a board that explores.
  sidelineGestures() {
    const s = this.state;
    if (!this.humanToMove()) return [];
    const buttons = [];
    if (s.legal.some((m) => m.kind === "bomb")) {
      buttons.push(el("button", { id: "bomb-mode", "aria-pressed": String(this.bombMode), class: this.bombMode ? "on" : "",
        on: { click: () => { this.bombMode = !this.bombMode; this.render(); } }, text: this.bombMode ? "Dropping bombs" : "Drop a bomb" }));
    }
    const pass = s.legal.find((m) => m.kind === "pass");
    if (pass) buttons.push(el("button", { id: "pass", on: { click: () => this.play(pass.id) }, text: "Pass" }));
    for (const m of s.legal.filter((g) => g.kind === "boom" && g.from === this.selected)) {
      buttons.push(el("button", { class: "boom", id: "boom", on: { click: () => this.play(m.id) }, text: `Boom ${m.from}` }));
    }
    return buttons;
  }

  // Under a page's own controls: a live game's way into a side line; a replay's
  // or shared position's gesture buttons, its board exploring already.
  exploreBar() {
    if (this.sideline || !this.state || !this.state.legal.length) return null;
    if (this.live) {
      return el("div", { class: "buttons explore" }, el("button", { id: "explore", title: "try moves here without playing them in the game",
        on: { click: () => this.startSideline() }, text: "Try a side line" }));
    }
    const gestures = this.sidelineGestures();
    return el("div", { class: "explore" }, gestures.length ? el("div", { class: "buttons" }, gestures) : null,
      el("p", { class: "note", text: "Moves played here go into a side line; the game stays as it is." }));
  }

  // The side line's controls, in place of the page's own while it is shown.
  sidelineControls() {
    const side = this.sideline;
    const steps = side.line.map((state, i) => el("button", { class: `side-move${i + 1 === side.at ? " current" : ""}`,
      "data-step": i + 1, on: { click: () => this.stepSideline(i + 1) }, text: state.moves[state.moves.length - 1].text }));
    return el("div", { class: "controls sideline" },
      el("p", { class: "note", id: "sideline-moves" },
        `Side line from ${this.source === "position" ? "the shared position" : "ply " + side.branch.ply} (the game is unchanged): `,
        steps.length ? withMoveNumbers(steps, side.branch.ply, side.branch.to_move) : "play a move on the board or in the analysis."),
      el("div", { class: "buttons" },
        el("button", { id: "sideline-back", on: { click: () => this.stepSideline(side.at - 1) }, text: "‹", "aria-label": "back in the side line", disabled: side.at === 0 }),
        el("button", { id: "sideline-forward", on: { click: () => this.stepSideline(side.at + 1) }, text: "›", "aria-label": "forward in the side line",
          disabled: side.at === side.line.length }),
        el("button", { id: "main-line", class: "primary", title: "Esc", on: { click: () => this.backToMainLine() }, text: "Back to the main line" }),
        el("button", { id: "flip", on: { click: () => { this.flip = !this.flip; this.render(); } }, text: "Flip" }),
        el("button", { id: "analysis", "aria-pressed": String(this.analysisOn), on: { click: () => this.toggleAnalysis() }, text: this.analysisOn ? "Hide analysis" : "Analysis" }),
        this.shareButton(), this.sidelineGestures()));
  }

  onKey(event) {
    if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
    if (this.sidelineKey(event)) return;
    if (!this.live) {
      const length = this.state ? this.state.length : 0;
      if (event.key === "ArrowLeft") this.goto(Math.max(0, this.state.ply - 1));
      if (event.key === "ArrowRight") this.goto(Math.min(length, this.state.ply + 1));
      return;
    }
    if (event.key === "u" && this.state && !this.state.watched && this.own) this.send("POST", `/api/games/${this.id}/undo`, {});
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
    this.sideline = null;
    plyInAddress(ply);
    if (this.source === "record") { recordAt(this.line.record, ply).then((s) => this.show(s), (e) => this.fail(e)); return; }
    api("GET", `/api/replay/${this.source}/${this.id}?ply=${ply}`).then((s) => this.show(s), (e) => this.fail(e));
  }

  toggleAnalysis() {
    this.analysisOn = !this.analysisOn;
    if (this.analysisOn) this.refreshAnalysis(); else this.render();
  }

  // Live games are analysed by id (the server caches it); a replay sends its line.
  async refreshAnalysis() {
    if (this.sideline) return this.refreshSidelineAnalysis();
    const s = this.state;
    const ply = s.ply;
    this.analysis = { loading: true };
    this.render();
    try {
      const line = { game: s.game, position: s.start, actions: s.actions };
      if (s.thinking) { this.analysis = { waiting: true }; this.render(); return; } // the AI moves: analyse after
      // A live game's chart reuses the analyses the server keeps (this one first): one search a position.
      const analysis = this.live ? await api("GET", `/api/games/${this.id}/analysis`) : await api("POST", "/api/analysis", line);
      if (this.state !== s && this.state.ply !== ply) return;
      // Both are the same analysis of each position (one voice): the chart's point agrees with the headline as sent.
      this.analysis = analysis;
      this.render();
      if (this.live) await this.fillChart("GET", `/api/games/${this.id}/values`, undefined, s.actions.length);
      else if (!(this.valuesFor === this.id && (this.valuesDone || this.valuesStream))) { // a replay's line is one chart
        await this.fillChart("POST", "/api/values", { ...line, actions: s.all_actions }, s.all_actions.length);
      }
    } catch (error) { this.analysisRefused(error, s); }
    this.render();
  }

  // The value chart, drawn again as each point comes (a request before it, still filling, is given up).
  async fillChart(method, path, body, plies) {
    if (this.valuesStream) this.valuesStream.abort();
    const stream = this.valuesStream = new AbortController();
    let points = null; // the chart shown stays until the first point of the new one comes
    this.valuesFor = this.id;
    this.valuesDone = false;
    try {
      for await (const point of valuePoints(method, path, body, stream.signal)) {
        if (!points) { points = this.values = []; this.valuesPlies = plies; }
        points.push(point);
        this.redrawChart();
      }
      this.valuesDone = true;
    } catch (error) {
      if (error.name !== "AbortError") throw error;
    } finally {
      if (this.valuesStream === stream) this.valuesStream = null;
    }
  }

  redrawChart() {
    const chart = view.querySelector(".chart-box .chart");
    if (chart && this.alive) chart.replaceWith(this.valueChartNow());
    else if (this.values.length === 1) this.render(); // the first point: the chart's box is drawn with it
  }

  valueChartNow() {
    const s = this.state;
    return valueChart(this.values, s.player_names, this.sideline ? this.sideline.branch.ply : s.ply, (ply) => this.pickPly(ply), this.valuesPlies);
  }

  // ---- the analysis asked for but not (yet) given ---------------------------------------
  // A server busy with AI work answers 429 or 503 with Retry-After: the page
  // says so and asks again by itself, waiting at least that long and twice as
  // long after each refusal of the same position (at most a minute). Any
  // other failure is shown, with a button to try again: never "analysing..." for ever.
  analysisRefused(error, s) {
    const key = `${this.id}:${s.ply}:${(s.actions || []).join(",")}`;
    if (!this.analysisRetry || this.analysisRetry.key !== key) this.analysisRetry = { key, tries: 0 };
    const retry = this.analysisRetry;
    if (error.status !== 429 && error.status !== 503) {
      this.analysis = { failed: error.message };
      return;
    }
    retry.tries += 1;
    const seconds = Math.min(60, Math.max(error.retryAfter || 1, 2 ** (retry.tries - 1)));
    const analysis = { refused: error.message, retryAt: Date.now() + seconds * 1000, tries: retry.tries };
    this.analysis = analysis;
    setTimeout(() => {
      // asked again only if this is still the position shown and its analysis is still wanted
      if (this.alive && this.analysisOn && this.analysis === analysis && this.state && this.state.ply === s.ply) this.refreshAnalysis();
    }, seconds * 1000);
  }

  // The panel while the analysis is on its way, refused for now, or failed (null once it is here).
  analysisWaitPanel() {
    const a = this.analysis;
    if (a && a.failed) {
      return el("div", { class: "analysis", id: "analysis-state", role: "status" },
        el("p", { class: "error", text: `The analysis failed: ${a.failed}` }),
        el("button", { id: "analysis-retry", on: { click: () => this.refreshAnalysis() }, text: "Try again" }));
    }
    if (a && a.refused) {
      const left = () => Math.max(0, Math.ceil((a.retryAt - Date.now()) / 1000));
      const line = el("p", { class: "note", id: "analysis-state", role: "status" });
      const say = () => { line.textContent = `The server is busy, so the analysis waits: ${a.refused}. Asking again in ${left()} s (refused ${a.tries} time${a.tries === 1 ? "" : "s"}).`; };
      say();
      this.tick(line, say, () => this.analysis === a && left() > 0);
      return el("div", { class: "analysis" }, line);
    }
    if (!a || a.loading) {
      const since = a ? (a.since = a.since || Date.now()) : Date.now();
      const line = el("p", { class: "note", id: "analysis-state", role: "status" });
      const say = () => {
        const waited = Math.floor((Date.now() - since) / 1000);
        line.textContent = waited < 2 ? "analysing..." : `analysing... (${waited} s: queued for a worker, or searching)`;
      };
      say();
      this.tick(line, say, () => this.analysis === a && this.alive);
      return el("div", { class: "analysis" }, line);
    }
    return null;
  }

  // Updates `line` by `say` every second while it is on the page and `going` holds.
  tick(line, say, going) {
    const timer = setInterval(() => {
      if (!line.isConnected || !going()) { clearInterval(timer); return; }
      say();
    }, 1000);
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
    const tints = {};
    const best = {};
    for (const g of this.state.legal) {
      const m = byId.get(g.id);
      if (!m || !relativeColour(m, this.state.presentation.results)) continue;
      const bomb = this.bombMode;
      let cells = [];
      if (g.from === null && g.to && ((g.kind === "bomb") === bomb)) cells = [g.land || g.to];
      else if (g.from !== null && this.selected === g.from && g.to !== g.from) cells = [g.to];
      else if (g.from !== null && !this.selected) cells = [g.from];
      for (const name of cells) {
        if (best[name] === undefined || rank(m) > best[name]) { best[name] = rank(m); tints[name] = relativeColour(m, this.state.presentation.results); }
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
    const status = s.outcome ? s.outcome.text : s.thinking ? `${capital(s.player_names[s.to_move])} (${s.players[s.to_move]}) is thinking...`
      : s.paused ? "Paused: Resume lets the AIs play on" : s.caption;
    const panel = el("section", { class: "panel" },
      el("h2", { text: `${s.title} ` }, el("small", { text: s.game }), " ",
        el("a", { href: `/rules/${s.name}`, id: "rules-link", class: "rules-link", text: "Rules" })),
      el("ul", { class: "sides" }, sides),
      el("p", { class: `status ${s.outcome ? "over" : ""}`, id: "status", text: status }),
      this.message ? el("p", { class: "error", role: "alert", text: this.message }) : null,
      s.error ? el("p", { class: "error", text: s.error }) : null,
      this.sideline ? this.sidelineControls() : this.live ? (s.watched ? this.watchControls() : this.controls()) : this.source === "position" ? this.positionControls() : this.replayControls(),
      this.exploreBar(),
      this.shareOpen ? this.sharePanel() : null,
      this.chooser ? this.countChooser() : null,
      this.analysisOn ? this.analysisPanel() : null,
      this.moveList());
    view.replaceChildren(el("div", { class: "game" }, el("div", { class: "board-holder" }, board), panel));
    showCurrentMove(view);
  }

  // Another browser's game (the server says whether it is this one's: `owned`)
  // may be watched, analysed and shared, not changed: no Undo, Resign, Pause or Stop.
  get own() { return this.state.owned !== false; }

  controls() {
    const s = this.state;
    const buttons = [
      el("button", { id: "new-game", on: { click: () => { location.hash = `#/?game=${encodeURIComponent(s.game)}`; } }, text: "New game" }),
      this.own ? el("button", { id: "undo", title: "u", on: { click: () => this.send("POST", `/api/games/${this.id}/undo`, {}) }, text: "Undo",
        disabled: s.ply === 0 || !s.players.includes("human") }) : null,
      this.own ? el("button", { id: "resign", on: { click: () => { this.confirmResign = true; this.render(); } }, text: "Resign",
        disabled: !!s.outcome || !s.players.includes("human") || this.confirmResign }) : null,
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

  // ---- the watch page: AI against AI ----------------------------------------------------
  // A watcher can pause, resume and stop the game, flip the board, analyse and
  // share; nothing that plays (no Undo, Resign, "Drop a bomb", move entry or Play).
  watchControls() {
    const s = this.state;
    const over = !!s.outcome;
    const buttons = [
      el("button", { id: "new-game", on: { click: () => { location.hash = `#/?game=${encodeURIComponent(s.game)}`; } }, text: "New game" }),
      this.own ? el("button", { id: "pause", "aria-pressed": String(!!s.paused), disabled: over,
        on: { click: () => this.send("POST", `/api/games/${this.id}/pause`, { paused: !s.paused }) }, text: s.paused ? "Resume" : "Pause" }) : null,
      this.own ? el("button", { id: "stop", class: "boom", disabled: over, title: "end the game here, without a result",
        on: { click: () => this.send("POST", `/api/games/${this.id}/stop`, {}) }, text: "Stop" }) : null,
      el("button", { id: "flip", title: "f", on: { click: () => { this.flip = !this.flip; this.render(); } }, text: "Flip" }),
      el("button", { id: "analysis", title: "a", "aria-pressed": String(this.analysisOn), on: { click: () => this.toggleAnalysis() }, text: this.analysisOn ? "Hide analysis" : "Analysis" }),
      this.shareButton(),
    ];
    const note = el("p", { class: "note", text: over ? "A game of AI against AI, over." : `Watching AI against AI: the game goes on while a page shows it, and stops ${Math.round(s.watch_grace)} s after the last one is closed.` });
    return el("div", { class: "controls" }, el("div", { class: "buttons" }, buttons), note);
  }

  shareButton() {
    return el("button", { id: "share", "aria-pressed": String(this.shareOpen), on: { click: () => { this.shareOpen = !this.shareOpen; this.render(); } },
      text: "Share" });
  }

  sharePanel() {
    const link = this.shareLink();
    const input = el("input", { id: "share-link", value: link, readonly: true, "aria-label": "link to this position",
      on: { focus: (event) => event.target.select() } });
    const copy = el("button", { id: "copy-link", on: { click: () => {
      if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
      input.select();
    } }, text: "Copy" });
    return el("div", { class: "share" }, this.shareGame(),
      el("label", {}, "Link to this position (opens it for analysis): "), el("div", { class: "move-entry" }, input, copy));
  }

  // The whole game as its game record: a link that carries it (opening at
  // this ply) and a file to download. A shared position has no game to share.
  shareGame() {
    const s = this.state;
    if (this.source === "position") return null;
    const key = `${s.id}:${s.ply}:${s.length}:${JSON.stringify(s.outcome)}`;
    if (this.source === "record" && (!this.recordText || this.recordText.key !== key)) this.recordText = { key, text: s.record };
    if (!this.recordText || this.recordText.key !== key) {
      const source = this.live ? "web" : this.source;
      if (!this.recordText || this.recordText.key !== key + ":loading") {
        this.recordText = { key: key + ":loading" };
        fetch(`/api/archive/${source}/${this.id}/record`).then((r) => (r.ok ? r.text() : Promise.reject(new Error(`HTTP ${r.status}`))))
          .then((text) => { this.recordText = { key, text }; if (this.shareOpen) this.render(); }, (e) => this.fail(e));
      }
      return el("p", { class: "note", text: "preparing the game's record..." });
    }
    const text = this.recordText.text;
    this.recordText.url = this.recordText.url || URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = recordLink(text, s.ply);
    const input = el("input", { id: "share-game-link", value: link, readonly: true, "aria-label": "link to this game",
      on: { focus: (event) => event.target.select() } });
    const copy = el("button", { id: "copy-game-link", on: { click: () => {
      if (navigator.clipboard) navigator.clipboard.writeText(link).catch(() => {});
      input.select();
    } }, text: "Copy" });
    const file = `boomboard-${s.name}-${this.id || "game"}.txt`;
    const download = el("a", { id: "download-record", class: "button", download: file,
      href: this.recordText.url, text: "Download the game record" });
    return el("div", { class: "share-game" }, el("label", {}, "Link to this game, every move, opened at this position: "),
      el("div", { class: "move-entry" }, input, copy), el("p", {}, download));
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
    const waiting = this.analysisWaitPanel();
    if (waiting) return waiting;
    const s = this.state;
    const names = s.player_names;
    const how = !a.eval.exact ? "estimate by a short search" : a.source === "solver" ? "exact, from the solver's table"
      : a.source === "search" ? "exact, proved by the search" : "the game is over";
    const rows = (a.moves || []).slice().sort((x, y) => rank(y) - rank(x));
    const bestRank = rows.length ? rank(rows[0]) : null;
    const mover = s.to_move === null ? null : capital(names[s.to_move]);
    return el("div", { class: "analysis" },
      el("p", { class: "headline" }, el("strong", { text: `Analysis (${how}): ` }),
        el("span", { class: "headline-value", text: a.eval.text }), mover ? `, ${mover} to move` : ""),
      evalBar(a.eval.value, names, pieceColours(s)),
      this.engineLine(a),
      rows.length ? el("p", { class: "note", text: `${mover}'s moves, best (★) first, each with the value of the position it leads to.` }) : null,
      el("ul", { class: "move-values" }, rows.map((m) => el("li", { class: rank(m) === bestRank ? "best" : "" },
        el("button", { class: "value-move", style: `border-color:${relativeColour(m, s.presentation.results) || "#999"}`, disabled: !this.humanToMove(),
          on: { click: () => this.play(m.id) }, text: `${rank(m) === bestRank ? "★ " : ""}${m.text}` }), el("span", { text: describeValue(m) })))),
      // the scale and the legend under the moves: the best moves stay in a phone's first screen
      el("p", { class: "note", text: scaleNote(names) }),
      analysisLegend(s.presentation.results),
      this.values ? el("div", { class: "chart-box" }, el("p", { class: "note",
        text: `${capital(names[0])}'s expected score along the game (■ exact, ● estimate); click a point to see that position.` }),
        this.valueChartNow()) : null);
  }

  // After a game, each move of the history marked as the analysis of the
  // position it was played from judged it (the chart's points carry it):
  // GamesmanUni's colour where exact, lichess's ?!, ? and ?? where it gave away.
  historyMark(m) {
    const s = this.state;
    const over = !this.live || s.outcome; // a replay is of a finished game
    const point = over && this.values ? this.values.find((p) => p.ply === m.ply) : null;
    if (!point || !point.move || (!point.move.mark && !point.move.outcome)) return null;
    const { mark, outcome, loss } = point.move;
    const meaning = MARK_MEANINGS.find(([symbol]) => symbol === mark);
    const title = [outcome ? `${outcome === "lose" ? "a losing" : outcome === "win" ? "a winning" : "a " + outcome} move (exact)` : null,
      meaning ? `${meaning[1]}: gave away ${Math.round(50 * loss)} points of expected score` : null].filter(Boolean).join("; ");
    return el("span", { class: `history-mark${outcome ? " exact" : ""}`, title, "aria-label": title,
      style: outcome ? `--result:${this.state.presentation.results[outcome]}` : undefined, text: mark || "" });
  }

  // Numbered in pairs, as game records are read: "1. A B", "2. C D".
  moveList() {
    const s = this.sideline ? this.sideline.main : this.state; // the game's moves, a side line or not
    const moves = s.moves.slice();
    const firstMover = moves.length && moves[0].player !== null && moves[0].player !== undefined ? moves[0].player : 0;
    const cells = firstMover === 1 ? [null, ...moves] : moves;
    const rows = [];
    for (let i = 0; i < cells.length; i += 2) {
      const cell = (m) => (m ? el("td", { class: `move${m.ply === s.ply - 1 ? " current" : ""}`, "data-ply": m.ply + 1,
        on: this.live ? {} : { click: () => this.goto(m.ply + 1) }, text: m.text }, this.historyMark(m)) : el("td", { class: "move empty", text: "…" }));
      rows.push(el("tr", {}, el("th", { text: `${i / 2 + 1}.` }), cell(cells[i]), i + 1 < cells.length ? cell(cells[i + 1]) : el("td")));
    }
    const long = s.moves.some((m) => m.text.length > 12); // moves written as sentences: smaller type
    return el("div", { class: "moves" }, el("h3", { text: "Moves" }),
      el("div", { class: "move-scroll" }, el("table", { id: "move-list", class: long ? "long" : "" }, rows)));
  }
}

// ---- game records (a whole game as text: docs/reference/records.md) ------------------------------

// A record travels in a link's fragment as base64url of its UTF-8 text (never sent to a server by the browser).
function toBase64Url(text) {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(code) {
  const binary = atob(code.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

// The address names the ply shown, so that a reload or a copied address opens it there;
// replaced, not pushed: stepping through a game adds no page to go back through.
function plyInAddress(ply) {
  const [path, queryText] = location.hash.split("?");
  const query = new URLSearchParams(queryText || "");
  query.set("ply", ply);
  history.replaceState(history.state, "", `${path}?${query}`);
}

function recordLink(text, ply) {
  return `${location.origin}/#/record?ply=${ply}&r=${toBase64Url(text)}`;
}

// The record's position after `ply` moves, as a replay's: the server reads and checks the record.
const recordAt = (record, ply) => api("POST", "/api/records/replay", { record, ply: ply === undefined ? null : ply });

function recordPage(query) {
  let record;
  try { record = fromBase64Url(query.get("r") || ""); } catch (error) { throw new Error("this link's game record is damaged (not base64url)"); }
  const ply = query.has("ply") ? Number(query.get("ply")) : undefined;
  return new GamePage("record", null, Number.isInteger(ply) && ply >= 0 ? ply : undefined, { record });
}

// Open a record from a file or pasted text: it is checked by the server, then shown from its start.
function openRecordForm() {
  const message = el("p", { class: "error", role: "alert" });
  const text = el("textarea", { id: "record-text", rows: 4, placeholder: "[Game \"...\"] ... paste a game record here",
    "aria-label": "game record" });
  const open = async (record) => {
    try {
      await recordAt(record, 0);
      location.hash = `#/record?ply=0&r=${toBase64Url(record)}`;
    } catch (error) { message.textContent = error.message; }
  };
  const file = el("input", { id: "record-file", type: "file", accept: ".txt,.pgn,text/plain", "aria-label": "game record file",
    on: { change: async (event) => { const chosen = event.target.files[0]; if (chosen) open(await chosen.text()); } } });
  return el("section", { class: "open-record" }, el("h2", { text: "Open a game record" }),
    el("p", { class: "note", text: "A game record is a whole game as text (the Download button of a game's Share panel, or boomboard games export). Open one to replay and analyse it." }),
    el("label", {}, "From a file: ", file),
    el("form", { on: { submit: (event) => { event.preventDefault(); if (text.value.trim()) open(text.value); } } },
      text, el("button", { id: "open-record", type: "submit", text: "Open" })),
    message);
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

async function gamesPage(query) {
  catalog = catalog || await api("GET", "/api/catalog");
  const game = query.get("game") || "";
  const status = query.get("status") || "listed";
  const web = await api("GET", `/api/games?status=${encodeURIComponent(status)}${game ? "&game=" + encodeURIComponent(game) : ""}`);
  const when = (seconds) => (seconds ? new Date(seconds * 1000).toLocaleString() : "");
  const row = (g, href, extra) => el("li", {}, el("a", { href, text: `${g.game}: ${g.players.join(" vs ")}` }),
    ` ${g.plies} plies, ${g.finished === false ? "in progress" : g.result || resultText(g)} ${when(g.updated || g.started)} `, extra);
  const list = (games, href, extra = () => null) => (games.length ? el("ul", { class: "game-list" }, games.map((g) => row(g, href(g), extra(g))))
    : el("p", { text: "No games here." }));
  const days = Math.round(web.abandoned_after / 86400);
  const sections = [el("h2", { text: "Games played here" }), gamesFilter(game, status),
    el("p", { class: "note", text: `A game left unfinished with no move for ${days} days is abandoned: it is listed under "abandoned" only.` }),
    list(web.games, (g) => (g.finished ? `#/replay/web/${g.id}` : `#/game/${g.id}`), webGameActions)];
  if (catalog.arena) {
    const arena = await api("GET", "/api/archive/arena").catch(() => ({ games: [] }));
    sections.push(el("h2", { text: "Arena games" }), list(arena.games, (g) => `#/replay/arena/${g.id}`));
  }
  sections.push(openRecordForm());
  view.replaceChildren(el("section", { class: "listing" }, sections));
}

// The Games page's filter: one game (any variant) or all; finished, in progress, abandoned, or the first two.
function gamesFilter(game, status) {
  const go = () => {
    const chosen = view.querySelector("#filter-game").value;
    location.hash = `#/games?status=${view.querySelector("#filter-status").value}${chosen ? "&game=" + encodeURIComponent(chosen) : ""}`;
  };
  const statuses = [["listed", "finished or in progress"], ["finished", "finished"], ["playing", "in progress"], ["abandoned", "abandoned"]];
  return el("div", { class: "filter buttons" },
    el("select", { id: "filter-game", "aria-label": "game", on: { change: go } }, el("option", { value: "", text: "every game" }),
      catalog.games.map((g) => el("option", { value: g.name, selected: g.name === game, text: g.title }))),
    el("select", { id: "filter-status", "aria-label": "which games", on: { change: go } },
      statuses.map(([value, label]) => el("option", { value, selected: value === status, text: label }))));
}

// A web game's record to download, and Delete (asked twice: it is for good).
function webGameActions(g) {
  const remove = el("button", { class: "delete-game", "data-id": g.id, text: "Delete", on: { click: async (event) => {
    const button = event.target;
    if (!button.classList.contains("confirm")) { button.classList.add("confirm"); button.textContent = "Delete for good?"; return; }
    try { await api("DELETE", `/api/games/${g.id}`, {}); button.closest("li").remove(); } catch (error) { button.textContent = error.message; }
  } } });
  return el("span", { class: "game-actions" },
    el("a", { href: `/api/archive/web/${g.id}/record`, download: `boomboard-${g.id}.txt`, text: "record" }),
    g.owned === false ? null : " ", g.owned === false ? null : remove); // another browser's game is not this one's to delete
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

// What to do when the arena has run no tournament yet: they are run at a terminal, and shown here
// (the example is of the default game).
function emptyTournaments(game) {
  return el("div", { class: "empty-tournaments" },
    el("p", { text: "No tournaments yet. A tournament is run from a terminal; its standings, rating chart and games then show here. For example:" }),
    el("pre", {}, el("code", { text: `boomboard tournament ${game} random greedy alphabeta:depth=2 --games 4` })),
    el("p", { class: "note", text: "This server reads the arena's own database, where boomboard tournament writes by default "
      + "(another one: boomboard serve --arena-db FILE); docs/how-to/arena.md tells more." }));
}

async function tournamentsPage(id) {
  catalog = catalog || await api("GET", "/api/catalog");
  const listing = await api("GET", "/api/tournaments").catch((error) => ({ tournaments: [], error: error.message }));
  const items = listing.tournaments.map((t) => el("li", {}, el("a", { href: `#/tournaments/${t.id}`, text: `#${t.id} ${t.game}${t.name ? " " + t.name : ""}` })));
  const parts = [el("h2", { text: "Tournaments" }), listing.error ? el("p", { text: listing.error })
    : items.length ? el("ul", {}, items) : emptyTournaments(catalog.default)];
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
  const body = el("article", { class: "rules-text" });
  body.innerHTML = rules.html; // the game's own rules, from the package: trusted text
  const title = body.querySelector("h1");
  if (title) title.remove(); // the page's heading says it already
  const parts = [el("div", { class: "rules-head" }, el("h2", { text: `How to play ${rules.title}` }),
    el("a", { href: `/#/?game=${encodeURIComponent(rules.name)}`, id: "play-this", class: "button-link", text: `Play ${rules.title}` }))];
  if (rules.example) {
    const example = exampleFigure(rules.example);
    current = { kill: example.stop };
    parts.push(example.figure);
  }
  parts.push(body);
  view.replaceChildren(el("section", { class: "rules" }, parts));
}

// A rules example: its move's cascade shown step by step, over and over, with a button to pause it (moving
// content that starts by itself must stop on request: WCAG 2.2.2) and buttons to step it by hand. A page that
// asks for less motion starts paused at the position before the move.
function exampleFigure(ex) {
  const holder = el("div", { class: "board-holder example-board" });
  const caption = el("p", { class: "note", id: "example-caption" });
  const last = ex.steps.length - 1;
  const frames = [{ cells: ex.state.cells, marks: {}, text: `Example: ${ex.move}`, ms: 1400 },
    ...ex.steps.map((step, i) => ({
      cells: step.cells, marks: Object.fromEntries(step.flash.map((cellName) => [cellName, ["boom"]])),
      text: `Example: ${ex.move}, step ${i + 1} of ${ex.steps.length}`, ms: i === last ? 2700 : 900,
    }))];
  let at = 0;
  let timer = null;
  const playButton = el("button", { id: "example-play", type: "button" });
  const show = () => {
    holder.replaceChildren(drawBoard(ex.state, frames[at].cells, { marks: frames[at].marks }));
    caption.textContent = frames[at].text;
    playButton.textContent = timer === null ? "Play" : "Pause";
    playButton.setAttribute("aria-label", timer === null ? "Play the example" : "Pause the example");
  };
  const advance = () => { at = (at + 1) % frames.length; timer = setTimeout(advance, frames[at].ms); show(); };
  const stop = () => { clearTimeout(timer); timer = null; };
  const play = () => { stop(); timer = setTimeout(advance, frames[at].ms); show(); };
  const stepBy = (delta) => { stop(); at = (at + delta + frames.length) % frames.length; show(); };
  playButton.addEventListener("click", () => { if (timer === null) play(); else { stop(); show(); } });
  const controls = el("div", { class: "example-controls" },
    el("button", { id: "example-back", type: "button", "aria-label": "The example's previous step", text: "\u25c0",
      on: { click: () => stepBy(-1) } }),
    playButton,
    el("button", { id: "example-next", type: "button", "aria-label": "The example's next step", text: "\u25b6",
      on: { click: () => stepBy(1) } }));
  if (lessMotion.matches) show(); else play();
  return { figure: el("figure", { class: "example" }, holder, el("figcaption", {}, caption, controls)), stop };
}

// /lab/GAME: what `boomboard explore` found of the game (from /api/lab/GAME): a heat map a family of
// variants (the first two swept parameters down and across), then each solved board's first moves.
const LAB_SHORT = { win: "win", tie: "tie", lose: "loss", draw: "draw" };
const LAB_PALEST = 0.5; // as the solver's pictures: the farthest end of a value palest

// The style of a cell of this value and remoteness, when that value's ends span `span` (nearest, farthest),
// in the game's `results` colours.
function labStyle(value, remoteness, span, results) {
  const hex = results[value];
  const [near, far] = span || [remoteness, remoteness];
  const pale = value === "draw" || far <= near ? 0 : LAB_PALEST * (remoteness - near) / (far - near);
  const channel = (i) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16);
    return Math.round(c + (255 - c) * pale);
  };
  const [r, g, b] = [channel(0), channel(1), channel(2)];
  // dark ink on a light cell (a tie's yellow, a pale shade), light ink on a dark one
  const ink = r + g + b > 1.6 * 255 ? "#000" : "#fff";
  return `background: rgb(${r}, ${g}, ${b}); color: ${ink}; text-shadow: none`;
}

function labSpans(entries) {
  const spans = {};
  for (const e of entries) {
    const [near, far] = spans[e.value] || [e.remoteness, e.remoteness];
    spans[e.value] = [Math.min(near, e.remoteness), Math.max(far, e.remoteness)];
  }
  return spans;
}

function labCellTitle(cell) {
  const lines = [cell.variant];
  if (cell.exact) lines.push(`exact: ${cell.exact.value} in ${cell.exact.remoteness} for the first player, `
    + `${cell.exact.positions.toLocaleString()} positions`);
  const e = cell.estimate;
  if (e) lines.push(`self-play (${e.games} games, depth ${e.depth}): first player's score ${e.score.toFixed(2)} `
    + `(95% ${e.score_low.toFixed(2)} to ${e.score_high.toFixed(2)}), draws ${Math.round(100 * e.draw_rate)}%, `
    + `length ${e.length_median} (IQR ${e.length_iqr}), decisiveness ${e.decisiveness.toFixed(2)}, `
    + `lead changes ${e.lead_changes.toFixed(2)}`);
  if (cell.agreement) lines.push(`exact and estimate: ${cell.agreement}`);
  return lines.join("\n");
}

function labHeatMap(lab, family) {
  const spans = labSpans(family.cells.filter((c) => c.exact).map((c) => c.exact));
  const at = (down, across) => family.cells.find((c) => c.down === down && c.across === across);
  // a game with no parameters to sweep has its one board: one cell, no axis names
  const head = el("tr", {}, el("th", { text: lab.axes.length ? `${lab.axes[0]} \\ ${lab.axes[1] || ""}` : "" }),
    family.across.map((a) => el("th", { text: a === null ? "" : String(a) })));
  const body = family.down.map((d) => el("tr", {}, el("th", { text: d === null ? "its board" : String(d) }), family.across.map((a) => {
    const cell = at(d, a);
    if (!cell) return el("td", { class: "lab-cell lab-empty" });
    const attrs = { class: `lab-cell ${cell.exact ? "lab-exact" : "lab-estimated"}`, title: labCellTitle(cell),
      "data-variant": cell.variant };
    if (cell.exact) attrs.style = labStyle(cell.exact.value, cell.exact.remoteness, spans[cell.exact.value], lab.results);
    return el("td", attrs, cell.text);
  })));
  // a map of one cell (a game's one board) also says in words what its cell's tooltip says
  const details = family.cells.length === 1
    ? el("p", { class: "lab-details", text: labCellTitle(family.cells[0]).split("\n").slice(1).join("; ") }) : null;
  return el("figure", { class: "lab-map" }, el("h3", { text: family.title }),
    el("table", {}, el("thead", {}, head), el("tbody", {}, body)), details,
    el("figcaption", { text: "Who wins with perfect play, for the first player, and in how many moves; hatched: "
      + "beyond the solver's budget, ~ the first player's estimated score from self-play (1 a win, 0 a loss)" }));
}

function labStrips(family, results) {
  const solved = family.cells.filter((c) => c.exact && c.exact.moves.length);
  if (!solved.length) return null;
  return el("div", { class: "lab-strips" }, el("h4", { text: "First moves, for the first player" }),
    solved.map((cell) => {
      const moves = [...cell.exact.moves].sort((x, y) => x.action - y.action);
      const spans = labSpans(moves);
      return el("div", { class: "lab-strip", "data-variant": cell.variant },
        el("span", { class: "lab-strip-label", text: `${cell.variant}: ${LAB_SHORT[cell.exact.value]} ${cell.exact.remoteness}` }),
        moves.map((m) => el("span", { class: "lab-move", title: `${m.move}: ${m.value} in ${m.remoteness}`,
          style: labStyle(m.value, m.remoteness, spans[m.value], results), text: m.move })));
    }));
}

async function labPage(name) {
  const lab = await api("GET", `/api/lab/${encodeURIComponent(name)}`);
  document.title = `${lab.title} variants - boomboard`;
  const parts = [el("h2", { text: `${lab.title}: who wins each variant` })];
  if (!lab.families.length) {
    const grid = lab.axes.length ? ` with a grid of ${lab.axes.join(", ")}` : " (it has one board, no parameters to sweep)";
    parts.push(el("p", { class: "note", text: `Nothing explored yet: run boomboard explore ${lab.name}${grid} `
      + "(see docs/how-to/variants.md)." }));
  }
  for (const family of lab.families) parts.push(labHeatMap(lab, family), labStrips(family, lab.results));
  view.replaceChildren(el("section", { class: "lab" }, parts));
}

async function route() {
  if (current) current.kill();
  current = null;
  const [path, queryText] = location.hash.replace(/^#/, "").split("?");
  const parts = path.split("/").filter(Boolean);
  const query = new URLSearchParams(queryText || "");
  const rulesPath = location.pathname.match(/^\/rules\/([^/]+)$/);
  const labPath = location.pathname.match(/^\/lab\/([^/]+)$/);
  try {
    if (labPath) await labPage(decodeURIComponent(labPath[1]));
    else if (rulesPath && !location.hash) await rulesPage(decodeURIComponent(rulesPath[1]));
    else if (rulesPath) { location.replace(`/${location.hash}`); return; }
    else if (parts[0] === "position") current = window.page = new GamePage("position", null, 0, { game: query.get("game"), position: query.get("position") });
    else if (parts[0] === "game") current = window.page = new GamePage("live", parts[1]);
    else if (parts[0] === "replay") current = window.page = new GamePage(parts[1], parts[2], query.has("ply") ? Number(query.get("ply")) : 0);
    else if (parts[0] === "record") current = window.page = recordPage(query);
    else if (parts[0] === "games") await gamesPage(query);
    else if (parts[0] === "tournaments") await tournamentsPage(parts[1]);
    else await newGamePage(query);
  } catch (error) {
    view.replaceChildren(el("p", { class: "error", text: error.message }));
  }
}

window.addEventListener("hashchange", route);
route();
