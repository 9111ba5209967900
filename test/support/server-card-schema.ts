import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { addFormats } from './wire-schema.js';

/** The Server Card extension's own schema, kept in `test/spec/server-card/` (see the README there). */
const SCHEMA_ID = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';

let validate: ValidateFunction | undefined;

/** Throws (failing the test) unless `card` is a valid `$defs/ServerCard` of the extension's schema. */
export function assertServerCard(card: unknown): void {
  if (!validate) {
    const schema = JSON.parse(readFileSync(new URL('../spec/server-card/schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
    const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    addFormats(ajv);
    ajv.addSchema({ ...schema, $id: SCHEMA_ID });
    validate = ajv.getSchema(`${SCHEMA_ID}#/$defs/ServerCard`)!;
  }
  if (!validate(card)) {
    const errors = (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`).join('; ');
    throw new Error(`Not a valid ServerCard: ${errors}\n${JSON.stringify(card)}`);
  }
}
