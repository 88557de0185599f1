"""``autoforge export`` read from Python: the verl Parquet files through the package's standard-
library reader (``autoforge_client.parquet``; pyarrow is not installed here), checked against
hyparquet on fixtures of hyparquet-writer (``parquet_fixtures.mjs``); every exported prompt is
what the real ``autoforge serve`` opens that row's episode with; an exported verl row drives the
verl agent loop (the stand-ins of test_verl.py) to reward 1; TRL rows drive the TRL factory."""

import asyncio
import json
import os
import shutil
import subprocess
import tempfile
import unittest

from support import CLI, HAVE_SERVER, HERE, NODE, REPO, SKIP_SERVER, server

from autoforge_client import AutoForgeEnv
from autoforge_client.parquet import ParquetError, read_parquet
from autoforge_client.trl import environment_factory
from autoforge_client.verl import make_agent_loop_class
from test_verl import CONFIG, AgentLoopBase, AgentLoopOutput, CharTokenizer, DictConfigWrap, GoldReplayer

WRITER = os.path.join(REPO, "packages", "erpo", "node_modules", "hyparquet-writer")


def export(run, fmt, out, *args):
    done = subprocess.run([NODE, CLI, "export", run, "--format", fmt, "--out", out, *args], capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise AssertionError(f"autoforge export --format {fmt} failed ({done.returncode}): {done.stderr}")
    return out


class ParquetReaderTest(unittest.TestCase):
    @unittest.skipUnless(NODE is not None and os.path.isdir(WRITER), "needs node and hyparquet-writer (packages/erpo's dependency)")
    def test_reads_what_hyparquet_reads_from_hyparquet_writer_files(self):
        out = tempfile.mkdtemp(prefix="autoforge-parquet-")
        self.addCleanup(shutil.rmtree, out, True)
        done = subprocess.run([NODE, os.path.join(HERE, "parquet_fixtures.mjs"), out], capture_output=True, text=True, check=True, timeout=60)
        expected = json.loads(done.stdout)
        self.assertEqual(len(expected), 2)  # Snappy and uncompressed
        for path, rows in expected.items():
            got = read_parquet(path)
            self.assertEqual(len(got), len(rows))
            for a, b in zip(got, rows):
                self.assertEqual(list(a), ["label", "big", "score", "flag", "numbers", "point", "text"])
                a = dict(a, big=str(a["big"]))
                # hyparquet leaves a null struct's key out; this reader gives None (as pyarrow does).
                self.assertEqual(a, {k: b.get(k) for k in a}, path)
            self.assertIn(None, [r["point"] for r in got])
            self.assertIn([], [r["numbers"] for r in got])

    def test_refuses_a_file_that_is_not_parquet(self):
        with tempfile.NamedTemporaryFile(suffix=".parquet", delete=False) as f:
            f.write(b"PAR1 not really")
        self.addCleanup(os.unlink, f.name)
        with self.assertRaises(ParquetError):
            read_parquet(f.name)


@unittest.skipUnless(HAVE_SERVER, SKIP_SERVER)
class VerlExportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.info = server()
        cls.out = tempfile.mkdtemp(prefix="autoforge-export-")
        cls.verl = export(cls.info["run"], "verl", os.path.join(cls.out, "verl"), "--server-url", cls.info["url"], "--val", "0.25")
        cls.rows = read_parquet(os.path.join(cls.verl, "train.parquet")) + read_parquet(os.path.join(cls.verl, "val.parquet"))
        cls.tasks = {t["id"]: t for t in cls.info["tasks"]}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.out, ignore_errors=True)

    def test_rows_have_verls_columns_and_the_fields_the_agent_loop_reads(self):
        self.assertEqual(sorted(r["extra_info"]["task_id"] for r in self.rows), sorted(self.tasks))
        self.assertEqual({r["extra_info"]["split"] for r in self.rows}, {"train", "val"})
        for row in self.rows:
            self.assertEqual(list(row), ["data_source", "agent_name", "prompt", "ability", "reward_model", "extra_info"])
            info = row["extra_info"]
            task = self.tasks[info["task_id"]]
            self.assertEqual(row["data_source"], f"autoforge/{task['envId']}")
            self.assertEqual(row["agent_name"], "autoforge")
            self.assertEqual(info["env_id"], task["envId"])
            self.assertEqual(info["server"], {"url": self.info["url"]})
            self.assertIsInstance(info["seed"], int)
            truth = json.loads(row["reward_model"]["ground_truth"])
            self.assertEqual(row["reward_model"]["style"], "rule")
            self.assertEqual(truth, {"expected_final_digest": task["expectedFinalDigest"], "required_outputs": task["requiredOutputs"]})

    def test_every_prompt_is_the_opening_the_server_gives_that_rows_episode(self):
        env = AutoForgeEnv(self.info["url"])
        for row in self.rows:
            result = env.reset(task_id=row["extra_info"]["task_id"], seed=row["extra_info"]["seed"])
            self.assertEqual(result.observation["messages"], row["prompt"])
            env.close()

    def test_an_exported_row_drives_the_verl_agent_loop_to_reward_1(self):
        row = self.rows[0]
        task = self.tasks[row["extra_info"]["task_id"]]
        cls = make_agent_loop_class(AgentLoopBase, AgentLoopOutput)

        async def go():
            manager = GoldReplayer(task)
            loop = cls(trainer_config=DictConfigWrap(CONFIG), server_manager=manager, tokenizer=CharTokenizer(), processor=None, dataset_cls=None, dataset_config=DictConfigWrap(CONFIG["data"]))
            # verl's RLHFDataset hands the row's columns to run() (raw_prompt from `prompt`).
            return await loop.run({"temperature": 1.0}, raw_prompt=row["prompt"], **row)

        out = asyncio.run(go())
        self.assertEqual(out.reward_score, 1.0)
        self.assertEqual(out.extra_fields["seed"], row["extra_info"]["seed"])
        self.assertEqual(out.extra_fields["task_id"], task["id"])

    def test_trl_rows_reset_to_the_same_conversation(self):
        trl = export(self.info["run"], "trl", os.path.join(self.out, "trl"), "--server-url", self.info["url"], "--val", "0.25")
        with open(os.path.join(trl, "train.jsonl"), encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
        by_task = {r["extra_info"]["task_id"]: r for r in self.rows}
        factory = environment_factory(self.info["url"])
        for row in rows:
            opening = factory().reset(**row)
            # TRL appends reset()'s string to the prompt's last user message.
            prompt = row["prompt"][:-1] + [{**row["prompt"][-1], "content": row["prompt"][-1]["content"] + opening}]
            self.assertEqual(prompt, by_task[row["task_id"]]["prompt"])


if __name__ == "__main__":
    unittest.main()
