import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { SETTING_TABLE, type SettingDescriptor, type SettingKey, type SettingValue } from './setting-table.js';

/** A setting's dotted key as it appears in messages: `mocapi.mrtr.ttl`, `mocapi.limits.call-timeout`. */
const SETTING_KEY = /\bmocapi(?:\.[a-z0-9-]+)+/g;

/** The sources of each settings object resolved, for errors found later (the sealing keys). */
const SOURCES = new WeakMap<object, SettingSources>();

/** What reads the config: `ConfigService` or the environment. */
export interface ConfigReader {
  get(key: string): unknown;
}

/**
 * Reads each setting from the config under its dotted key or its environment name, and remembers
 * which one held it, so that a start-up error names the setting as the user wrote it: the variable
 * (`MOCAPI_MRTR_TTL`), the config key, or the `McpModule` option (`mrtr.ttl`).
 */
export class SettingSources {
  private readonly fromConfig = new Map<string, string>();

  constructor(
    private readonly options: McpModuleOptions,
    private readonly config: ConfigReader | undefined,
  ) {}

  /** The setting under `key`: its option, else its config value, else its default; parsed. `undefined`: none of them. */
  value<K extends SettingKey>(key: K): SettingValue<K> | undefined {
    const descriptor: SettingDescriptor<unknown> = SETTING_TABLE[key];
    const given = this.given(key);
    if (given !== undefined) return given;
    return descriptor.default === undefined ? undefined : (descriptor.type.parse(descriptor.default, key) as SettingValue<K>);
  }

  /** The setting under `key` as the user set it (option, else config), parsed; `undefined`: left to its default. */
  given<K extends SettingKey>(key: K): SettingValue<K> | undefined {
    const descriptor: SettingDescriptor<unknown> = SETTING_TABLE[key];
    const set = this.optionOf(key) ?? this.read(key) ?? (descriptor.keepBlank && this.isBlank(key) ? '' : undefined);
    return set === undefined ? undefined : (descriptor.type.parse(set, key) as SettingValue<K>);
  }

  /** The `McpModule` option of `key`, as given. */
  optionOf(key: SettingKey): unknown {
    const { option } = SETTING_TABLE[key] as SettingDescriptor<unknown>;
    return option === undefined ? undefined : valueAt(this.options, option);
  }

  read(key: string): string | undefined {
    if (!this.config) return undefined;
    for (const name of [key, environmentName(key)]) {
      const value = this.config.get(name);
      if (value !== undefined && value !== null && value !== '') {
        this.fromConfig.set(key, name);
        return String(value);
      }
    }
    return undefined;
  }

  /**
   * Whether the config sets `key` to nothing (empty or spaces), which `read` takes as unset: right for
   * most settings, wrong for a secret, where a blank value is a deployment that lost its key.
   */
  isBlank(key: string): boolean {
    for (const name of [key, environmentName(key)]) {
      const value = this.config?.get(name);
      if (typeof value === 'string' && value.trim() === '') {
        this.fromConfig.set(key, name);
        return true;
      }
    }
    return false;
  }

  /** How the user set `key`: the option (options win over config), the config name that held it, or the key itself (a default). */
  nameOf(key: string): string {
    const option = optionPath(key);
    if (valueAt(this.options, option) !== undefined) return `McpModule option ${option}`;
    return this.fromConfig.get(key) ?? key;
  }

  /** Keeps these sources for `settings`, so that what checks them later names them too. */
  describe<T extends object>(settings: T): T {
    SOURCES.set(settings, this);
    return settings;
  }

  /** The sources `settings` were resolved from (none for settings built by hand, e.g. in tests). */
  static of(settings: object): SettingSources | undefined {
    return SOURCES.get(settings);
  }

  /** A start-up error about settings, as one line that names each setting as the user set it. */
  configurationError(error: unknown): McpConfigurationError {
    if (error instanceof McpConfigurationError) return error;
    const message = error instanceof Error ? error.message : String(error);
    // No cause: its stack is the one the user needs not read.
    return new McpConfigurationError(message.replace(SETTING_KEY, (key) => this.nameOf(key)));
  }
}

/**
 * A setting the module cannot start with. Its stack is its one line: where in nest-mcp the value was
 * found wrong tells the user nothing; the message names the setting and the value. @publicApi
 */
export class McpConfigurationError extends Error {
  override readonly name = 'McpConfigurationError';

  constructor(message: string) {
    super(message);
    this.stack = `${this.name}: ${message}`;
  }
}

/** `mocapi.limits.call-timeout` → `MOCAPI_LIMITS_CALL_TIMEOUT`. */
export function environmentName(key: string): string {
  return key.toUpperCase().replace(/[.-]/g, '_');
}

/** `mocapi.limits.call-timeout` → `limits.callTimeout`. */
function optionPath(key: string): string {
  return key
    .replace(/^mocapi\./, '')
    .split('.')
    .map((segment) => segment.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase()))
    .join('.');
}

function valueAt(options: object, path: string): unknown {
  let value: unknown = options;
  for (const segment of path.split('.')) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[segment] : undefined;
  return value;
}
