"""The TRL environment_factory against the call sequence of trl/trainer/grpo_trainer.py
(huggingface/trl f2cd57710ae345ea6428ae95363267fcf38a3dc8): ``factory()`` per rollout; the
instance's public bound methods other than reset/get_reward are its tools
(``inspect.getmembers(instance, inspect.ismethod)``), each typed with an ``Args:`` docstring for
transformers' ``get_json_schema``; ``reset(**row)``; tool calls with keyword arguments; then
``get_reward()``. TRL is not installable here; the server is a real ``autoforge serve``."""

import inspect
import typing
import unittest

from support import HAVE_SERVER, SKIP_SERVER, server

from autoforge_client import AutoForgeClient
from autoforge_client.trl import environment_factory


def tools_as_trl_lists_them(instance):
    return {name: m for name, m in inspect.getmembers(instance, predicate=inspect.ismethod) if name not in ("reset", "get_reward") and not name.startswith("_")}


@unittest.skipUnless(HAVE_SERVER, SKIP_SERVER)
class EnvironmentFactoryTest(unittest.TestCase):
    def setUp(self):
        self.info = server()
        self.client = AutoForgeClient(self.info["url"])
        self.factory = environment_factory(self.info["url"], client=self.client)
        self.schema = {t["name"]: t for t in self.client.mcp("tools/list")["tools"]}

    def test_one_typed_method_per_tool_plus_ask_user(self):
        tools = tools_as_trl_lists_them(self.factory())
        self.assertEqual(set(tools), set(self.schema) | {"ask_user"})
        for name, spec in self.schema.items():
            method = tools[name]
            params = spec["inputSchema"].get("properties", {})
            signature = inspect.signature(method)
            self.assertEqual(set(signature.parameters), set(params))
            hints = typing.get_type_hints(method)
            self.assertIs(hints["return"], str)
            for p in spec["inputSchema"].get("required", []):
                self.assertIs(signature.parameters[p].default, inspect.Parameter.empty)
                self.assertIn(f"    {p}: ", method.__doc__)
            self.assertTrue(method.__doc__.startswith(spec["description"].strip().split("\n")[0]))
        self.assertIn("Args:", tools["ask_user"].__doc__)

    def test_reset_tools_and_get_reward_in_trls_order(self):
        task = self.info["tasks"][0]
        env = self.factory()
        opening = env.reset(prompt=[{"role": "user", "content": "x"}], task_id=task["id"], seed=0)
        self.assertIsInstance(opening, str)
        self.assertTrue(opening)
        tools = tools_as_trl_lists_them(env)
        for call in task["goldCalls"]:
            observation = tools[call["name"]](**call["arguments"])
            self.assertIsInstance(observation, str)
            self.assertFalse(observation.startswith("Error"), observation)
        reply = tools["ask_user"](message="Done. " + " ".join(task["requiredOutputs"]))
        self.assertIsInstance(reply, str)
        self.assertEqual(env.get_reward(), 1.0)

    def test_a_fresh_instance_per_rollout_and_reset_from_extra_info(self):
        task = self.info["tasks"][1]
        a, b = self.factory(), self.factory()
        self.assertIsNot(a, b)
        a.reset(extra_info={"task_id": task["id"], "seed": 1})
        self.assertEqual(a.get_reward(), 0.0)


if __name__ == "__main__":
    unittest.main()
