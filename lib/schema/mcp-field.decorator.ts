import 'reflect-metadata';

/**
 * Options of {@link McpField}: `description`, `title` and any further JSON Schema 2020-12 keywords
 * (`examples`, `default`, `format`, `x-mcp-header`, ...). The keywords are merged over the schema
 * generated for the property, so an explicit keyword wins over a generated one.
 * @publicApi
 */
export interface McpFieldOptions {
  description?: string;
  title?: string;
  /**
   * Not a schema keyword: marks a property that carries no class-validator decorator as optional.
   * (Properties with `@IsOptional()` are optional anyway.) Default `false`.
   */
  optional?: boolean;
  [keyword: string]: unknown;
}

/**
 * Options of {@link McpObject}: keywords merged over the generated object schema of a DTO class,
 * e.g. `description`, `title` or `additionalProperties: false`.
 * @publicApi
 */
export interface McpObjectOptions {
  description?: string;
  title?: string;
  additionalProperties?: boolean;
  [keyword: string]: unknown;
}

// Own (not inherited) metadata per class; inheritance is resolved when read. WeakMaps so classes
// created at runtime (tests, dynamic modules) can be collected.
const fieldStore = new WeakMap<Function, Map<string, McpFieldOptions>>();
const objectStore = new WeakMap<Function, McpObjectOptions>();

/**
 * Describes a DTO property in the generated JSON Schema. Works together with class-validator
 * decorators, or alone — then the type comes from `design:type` (string, number, boolean, Date,
 * arrays, nested DTO classes).
 *
 * ```ts
 * class CreateUser {
 *   @McpField({ description: 'Login e-mail', examples: ['a@b.c'] })
 *   @IsEmail()
 *   email!: string;
 * }
 * ```
 * @publicApi
 */
export function McpField(options: McpFieldOptions = {}): PropertyDecorator {
  return (target: object, propertyKey: string | symbol): void => {
    if (typeof propertyKey !== 'string') {
      throw new TypeError('@McpField() can only decorate string-named properties');
    }
    const ctor = (target as { constructor: Function }).constructor;
    let own = fieldStore.get(ctor);
    if (own === undefined) {
      own = new Map();
      fieldStore.set(ctor, own);
    }
    // Repeated @McpField on one property merge; the decorator closest to the property applies first.
    own.set(propertyKey, { ...options, ...own.get(propertyKey) });
  };
}

/**
 * Adds keywords to the object schema generated for a DTO class (root or nested).
 * @publicApi
 */
export function McpObject(options: McpObjectOptions): ClassDecorator {
  return (target: Function): void => {
    objectStore.set(target, { ...options });
  };
}

/**
 * The `@McpField` options of a class including inherited ones (a subclass overrides its base per
 * property), base-class properties first.
 */
export function getMcpFieldOptions(dto: Function): Map<string, McpFieldOptions> {
  const result = new Map<string, McpFieldOptions>();
  for (const ctor of prototypeChain(dto)) {
    const own = fieldStore.get(ctor);
    if (own === undefined) continue;
    for (const [name, options] of own) result.set(name, { ...result.get(name), ...options });
  }
  return result;
}

/** The `@McpObject` options of a class, merged along its inheritance chain. */
export function getMcpObjectOptions(dto: Function): McpObjectOptions | undefined {
  let result: McpObjectOptions | undefined;
  for (const ctor of prototypeChain(dto)) {
    const own = objectStore.get(ctor);
    if (own !== undefined) result = { ...result, ...own };
  }
  return result;
}

/** Constructors from the root base class down to `dto`. */
export function prototypeChain(dto: Function): Function[] {
  const chain: Function[] = [];
  for (let ctor: unknown = dto; typeof ctor === 'function' && ctor !== Function.prototype; ctor = Object.getPrototypeOf(ctor)) {
    chain.unshift(ctor as Function);
  }
  return chain;
}
