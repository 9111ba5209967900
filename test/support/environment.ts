/**
 * Takes note of the environment as it is now; the function returned puts it back. ConfigModule copies
 * what it loads into process.env (and ConfigService reads process.env first), so a suite that loads
 * config or sets MOCAPI_* variables restores the environment after each test: nothing leaks into the
 * next test or into another spec file run by the same worker.
 */
export function environmentRestorer(): () => void {
  const before = { ...process.env };
  return () => {
    for (const key of Object.keys(process.env)) if (!(key in before)) delete process.env[key];
    Object.assign(process.env, before);
  };
}
