// expect: lib-stands-alone
import { sample } from '../../sample/sample-stub.js';

export const found = sample;
