"""A TRL ``environment_factory`` on an AutoForge server: one typed method per tool, plus ``ask_user``.

Written against ``trl/trainer/grpo_trainer.py`` (huggingface/trl commit
f2cd57710ae345ea6428ae95363267fcf38a3dc8): the trainer calls the factory with no argument for
each rollout, lists the instance's public bound methods (``inspect.getmembers(instance,
inspect.ismethod)``) other than ``reset`` and ``get_reward`` as tools (their JSON schema comes
from type hints and a Google-style ``Args:`` docstring, as transformers' ``get_json_schema``
reads them), calls ``reset(**dataset_row)`` (a returned string is appended to the last user
message), calls tools with keyword arguments (the returned string is the tool message), and
``get_reward()`` once per finished rollout.
"""

import keyword
import re
from typing import Any, Callable, Dict, List, Optional, Tuple

from .client import AutoForgeClient
from .env import AutoForgeEnv

_JSON_TO_PY = {"string": str, "integer": int, "number": float, "boolean": bool, "array": list, "object": dict}
_RESERVED = {"reset", "get_reward", "ask_user"}


def _identifier(name: str) -> str:
    ident = re.sub(r"\W", "_", name)
    if not ident or ident[0].isdigit() or keyword.iskeyword(ident):
        ident = f"tool_{ident}"
    if ident.startswith("_"):
        ident = f"tool{ident}"
    return ident


def _py_type(schema: Dict[str, Any]) -> Any:
    t = schema.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), None)
    return _JSON_TO_PY.get(t, str) if isinstance(t, str) else str


def _tool_method(tool: Dict[str, Any]) -> Tuple[str, Callable[..., str]]:
    import inspect

    fn_spec = tool["function"]
    name = fn_spec["name"]
    params = fn_spec.get("parameters") or {}
    props: Dict[str, Any] = params.get("properties") or {}
    required = set(params.get("required") or [])
    py_names = {p: _identifier(p) for p in props}
    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: Dict[str, Any] = {"return": str}
    ordered = [p for p in props if p in required] + [p for p in props if p not in required]
    for p in ordered:
        annotation = _py_type(props[p])
        annotations[py_names[p]] = annotation if p in required else Optional[annotation]
        parameters.append(
            inspect.Parameter(py_names[p], inspect.Parameter.POSITIONAL_OR_KEYWORD,
                              annotation=annotations[py_names[p]], **({} if p in required else {"default": None}))
        )
    lines = [(fn_spec.get("description") or name).strip() or name, "", "Args:"]
    for p in ordered:
        desc = (props[p].get("description") or p).replace("\n", " ")
        lines.append(f"    {py_names[p]}: {desc}")
    if not ordered:
        lines = lines[:1]

    def method(self: "AutoForgeToolEnv", *args: Any, **kwargs: Any) -> str:
        bound = signature.bind(self, *args, **kwargs)
        arguments = {}
        for p in ordered:
            value = bound.arguments.get(py_names[p])
            if value is not None:
                arguments[p] = value
        return self._call(name, arguments)

    signature = inspect.Signature(parameters, return_annotation=str)
    method.__signature__ = signature  # type: ignore[attr-defined]
    method.__annotations__ = annotations
    method.__doc__ = "\n".join(lines)
    ident = _identifier(name)
    if ident in _RESERVED:
        ident = f"tool_{ident}"
    method.__name__ = ident
    method.__qualname__ = f"AutoForgeToolEnv.{ident}"
    return ident, method


class AutoForgeToolEnv:
    """Base of the generated environments (see :func:`environment_factory`)."""

    _client: AutoForgeClient
    _user: Optional[Dict[str, Any]]

    def __init__(self) -> None:
        self._env = AutoForgeEnv(client=self._client, user=self._user)
        self._reward: Optional[float] = None
        self._done = False

    def reset(self, **row: Any) -> Optional[str]:
        """Starts the row's episode (``task_id``, ``seed`` from the row or its ``extra_info``); returns
        the simulated user's opening, which TRL appends to the prompt's last user message."""
        info = row.get("extra_info") if isinstance(row.get("extra_info"), dict) else {}
        task_id = row.get("task_id", info.get("task_id"))
        seed = row.get("seed", info.get("seed"))
        result = self._env.reset(task_id=task_id, seed=None if seed is None else int(seed))
        self._reward, self._done = result.reward, result.done
        users = [m["content"] for m in result.observation["messages"] if m["role"] == "user"]
        return users[-1] if users else None

    def ask_user(self, message: str) -> str:
        """Send a message to the user and get the user's reply.

        Args:
            message: What to tell or ask the user.
        """
        if self._done:
            return "The conversation has ended."
        result = self._env.send_message(message)
        self._reward, self._done = result.reward, result.done
        return result.observation.get("content", "")

    def get_reward(self) -> float:
        """The episode's reward: 1 when the final state is the task's and every required output was said."""
        if self._reward is not None and self._done:
            return float(self._reward)
        return float(self._env.reward()["reward"])

    def _call(self, name: str, arguments: Dict[str, Any]) -> str:
        if self._done:
            return "Error: the conversation has ended."
        result = self._env.call_tool(name, arguments)
        self._reward, self._done = result.reward, result.done
        return result.observation.get("content", "")


def environment_factory(url: str, token: Optional[str] = None, env_id: Optional[str] = None, user: Optional[Dict[str, Any]] = None, client: Optional[AutoForgeClient] = None) -> Callable[[], AutoForgeToolEnv]:
    """A TRL ``environment_factory`` for an environment of the server: each call returns a fresh
    instance with one typed method per tool (named after it) plus ``ask_user``.

    Args:
        url: the server's base URL.
        token: its bearer token. Default none.
        env_id: the environment (default: the only one; required when the server has several).
        user: the simulated user of every episode (``{"kind": "scripted", "errorRate": 0.1}``). Default: the server's.
        client: an :class:`AutoForgeClient` to use instead of ``url``/``token``.
    """
    client = client or AutoForgeClient(url, token=token)
    tools = _tools_of(client, env_id)
    namespace: Dict[str, Any] = {"_client": client, "_user": user}
    for tool in tools:
        ident, method = _tool_method(tool)
        namespace[ident] = method
    cls = type("AutoForgeToolEnv_" + _identifier(env_id or "env"), (AutoForgeToolEnv,), namespace)
    return cls


def _tools_of(client: AutoForgeClient, env_id: Optional[str]) -> List[Dict[str, Any]]:
    params = {} if env_id is None else {"env_id": env_id}
    listed = client.mcp("tools/list", params)["tools"]
    return [{"type": "function", "function": {"name": t["name"], "description": t.get("description", ""), "parameters": t.get("inputSchema") or {}}} for t in listed]
