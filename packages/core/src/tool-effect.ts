/**
 * What a tool does to one kind of state resource:
 *
 * - `reads`: looks at an existing instance (`cat` reads a file, `show_case` reads a case);
 * - `creates`: makes a new one (`mkdir` a directory, `open_case` a case, `sign_in` a session);
 * - `changes`: alters an existing one (`echo` into a file, `cd` the working directory);
 * - `removes`: deletes one (`rm` a file, `logout` the session);
 * - `requires`: needs one to exist without naming it (`post_note` needs a session);
 * - `lists`: returns the instances the state holds now, at the output path `path`
 *   (`ls` lists the entries of the working directory at `entries[]`). A listing may hold other
 *   things besides (a directory lists files and folders).
 */
export type EffectAction = 'reads' | 'creates' | 'changes' | 'removes' | 'requires' | 'lists';

/** Every {@link EffectAction}, in the order above. */
export const EFFECT_ACTIONS: readonly EffectAction[] = ['reads', 'creates', 'changes', 'removes', 'requires', 'lists'];

/**
 * One effect of a tool on the state, declared by the behaviour family that implements the tool
 * (`{ action: 'creates', resource: 'directory', via: 'dir_name' }`,
 * `{ action: 'reads', resource: 'file', via: 'file_name' }`, `{ action: 'requires', resource: 'session' }`).
 * The dependency graph links a tool that creates or changes a resource to the tools that read,
 * change or remove it, and task compilation draws the `via` argument of a read from the instances
 * the state holds (a listing tool's output) and states a new one for a create.
 *
 * A tool whose `effects` list is empty touches no state at all (a calculator): every argument
 * is a value the user states. A tool without `effects` is judged by names and schemas.
 */
export interface ToolEffect {
  action: EffectAction;
  /**
   * The kind of resource, in words shared by the tools of one environment (`file`, `directory`,
   * `working directory`, `session`, `case`, `followed symbol`). Tools are linked only through
   * equal resource names.
   */
  resource: string;
  /** The top-level parameter that names the instance (`file_name`, `ticket_id`), when one does. */
  via?: string;
  /**
   * Where the output holds the instance: the new instance's name or id for `creates`
   * (`case_id`), the list of instances for `lists` (`entries[]`, `cases[].id`).
   */
  path?: string;
  /**
   * Where the state holds the instances of `resource`, when a family knows: the values at `path`
   * (output-path syntax over the state: `directory.*` for a map's values, `cases.*.id`), or with
   * `keys` the keys of the object at `path` (`stocks`). Task compilation draws a `via` argument
   * from them (in the state as it is when the call is made); without it, from a `lists` tool.
   */
  state?: { path: string; keys?: boolean };
}
