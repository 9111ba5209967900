import { InvalidParamsError } from '../protocol/mcp.error.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { JsonObject, JsonSchemaObject } from '../protocol/wire.types.js';

/**
 * Prompt arguments and URI-template variables arrive as strings; this converts each one to its
 * declared type (number, integer, boolean, enum) or fails with -32602 naming the argument.
 */
export function convertStringArguments(
  raw: unknown,
  schemas: Readonly<Record<string, JsonSchemaObject>>,
  required: ReadonlySet<string>,
  what: string,
): JsonObject {
  if (raw !== undefined && raw !== null && !isPlainObject(raw)) throw new InvalidParamsError(`${what} "arguments" must be an object`);
  const values = (raw ?? {}) as JsonObject;
  for (const name of required) {
    if (values[name] === undefined || values[name] === null) throw new InvalidParamsError(`Missing required argument "${name}"`);
  }
  // Own properties only: an argument named `constructor` or `__proto__` is unknown, not Object's, and
  // fromEntries defines keys instead of assigning them (assigning `__proto__` would swap the prototype).
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) =>
      // Unknown arguments are passed through as sent; the handler decides.
      [name, Object.hasOwn(schemas, name) ? convertOne(name, value, schemas[name]) : value],
    ),
  );
}

function convertOne(name: string, value: unknown, schema: JsonSchemaObject): unknown {
  const text = typeof value === 'string' ? value.trim() : value;
  let result: unknown = value;
  switch (schema.type) {
    case 'integer':
    case 'number': {
      const number = typeof text === 'number' ? text : text === '' ? NaN : Number(text);
      if (!Number.isFinite(number) || (schema.type === 'integer' && !Number.isInteger(number))) {
        throw new InvalidParamsError(`Argument "${name}" must be ${schema.type === 'integer' ? 'an integer' : 'a number'}; got "${String(value)}"`);
      }
      result = number;
      break;
    }
    case 'boolean':
      if (text === true || text === 'true') result = true;
      else if (text === false || text === 'false') result = false;
      else throw new InvalidParamsError(`Argument "${name}" must be "true" or "false"; got "${String(value)}"`);
      break;
    default:
      if (typeof value !== 'string') throw new InvalidParamsError(`Argument "${name}" must be a string`);
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(result)) {
    throw new InvalidParamsError(`Argument "${name}" must be one of ${schema.enum.map((item) => JSON.stringify(item)).join(', ')}`);
  }
  return result;
}
