// expect: no-folder-cycles (with methods/imports-pipeline.ts)
import { methods } from '../methods/methods-stub.js';

export const found = methods;
