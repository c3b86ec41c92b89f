"""Another website's page, in a real browser, cannot change a game (Debian's
chromium through Playwright, two origins on loopback): the game server at
http://127.0.0.1:PORT and a page of http://localhost:OTHER that posts to it
as a hostile site would (a plain POST with no body undid a move and resigned
a game before the server checked the Origin and asked for JSON bodies)."""

from __future__ import annotations

import json
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from browser_helpers import requires_chromium  # noqa: E402
from web_helpers import OWNER  # noqa: E402

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install .[test])")
pytestmark = requires_chromium

# What the hostile page tries, each a request the browser sends without asking the server first
# (no CORS preflight): no body, a text body, a form; and a JSON fetch, which needs a preflight.
ATTACKS = """async (server) => {
  const sent = [];
  for (const [action, init] of [
      ["undo", {}],
      ["resign", {}],
      ["undo", {headers: {"content-type": "text/plain"}, body: "{}"}],
      ["resign", {headers: {"content-type": "text/plain"}, body: '{"player": 0}'}],
  ]) {
    const response = await fetch(server + action, {method: "POST", mode: "no-cors", ...init});
    sent.push(response.type);  // "opaque": the request went out and was answered
  }
  try {
    await fetch(server + "undo", {method: "POST", headers: {"content-type": "application/json"}, body: "{}"});
    sent.push("json sent");
  } catch (refused) {
    sent.push("json refused");
  }
  const frame = document.createElement("iframe");
  frame.name = "sink";
  document.body.append(frame);
  const form = document.createElement("form");
  form.method = "post"; form.action = server + "resign"; form.target = "sink";
  document.body.append(form);
  await new Promise((done) => { frame.onload = done; form.submit(); });
  sent.push("form");
  return sent;
}"""


def api(base, method, path, body=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json", **OWNER})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


class HostilePage(BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"<!doctype html><title>another site</title><body></body>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):  # quiet
        pass


@pytest.fixture(scope="module")
def other_site():
    """A page on another origin of this machine: http://localhost:PORT/."""
    site = ThreadingHTTPServer(("127.0.0.1", 0), HostilePage)
    thread = threading.Thread(target=site.serve_forever, daemon=True)
    thread.start()
    yield f"http://localhost:{site.server_address[1]}/"
    site.shutdown()
    site.server_close()


def test_another_sites_page_cannot_undo_or_resign_but_the_servers_own_page_can(server, other_site, browser):
    game = api(server, "POST", "api/games", {"game": "kaboom", "players": ["human", "human"]})
    for move in ["A", "B"]:
        api(server, "POST", f"api/games/{game['id']}/moves", {"move": move})
    target = f"{server}api/games/{game['id']}/"
    page = browser.new_page()
    try:
        page.goto(other_site)
        sent = page.evaluate(ATTACKS, target)
        assert sent == ["opaque"] * 4 + ["json refused", "form"]  # every request went out and was answered
        after = api(server, "GET", f"api/games/{game['id']}")
        assert after["ply"] == 2 and after["outcome"] is None, after["moves"]

        page.goto(server)  # the server's own page, whose requests carry its own Origin (and, as the page's, its token)
        undone = page.evaluate("""async (target) => {
            const response = await fetch(target + "undo", {method: "POST", body: "{}",
              headers: {"content-type": "application/json", [OWNER_HEADER]: ownerToken()}});
            return [response.status, (await response.json()).ply];
        }""", target)
        assert undone == [200, 1]
    finally:
        page.close()
