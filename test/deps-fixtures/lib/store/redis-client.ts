// expect: allowed (store/ is where Redis lives)
import { Redis } from 'ioredis';

export const client = Redis;
