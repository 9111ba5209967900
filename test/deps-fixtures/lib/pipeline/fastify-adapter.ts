// expect: http-only-at-the-edges
import { FastifyAdapter } from '@nestjs/platform-fastify';

export const adapter = FastifyAdapter;
