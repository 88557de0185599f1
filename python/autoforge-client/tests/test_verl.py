"""The verl agent loop against the call sequence verl's base class makes
(verl/experimental/agent_loop/agent_loop.py at volcengine/verl b178a3cd56f58b2d502255daba591e92833930a7):
``AgentLoopWorker._run_agent_loop`` instantiates the registered loop with trainer_config,
server_manager, tokenizer, processor, dataset_cls and dataset_config (DictConfigWrap), then awaits
``run(sampling_params, **row)``; the loop calls ``apply_chat_template`` and
``server_manager.generate(request_id, prompt_ids=, sampling_params=)``. verl is not installable
here: the stand-ins below reproduce those signatures; the model is a gold-call replayer; the
server is a real ``autoforge serve``."""

import asyncio
import json
import unittest
from typing import Any, Dict, List, Optional

from support import HAVE_SERVER, SKIP_SERVER, server

from autoforge_client.verl import make_agent_loop_class, parse_hermes_tool_calls


class DictConfigWrap:  # verl.experimental.agent_loop.agent_loop.DictConfigWrap
    def __init__(self, config):
        self.config = config


class CharTokenizer:
    """One token per character; the chat template writes each message as a JSON line."""

    def apply_chat_template(self, messages, tools=None, add_generation_prompt=True, tokenize=True, **kwargs):
        text = "".join(json.dumps(m, sort_keys=True) + "\n" for m in messages)
        if add_generation_prompt:
            text += "<assistant>"
        return [ord(c) for c in text] if tokenize else text

    def decode(self, ids, skip_special_tokens=True):
        return "".join(chr(i) for i in ids)


class AgentLoopBase:
    """verl's AgentLoopBase: the same __init__ and apply_chat_template (tokenizer branch)."""

    def __init__(self, trainer_config, server_manager, tokenizer, processor, dataset_cls, dataset_config, **kwargs):
        self.config = trainer_config.config
        self.server_manager = server_manager
        self.tokenizer = tokenizer
        self.processor = processor
        self.dataset_cls = dataset_cls
        self.dataset_config = dataset_config.config
        self.apply_chat_template_kwargs = self.dataset_config.get("apply_chat_template_kwargs", {})
        self.system_prompt = []  # initialize_system_prompt: the template's default system prompt (none here)
        self.loop = asyncio.get_running_loop()
        self.calls: List[str] = []

    async def apply_chat_template(self, messages, tools=None, images=None, videos=None, remove_system_prompt=False):
        self.calls.append("apply_chat_template")
        prompt_ids = await self.loop.run_in_executor(
            None, lambda: self.tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=True, tokenize=True, **self.apply_chat_template_kwargs)
        )
        if remove_system_prompt:
            prompt_ids = prompt_ids[len(self.system_prompt):]
        return prompt_ids


class AgentLoopOutput:  # the pydantic model's fields, as keyword arguments
    def __init__(self, prompt_ids, response_ids, response_mask, metrics, response_logprobs=None, reward_score=None, num_turns=0, extra_fields=None, **rest):
        assert not rest, rest
        self.prompt_ids, self.response_ids, self.response_mask = prompt_ids, response_ids, response_mask
        self.response_logprobs, self.reward_score, self.num_turns = response_logprobs, reward_score, num_turns
        self.metrics, self.extra_fields = metrics, extra_fields or {}


class TokenOutput:
    def __init__(self, token_ids, log_probs=None):
        self.token_ids, self.log_probs = token_ids, log_probs


class GoldReplayer:
    """An AsyncLLMServerManager whose model replays the task's gold calls, then reports its outputs."""

    def __init__(self, task: Dict[str, Any], offer_last: bool = False):
        calls = task["goldCalls"][:-1] if offer_last else task["goldCalls"]
        self.plan = [f'<tool_call>{json.dumps({"name": c["name"], "arguments": c["arguments"]})}</tool_call>' for c in calls]
        if offer_last:
            # The last gold call is offered instead of made: the user has to say yes.
            last = task["goldCalls"][-1]
            values = " ".join(str(v) for v in last["arguments"].values() if isinstance(v, (str, int, float)))
            self.plan.append(f"Shall I also run {last['name']} with {values}?")
        else:
            self.plan.append("Done. " + " ".join(task["requiredOutputs"]))
        self.prompts: List[int] = []

    async def generate(self, request_id, *, prompt_ids, sampling_params, image_data=None, video_data=None):
        self.prompts.append(len(prompt_ids))
        text = self.plan.pop(0) if self.plan else "Is there anything else?"
        return TokenOutput([ord(c) for c in text], [-0.5] * len(text))


CONFIG = {"actor_rollout_ref": {"rollout": {"response_length": 100000, "multi_turn": {"max_assistant_turns": 20}}}, "data": {}}


async def run_like_verl(cls, task: Dict[str, Any], url: str, user: Optional[Dict[str, Any]] = None, seed: int = 0, offer_last: bool = False):
    manager = GoldReplayer(task, offer_last)
    loop = cls(
        trainer_config=DictConfigWrap(CONFIG),
        server_manager=manager,
        tokenizer=CharTokenizer(),
        processor=None,
        dataset_cls=None,
        dataset_config=DictConfigWrap(CONFIG["data"]),
    )
    row = {
        "raw_prompt": [],
        "index": 0,
        "agent_name": "autoforge",
        "extra_info": {"task_id": task["id"], "env_id": task["envId"], "server": {"url": url}, "seed": seed, **({"user": user} if user else {})},
    }
    return await loop.run({"temperature": 1.0}, **row), loop, manager


