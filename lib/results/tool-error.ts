import { HttpException, IntrinsicException } from '@nestjs/common';

/**
 * An error a tool throws on purpose: its message becomes the tool result (`isError: true`), for the
 * model to read, and nothing is logged. Any other error is answered with a generic message and a
 * reference, and logged with its stack, because its message may carry paths, hosts or SQL.
 *
 * @example
 * if (order.shipped) throw new McpToolError(`Order ${order.id} has shipped; it can no longer be changed`);
 * @publicApi
 */
export class McpToolError extends IntrinsicException {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * True for errors whose message is meant for the client: `McpToolError`, and Nest's 4xx
 * `HttpException`s (`NotFoundException`, `BadRequestException`, …), which say what is wrong with
 * the request, as they do in an HTTP response. A 5xx `HttpException` is a server fault like any other.
 */
export function isDeliberateToolError(error: unknown): error is Error {
  return error instanceof McpToolError || (error instanceof HttpException && error.getStatus() < 500);
}

/**
 * The text a deliberate tool error is answered with: its message, or, for an `HttpException` whose
 * body lists messages (`ValidationPipe`'s field messages), those messages, one per line, as the
 * HTTP response would list them.
 */
export function toolErrorMessage(error: Error): string {
  const body = error instanceof HttpException ? error.getResponse() : undefined;
  const listed = typeof body === 'object' && body !== null ? (body as { message?: unknown }).message : undefined;
  if (Array.isArray(listed) && listed.length > 0) return listed.map(String).join('\n');
  return error.message || 'The tool failed';
}
