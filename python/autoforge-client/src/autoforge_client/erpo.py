"""ERPO, environment-level relative advantages, in torch (the same numbers as ``@autoforge/erpo``'s
``computeAdvantages(samples, { estimator: 'erpo' })``), and its verl registration.

For environment e, task p, rollout j and the MEU mask m (0 where the simulated user spoiled the
episode): ``A_pj = (R_pj - mean_j R_pj) / (std{R_p'j' : every task p' of e, m = 1} + epsilon)``.
Masked rollouts get 0 and enter no statistic; a task group whose unmasked rewards are all equal,
or that has fewer than two, gets 0 (never NaN).
"""

import warnings
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .uid import parse_uid

try:  # torch is an optional extra: `pip install autoforge-client[torch]`
    import torch
except ImportError:  # pragma: no cover - exercised where torch is missing
    torch = None  # type: ignore[assignment]


def _require_torch() -> None:
    if torch is None:
        raise ImportError("autoforge_client.erpo needs torch: pip install 'autoforge-client[torch]'")


def _indices(keys: Sequence[str]) -> Tuple[List[int], int]:
    seen: Dict[str, int] = {}
    out = []
    for k in keys:
        if k not in seen:
            seen[k] = len(seen)
        out.append(seen[k])
    return out, len(seen)


def _moments(bucket: "torch.Tensor", buckets: int, reward: "torch.Tensor", keep: "torch.Tensor"):
    r = reward[keep]
    b = bucket[keep]
    count = torch.zeros(buckets, dtype=torch.float64).index_add_(0, b, torch.ones_like(r))
    total = torch.zeros(buckets, dtype=torch.float64).index_add_(0, b, r)
    with warnings.catch_warnings():  # torch < 2 calls scatter_reduce beta
        warnings.simplefilter("ignore", UserWarning)
        low = torch.full((buckets,), float("inf"), dtype=torch.float64).scatter_reduce(0, b, r, reduce="amin", include_self=True)
        high = torch.full((buckets,), float("-inf"), dtype=torch.float64).scatter_reduce(0, b, r, reduce="amax", include_self=True)
    constant = (count == 0) | (low == high)
    # All values equal: the mean is that value exactly, so every deviation is exactly 0.
    mean = torch.where(constant, torch.where(count == 0, torch.zeros_like(low), low), total / count.clamp(min=1))
    return count, mean, constant


def erpo_advantage(
    rewards: Any,
    uids: Optional[Sequence[str]] = None,
    mask: Any = None,
    *,
    env_ids: Optional[Sequence[str]] = None,
    task_ids: Optional[Sequence[str]] = None,
    epsilon: float = 1e-6,
    std: str = "population",
) -> "torch.Tensor":
    """ERPO advantages, one per rollout (float64).

    Args:
        rewards: one reward per rollout (a 1-D tensor, list or array).
        uids: one uid per rollout, ``<env>|<task>|<uuid>`` (see :func:`autoforge_client.parse_uid`);
            or give ``env_ids`` and ``task_ids``.
        mask: the MEU mask per rollout (1 keep, 0 masked). Default: all 1.
        epsilon: added to the environment's standard deviation. Default 1e-6 (verl's).
        std: ``"population"`` (divide by n; default, as ``@autoforge/erpo``) or ``"sample"`` (n - 1).
    """
    _require_torch()
    reward = torch.as_tensor(rewards, dtype=torch.float64).reshape(-1)
    n = reward.shape[0]
    if uids is not None:
        parsed = [parse_uid(str(u)) for u in uids]
        envs = [p[0] for p in parsed]
        groups = [p[1] for p in parsed]
    elif env_ids is not None and task_ids is not None:
        envs = [str(e) for e in env_ids]
        groups = [f"{e}\u0000{t}" for e, t in zip(env_ids, task_ids)]
    else:
        raise ValueError("erpo_advantage: give uids, or env_ids and task_ids")
    if len(envs) != n or len(groups) != n:
        raise ValueError(f"erpo_advantage: {n} rewards but {len(groups)} uids")
    if std not in ("population", "sample"):
        raise ValueError(f"erpo_advantage: std must be 'population' or 'sample', got {std!r}")
    if not bool(torch.isfinite(reward).all()):
        raise ValueError("erpo_advantage: every reward must be finite")
    keep = torch.ones(n, dtype=torch.bool) if mask is None else torch.as_tensor(mask).reshape(-1).to(torch.float64) != 0
    group_index, n_groups = _indices(groups)
    env_index, n_envs = _indices(envs)
    g = torch.tensor(group_index, dtype=torch.long)
    e = torch.tensor(env_index, dtype=torch.long)
    advantages = torch.zeros(n, dtype=torch.float64)
    if n == 0:
        return advantages

    g_count, g_mean, g_constant = _moments(g, n_groups, reward, keep)
    live = keep & ~g_constant[g] & (g_count[g] >= 2)
    advantages = torch.where(live, reward - g_mean[g], advantages)

    e_count, e_mean, e_constant = _moments(e, n_envs, reward, keep)
    deviation = torch.where(keep & ~e_constant[e], reward - e_mean[e], torch.zeros_like(reward))
    ss = torch.zeros(n_envs, dtype=torch.float64).index_add_(0, e, deviation * deviation)
    denom = e_count if std == "population" else e_count - 1
    sd = torch.where((denom > 0) & ~e_constant, torch.sqrt(ss / denom.clamp(min=1)), torch.zeros_like(ss))
    spread = sd[e] + epsilon
    nonzero = (advantages != 0) & (spread > 0)
    return torch.where(nonzero, advantages / torch.where(spread > 0, spread, torch.ones_like(spread)), torch.zeros_like(advantages))


def compute_erpo_outcome_advantage(
    token_level_rewards: "torch.Tensor",
    response_mask: "torch.Tensor",
    index: Any,
    epsilon: float = 1e-6,
    config: Any = None,
    **_: Any,
) -> Tuple["torch.Tensor", "torch.Tensor"]:
    """verl's advantage-estimator signature (``core_algos.compute_grpo_outcome_advantage``'s):
    outcome reward = the row sum of ``token_level_rewards``; ``index`` = the uids
    (``<env>|<task>|<uuid>``); a row whose ``response_mask`` is all 0 is masked (the agent loop
    zeroes the mask of an episode the simulated user spoiled). Returns ``(advantages, returns)``,
    both ``(bs, response_length)``."""
    _require_torch()
    scores = token_level_rewards.sum(dim=-1)
    mask = response_mask.sum(dim=-1) > 0
    eps = epsilon
    if config is not None and hasattr(config, "get"):
        eps = float(config.get("erpo_epsilon", epsilon))
    adv = erpo_advantage(scores, [str(u) for u in index], mask, epsilon=eps).to(token_level_rewards.dtype)
    adv = adv.unsqueeze(-1) * response_mask
    return adv, adv


def register_verl() -> bool:
    """Registers ``compute_erpo_outcome_advantage`` as verl's ``"erpo"`` estimator
    (``algorithm.adv_estimator=erpo``). Returns False when verl is not installed."""
    try:
        from verl.trainer.ppo.core_algos import register_adv_est  # type: ignore[import-not-found]
    except ImportError:
        return False
    register_adv_est("erpo")(compute_erpo_outcome_advantage)
    return True


# Importing this module inside a verl trainer registers the estimator.
register_verl()
