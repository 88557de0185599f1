"""An OpenEnv-style environment over the server's OpenEnv routes (``/reset``, ``/step``)."""

import json
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

from .client import AutoForgeClient


@dataclass
class StepResult:
    """What ``reset`` and ``step`` return, as OpenEnv's ``StepResult``: the observation
    (``messages`` added, ``tools``, ``episode_id``, and per action ``tool_name``/``result``/``error``
    or the user's ``content``/``stop``), the reward (``None`` until the episode is done) and ``done``."""

    observation: Dict[str, Any]
    reward: Optional[float] = None
    done: bool = False


@dataclass
class _Episode:
    episode_id: str
    task_id: Optional[str]
    messages: List[Dict[str, Any]] = field(default_factory=list)
    tools: List[Dict[str, Any]] = field(default_factory=list)


class AutoForgeEnv:
    """One episode at a time on an AutoForge server, OpenEnv-style.

    Args:
        url: the server's base URL (or pass ``client``).
        client: an :class:`AutoForgeClient` to use instead of ``url``/``token``.
        token: the bearer token.
        user: the simulated user of every episode (``{"kind": "scripted", "errorRate": 0.2}``);
            its seed is the episode's. Default: the server's.
    """

    def __init__(self, url: Optional[str] = None, client: Optional[AutoForgeClient] = None, token: Optional[str] = None, user: Optional[Dict[str, Any]] = None):
        if client is None:
            if url is None:
                raise ValueError("AutoForgeEnv: give url or client")
            client = AutoForgeClient(url, token=token)
        self.client = client
        self.user = user
        self._episode: Optional[_Episode] = None

    # ── OpenEnv API ───────────────────────────────────────────────────────────
    def reset(self, task_id: Optional[str] = None, seed: Optional[int] = None, episode_id: Optional[str] = None) -> StepResult:
        """Starts an episode (``task_id``, else the seed's task); the user's opening is in ``observation["messages"]``."""
        user = None if self.user is None else {k: v for k, v in self.user.items() if k != "seed"}
        answer = self.client.openenv_reset(task_id=task_id, seed=seed, episode_id=episode_id, user=user)
        observation = answer["observation"]
        self._episode = _Episode(observation["episode_id"], observation.get("task_id"), list(observation["messages"]), observation["tools"])
        return StepResult(observation, answer.get("reward"), bool(answer.get("done")))

    def step(self, action: Dict[str, Any]) -> StepResult:
        """One action: ``{"tool_name", "arguments"}`` (a tool call) or ``{"type": "message", "content"}`` (to the user)."""
        episode = self._need()
        answer = self.client.openenv_step(episode.episode_id, action)
        observation = answer["observation"]
        episode.messages.extend(observation.get("messages", []))
        return StepResult(observation, answer.get("reward"), bool(answer.get("done")))

    def state(self) -> Dict[str, Any]:
        return self.client.openenv_state(self._need().episode_id)

    def close(self) -> None:
        """Closes the episode's session on the server (idempotent)."""
        if self._episode is not None:
            try:
                self.client.close_session(self._episode.episode_id)
            finally:
                self._episode = None

    # ── conveniences ──────────────────────────────────────────────────────────
    def call_tool(self, tool_name: str, arguments: Optional[Dict[str, Any]] = None, tool_call_id: Optional[str] = None) -> StepResult:
        action: Dict[str, Any] = {"tool_name": tool_name, "arguments": arguments or {}}
        if tool_call_id is not None:
            action["tool_call_id"] = tool_call_id
        return self.step(action)

    def send_message(self, content: str) -> StepResult:
        return self.step({"type": "message", "content": content})

    def act(self, message: Dict[str, Any]) -> List[StepResult]:
        """Plays an OpenAI assistant message: each of its ``tool_calls`` (in order), else its text to the user."""
        calls = message.get("tool_calls") or []
        if not calls:
            return [self.send_message(message.get("content") or "")]
        results = []
        for call in calls:
            fn = call["function"]
            args = fn.get("arguments") or "{}"
            results.append(self.call_tool(fn["name"], json.loads(args) if isinstance(args, str) else args, call.get("id")))
            if results[-1].done:
                break
        return results

    @property
    def episode_id(self) -> str:
        return self._need().episode_id

    @property
    def messages(self) -> List[Dict[str, Any]]:
        """The conversation so far (OpenAI chat messages): reset's, then every step's."""
        return self._need().messages

    @property
    def tools(self) -> List[Dict[str, Any]]:
        return self._need().tools

    def reward(self) -> Dict[str, Any]:
        """The reward and its components (``GET /sessions/:id/reward``)."""
        return self.client.reward(self._need().episode_id)

    def verdict(self, judge: str = "rule") -> Dict[str, Any]:
        """The judge's verdict with the MEU ``mask``."""
        return self.client.verdict(self._need().episode_id, judge)

    def trajectory(self, format: str = "openai") -> Dict[str, Any]:
        return self.client.trajectory(self._need().episode_id, format)

    def expert(self) -> Dict[str, Any]:
        """The expert's next OpenAI assistant message (imitation targets, scripted agents)."""
        return self.client.expert(self._need().episode_id)

    def _need(self) -> _Episode:
        if self._episode is None:
            raise RuntimeError("AutoForgeEnv: call reset() first")
        return self._episode

    def __enter__(self) -> "AutoForgeEnv":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
