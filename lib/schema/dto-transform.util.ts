import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { ValidationError } from 'class-validator';
import { InvalidParamsError } from '../protocol/mcp.error.js';

/**
 * Property names class-transformer reads as the object's own machinery: with them it throws on some
 * shapes and silently drops them on others. A client has no business sending them.
 */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Turns validated plain tool arguments into an instance of the DTO class (nested `@Type()`
 * properties become instances too). No implicit type conversion — the arguments already passed the
 * JSON Schema — and nothing is excluded: properties the DTO does not declare are kept. A
 * `__proto__`, `constructor` or `prototype` key at any depth is refused with -32602 (invalid params).
 * `at` names where `plain` sits in the arguments (`body`), for the message.
 * @publicApi
 */
export function toDtoInstance<T extends object = object>(dto: (new (...args: never[]) => T) | Function, plain: unknown, at = ''): T {
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) {
    throw new TypeError(`Cannot build ${dto.name} from ${Array.isArray(plain) ? 'an array' : plain === null ? 'null' : typeof plain}: an object is required`);
  }
  const refused = findPrototypeKey(plain, at);
  if (refused !== undefined) throw new InvalidParamsError(`Invalid arguments: "${refused}" is not an accepted property name`);
  return plainToInstance(dto as new () => T, plain as object, { enableImplicitConversion: false, excludeExtraneousValues: false });
}

/**
 * Runs class-validator on a DTO instance — this catches custom validators and anything else the
 * JSON Schema cannot express. Resolves to a message naming every failing field, one failure each
 * (`Invalid arguments: "address.city" must be a string; "age" must not be less than 0`), or
 * `undefined` when the instance is valid. `at` names where the instance sits in the arguments (`body`).
 * @publicApi
 */
export async function validateDto(instance: object, messagePrefix = 'Invalid arguments', at = ''): Promise<string | undefined> {
  // forbidUnknownValues:false — the instance comes from plainToInstance, never an unknown object,
  // and undeclared properties are allowed (see toDtoInstance).
  const errors = await validate(instance, { forbidUnknownValues: false });
  if (errors.length === 0) return undefined;
  return `${messagePrefix}: ${errors.flatMap((error) => describeValidationError(error, at)).join('; ')}`;
}

/** The path of the first prototype key in `value` (`address.constructor`, `items[2].__proto__`), if any. */
function findPrototypeKey(value: unknown, path: string): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const at = Array.isArray(value) ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
    if (!Array.isArray(value) && PROTOTYPE_KEYS.has(key)) return at;
    const found = findPrototypeKey(child, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** One line per failing field (its first constraint), nested fields by their full path. */
function describeValidationError(error: ValidationError, parentPath: string): string[] {
  const path = /^\d+$/.test(error.property) ? `${parentPath}[${error.property}]` : parentPath === '' ? error.property : `${parentPath}.${error.property}`;
  const message = error.constraints === undefined ? undefined : Object.values(error.constraints)[0];
  if (message === undefined) {
    const children = error.children ?? [];
    return children.length === 0 ? [`"${path}" is invalid`] : children.flatMap((child) => describeValidationError(child, path));
  }
  // class-validator's default messages start with the property name ("city must be a string");
  // replace it with the full path so nested failures are unambiguous.
  return [message.startsWith(`${error.property} `) ? `"${path}"${message.slice(error.property.length)}` : `"${path}": ${message}`];
}
