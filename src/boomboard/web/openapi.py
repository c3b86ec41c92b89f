"""What the app's OpenAPI schema says beyond its routes: the error answers
every operation may give, the links from a game to what may be asked of it
next, and the media types of the answers that are not JSON."""

from __future__ import annotations

from fastapi.responses import Response, StreamingResponse
from pydantic import BaseModel, Field

from .limits import LIMIT_RESPONSES


class ErrorBody(BaseModel):
    error: str = Field(description="what was wrong, and what was expected")


# Every operation may answer these (documented, so that the schema is what the app does).
ERROR_RESPONSES = {
    400: {"model": ErrorBody, "description": "bad input: an unknown game, a bad parameter, bad notation, an "
                                             "illegal move, a setting past the server's limits"},
    404: {"model": ErrorBody, "description": "no such game, record or ply"},
    409: {"model": ErrorBody, "description": "the request does not fit the game's state"},
    429: {"model": ErrorBody, "description": "this client has too much AI work, or too many long lists and "
                                             "replays, under way; retry after the Retry-After header's seconds"},
    503: {"model": ErrorBody, "description": "the games database refused the write (a full disk): nothing changed"},
    422: {"model": ErrorBody, "description": "a malformed request"},
    403: {"model": ErrorBody, "description": "a change asked by a page of another site (its Origin), or a change "
                                             "to a game another client owns (without its X-Boomboard-Owner token)"},
    415: {"model": ErrorBody, "description": "a change without a JSON body (Content-Type: application/json)"},
}


def _game_links() -> dict:
    """OpenAPI links from an answer that is a game (its ``id``) to what may be
    asked of that game next, so that tools such as Schemathesis can follow
    them (its event stream is left out: it lasts as long as the game)."""
    targets = {"GetGame": ("get", "/api/games/{game_id}"), "PlayMove": ("post", "/api/games/{game_id}/moves"),
               "Undo": ("post", "/api/games/{game_id}/undo"), "Resign": ("post", "/api/games/{game_id}/resign"),
               "Stop": ("post", "/api/games/{game_id}/stop"), "Pause": ("post", "/api/games/{game_id}/pause"),
               "Analyse": ("get", "/api/games/{game_id}/analysis"), "Values": ("get", "/api/games/{game_id}/values")}
    return {name: {"operationRef": f"#/paths/{path.replace('/', '~1')}/{method}",
                   "parameters": {"game_id": "$response.body#/id"}} for name, (method, path) in targets.items()}


GAME_LINKS = _game_links()
# The answer of an operation whose answer is a game.
A_GAME = {200: {"description": "the game", "links": GAME_LINKS}}


def errors_as_json(success: str) -> dict:
    """The responses of an operation whose success is not JSON: its errors
    still are (given a ``model``, FastAPI would file them under the
    operation's own media type), and ``success`` describes the 200."""
    errors = {status: {"description": response["description"],
                       "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
              for status, response in ERROR_RESPONSES.items()}
    return {200: {"description": success}, **errors}


def error_responses() -> dict:
    """The schema's error answers: the app's own and the server limits', a 503
    for either reason."""
    responses = {**LIMIT_RESPONSES, **ERROR_RESPONSES}
    responses[503] = {**ERROR_RESPONSES[503], "description": ERROR_RESPONSES[503]["description"] + "; or "
                      + LIMIT_RESPONSES[503]["description"] + "; or the AI workers are too busy to start an "
                      "analysis soon (boomboard serve --ai-max-queue-wait): retry after Retry-After's seconds"}
    return responses


class EventStream(StreamingResponse):
    media_type = "text/event-stream"  # so that the schema says what the stream is


class PNG(Response):
    media_type = "image/png"


class RecordText(Response):
    media_type = "text/plain; charset=utf-8"
