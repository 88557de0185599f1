"""A verl agent loop on an AutoForge server: tool calls, simulated-user turns and the reward, with
the judge's MEU mask in ``extra_fields``.

Written against ``verl/experimental/agent_loop/agent_loop.py`` (volcengine/verl commit
b178a3cd56f58b2d502255daba591e92833930a7): verl instantiates the loop with ``trainer_config``,
``server_manager``, ``tokenizer``, ``processor``, ``dataset_cls`` and ``dataset_config``, then
awaits ``run(sampling_params, **dataset_fields)``, which must return an ``AgentLoopOutput``
(``prompt_ids``, ``response_ids``, ``response_mask``, ``reward_score``, ``num_turns``,
``metrics``, ``extra_fields``). Inside ``run`` this loop calls the base class's
``apply_chat_template(messages, tools=..., remove_system_prompt=...)`` and
``server_manager.generate(request_id, prompt_ids=..., sampling_params=...)`` (a ``TokenOutput``
with ``token_ids`` and ``log_probs``), and ``tokenizer.decode``.

verl is not installable where this package is tested: the loop is built by
:func:`make_agent_loop_class` from whatever base and output classes it is given, and registered
as ``"autoforge"`` with verl's ``register`` when verl is importable.

Dataset rows (``autoforge export --format verl``) carry ``extra_info = {task_id, env_id,
server: {url}}``; the seed of an episode is ``extra_info["seed"]`` when given, else derived from
the row's index and the rollout.
"""

import asyncio
import json
import os
import re
import uuid
from typing import Any, Callable, Dict, List, Optional, Tuple

from .client import AutoForgeClient
from .env import AutoForgeEnv

_TOOL_CALL = re.compile(r"<tool_call>(.*?)</tool_call>", re.DOTALL)


def parse_hermes_tool_calls(text: str) -> Tuple[str, List[Dict[str, Any]]]:
    """``(content, calls)`` of a model reply in the Hermes format verl's ``HermesToolParser`` reads:
    ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``. Unparsable calls are dropped."""
    calls = []
    for raw in _TOOL_CALL.findall(text):
        try:
            call = json.loads(raw)
        except ValueError:
            continue
        if isinstance(call, dict) and isinstance(call.get("name"), str):
            args = call.get("arguments", {})
            calls.append({"name": call["name"], "arguments": args if isinstance(args, (dict, str)) else {}})
    return _TOOL_CALL.sub("", text).strip(), calls


def _config_get(config: Any, path: str, default: Any) -> Any:
    node = config
    for key in path.split("."):
        if node is None:
            return default
        node = node.get(key) if hasattr(node, "get") else getattr(node, key, None)
    return default if node is None else node


