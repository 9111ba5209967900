// Over 300 lines on purpose: it is the public fluent form builder, one small method per field kind and
// option (string formats, numbers, booleans, single and multi choices, titled options) with the checks
// the spec puts on each; every method is a few lines and they share the builder's state.
import type {
  ElicitationBooleanSchema,
  ElicitationChoiceOption,
  ElicitationNumberSchema,
  ElicitationPropertySchema,
  ElicitationRequestedSchema,
  ElicitationStringFormat,
  ElicitationStringSchema,
  ElicitationTitledOption,
} from './elicitation-schema.types.js';

/** Module-private hook the builder uses to read a customizer's result; not part of the public API. */
const FINISH = Symbol('finish');

interface Finished {
  schema: ElicitationPropertySchema;
  optional: boolean;
}

/** A per-property customizer callback; its return value is ignored, so `s => s.email()` and blocks both work. */
export type PropertyCustomizerFn<C> = (customizer: C) => unknown;

const STRING_FORMATS: readonly ElicitationStringFormat[] = ['email', 'uri', 'date', 'date-time'];

function fail(name: string, message: string, kind: 'Error' | 'RangeError' | 'TypeError' = 'Error'): never {
  const text = `Elicitation property "${name}": ${message}`;
  throw kind === 'RangeError' ? new RangeError(text) : kind === 'TypeError' ? new TypeError(text) : new Error(text);
}

function requireNonNegativeInteger(name: string, keyword: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    fail(name, `${keyword} must be a non-negative integer, got ${String(value)}`, 'RangeError');
  }
}

function requireFinite(name: string, keyword: string, value: number): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    fail(name, `${keyword} must be a finite number, got ${String(value)}`, 'RangeError');
  }
}

function requireString(name: string, keyword: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') fail(name, `${keyword} must be a string, got ${typeof value}`, 'TypeError');
}

/** Shared part of every customizer: title, description, optional. */
abstract class PropertyCustomizer<S extends ElicitationPropertySchema> {
  #optional = false;

  protected constructor(
    protected readonly propertyName: string,
    protected readonly schema: S,
  ) {}

  /** Sets the display title (overrides the title given to the builder method). */
  title(title: string): this {
    requireString(this.propertyName, 'title', title);
    this.schema.title = title;
    return this;
  }

  /** Sets the help text shown with the field. */
  description(description: string): this {
    requireString(this.propertyName, 'description', description);
    this.schema.description = description;
    return this;
  }

  /** Leaves the property out of `required`; properties are required by default. */
  optional(isOptional = true): this {
    this.#optional = isOptional;
    return this;
  }

  /** Cross-keyword checks run once, after the user's callback, so setter order never matters. */
  protected abstract check(): void;

  [FINISH](): Finished {
    this.check();
    return { schema: this.schema, optional: this.#optional };
  }
}

/**
 * Customizes a string property: length limits, a format and a default.
 * @publicApi
 */
export class StringPropertyCustomizer extends PropertyCustomizer<ElicitationStringSchema> {
  constructor(name: string, schema: ElicitationStringSchema) {
    super(name, schema);
  }

  /** Pre-filled value the client SHOULD show. */
  default(value: string): this {
    requireString(this.propertyName, 'default', value);
    this.schema.default = value;
    return this;
  }

  minLength(length: number): this {
    requireNonNegativeInteger(this.propertyName, 'minLength', length);
    this.schema.minLength = length;
    return this;
  }

  maxLength(length: number): this {
    requireNonNegativeInteger(this.propertyName, 'maxLength', length);
    this.schema.maxLength = length;
    return this;
  }

  /** One of the four formats form mode allows. */
  format(format: ElicitationStringFormat): this {
    if (!STRING_FORMATS.includes(format)) {
      fail(this.propertyName, `format must be one of ${STRING_FORMATS.join(', ')}, got ${String(format)}`, 'TypeError');
    }
    this.schema.format = format;
    return this;
  }

  email(): this {
    return this.format('email');
  }

  uri(): this {
    return this.format('uri');
  }

  /** Full date, e.g. `2026-07-28`. */
  date(): this {
    return this.format('date');
  }

