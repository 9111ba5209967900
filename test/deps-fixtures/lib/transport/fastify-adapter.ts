// expect: allowed (transport/ is the HTTP edge)
import { FastifyAdapter } from '@nestjs/platform-fastify';

export const adapter = FastifyAdapter;
