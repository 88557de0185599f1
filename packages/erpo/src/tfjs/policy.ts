import type * as tf from '@tensorflow/tfjs';

/** Log-probabilities of the actions of a batch of episodes, flattened. */
export interface ActionLogProbs {
  /** log π(a) of every action, episode by episode, in order. */
  logProbs: tf.Tensor1D;
  /** The batch index of the episode each action belongs to. */
  episodeOfAction: Int32Array;
  /** The entropy of the action distribution at each action, when the policy knows it. */
  entropy?: tf.Tensor1D;
}

/**
 * What `train` needs from a policy: its trainable variables, and the log-probabilities of the
 * actions of recorded episodes (differentiable with respect to `variables`).
 */
export interface TrainablePolicy<E> {
  readonly variables: readonly tf.Variable[];
  logProb(episodes: readonly E[]): ActionLogProbs;
  /** A frozen copy (same weights, new variables), used as the KL reference. */
  clone?(): TrainablePolicy<E>;
}