  /** Date and time, e.g. `2026-07-28T12:00:00Z`. */
  dateTime(): this {
    return this.format('date-time');
  }

  protected check(): void {
    const { minLength, maxLength, default: value } = this.schema;
    if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) {
      fail(this.propertyName, `minLength (${minLength}) is greater than maxLength (${maxLength})`, 'RangeError');
    }
    // A default the client would have to reject is a server bug; catch it when the schema is built.
    if (value !== undefined) {
      const length = [...value].length;
      if ((minLength !== undefined && length < minLength) || (maxLength !== undefined && length > maxLength)) {
        fail(this.propertyName, `default "${value}" violates the length limits`, 'RangeError');
      }
    }
  }
}

/**
 * Customizes an `integer` or `number` property: bounds and a default.
 * @publicApi
 */
export class NumberPropertyCustomizer extends PropertyCustomizer<ElicitationNumberSchema> {
  constructor(name: string, schema: ElicitationNumberSchema) {
    super(name, schema);
  }

  default(value: number): this {
    this.#requireValue('default', value);
    this.schema.default = value;
    return this;
  }

  minimum(value: number): this {
    this.#requireValue('minimum', value);
    this.schema.minimum = value;
    return this;
  }

  maximum(value: number): this {
    this.#requireValue('maximum', value);
    this.schema.maximum = value;
    return this;
  }

  #requireValue(keyword: string, value: number): void {
    requireFinite(this.propertyName, keyword, value);
    if (this.schema.type === 'integer' && !Number.isInteger(value)) {
      fail(this.propertyName, `${keyword} of an integer property must be a whole number, got ${value}`, 'RangeError');
    }
  }

  protected check(): void {
    const { minimum, maximum, default: value } = this.schema;
    if (minimum !== undefined && maximum !== undefined && minimum > maximum) {
      fail(this.propertyName, `minimum (${minimum}) is greater than maximum (${maximum})`, 'RangeError');
    }
    if (value !== undefined && ((minimum !== undefined && value < minimum) || (maximum !== undefined && value > maximum))) {
      fail(this.propertyName, `default ${value} is outside [${minimum ?? '-∞'}, ${maximum ?? '∞'}]`, 'RangeError');
    }
  }
}

/**
 * Customizes a boolean property.
 * @publicApi
 */
export class BooleanPropertyCustomizer extends PropertyCustomizer<ElicitationBooleanSchema> {
  constructor(name: string, schema: ElicitationBooleanSchema) {
    super(name, schema);
  }

  default(value: boolean): this {
    if (typeof value !== 'boolean') fail(this.propertyName, `default must be a boolean, got ${typeof value}`, 'TypeError');
    this.schema.default = value;
    return this;
  }

  protected check(): void {
    // Nothing spans keywords for booleans.
  }
}

type SingleSelectSchema = Extract<ElicitationPropertySchema, { type: 'string' }> & { default?: string };
type MultiSelectSchema = Extract<ElicitationPropertySchema, { type: 'array' }>;

/**
 * Customizes a single-select enum property; its default must be one of the options.
 * @publicApi
 */
export class ChoicePropertyCustomizer extends PropertyCustomizer<SingleSelectSchema> {
  constructor(
    name: string,
    schema: SingleSelectSchema,
    private readonly values: readonly string[],
  ) {
    super(name, schema);
  }

  default(value: string): this {
    requireString(this.propertyName, 'default', value);
    this.schema.default = value;
    return this;
  }

  protected check(): void {
    const value = this.schema.default;
    if (value !== undefined && !this.values.includes(value)) {
      fail(this.propertyName, `default "${value}" is not one of the options (${this.values.join(', ')})`);
    }
  }
}

/**
 * Customizes a multi-select enum property: item-count limits and a default selection.
 * @publicApi
 */
export class ChoicesPropertyCustomizer extends PropertyCustomizer<MultiSelectSchema> {
  constructor(
    name: string,
    schema: MultiSelectSchema,
    private readonly values: readonly string[],
  ) {
    super(name, schema);
  }

