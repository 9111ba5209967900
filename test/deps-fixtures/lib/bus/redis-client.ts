// expect: allowed (bus/ is the other place Redis lives: the bus's pub/sub connections)
import { Redis } from 'ioredis';

export const subscriber = Redis;
