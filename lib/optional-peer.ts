/**
 * Imports an optional peer dependency (ioredis, jose) the first time a feature needs it; when the
 * package is not installed, fails with `missing`, a line saying what to install. @internal
 */
export async function importOptionalPeer<T>(importer: () => Promise<T>, missing: string): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw new Error(missing);
    throw error;
  }
}