def make_agent_loop_class(base: type, output_cls: Callable[..., Any], metrics_cls: Optional[Callable[..., Any]] = None, client_factory: Optional[Callable[[str], AutoForgeClient]] = None) -> type:
    """Builds the AutoForge agent loop as a subclass of ``base`` (verl's ``AgentLoopBase``).

    Args:
        base: the base class (its ``__init__`` and ``apply_chat_template`` are used as verl defines them).
        output_cls: ``AgentLoopOutput``.
        metrics_cls: ``AgentLoopMetrics`` (default: a plain dict).
        client_factory: makes the HTTP client of a server URL. Default :class:`AutoForgeClient`.
    """
    make_client = client_factory or (lambda url: AutoForgeClient(url, token=os.environ.get("AUTOFORGE_SERVE_TOKEN")))

    class AutoForgeAgentLoop(base):  # type: ignore[misc, valid-type]
        """One episode per dataset row: reset on the server (the user opens), then model turns until
        done: tool calls go to ``/step``, text goes to the simulated user. Observation tokens get
        response mask 0; a masked episode (the judge blamed the user) gets an all-zero mask, which
        ``compute_erpo_outcome_advantage`` reads as masked."""

        judge = "rule"

        async def run(self, sampling_params: Dict[str, Any], **kwargs: Any) -> Any:
            extra = kwargs.get("extra_info") or {}
            server = extra.get("server") or {}
            url = server.get("url") if isinstance(server, dict) else None
            url = url or os.environ.get("AUTOFORGE_URL")
            if not url:
                raise ValueError("AutoForgeAgentLoop: no server URL (extra_info.server.url or AUTOFORGE_URL)")
            seed = extra.get("seed")
            if seed is None:
                seed = (int(extra.get("index", 0)) * 1009 + int(kwargs.get("rollout_n", 0) or 0)) % (2**32)
            loop = asyncio.get_running_loop()

            def call(fn: Callable[..., Any], *args: Any) -> "asyncio.Future[Any]":
                return loop.run_in_executor(None, fn, *args)

            env = AutoForgeEnv(client=make_client(url), user=extra.get("user"))
            first = await call(lambda: env.reset(task_id=extra["task_id"], seed=int(seed)))
            messages = list(first.observation["messages"])
            tools = first.observation["tools"]
            prompt_ids = await self.apply_chat_template(messages, tools=tools)
            max_response = int(_config_get(self.config, "actor_rollout_ref.rollout.response_length", 4096))
            max_turns = int(_config_get(self.config, "actor_rollout_ref.rollout.multi_turn.max_assistant_turns", 30) or 30)
            request_id = uuid.uuid4().hex
            response_ids: List[int] = []
            response_mask: List[int] = []
            logprobs: List[float] = []
            done, reward, turns = first.done, first.reward, 0
            while not done and turns < max_turns and len(response_ids) < max_response:
                output = await self.server_manager.generate(request_id, prompt_ids=prompt_ids + response_ids, sampling_params=sampling_params)
                ids = list(output.token_ids)
                response_ids += ids
                response_mask += [1] * len(ids)
                if getattr(output, "log_probs", None):
                    logprobs += list(output.log_probs)
                turns += 1
                text = self.tokenizer.decode(ids, skip_special_tokens=True)
                content, calls = parse_hermes_tool_calls(text)
                if calls:
                    message = {"role": "assistant", "content": content or None, "tool_calls": [
                        {"id": f"call-{turns}-{i}", "type": "function", "function": {"name": c["name"], "arguments": c["arguments"] if isinstance(c["arguments"], str) else json.dumps(c["arguments"])}}
                        for i, c in enumerate(calls)
                    ]}
                else:
                    message = {"role": "assistant", "content": content}
                results = await call(env.act, message)
                done, reward = results[-1].done, results[-1].reward
                replies = [m for r in results for m in r.observation.get("messages", []) if m["role"] != "assistant"]
                if replies and not done:
                    obs_ids = await self.apply_chat_template(replies, remove_system_prompt=True)
                    response_ids += obs_ids
                    response_mask += [0] * len(obs_ids)
                    if logprobs:
                        logprobs += [0.0] * len(obs_ids)
            if reward is None:
                reward = (await call(env.reward))["reward"]
            verdict = await call(env.verdict, self.judge)
            episode_id = env.episode_id
            await call(env.close)
            mask = int(verdict["mask"])
            if mask == 0:
                response_mask = [0] * len(response_mask)
            metrics = {"generate_sequences": 0.0, "tool_calls": 0.0}
            return output_cls(
                prompt_ids=prompt_ids,
                response_ids=response_ids[:max_response],
                response_mask=response_mask[:max_response],
                **({"response_logprobs": logprobs[:max_response]} if logprobs else {}),
                reward_score=float(reward),
                # verl counts user, assistant and tool turns: the opening, then the agent's and the answer per turn.
                num_turns=sum(1 for m in messages if m["role"] == "user") + 2 * turns,
                metrics=metrics_cls(**metrics) if metrics_cls is not None else metrics,
                extra_fields={
                    "meu_mask": mask,
                    "verdict": {k: verdict[k] for k in ("userError", "blame", "kinds", "mask")},
                    "episode_id": episode_id,
                    "task_id": extra["task_id"],
                    "env_id": extra.get("env_id"),
                    "seed": int(seed),
                },
            )

    return AutoForgeAgentLoop


