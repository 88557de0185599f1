import type { DependencyGraph } from '@autoforge/depgraph';
import { buildDependencyGraph } from '@autoforge/depgraph';
import type { EnvironmentSpec } from '@autoforge/env-runtime';

/**
 * The dependency graph {@link synthesizeTasks} walks on an environment: stand-ins (tools that
 * failed env-synth's behavioural self-check and answer every call with an error) are left out,
 * and a tool reads or writes by its name first (`access: 'names'`), because some documents mark
 * writes as reads and a task must ask for every change its gold calls make.
 */
export function buildTaskGraph(spec: EnvironmentSpec): DependencyGraph {
  return buildDependencyGraph(spec.tools.filter((t) => t.pattern !== 'stand-in'), { access: 'names' });
}
