import type { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { McpInvocation } from '../discovery/mcp-params.factory.js';
import type { McpHandlerKind } from '../enums/mcp-handler-kind.enum.js';
import { McpHandlerContext } from '../context/mcp-handler.context.js';
import type { McpCall } from '../context/mcp-call.js';
import { SIGNAL_SWALLOWED } from '../mcp.messages.js';
import { isInputRequiredSignal, type InputRounds } from '../mrtr/index.js';
import type { InputRequiredResult } from '../protocol/wire.types.js';
import { getMcpAuth } from '../auth/mcp-auth-info.js';

export type HandlerOutcome = { kind: 'value'; value: unknown } | { kind: 'input_required'; result: InputRequiredResult };

/**
 * Runs one handler under the MRTR replay rules: the elicitation signal (even a swallowed one)
 * becomes an `input_required` result; other errors propagate to the caller. The context is closed
 * when the run settles, so a late `elicit()` fails loudly.
 */
export async function runHandler(
  call: McpCall,
  rounds: InputRounds,
  target: string,
  logger: Logger,
  invoke: (context: McpHandlerContext) => Promise<unknown>,
): Promise<HandlerOutcome> {
  await rounds.claimState();
  const context = new McpHandlerContext(call, rounds, target);
  try {
    const value = await invoke(context);
    if (rounds.pendingSignal) {
      logger.warn(SIGNAL_SWALLOWED(`"${target}"`));
      return { kind: 'input_required', result: rounds.toInputRequiredResult(rounds.pendingSignal) };
    }
    return { kind: 'value', value };
  } catch (error) {
    if (isInputRequiredSignal(error)) {
      return { kind: 'input_required', result: rounds.toInputRequiredResult(rounds.pendingSignal ?? error) };
    }
    throw error;
  } finally {
    context.close();
  }
}

/**
 * The entries a list request may see: those without `hideWhenDenied`, and those whose guards allow
 * a probe invocation (run concurrently; the list keeps its order).
 */
export async function visibleEntries<T extends { definition: { name: string }; canList?: (invocation: McpInvocation) => Promise<boolean> }>(
  call: McpCall,
  entries: T[],
  kind: McpHandlerKind,
): Promise<T[]> {
  if (!entries.some((entry) => entry.canList)) return entries;
  const allowed = await Promise.all(
    entries.map((entry) =>
      entry.canList
        ? entry.canList({
            request: call.request,
            kind,
            name: entry.definition.name,
            probe: true,
            arguments: {},
            context: undefined as never,
            httpRequest: call.httpRequest,
          })
        : true,
    ),
  );
  return entries.filter((_, index) => allowed[index]);
}

/** The authenticated user behind a call (subject, else client id), that requestState is bound to. */
export function principalOf(call: McpCall): string | undefined {
  const auth = getMcpAuth(call.httpRequest);
  return auth?.subject ?? auth?.clientId;
}

/**
 * Logs an unexpected failure once, at error level with its stack, under a fresh reference, and
 * returns the only thing the client sees: a generic message quoting that reference (so a support
 * request finds the log line, while paths, hosts or SQL in the error stay on the server).
 */
export function reportInternalError(logger: Logger, what: string, requestId: unknown, error: unknown): string {
  const ref = randomBytes(8).toString('hex');
  const message = error instanceof Error ? error.message : String(error);
  logger.error(`${what} failed (request ${String(requestId)}, ref ${ref}): ${message}`, error instanceof Error ? error.stack : undefined);
  return `Internal error (ref ${ref})`;
}
