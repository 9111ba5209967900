import { classifyMessage, type IncomingJsonRpc } from '../../protocol/json-rpc-envelope.js';
import { ParseError } from '../../protocol/mcp.error.js';

/**
 * Parses and classifies one line with the shared envelope rules; a client's response is its own
 * kind here: on stdio a line is not a POST that needs an answer.
 * @internal
 */
export function classifyLine(line: string): IncomingJsonRpc {
  let body: unknown;
  try {
    body = JSON.parse(line);
  } catch {
    return { kind: 'invalid', error: new ParseError('Parse error: the line is not valid JSON') };
  }
  return classifyMessage(body);
}