def make_tool_class(base: type, response_cls: Optional[Callable[..., Any]] = None, client_factory: Optional[Callable[[str], AutoForgeClient]] = None) -> type:
    """Builds the AutoForge tool as a subclass of ``base`` (verl's ``BaseTool``), for verl's own
    tool agent loop (the ``tool_config/<env>.yaml`` that ``autoforge export --format verl``
    writes names it). Each verl tool instance is one server session of the row's task:
    ``create(instance_id, task_id=...)`` opens it, ``execute`` sends one call to the server's
    step route and answers its observation, ``calc_reward`` reads the session's reward and
    ``release`` closes it. Written against verl's ``verl/tools/base_tool.py`` (``BaseTool``:
    ``create``, ``execute`` → ``(response, step_reward, metrics)``, ``calc_reward``,
    ``release``) at the commit the export cites; verl itself cannot be installed here, so the
    tests run it on a stand-in base class that makes the same calls.
    """

    class AutoForgeTool(base):  # type: ignore[misc, valid-type]
        def __init__(self, config: Any, tool_schema: Any):
            super().__init__(config, tool_schema)
            url = _config_get(config, "server_url", None)
            if not url:
                raise ValueError("AutoForgeTool: the tool config needs server_url")
            self._client = (client_factory or AutoForgeClient)(str(url))
            function = tool_schema["function"] if isinstance(tool_schema, dict) else getattr(tool_schema, "function")
            self._tool_name = function["name"] if isinstance(function, dict) else getattr(function, "name")
            self._sessions: Dict[str, str] = {}

        async def create(self, instance_id: Optional[str] = None, **kwargs: Any) -> Any:
            task_id = kwargs.get("task_id") or (kwargs.get("create_kwargs") or {}).get("task_id")
            if not task_id:
                raise ValueError("AutoForgeTool.create: task_id is required (the row's extra_info.task_id)")
            session = self._client.open_session(str(task_id))
            key = instance_id or session["sessionId"]
            self._sessions[key] = session["sessionId"]
            return key

        async def execute(self, instance_id: str, parameters: Dict[str, Any], **kwargs: Any) -> Tuple[Any, float, Dict[str, Any]]:
            result = self._client.step(self._sessions[instance_id], self._tool_name, parameters)
            text = result.get("observation") if isinstance(result, dict) else None
            if not isinstance(text, str):
                text = json.dumps(result.get("output") if isinstance(result, dict) and "output" in result else result)
            response = response_cls(text=text) if response_cls is not None else text
            return response, 0.0, {"ok": bool(result.get("ok", True)) if isinstance(result, dict) else True}

        async def calc_reward(self, instance_id: str, **kwargs: Any) -> float:
            return float(self._client.reward(self._sessions[instance_id]).get("reward", 0.0))

        async def release(self, instance_id: str, **kwargs: Any) -> None:
            session = self._sessions.pop(instance_id, None)
            if session is not None:
                self._client.close_session(session)

    AutoForgeTool.__name__ = "AutoForgeTool"
    return AutoForgeTool


def _tool_with_verl() -> Optional[type]:
    try:
        from verl.tools.base_tool import BaseTool  # type: ignore[import-not-found]
        from verl.tools.schemas import ToolResponse  # type: ignore[import-not-found]
    except ImportError:
        return None
    return make_tool_class(BaseTool, ToolResponse)


AutoForgeTool = _tool_with_verl()
"""The verl tool (``class_name: autoforge_client.verl.AutoForgeTool``), or ``None`` without verl."""


def _register_with_verl() -> Optional[type]:
    try:
        from verl.experimental.agent_loop.agent_loop import AgentLoopBase, AgentLoopMetrics, AgentLoopOutput, register  # type: ignore[import-not-found]
    except ImportError:
        return None
    cls = make_agent_loop_class(AgentLoopBase, AgentLoopOutput, AgentLoopMetrics)
    return register("autoforge")(cls)


AutoForgeAgentLoop = _register_with_verl()
"""The registered verl agent loop (``agent_name: autoforge``), or ``None`` without verl."""
