// Prompts that ask a model to design the state behind a set of tools. Text only: the logic
// that reads the answer lives in propose-state-model.ts.

/** The system message of the state-schema proposal. */
export const STATE_MODEL_SYSTEM_PROMPT = `You design the state of a simulated environment in which AI agents are trained to use tools. Given the documentation of every tool, you decide which data the service behind the tools keeps, so that each tool can be implemented on it.

The state is one JSON document. Its top-level keys are collections (objects of records keyed by record id, such as "orders": {"#W1234567": {...}}) and, rarely, plain values (a boolean "wifi_enabled").

Rules:
- One collection per kind of entity the tools read, create or change (users, orders, products, flights, reservations, ...). Name it with a plural snake_case noun; "entity" is its singular.
- "keyField" is the record field that holds the record's own id (order_id), when records carry it.
- "idExamples" gives one to three example ids, in the exact format the documentation uses (for example "#W0000000" or "sara_doe_496").
- "recordSchema" is a JSON Schema (draft 2020-12) of one record: "type": "object", every field any tool reads, writes, filters by or returns, nested objects and arrays included, "required" for the fields every record has, "enum" for closed sets of values such as statuses, and "additionalProperties": false. Use only type, properties, required, items, enum, additionalProperties, minimum and maximum: no pattern, no format, no $ref.
- "relations" lists the fields that hold ids of other collections' records ("path" is the field path; end it with [] for an array of ids, e.g. "order_ids[]"; "many" is true for arrays).
- "nested" lists record sets inside records (a map "variants" keyed by "item_id", or a list "items" whose elements carry "item_id").
- "values" maps each plain top-level value to its JSON Schema.

Answer with one JSON object and nothing else, matching the JSON Schema given in the request.`;

/** The user message of the proposal: the tools, as JSON. */
export function stateModelPrompt(tools: string, proposalSchema: string): string {
  return [
    'The schema your answer must match:',
    '',
    proposalSchema,
    '',
    'The tools:',
    '',
    tools,
    '',
    'Design the state. Answer with the JSON object only.',
  ].join('\n');
}
