// Kept out of the public declarations, so applications without ioredis still type-check.
export const IOREDIS_MISSING = 'mocapi.store.redis-url is set, but the optional package "ioredis" is not installed: npm install ioredis';

const importIoredis = () => import('ioredis');
type IoredisModule = Awaited<ReturnType<typeof importIoredis>>;

/** The ioredis module, imported only when Redis is configured. @internal */
export async function loadIoredis(importer: () => Promise<IoredisModule> = importIoredis): Promise<IoredisModule> {
  try {
    return await importer();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw new Error(IOREDIS_MISSING);
    throw error;
  }
}
