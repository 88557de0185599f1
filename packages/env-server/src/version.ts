/** The version of @autoforge/env-server (the OpenAPI document's and /health's, unless the server is given another). */
export const VERSION = '0.0.0';
