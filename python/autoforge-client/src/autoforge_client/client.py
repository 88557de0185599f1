"""HTTP client of ``autoforge serve`` (standard library only)."""

import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Dict, List, Optional


class AutoForgeError(Exception):
    """An error answer of the server (``{"error": {"code", "message"}}``) or a transport failure.

    ``code`` is the server's error code (``session_cap``, ``unknown_task``, ...) or
    ``connection_refused`` / ``transport`` when no answer came; ``status`` the HTTP status (0 when none).
    """

    def __init__(self, code: str, message: str, status: int = 0, location: Optional[str] = None):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status
        self.location = location


def _refused(error: BaseException) -> bool:
    reason = getattr(error, "reason", error)
    return isinstance(reason, (ConnectionRefusedError, ConnectionResetError)) or (
        isinstance(reason, OSError) and getattr(reason, "errno", None) in (111, 104, 61)
    )


class AutoForgeClient:
    """Talks to one AutoForge environment server.

    Args:
        url: the server's base URL (``http://127.0.0.1:8080``).
        token: the bearer token (``autoforge serve --token``). Default: none.
        timeout: seconds per request. Default 60.
        max_retries: retries of a request answered 429 (the session cap; waits ``Retry-After``)
            or refused (the server is starting or restarting). Default 8.
        backoff: first wait in seconds, doubled each retry up to ``max_backoff``. Default 0.1.
        max_backoff: the longest wait. Default 5.
        sleep: the waiting function (tests replace it). Default ``time.sleep``.
    """

    def __init__(
        self,
        url: str,
        token: Optional[str] = None,
        timeout: float = 60.0,
        max_retries: int = 8,
        backoff: float = 0.1,
        max_backoff: float = 5.0,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self._sleep = sleep
        self.retries = 0  # retries made so far (all requests)

    # ── transport ──────────────────────────────────────────────────────────────
    def request(self, method: str, path: str, body: Any = None, query: Optional[Dict[str, Any]] = None) -> Any:
        """Sends one request and returns the decoded JSON answer; raises :class:`AutoForgeError`."""
        url = self.url + path
        if query:
            url += "?" + urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"accept": "application/json"}
        if data is not None:
            headers["content-type"] = "application/json"
        if self.token is not None:
            headers["authorization"] = f"Bearer {self.token}"
        wait = self.backoff
        attempt = 0
        while True:
            req = urllib.request.Request(url, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as response:
                    text = response.read().decode("utf-8")
                    return json.loads(text) if text else None
            except urllib.error.HTTPError as error:
                text = error.read().decode("utf-8", "replace")
                if error.code == 429 and attempt < self.max_retries:
                    retry_after = error.headers.get("retry-after")
                    delay = min(self.max_backoff, float(retry_after)) if retry_after and retry_after.replace(".", "", 1).isdigit() else wait
                    attempt, wait = self._retry(attempt, wait, delay)
                    continue
                raise self._error(error.code, text) from None
            except (urllib.error.URLError, ConnectionError, socket.timeout) as error:
                if _refused(error) and attempt < self.max_retries:
                    attempt, wait = self._retry(attempt, wait, wait)
                    continue
                code = "connection_refused" if _refused(error) else "transport"
                raise AutoForgeError(code, f"{method} {url}: {getattr(error, 'reason', error)}") from None

    def _retry(self, attempt: int, wait: float, delay: float):
        self.retries += 1
        self._sleep(delay)
        return attempt + 1, min(self.max_backoff, wait * 2)

    @staticmethod
    def _error(status: int, text: str) -> AutoForgeError:
        try:
            problem = json.loads(text)["error"]
            return AutoForgeError(problem["code"], problem["message"], status, problem.get("location"))
        except (ValueError, KeyError, TypeError):
            return AutoForgeError("http_error", text[:500] or f"HTTP {status}", status)

    # ── native routes ─────────────────────────────────────────────────────────
    def health(self) -> Dict[str, Any]:
        return self.request("GET", "/health")

    def tasks(self, env_id: Optional[str] = None, offset: int = 0, limit: int = 1000) -> Dict[str, Any]:
        return self.request("GET", "/tasks", query={"envId": env_id, "offset": offset, "limit": limit})

    def all_tasks(self, env_id: Optional[str] = None) -> List[Dict[str, Any]]:
        """Every task (id, envId, intent), all pages."""
        out: List[Dict[str, Any]] = []
        while True:
            page = self.tasks(env_id, offset=len(out))
            out.extend(page["tasks"])
            if len(out) >= page["total"] or not page["tasks"]:
                return out

    def task(self, task_id: str) -> Dict[str, Any]:
        return self.request("GET", "/tasks/" + urllib.parse.quote(task_id, safe=""))

    def open_session(self, task_id: str, user: Optional[Dict[str, Any]] = None, limits: Optional[Dict[str, int]] = None) -> Dict[str, Any]:
        """``POST /sessions``: with ``user`` ({kind, errorRate, errorKinds, seed, surface}) the user opens."""
        body: Dict[str, Any] = {"taskId": task_id}
        if user is not None:
            body["user"] = user
        if limits is not None:
            body["limits"] = limits
        return self.request("POST", "/sessions", body)

    def step(self, session_id: str, name: str, arguments: Any = None, call_id: Optional[str] = None) -> Dict[str, Any]:
        body: Dict[str, Any] = {"name": name, "arguments": {} if arguments is None else arguments}
        if call_id is not None:
            body["id"] = call_id
        return self.request("POST", f"/sessions/{session_id}/step", body)

    def say(self, session_id: str, content: str) -> Dict[str, Any]:
        """``POST /sessions/:id/user``: the agent's message; answers the user's reply ``{content, stop, injectedUserErrors, done}``."""
        return self.request("POST", f"/sessions/{session_id}/user", {"content": content})

    def reward(self, session_id: str) -> Dict[str, Any]:
        return self.request("GET", f"/sessions/{session_id}/reward")

    def trajectory(self, session_id: str, format: str = "openai") -> Dict[str, Any]:
        return self.request("GET", f"/sessions/{session_id}/trajectory", query={"format": format})

    def verdict(self, session_id: str, judge: str = "rule") -> Dict[str, Any]:
        """``{userError, blame, kinds, mask, evidence, judge}``."""
        return self.request("GET", f"/sessions/{session_id}/verdict", query={"judge": judge})

    def expert(self, session_id: str) -> Dict[str, Any]:
        """The expert's next OpenAI assistant message for the episode so far."""
        return self.request("GET", f"/sessions/{session_id}/expert")["message"]

    def close_session(self, session_id: str) -> Dict[str, Any]:
        return self.request("DELETE", f"/sessions/{session_id}")

    # ── OpenEnv routes ────────────────────────────────────────────────────────
    def openenv_reset(self, task_id: Optional[str] = None, seed: Optional[int] = None, episode_id: Optional[str] = None, user: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
        body: Dict[str, Any] = {}
        for key, value in (("task_id", task_id), ("seed", seed), ("episode_id", episode_id), ("user", user)):
            if value is not None:
                body[key] = value
        return self.request("POST", "/reset", body)

    def openenv_step(self, episode_id: str, action: Dict[str, Any]) -> Dict[str, Any]:
        return self.request("POST", "/step", {"episode_id": episode_id, "action": action})

    def openenv_state(self, episode_id: Optional[str] = None) -> Dict[str, Any]:
        return self.request("GET", "/state", query={"episode_id": episode_id})

    def mcp(self, method: str, params: Optional[Dict[str, Any]] = None, request_id: Any = 1) -> Dict[str, Any]:
        """One JSON-RPC call to ``/mcp``; returns its ``result`` or raises on its ``error``."""
        answer = self.request("POST", "/mcp", {"jsonrpc": "2.0", "method": method, "params": params or {}, "id": request_id})
        if "error" in answer:
            raise AutoForgeError(str(answer["error"]["code"]), answer["error"]["message"])
        return answer["result"]
