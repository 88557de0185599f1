"""Drives full episodes through the OpenEnv routes of ``autoforge serve``: a scripted agent (the
server's expert: the oracle of each task's blueprint) against the scripted user, with injected
errors. Prints one JSON line per episode: reward, verdict (with the MEU mask), the OpenAI-format
trajectory's length and roles, and the injected errors.

    python3 openenv_episodes.py --url http://127.0.0.1:8080 --episodes runs/x/trajectories.jsonl --error-rate 0.5

``--episodes`` names a JSON Lines file whose lines have ``taskId`` and ``seed`` (``autoforge
rollout``'s trajectories.jsonl fits: the same tasks and seeds), or give ``--tasks N`` to play the
first N tasks with seed 0.
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from autoforge_client import AutoForgeClient, AutoForgeEnv  # noqa: E402


def play(env: AutoForgeEnv, task_id: str, seed: int, max_actions: int = 200) -> dict:
    first = env.reset(task_id=task_id, seed=seed)
    done, reward, actions = first.done, first.reward, 0
    while not done and actions < max_actions:
        for result in env.act(env.expert()):
            actions += 1
            done, reward = result.done, result.reward
    verdict = env.verdict("rule")
    trajectory = env.trajectory("openai")
    core = env.trajectory("autoforge")
    out = {
        "task_id": task_id,
        "seed": seed,
        "reward": reward,
        "done": done,
        "termination": trajectory["termination"],
        "verdict": {k: verdict[k] for k in ("userError", "blame", "kinds", "mask")},
        "messages": len(trajectory["messages"]),
        "roles": sorted({m["role"] for m in trajectory["messages"]}),
        "tool_calls": sum(len(m.get("tool_calls") or []) for m in trajectory["messages"]),
        "same_as_steps": trajectory["messages"] == env.messages,
        "injected": [e["kind"] for e in core["injectedUserErrors"]],
    }
    env.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--token")
    parser.add_argument("--episodes", help="JSON Lines with taskId and seed per line")
    parser.add_argument("--tasks", type=int, default=0, help="without --episodes: the first N tasks, seed 0")
    parser.add_argument("--error-rate", type=float, default=0.0)
    args = parser.parse_args()
    client = AutoForgeClient(args.url, token=args.token)
    if args.episodes:
        with open(args.episodes, encoding="utf-8") as f:
            episodes = [(t["taskId"], t["seed"]) for t in (json.loads(line) for line in f if line.strip())]
    else:
        episodes = [(t["id"], 0) for t in client.all_tasks()[: args.tasks]]
    env = AutoForgeEnv(client=client, user={"kind": "scripted", "errorRate": args.error_rate})
    for task_id, seed in episodes:
        print(json.dumps(play(env, task_id, seed)), flush=True)


if __name__ == "__main__":
    main()
