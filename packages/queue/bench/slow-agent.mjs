// The bench's agent: the oracle, waiting `ms` before each turn (a stand-in for an LLM endpoint's latency).
import { createOracleAgent } from '@autoforge/dag-blueprint';

export const TURN_MS = 200;

/** The oracle agent of `task`, each `act` delayed by `ms`. */
export function slowOracle(blueprint, task, ms = TURN_MS) {
  const inner = createOracleAgent({ blueprint, task });
  return {
    name: `${inner.name}+${ms}ms`,
    async act(context) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return inner.act(context);
    },
  };
}
