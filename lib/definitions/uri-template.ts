const EXPRESSION = /\{(\+?)([A-Za-z0-9_.]+)\}/g;

/**
 * RFC 6570 URI templates, as far as resource templates need them: level 1 `{var}` (one path
 * segment) and level 2 `{+var}` (reserved expansion, may span segments). Matching turns a concrete
 * URI back into variables; values are percent-decoded.
 */
export class UriTemplate {
  readonly variables: readonly string[];
  private readonly pattern: RegExp;

  constructor(readonly template: string) {
    if (/[{}]/.test(template.replace(EXPRESSION, ''))) {
      throw new Error(`Unsupported URI template "${template}": use {name} or {+name} expressions`);
    }
    const variables: string[] = [];
    let source = '';
    let last = 0;
    for (const match of template.matchAll(EXPRESSION)) {
      source += escape(template.slice(last, match.index));
      source += match[1] === '+' ? '(.+?)' : '([^/?#]+)';
      variables.push(match[2]);
      last = match.index! + match[0].length;
    }
    source += escape(template.slice(last));
    if (new Set(variables).size !== variables.length) throw new Error(`URI template "${template}" repeats a variable`);
    this.variables = variables;
    this.pattern = new RegExp(`^${source}$`);
  }

  /** The variables of `uri`, or undefined when it does not match. */
  match(uri: string): Record<string, string> | undefined {
    const match = this.pattern.exec(uri);
    if (!match) return undefined;
    try {
      // fromEntries defines each variable, so even one named `__proto__` is an own value.
      return Object.fromEntries(this.variables.map((name, index) => [name, decodeURIComponent(match[index + 1])]));
    } catch {
      return undefined;
    }
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
