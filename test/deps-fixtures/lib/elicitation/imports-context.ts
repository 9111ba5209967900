// expect: tier-in-call-not-up
import { context } from '../context/context-stub.js';

export const found = context;
