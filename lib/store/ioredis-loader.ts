import { importOptionalPeer } from '../optional-peer.js';

// Kept out of the public declarations, so applications without ioredis still type-check.
export const IOREDIS_MISSING = 'mocapi.store.redis-url is set, but the optional package "ioredis" is not installed: npm install ioredis';

const importIoredis = () => import('ioredis');
type IoredisModule = Awaited<ReturnType<typeof importIoredis>>;

/** The ioredis module, imported only when Redis is configured. @internal */
export function loadIoredis(importer: () => Promise<IoredisModule> = importIoredis): Promise<IoredisModule> {
  return importOptionalPeer(importer, IOREDIS_MISSING);
}
