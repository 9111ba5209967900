// expect: allowed (a type-only import of HTTP types runs nothing)
import type { FastifyRequest } from 'fastify';

export type Request = FastifyRequest;
