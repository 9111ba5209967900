// expect: redis-only-in-store
import { Redis } from 'ioredis';

export const client = Redis;
