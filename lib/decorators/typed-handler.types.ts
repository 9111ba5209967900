import type { JsonObject } from '../protocol/wire.types.js';
import type { McpSchemaInput, McpSchemaOutput, StandardTypedV1 } from '../schema/standard-schema.js';

/** A value or a promise of it, as an `async` method returns it. */
type Awaitable<T> = T | PromiseLike<T>;

/** The Standard Schema of a tool's (or prompt's) arguments in its options, if they name one. */
type ArgumentSchemaOf<O> = O extends { inputSchema: infer S extends StandardTypedV1 }
  ? S
  : O extends { parameters: infer S extends StandardTypedV1 }
    ? S
    : undefined;

/** The Standard Schema of a tool's result in its options, if they name one. */
type ResultSchemaOf<O> = O extends { output: infer S extends StandardTypedV1 }
  ? S
  : O extends { outputSchema: infer S extends StandardTypedV1 }
    ? S
    : undefined;

/**
 * What a handler with these options receives as its arguments: the output of their Standard Schema
 * (defaults, coercions and transforms applied), else `Otherwise`.
 * @publicApi
 */
export type McpHandlerArgs<O, Otherwise = any> = ArgumentSchemaOf<O> extends StandardTypedV1 ? McpSchemaOutput<ArgumentSchemaOf<O>> : Otherwise;

/**
 * A whole tool result whose `structuredContent` is typed by the output schema. Its content blocks are
 * checked at run time, not here: an object literal's `type: 'text'` is not kept as a literal type in a
 * method's return value, so a stricter type would refuse ordinary code.
 * @publicApi
 */
export interface McpTypedToolResult<T> {
  content: readonly unknown[];
  structuredContent?: T;
  isError?: boolean;
  _meta?: JsonObject;
}

/**
 * What a tool with these options may return: with a Standard Schema `output`, a value its schema
 * accepts, or a whole result whose `structuredContent` it accepts, sync or async; else anything.
 * @publicApi
 */
export type McpToolReturn<O> = ResultSchemaOf<O> extends StandardTypedV1
  ? Awaitable<McpSchemaInput<ResultSchemaOf<O>> | McpTypedToolResult<McpSchemaInput<ResultSchemaOf<O>>>>
  : unknown;

/**
 * A handler decorator that checks the method it decorates against the options' schemas: with a
 * Standard Schema for the arguments, the first parameter must accept what the schema outputs; with
 * one for the result, the method must return what it accepts. A mismatch is a compile error on the
 * decorator.
 * @publicApi
 */
export type McpTypedMethodDecorator<Args, Return = unknown> = <M extends (args: Args, ...rest: any[]) => Return>(
  target: object,
  key: string | symbol,
  descriptor: TypedPropertyDescriptor<M>,
) => void;
