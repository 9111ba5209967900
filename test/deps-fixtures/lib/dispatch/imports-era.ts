// expect: request-path-dispatch-not-up (era/ sits between transport and dispatch)
import { era } from '../era/era-stub.js';

export const found = era;
