/**
 * The methods whose `Mcp-Name` header mirrors a body field (SEP-2243): the server checks it, the
 * testing kit sends it, so both read this one list.
 */
export const MCP_NAME_FIELDS: ReadonlyMap<string, string> = new Map([
  ['tools/call', 'name'],
  ['prompts/get', 'name'],
  ['resources/read', 'uri'],
  // The tasks extension (SEP-2663): the client echoes the task id.
  ['tasks/get', 'taskId'],
  ['tasks/update', 'taskId'],
  ['tasks/cancel', 'taskId'],
]);
