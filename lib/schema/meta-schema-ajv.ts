import { Ajv2020 } from 'ajv/dist/2020.js';
import type { AnySchema, ErrorObject } from 'ajv/dist/2020.js';
import { validate as generatedMetaValidator } from './json-schema-2020-12.meta-validator.js';

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

const validateAgainstMetaSchema = generatedMetaValidator as { (schema: unknown): boolean; errors?: ErrorObject[] | null };

/** The options lib/ builds its Ajv instances with: none of them changes how the meta-schema validates. */
export interface MetaSchemaAjvOptions {
  strict: false;
  allErrors: boolean;
  coerceTypes?: false;
  addUsedSchema?: false;
  logger: false;
}

/**
 * Ajv for JSON Schema 2020-12 whose meta-schema check runs the validator compiled ahead of time
 * (scripts/generate-meta-validator.mjs) instead of one Ajv compiles on first use, a noticeable part of
 * start-up (docs/benchmarks.md). Answers, `errors` and the thrown message are Ajv's own. Ajv's own check still runs for a schema
 * naming another `$schema`, and on an all-errors instance for an invalid schema (the generated validator
 * stops at the first error; that instance reports every one).
 */
export class MetaSchemaAjv extends Ajv2020 {
  constructor(options: MetaSchemaAjvOptions) {
    super(options);
  }

  override validateSchema(schema: AnySchema, throwOrLogError?: boolean): boolean | Promise<unknown> {
    if (typeof schema !== 'object' || (schema.$schema !== undefined && schema.$schema !== DRAFT_2020_12)) {
      return super.validateSchema(schema, throwOrLogError);
    }
    const valid = validateAgainstMetaSchema(schema);
    if (!valid && this.opts.allErrors) return super.validateSchema(schema, throwOrLogError);
    this.errors = validateAgainstMetaSchema.errors ?? null;
    // As Ajv words it (core.ts, validateSchema): the message the start-up error quotes.
    if (!valid && throwOrLogError) throw new Error(`schema is invalid: ${this.errorsText()}`);
    return valid;
  }
}