  default(values: readonly string[]): this {
    if (!Array.isArray(values)) fail(this.propertyName, 'default must be an array of option values', 'TypeError');
    for (const value of values) requireString(this.propertyName, 'default item', value);
    this.schema.default = [...values];
    return this;
  }

  minItems(count: number): this {
    requireNonNegativeInteger(this.propertyName, 'minItems', count);
    this.schema.minItems = count;
    return this;
  }

  maxItems(count: number): this {
    requireNonNegativeInteger(this.propertyName, 'maxItems', count);
    this.schema.maxItems = count;
    return this;
  }

  protected check(): void {
    const { minItems, maxItems, default: selection } = this.schema;
    if (minItems !== undefined && maxItems !== undefined && minItems > maxItems) {
      fail(this.propertyName, `minItems (${minItems}) is greater than maxItems (${maxItems})`, 'RangeError');
    }
    if (selection === undefined) return;
    const foreign = selection.filter((value) => !this.values.includes(value));
    if (foreign.length > 0) {
      fail(this.propertyName, `default contains values that are not options: ${foreign.join(', ')}`);
    }
    if (new Set(selection).size !== selection.length) fail(this.propertyName, 'default selects a value twice');
    if ((minItems !== undefined && selection.length < minItems) || (maxItems !== undefined && selection.length > maxItems)) {
      fail(this.propertyName, `default selects ${selection.length} items, outside minItems/maxItems`, 'RangeError');
    }
  }
}

/** Splits options into values and, when any option carries a title, titled `{const,title}` entries. */
function normalizeOptions(
  name: string,
  options: readonly ElicitationChoiceOption[],
): { values: string[]; titled: ElicitationTitledOption[] | undefined } {
  if (!Array.isArray(options) || options.length === 0) fail(name, 'needs at least one option', 'TypeError');
  const values: string[] = [];
  const titled: ElicitationTitledOption[] = [];
  let anyTitled = false;
  for (const option of options) {
    if (typeof option === 'string') {
      values.push(option);
      titled.push({ const: option, title: option });
    } else if (option !== null && typeof option === 'object' && typeof option.value === 'string' && typeof option.title === 'string') {
      anyTitled = true;
      values.push(option.value);
      titled.push({ const: option.value, title: option.title });
    } else {
      fail(name, 'each option must be a string or { value: string, title: string }', 'TypeError');
    }
  }
  const duplicate = values.find((value, index) => values.indexOf(value) !== index);
  if (duplicate !== undefined) fail(name, `option "${duplicate}" is listed twice`);
  // Mixed lists become titled: a plain entry is shown with its value as its title.
  return { values, titled: anyTitled ? titled : undefined };
}

function withTitle<T extends ElicitationPropertySchema>(schema: T, title: string | undefined): T {
  if (title !== undefined) schema.title = title;
  return schema;
}

/**
 * Builds the `requestedSchema` of a form-mode elicitation: a flat object of string, number, boolean and
 * enum properties, each required unless its customizer calls `.optional()`.
 *
 * ```ts
 * const schema = ElicitationSchemaBuilder.build((s) => s
 *   .string('name', 'Your name')
 *   .string('email', 'Email', (p) => p.email())
 *   .integer('age', 'Age', (p) => p.minimum(0).optional())
 *   .choice('plan', 'Plan', ['pro', 'team']));
 * ```
 * @publicApi
 */
export class ElicitationSchemaBuilder {
  readonly #properties = new Map<string, Finished>();

  /** Runs `fn` on a fresh builder and returns the built schema. */
  static build(fn: (builder: ElicitationSchemaBuilder) => unknown): ElicitationRequestedSchema {
    const builder = new ElicitationSchemaBuilder();
    fn(builder);
    return builder.build();
  }

  /** A free-text property. */
  string(name: string, title?: string, customize?: PropertyCustomizerFn<StringPropertyCustomizer>): this {
    this.#reserve(name);
    return this.#add(name, new StringPropertyCustomizer(name, withTitle({ type: 'string' }, title)), customize);
  }

  /** A whole-number property (`type: "integer"`). */
  integer(name: string, title?: string, customize?: PropertyCustomizerFn<NumberPropertyCustomizer>): this {
    this.#reserve(name);
    return this.#add(name, new NumberPropertyCustomizer(name, withTitle({ type: 'integer' }, title)), customize);
  }

