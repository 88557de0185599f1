#!/usr/bin/env python3
"""A minimal client of `autoforge serve`, standard library only (urllib, json).

Use the class `AutoForgeEnv` from a trainer (verl, OpenRLHF, TRL, ROLL…): open a session per
episode, send the policy's tool calls to `step`, feed each `observation` back to the policy,
post the assistant's text with `message`, and read the `reward` at the end.

Run as a script, it replays the gold calls of the first tasks (a smoke test of the server):

    autoforge serve runs/retail --port 8080 --token secret &
    python3 serve_client.py --url http://127.0.0.1:8080 --token secret --tasks 3
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Optional


class AutoForgeApiError(Exception):
    """An HTTP error of the server: its status and the `{"error": {"code", "message"}}` body."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message


class AutoForgeEnv:
    """The HTTP API of `autoforge serve` (see GET /openapi.json for every field)."""

    def __init__(self, url: str, token: Optional[str] = None, timeout: float = 30.0):
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def _request(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["content-type"] = "application/json"
        if self.token:
            headers["authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as error:
            try:
                problem = json.loads(error.read().decode("utf-8"))["error"]
            except (ValueError, KeyError, TypeError):
                problem = {"code": "http_error", "message": error.reason}
            raise AutoForgeApiError(error.code, problem["code"], problem["message"]) from None

    @staticmethod
    def _quote(identifier: str) -> str:
        # Task ids contain a slash: encode it.
        return urllib.parse.quote(identifier, safe="")

    # catalog
    def health(self) -> dict:
        return self._request("GET", "/health")

    def envs(self) -> list:
        return self._request("GET", "/envs")["envs"]

    def tasks(self, env_id: Optional[str] = None, offset: int = 0, limit: int = 100) -> dict:
        query = {"offset": offset, "limit": limit}
        if env_id is not None:
            query["envId"] = env_id
        return self._request("GET", "/tasks?" + urllib.parse.urlencode(query))

    def task(self, task_id: str) -> dict:
        """The whole task (intent, user facts, gold calls…): for the trainer's user simulator."""
        return self._request("GET", "/tasks/" + self._quote(task_id))

    # sessions
    def open(self, task_id: Optional[str] = None, env_id: Optional[str] = None) -> dict:
        """Opens a session: {sessionId, envId, taskId, tools (OpenAI format), intent, policy}."""
        body = {"taskId": task_id} if task_id is not None else {"envId": env_id}
        return self._request("POST", "/sessions", body)

    def tools(self, session_id: str) -> list:
        return self._request("GET", f"/sessions/{session_id}/tools")["tools"]

    def step(self, session_id: str, name: str, arguments: Any = None, call_id: Optional[str] = None) -> dict:
        """One tool call; `arguments` is a dict or the model's JSON text. Tool errors come back as
        {ok: False, error, observation}: show the observation to the policy and go on."""
        body: dict = {"name": name, "arguments": {} if arguments is None else arguments}
        if call_id is not None:
            body["id"] = call_id
        return self._request("POST", f"/sessions/{session_id}/step", body)

    def message(self, session_id: str, content: str, role: str = "assistant") -> dict:
        return self._request("POST", f"/sessions/{session_id}/messages", {"role": role, "content": content})

    def state(self, session_id: str, include_state: bool = False) -> dict:
        suffix = "?state=true" if include_state else ""
        return self._request("GET", f"/sessions/{session_id}/state{suffix}")

    def reward(self, session_id: str) -> dict:
        """{reward (0 or 1), stateMatch, outputs, digest, expectedDigest}."""
        return self._request("GET", f"/sessions/{session_id}/reward")

    def reset(self, session_id: str) -> dict:
        return self._request("POST", f"/sessions/{session_id}/reset")

    def close(self, session_id: str) -> dict:
        return self._request("DELETE", f"/sessions/{session_id}")


def replay_gold(env: AutoForgeEnv, task_id: str) -> float:
    """Plays a task's gold calls as if they were the policy's and returns the reward."""
    task = env.task(task_id)
    session = env.open(task_id=task_id)
    sid = session["sessionId"]
    try:
        for i, call in enumerate(task["goldCalls"]):
            result = env.step(sid, call["name"], call["arguments"], call_id=f"gold-{i}")
            if not result["ok"]:
                print(f"  {call['name']}: {result['observation']}", file=sys.stderr)
        if task["requiredOutputs"]:
            env.message(sid, "; ".join(task["requiredOutputs"]))
        return float(env.reward(sid)["reward"])
    finally:
        env.close(sid)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8080")
    parser.add_argument("--token", default=os.environ.get("AUTOFORGE_SERVE_TOKEN"))
    parser.add_argument("--tasks", type=int, default=3, help="how many tasks to replay")
    args = parser.parse_args()

    env = AutoForgeEnv(args.url, args.token)
    health = env.health()
    print(f"server {health['version']}: {health['envs']} environment(s), {health['tasks']} task(s)")
    page = env.tasks(limit=args.tasks)
    rewards = []
    for summary in page["tasks"]:
        reward = replay_gold(env, summary["id"])
        rewards.append(reward)
        print(f"{summary['id']}: reward {reward}")
    mean = sum(rewards) / len(rewards) if rewards else 0.0
    print(f"mean reward {mean:.3f} over {len(rewards)} task(s)")
    return 0 if rewards and mean == 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
