/**
 * Tests wait for events, never for time (issue 25). Every wait has this one ceiling, which only a
 * hang reaches: a busy machine may be slow, never this slow. At the ceiling the wait fails saying
 * what it awaited and what it saw. (jest's testTimeout in package.json is above it, so this message
 * is the one a hanging test reports.)
 */
export const PATIENCE_MS = 30_000;

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Settles with `work`, or fails at the ceiling naming what was `awaited` and what was `seen` by then. */
export async function within<T>(work: Promise<T>, awaited: string, seen: () => unknown = () => 'nothing'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Still waiting for ${awaited} after ${PATIENCE_MS} ms; seen: ${show(seen())}`)), PATIENCE_MS);
  });
  try {
    return await Promise.race([work, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** Re-checks `check` every 10 ms until it holds: for in-process state that announces no event. */
export async function until(check: () => boolean, awaited: string, seen: () => unknown = () => 'nothing'): Promise<void> {
  const deadline = performance.now() + PATIENCE_MS;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`Still waiting for ${awaited} after ${PATIENCE_MS} ms; seen: ${show(seen())}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
