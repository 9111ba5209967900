import type { ElicitAction, ElicitContentValue, ElicitResponse, JsonObject } from '../protocol/wire.types.js';

const NOT_ACCEPTED_VERB: Record<Exclude<ElicitAction, 'accept'>, string> = {
  decline: 'declined',
  cancel: 'cancelled',
};

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? `an integer (${value})` : `a number (${value})`;
  return `a ${typeof value}`;
}

/**
 * The user's answer to an elicitation: what they did (`accept`, `decline`, `cancel`) and, when they
 * accepted a form, the submitted values with typed getters.
 *
 * Getters throw when the result is not accepted (reading fields of a declined form is a bug) and when
 * a field holds the wrong type; a field that is absent (an optional one the user left blank) returns
 * `undefined`, or the `defaultValue` you pass, so optional fields never crash.
 * @publicApi
 */
export class ElicitResult<T extends object = Readonly<Record<string, ElicitContentValue>>> {
  readonly action: ElicitAction;
  /**
   * Submitted values; empty unless accepted. Frozen, so handlers cannot alter what later replays see.
   * Asked with a Standard Schema (`elicit(message, z.object(…))`), the schema's output, typed from it.
   */
  readonly content: Readonly<T>;
  readonly _meta?: JsonObject;

  /** `parsed`: the accepted content as a schema library checked and converted it, in place of the raw one. */
  constructor(response: ElicitResponse, parsed?: T) {
    this.action = response.action;
    // Content of a declined/cancelled answer is not the user's submission; drop it so it cannot be read by accident.
    // fromEntries defines keys, so a `__proto__` key in the answer stays data instead of swapping the prototype.
    const submitted = response.action === 'accept' ? Object.entries(parsed ?? response.content ?? {}) : [];
    this.content = Object.freeze(
      Object.fromEntries(submitted.map(([key, value]) => [key, Array.isArray(value) ? Object.freeze([...value]) : value])),
    ) as Readonly<T>;
    if (response._meta !== undefined) this._meta = response._meta;
  }

  /** An accepted answer carrying `content`. */
  static accept(content: Record<string, ElicitContentValue> = {}): ElicitResult {
    return new ElicitResult({ action: 'accept', content });
  }

  static decline(): ElicitResult {
    return new ElicitResult({ action: 'decline' });
  }

  static cancel(): ElicitResult {
    return new ElicitResult({ action: 'cancel' });
  }

  /** The user submitted the form (or, in URL mode, agreed to open the URL). */
  isAccepted(): boolean {
    return this.action === 'accept';
  }

  /** The user explicitly said no. */
  isDeclined(): boolean {
    return this.action === 'decline';
  }

  /** The user dismissed the form without choosing. */
  isCancelled(): boolean {
    return this.action === 'cancel';
  }

  /** True when the accepted content holds a value for `name`. */
  has(name: string): boolean {
    return this.action === 'accept' && this.#raw(name) !== undefined;
  }

  getString(name: string): string | undefined;
  getString(name: string, defaultValue: string): string;
  getString(name: string, defaultValue?: string): string | undefined {
    return this.#read(name, 'a string', (v): v is string => typeof v === 'string', defaultValue);
  }

  /** A whole number; `3.0` counts (JSON does not distinguish it from `3`). */
  getInteger(name: string): number | undefined;
  getInteger(name: string, defaultValue: number): number;
  getInteger(name: string, defaultValue?: number): number | undefined {
    return this.#read(name, 'an integer', (v): v is number => typeof v === 'number' && Number.isInteger(v), defaultValue);
  }

  getNumber(name: string): number | undefined;
  getNumber(name: string, defaultValue: number): number;
  getNumber(name: string, defaultValue?: number): number | undefined {
    return this.#read(name, 'a number', (v): v is number => typeof v === 'number' && Number.isFinite(v), defaultValue);
  }

  getBool(name: string): boolean | undefined;
  getBool(name: string, defaultValue: boolean): boolean;
  getBool(name: string, defaultValue?: boolean): boolean | undefined {
    return this.#read(name, 'a boolean', (v): v is boolean => typeof v === 'boolean', defaultValue);
  }

  /**
   * The value of a single-select field. The type parameter narrows to your option values; it is a
   * cast, so validate the answer against the requested schema (`validateElicitResponse`) first.
   */
  getChoice<T extends string = string>(name: string): T | undefined;
  getChoice<T extends string = string>(name: string, defaultValue: T): T;
  getChoice<T extends string = string>(name: string, defaultValue?: T): T | undefined {
    return this.#read(name, 'a string', (v): v is T => typeof v === 'string', defaultValue);
  }

  /** The values of a multi-select field, as a fresh array. */
  getChoices<T extends string = string>(name: string): T[] | undefined;
  getChoices<T extends string = string>(name: string, defaultValue: readonly T[]): T[];
  getChoices<T extends string = string>(name: string, defaultValue?: readonly T[]): T[] | undefined {
    const isStringArray = (v: unknown): v is T[] => Array.isArray(v) && v.every((item) => typeof item === 'string');
    const value = this.#read<readonly T[]>(name, 'an array of strings', isStringArray, defaultValue);
    return value === undefined ? undefined : [...value];
  }

  /** The wire shape, e.g. for logging. */
  toJSON(): ElicitResponse {
    const response: ElicitResponse = { action: this.action };
    if (this.action === 'accept') response.content = { ...(this.content as Record<string, ElicitContentValue>) };
    if (this._meta !== undefined) response._meta = this._meta;
    return response;
  }

  #raw(name: string): unknown {
    // Own properties only: a field called "toString" must not resolve to Object.prototype.
    return Object.hasOwn(this.content, name) ? (this.content as Record<string, unknown>)[name] : undefined;
  }

  #read<T>(name: string, expected: string, guard: (value: unknown) => value is T, defaultValue: T | undefined): T | undefined {
    if (this.action !== 'accept') {
      throw new Error(
        `Cannot read field "${name}": the user ${NOT_ACCEPTED_VERB[this.action]} the elicitation; check isAccepted() before reading fields`,
      );
    }
    const value = this.#raw(name);
    // null is not a legal content value; treat it like an omitted optional field rather than crash.
    if (value === undefined || value === null) return defaultValue;
    if (!guard(value)) throw new TypeError(`Elicitation field "${name}" is ${describe(value)}, expected ${expected}`);
    return value;
  }
}
