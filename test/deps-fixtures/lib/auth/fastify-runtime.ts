// expect: http-only-at-the-edges (auth/ needs HTTP types only, so it runs no HTTP code either)
import cors from '@fastify/cors';

export const plugin = cors;
