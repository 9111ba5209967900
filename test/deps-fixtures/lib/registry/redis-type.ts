// expect: redis-only-in-store (a type-only import counts too)
import type { Redis } from 'ioredis';

export type Client = Redis;