class ParserTest(unittest.TestCase):
    def test_hermes_tool_calls(self):
        content, calls = parse_hermes_tool_calls('Sure. <tool_call>{"name": "f", "arguments": {"x": 1}}</tool_call><tool_call>oops</tool_call>')
        self.assertEqual(content, "Sure.")
        self.assertEqual(calls, [{"name": "f", "arguments": {"x": 1}}])


@unittest.skipUnless(HAVE_SERVER, SKIP_SERVER)
class AgentLoopTest(unittest.TestCase):
    def setUp(self):
        self.info = server()
        self.cls = make_agent_loop_class(AgentLoopBase, AgentLoopOutput)

    def test_a_gold_episode_earns_reward_1_with_mask_1_and_masks_observation_tokens(self):
        task = self.info["tasks"][0]
        out, loop, manager = asyncio.run(run_like_verl(self.cls, task, self.info["url"]))
        self.assertEqual(out.reward_score, 1.0)
        self.assertEqual(out.extra_fields["meu_mask"], 1)
        self.assertEqual(out.extra_fields["task_id"], task["id"])
        self.assertEqual(len(out.response_ids), len(out.response_mask))
        self.assertEqual(len(out.response_logprobs), len(out.response_ids))
        generated = sum(out.response_mask)
        self.assertGreater(generated, 0)
        self.assertLess(generated, len(out.response_mask))  # tool results and user replies are mask 0
        text = "".join(chr(i) for i, m in zip(out.response_ids, out.response_mask) if m == 0)
        self.assertIn('"role": "tool"', text)
        self.assertEqual(len(manager.prompts), len(task["goldCalls"]) + 1)
        # Each generation sees the prompt plus everything so far.
        self.assertEqual(manager.prompts, sorted(manager.prompts))
        self.assertEqual(loop.calls[0], "apply_chat_template")

    def test_an_episode_the_judge_blames_on_the_user_gets_mask_0_and_an_all_zero_response_mask(self):
        task = self.info["tasks"][0]
        # The model offers the last gold call; the user walks away instead of accepting it, so the
        # episode fails because of the user: the judge masks it.
        user = {"kind": "scripted", "errorRate": 1, "errorKinds": ["early_stop"]}
        out, _, _ = asyncio.run(run_like_verl(self.cls, task, self.info["url"], user=user, seed=0, offer_last=True))
        self.assertEqual(out.reward_score, 0.0)
        self.assertEqual(out.extra_fields["meu_mask"], 0)
        self.assertTrue(out.extra_fields["verdict"]["userError"])
        self.assertIn("early_stop", out.extra_fields["verdict"]["kinds"])
        self.assertEqual(sum(out.response_mask), 0)
        # The same user, once the model has done everything: the episode succeeds and is kept.
        kept, _, _ = asyncio.run(run_like_verl(self.cls, task, self.info["url"], user=user, seed=0))
        self.assertEqual(kept.reward_score, 1.0)
        self.assertEqual(kept.extra_fields["meu_mask"], 1)


if __name__ == "__main__":
    unittest.main()


class StandInBaseTool:  # verl.tools.base_tool.BaseTool: __init__(config, tool_schema)
    def __init__(self, config, tool_schema):
        self.config = config
        self.tool_schema = tool_schema


class StandInToolResponse:  # verl.tools.schemas.ToolResponse(text=...)
    def __init__(self, text=None):
        self.text = text


class FakeClient:
    def __init__(self, url):
        self.url = url
        self.calls: List[Any] = []

    def open_session(self, task_id, user=None, limits=None):
        self.calls.append(("open", task_id))
        return {"sessionId": "s-1"}

    def step(self, session_id, name, arguments=None, call_id=None):
        self.calls.append(("step", session_id, name, arguments))
        return {"ok": True, "output": {"status": "cancelled"}, "observation": '{"status":"cancelled"}', "done": False}

    def reward(self, session_id):
        self.calls.append(("reward", session_id))
        return {"reward": 1}

    def close_session(self, session_id):
        self.calls.append(("close", session_id))
        return {"sessionId": session_id, "closed": True}


class VerlToolTest(unittest.TestCase):
    def test_create_execute_reward_release_in_verls_order(self):
        from autoforge_client.verl import make_tool_class

        made: List[FakeClient] = []

        def factory(url):
            made.append(FakeClient(url))
            return made[-1]

        cls = make_tool_class(StandInBaseTool, StandInToolResponse, client_factory=factory)
        schema = {"type": "function", "function": {"name": "cancel_order", "parameters": {"type": "object"}}}
        tool = cls({"type": "native", "server_url": "http://127.0.0.1:9", "env_id": "e"}, schema)

        async def episode():
            iid = await tool.create("inst-1", create_kwargs={"task_id": "e/t1"})
            response, step_reward, metrics = await tool.execute(iid, {"order_id": "o1"})
            reward = await tool.calc_reward(iid)
            await tool.release(iid)
            return iid, response, step_reward, metrics, reward

        iid, response, step_reward, metrics, reward = asyncio.run(episode())
        self.assertEqual(iid, "inst-1")
        self.assertEqual(response.text, '{"status":"cancelled"}')
        self.assertEqual((step_reward, metrics, reward), (0.0, {"ok": True}, 1.0))
        self.assertEqual(made[0].calls, [("open", "e/t1"), ("step", "s-1", "cancel_order", {"order_id": "o1"}), ("reward", "s-1"), ("close", "s-1")])

    def test_refuses_a_config_without_server_url_and_a_create_without_task(self):
        from autoforge_client.verl import make_tool_class

        cls = make_tool_class(StandInBaseTool, client_factory=FakeClient)
        schema = {"type": "function", "function": {"name": "t"}}
        with self.assertRaises(ValueError):
            cls({}, schema)
        tool = cls({"server_url": "http://x"}, schema)
        with self.assertRaises(ValueError):
            asyncio.run(tool.create("i"))