  /** A numeric property (`type: "number"`, decimals allowed). */
  number(name: string, title?: string, customize?: PropertyCustomizerFn<NumberPropertyCustomizer>): this {
    this.#reserve(name);
    return this.#add(name, new NumberPropertyCustomizer(name, withTitle({ type: 'number' }, title)), customize);
  }

  /** A yes/no property. */
  bool(name: string, title?: string, customize?: PropertyCustomizerFn<BooleanPropertyCustomizer>): this {
    this.#reserve(name);
    return this.#add(name, new BooleanPropertyCustomizer(name, withTitle({ type: 'boolean' }, title)), customize);
  }

  /** Alias of {@link bool}. */
  boolean(name: string, title?: string, customize?: PropertyCustomizerFn<BooleanPropertyCustomizer>): this {
    return this.bool(name, title, customize);
  }

  /**
   * A single-select enum. Plain string options produce `enum`; when any option has a title the
   * property uses `oneOf: [{ const, title }]` (the spec's titled form).
   */
  choice(
    name: string,
    title: string | undefined,
    options: readonly ElicitationChoiceOption[],
    customize?: PropertyCustomizerFn<ChoicePropertyCustomizer>,
  ): this {
    this.#reserve(name);
    const { values, titled } = normalizeOptions(name, options);
    const schema: SingleSelectSchema = titled
      ? withTitle({ type: 'string', oneOf: titled }, title)
      : withTitle({ type: 'string', enum: values }, title);
    return this.#add(name, new ChoicePropertyCustomizer(name, schema, values), customize);
  }

  /** Alias of {@link choice}. */
  singleSelectEnum(
    name: string,
    title: string | undefined,
    options: readonly ElicitationChoiceOption[],
    customize?: PropertyCustomizerFn<ChoicePropertyCustomizer>,
  ): this {
    return this.choice(name, title, options, customize);
  }

  /**
   * A multi-select enum (`type: "array"`). Plain options produce `items: { type: "string", enum }`;
   * titled options produce `items: { anyOf: [{ const, title }] }`.
   */
  choices(
    name: string,
    title: string | undefined,
    options: readonly ElicitationChoiceOption[],
    customize?: PropertyCustomizerFn<ChoicesPropertyCustomizer>,
  ): this {
    this.#reserve(name);
    const { values, titled } = normalizeOptions(name, options);
    const schema: MultiSelectSchema = titled
      ? withTitle({ type: 'array', items: { anyOf: titled } }, title)
      : withTitle({ type: 'array', items: { type: 'string', enum: values } }, title);
    return this.#add(name, new ChoicesPropertyCustomizer(name, schema, values), customize);
  }

  /** Alias of {@link choices}. */
  multiSelectEnum(
    name: string,
    title: string | undefined,
    options: readonly ElicitationChoiceOption[],
    customize?: PropertyCustomizerFn<ChoicesPropertyCustomizer>,
  ): this {
    return this.choices(name, title, options, customize);
  }

  /** The schema built so far, as a fresh deep copy (later builder calls do not change it). */
  build(): ElicitationRequestedSchema {
    const properties: Record<string, ElicitationPropertySchema> = {};
    const required: string[] = [];
    for (const [name, { schema, optional }] of this.#properties) {
      properties[name] = structuredClone(schema);
      if (!optional) required.push(name);
    }
    return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
  }

  /** Checked before options are parsed so a duplicate is reported as such, not as a bad option. */
  #reserve(name: string): void {
    if (typeof name !== 'string' || name.length === 0) {
      throw new TypeError(`Elicitation property name must be a non-empty string, got ${JSON.stringify(name)}`);
    }
    if (this.#properties.has(name)) throw new Error(`Elicitation property "${name}" is defined twice`);
  }

  #add<C extends PropertyCustomizer<ElicitationPropertySchema>>(
    name: string,
    customizer: C,
    customize: PropertyCustomizerFn<C> | undefined,
  ): this {
    if (customize !== undefined) customize(customizer);
    this.#properties.set(name, customizer[FINISH]());
    return this;
  }
}
