import type { JsonSchemaObject } from '../protocol/wire.types.js';
import { isThenable, type MaybePromise } from '../protocol/maybe-promise.js';
import { assertWellFormedSchema } from './argument-validator.js';
import { propertyPath } from './schema-helpers.js';

// The Standard Schema and Standard JSON Schema interfaces (standardschema.dev, v1), declared here as
// types so that no schema library (nor @standard-schema/spec) becomes a dependency: Zod ≥ 4.2 and
// ArkType ≥ 2.1.28 implement both natively, Valibot ≥ 1.2 through `toStandardJsonSchema()`.

/** The part both interfaces share: the vendor, and the input and output types for inference. @publicApi */
export interface StandardTypedV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardTypedV1.Props<Input, Output>;
}

/** @publicApi */
export declare namespace StandardTypedV1 {
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly types?: Types<Input, Output> | undefined;
  }
  interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  type InferInput<Schema extends StandardTypedV1> = NonNullable<Schema['~standard']['types']>['input'];
  type InferOutput<Schema extends StandardTypedV1> = NonNullable<Schema['~standard']['types']>['output'];
}

/** A schema that validates (and may transform) a value: `~standard.validate`. @publicApi */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

/** @publicApi */
export declare namespace StandardSchemaV1 {
  interface Props<Input = unknown, Output = Input> extends StandardTypedV1.Props<Input, Output> {
    readonly validate: (value: unknown, options?: Options | undefined) => Result<Output> | Promise<Result<Output>>;
  }
  type Result<Output> = SuccessResult<Output> | FailureResult;
  interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  interface Options {
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  interface PathSegment {
    readonly key: PropertyKey;
  }
  type InferInput<Schema extends StandardTypedV1> = StandardTypedV1.InferInput<Schema>;
  type InferOutput<Schema extends StandardTypedV1> = StandardTypedV1.InferOutput<Schema>;
}

/** A schema that converts itself to JSON Schema: `~standard.jsonSchema.input()` / `.output()`. @publicApi */
export interface StandardJSONSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardJSONSchemaV1.Props<Input, Output>;
}

/** @publicApi */
export declare namespace StandardJSONSchemaV1 {
  interface Props<Input = unknown, Output = Input> extends StandardTypedV1.Props<Input, Output> {
    readonly jsonSchema: Converter;
  }
  interface Converter {
    readonly input: (options: Options) => Record<string, unknown>;
    readonly output: (options: Options) => Record<string, unknown>;
  }
  type Target = 'draft-2020-12' | 'draft-07' | 'openapi-3.0' | ({} & string);
  interface Options {
    readonly target: Target;
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
}

/**
 * What the module takes wherever it takes a schema from a library: a Standard Schema that also
 * converts itself to JSON Schema (a Zod 4.2+ or ArkType 2.1.28+ schema as it is, a Valibot schema
 * wrapped in `toStandardJsonSchema()`).
 * @publicApi
 */
export interface McpStandardSchema<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output> & StandardJSONSchemaV1.Props<Input, Output>;
}

/** The value a schema hands over after validation (defaults applied, coercions and transforms run). @publicApi */
export type McpSchemaOutput<S> = S extends StandardTypedV1 ? StandardTypedV1.InferOutput<S> : never;
/** The value a schema accepts. @publicApi */
export type McpSchemaInput<S> = S extends StandardTypedV1 ? StandardTypedV1.InferInput<S> : never;

/** True for any Standard Schema (`~standard.validate`), whether or not it converts itself to JSON Schema. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return typeof props === 'object' && props !== null && typeof (props as { validate?: unknown }).validate === 'function';
}

const TARGET = { target: 'draft-2020-12' } as const;

/**
 * The schema's JSON Schema 2020-12 from the library's own converter: `input` for what a client
 * sends (arguments, answers), `output` for what a handler's result becomes. Run once, at start-up;
 * a schema that cannot be converted, or converts to one the meta-schema refuses, fails start-up naming
 * `where`. It is not compiled: the library's own `validate` checks every value.
 */
export function standardJsonSchema(schema: StandardSchemaV1, side: 'input' | 'output', where: string): JsonSchemaObject {
  const props = schema['~standard'] as Partial<StandardJSONSchemaV1.Props>;
  const converter = props.jsonSchema;
  if (typeof converter?.[side] !== 'function') {
    throw new Error(
      `The ${props.vendor ?? 'Standard'} schema of ${where} cannot convert itself to JSON Schema (no "~standard.jsonSchema"): ` +
        'use Zod 4.2 or later, ArkType 2.1.28 or later, or wrap a Valibot schema in toStandardJsonSchema() from @valibot/to-json-schema',
    );
  }
  let converted: unknown;
  try {
    converted = converter[side](TARGET);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`The ${props.vendor} schema of ${where} cannot be converted to JSON Schema (${side}): ${reason}`, { cause: error });
  }
  assertWellFormedSchema(converted, where);
  return converted;
}

/** Outcome of {@link StandardValidator.validate}: the library's output value, or a message naming every issue. @publicApi */
export type StandardValidation<T = unknown> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

/** Options of {@link StandardValidator}. @publicApi */
export interface StandardValidatorOptions {
  /** Start of every failure message. Default `Invalid arguments`. */
  messagePrefix?: string;
}

/**
 * Validates with the library's own `~standard.validate` (sync or async) and hands back its output:
 * defaults, coercions and transforms applied. Its issues become one message in the shape the
 * module's other argument checks use: `Invalid arguments: "address.city": Expected string; "tags[0]" …`.
 * @publicApi
 */
export class StandardValidator<T = unknown> {
  private readonly prefix: string;

  constructor(readonly schema: StandardSchemaV1<unknown, T>, options: StandardValidatorOptions = {}) {
    this.prefix = options.messagePrefix ?? 'Invalid arguments';
  }

  async validate(value: unknown): Promise<StandardValidation<T>> {
    return this.check(value);
  }

  /** `validate()` without a promise when the library answers at once (Zod, Valibot, ArkType do). @internal */
  check(value: unknown): MaybePromise<StandardValidation<T>> {
    const result = this.schema['~standard'].validate(value);
    return isThenable(result) ? Promise.resolve(result).then((settled) => this.outcome(settled)) : this.outcome(result);
  }

  private outcome(result: StandardSchemaV1.Result<T>): StandardValidation<T> {
    if (!result.issues) return { ok: true, value: result.value };
    return { ok: false, message: `${this.prefix}: ${describeIssues(result.issues)}` };
  }
}

/** One sentence per issue, each naming its path first, as class-validator failures are named. */
export function describeIssues(issues: ReadonlyArray<StandardSchemaV1.Issue>): string {
  if (issues.length === 0) return 'validation failed';
  const sentences = issues.map((issue) => {
    const path = propertyPath(issue.path ?? []);
    if (path === '') return issue.message;
    // Some libraries (ArkType) start the message with the path already: "city must be …".
    return issue.message.startsWith(`${path} `) ? `"${path}"${issue.message.slice(path.length)}` : `"${path}": ${issue.message}`;
  });
  return [...new Set(sentences)].join('; ');
}
