"""The uid convention ``<env>|<task>|<uuid>``: verl's advantage estimators see only rewards and a
``uid`` per rollout; carrying the environment and the task in it lets an environment-level
estimator (ERPO) group rollouts by task and normalize by the spread of their environment."""

from typing import Optional, Tuple


def make_uid(env_id: str, task_id: str, unique: str) -> str:
    """The uid of a rollout group: ``<env>|<task>|<unique>`` (``unique``: verl's per-prompt uuid)."""
    if "|" in env_id:
        raise ValueError(f"make_uid: an environment id must not contain '|': {env_id!r}")
    return f"{env_id}|{task_id}|{unique}"


def parse_uid(uid: str) -> Tuple[str, str, Optional[str]]:
    """``(env, group, unique)`` of a uid. ``<env>|<task>|<uuid>`` gives ``(env, env|task, uuid)``;
    a uid without ``|`` is its own environment and group (ERPO then equals GRPO with population std);
    a task id may itself contain ``|`` (the environment is before the first, the uuid after the last)."""
    parts = uid.split("|")
    if len(parts) == 1:
        return uid, uid, None
    if len(parts) == 2:
        return parts[0], uid, None
    return parts[0], "|".join(parts[:-1]), parts[-1]
