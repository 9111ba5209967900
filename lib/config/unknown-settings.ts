import { SETTING_TABLE } from './setting-table.js';
import { environmentName, type ConfigReader } from './setting-sources.js';

const KEYS: readonly string[] = Object.keys(SETTING_TABLE);
const VARIABLES: readonly string[] = KEYS.map(environmentName);

/**
 * One warning for each `MOCAPI_*` variable and `mocapi.*` config key that is no setting, naming the
 * closest setting in the same form: a misspelled name would otherwise leave its default in force without
 * a word. Variables come from the environment (where `ConfigModule` puts `.env` files too), keys from the
 * config's `mocapi` object (`registerAs('mocapi', …)` or a factory returning `{ mocapi: … }`).
 */
export function unknownSettingWarnings(config: ConfigReader | undefined, environment: NodeJS.ProcessEnv = process.env): string[] {
  // Without a config reader no setting is read from anywhere but the options.
  if (config === undefined) return [];
  const variables = Object.keys(environment).filter((name) => name.startsWith('MOCAPI_') && !VARIABLES.includes(name));
  const keys = objectKeys('mocapi', config?.get('mocapi')).filter((key) => !KEYS.includes(key));
  return [...variables.map((name) => warning(name, VARIABLES)), ...keys.map((key) => warning(key, KEYS))];
}

function warning(name: string, known: readonly string[]): string {
  const closest = closestName(name, known);
  const hint = closest === undefined ? 'no setting of nest-mcp has a name like it (docs/reference/configuration.md lists them)' : `did you mean ${closest}?`;
  return `${name} is not a setting and is ignored: ${hint}`;
}

/** The leaves of a config object, as dotted keys under `prefix`; none when it is no object. */
function objectKeys(prefix: string, value: unknown): string[] {
  return isObject(value) ? Object.entries(value).flatMap(([name, inner]) => (isObject(inner) ? objectKeys(`${prefix}.${name}`, inner) : inner === undefined ? [] : [`${prefix}.${name}`])) : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The known name fewest edits away, when it is near enough to be the one meant (a third of its length). */
function closestName(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; edits: number } | undefined;
  for (const candidate of known) {
    const edits = editDistance(name, candidate);
    if (best === undefined || edits < best.edits) best = { name: candidate, edits };
  }
  return best !== undefined && best.edits <= Math.max(2, Math.floor(best.name.length / 3)) ? best.name : undefined;
}

/** Levenshtein distance: insertions, deletions and substitutions, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
