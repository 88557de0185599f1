"""ERPO parity with @autoforge/erpo on 1,000 random fixtures (generated at test time by
erpo_fixtures.mjs from packages/erpo/dist), invariants, and the verl registration. Needs torch
(Debian: python3-torch); skips without it, and the parity test also needs node and the built
@autoforge/erpo."""

import json
import os
import shutil
import subprocess
import sys
import types
import unittest

from support import HERE, REPO  # noqa: F401  (sets the import path)

try:
    import torch
except ImportError:
    torch = None

NODE = shutil.which("node")
ERPO_DIST = os.path.join(REPO, "packages", "erpo", "dist", "index.js")
SKIP_TORCH = "needs torch (apt-get install python3-torch, or pip install 'autoforge-client[torch]')"


@unittest.skipIf(torch is None, SKIP_TORCH)
class ParityTest(unittest.TestCase):
    @unittest.skipUnless(NODE is not None and os.path.exists(ERPO_DIST), "needs node and the built @autoforge/erpo (packages/erpo/dist)")
    def test_equals_autoforge_erpo_on_1000_random_fixtures_to_1e6(self):
        from autoforge_client.erpo import erpo_advantage

        out = subprocess.run([NODE, os.path.join(HERE, "erpo_fixtures.mjs"), "1000", "7"], capture_output=True, text=True, check=True, timeout=120)
        data = json.loads(out.stdout)
        self.assertEqual(len(data["fixtures"]), 1000)
        worst = 0.0
        nonzero = 0
        for i, fixture in enumerate(data["fixtures"]):
            samples = fixture["samples"]
            got = erpo_advantage([s["reward"] for s in samples], [s["uid"] for s in samples], [s["mask"] for s in samples])
            want = torch.tensor(fixture["advantages"], dtype=torch.float64)
            diff = float((got - want).abs().max()) if len(samples) else 0.0
            worst = max(worst, diff)
            nonzero += int((want != 0).sum())
            self.assertLessEqual(diff, 1e-6, f"fixture {i}: {samples}")
            # The same numbers from env and task ids instead of uids.
            by_ids = erpo_advantage([s["reward"] for s in samples], mask=[s["mask"] for s in samples], env_ids=[s["envId"] for s in samples], task_ids=[s["taskId"] for s in samples])
            self.assertLessEqual(float((by_ids - want).abs().max()), 1e-6)
        self.assertGreater(nonzero, 1000)  # the fixtures exercise the formula, not only zeros
        print(f"erpo parity: 1000 fixtures, max |torch - @autoforge/erpo| = {worst:.3g}", file=sys.stderr)


@unittest.skipIf(torch is None, SKIP_TORCH)
class InvariantTest(unittest.TestCase):
    def setUp(self):
        from autoforge_client.erpo import erpo_advantage

        self.adv = erpo_advantage
        g = torch.Generator().manual_seed(3)
        self.rewards = torch.rand(24, generator=g, dtype=torch.float64)
        self.uids = [f"e{i % 2}|t{i % 5}|u" for i in range(24)]

    def test_zero_mean_within_each_task_group(self):
        a = self.adv(self.rewards, self.uids)
        for key in set(self.uids):
            idx = [i for i, u in enumerate(self.uids) if u == key]
            self.assertAlmostEqual(float(a[idx].sum()), 0.0, places=9)

    def test_masked_rollouts_get_zero_and_do_not_change_the_others(self):
        mask = torch.ones(24)
        mask[3] = 0
        a = self.adv(self.rewards, self.uids, mask)
        self.assertEqual(float(a[3]), 0.0)
        changed = self.rewards.clone()
        changed[3] = 1e6
        self.assertTrue(torch.allclose(self.adv(changed, self.uids, mask), a))

    def test_all_equal_rewards_give_zero_not_nan(self):
        a = self.adv(torch.ones(6), ["e|t|u"] * 6, epsilon=0.0)
        self.assertTrue(bool((a == 0).all()))

    def test_one_task_per_environment_is_grpo_with_population_std(self):
        r = torch.tensor([1.0, 0.0, 0.0, 1.0, 1.0], dtype=torch.float64)
        a = self.adv(r, ["e|t|u"] * 5)
        expected = (r - r.mean()) / (r.std(unbiased=False) + 1e-6)
        self.assertTrue(torch.allclose(a, expected))

    def test_positive_affine_invariance(self):
        a = self.adv(self.rewards, self.uids, epsilon=0.0)
        b = self.adv(self.rewards * 3 + 2, self.uids, epsilon=0.0)
        self.assertTrue(torch.allclose(a, b))


@unittest.skipIf(torch is None, SKIP_TORCH)
class VerlRegistrationTest(unittest.TestCase):
    def test_registers_erpo_with_verls_register_adv_est_and_uses_its_signature(self):
        registry = {}

        def register_adv_est(name):
            def decorator(fn):
                registry[name] = fn
                return fn

            return decorator

        # A stand-in for verl.trainer.ppo.core_algos (verl is not installable here).
        modules = {}
        for name in ("verl", "verl.trainer", "verl.trainer.ppo", "verl.trainer.ppo.core_algos"):
            modules[name] = types.ModuleType(name)
        modules["verl.trainer.ppo.core_algos"].register_adv_est = register_adv_est
        saved = {k: sys.modules.get(k) for k in modules}
        sys.modules.update(modules)
        try:
            from autoforge_client import erpo

            self.assertTrue(erpo.register_verl())
        finally:
            for k, v in saved.items():
                if v is None:
                    sys.modules.pop(k, None)
                else:
                    sys.modules[k] = v
        fn = registry["erpo"]
        # verl's call: adv_estimator_fn(token_level_rewards=, response_mask=, config=, index=)
        rewards = torch.zeros(4, 3)
        rewards[:, -1] = torch.tensor([1.0, 0.0, 1.0, 0.0])
        response_mask = torch.ones(4, 3)
        response_mask[3] = 0  # masked: the simulated user spoiled it
        import numpy as np

        index = np.array(["e|t|a", "e|t|a", "e|t|a", "e|t|a"], dtype=object)
        adv, ret = fn(token_level_rewards=rewards, response_mask=response_mask, config=None, index=index)
        self.assertEqual(tuple(adv.shape), (4, 3))
        self.assertTrue(torch.equal(adv, ret))
        self.assertTrue(bool((adv[3] == 0).all()))
        expected = erpo.erpo_advantage([1.0, 0.0, 1.0, 0.0], list(index), [1, 1, 1, 0]).to(torch.float32)
        self.assertTrue(torch.allclose(adv[:, 0], expected))


if torch is None:
    print(f"test_erpo: skipped: {SKIP_TORCH}", file=sys.stderr)

if __name__ == "__main__":
    unittest.main()
