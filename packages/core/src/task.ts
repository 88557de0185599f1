import type { JsonObject, JsonValue } from './json.js';

/** A tool call with parsed arguments (gold calls, replays). */
export interface GoldCall {
  name: string;
  arguments: JsonObject;
}

/** A fact the (simulated) user knows and may be asked for. */
export interface UserFact {
  /** Stable key (`email`, `payment_method`). */
  key: string;
  /** Human phrasing of what the fact is ("your email address"). */
  description: string;
  /** The value the user gives when asked. */
  value: JsonValue;
}

/** A training or evaluation task. */
export interface Task {
  /** Unique id within its environment. */
  id: string;
  /** The environment it runs in. */
  envId: string;
  /** What the user wants, in the user's words (minimum information). */
  intent: string;
  /** Facts the user knows and gives when asked. */
  userFacts: UserFact[];
  /** The initial state; absent means the environment's seed state. */
  initialState?: JsonValue;
  /** Digest of the initial state (see `digest`). */
  initialDigest?: string;
  /** The reference solution. */
  goldCalls: GoldCall[];
  /** Digest of the state the gold calls reach. */
  expectedFinalDigest: string;
  /** Strings that must appear in the agent's messages (read-only goals), as in tau-bench. */
  requiredOutputs: string[];
  /** The agent policy (system prompt), when the environment has one. */
  policy?: string;
  /**
   * The environment's tools this task offers the agent (BFCL: the involved classes' functions).
   * Absent: every tool. A call on any other tool is answered as an unknown tool.
   */
  tools?: string[];
  /**
   * Tools left out of the agent's tool list until a user message gives them back
   * (`UserReply.revealTools`): BFCL's held-out functions. Hidden, not refused: a call on one runs.
   */
  heldOutTools?: string[];
  /**
   * The environment's tools that are the user's own (dual control: tau2 telecom's phone). The
   * agent is neither shown them nor may call them; the simulated user calls them
   * (`UserReply.toolCalls`), and `rollout` records those calls in `Trajectory.userSteps`.
   * Absent: every tool is the agent's.
   */
  userTools?: string[];
  /** Anything else (difficulty metrics, blueprint id, benchmark fields). */
  metadata?: JsonObject;
}
