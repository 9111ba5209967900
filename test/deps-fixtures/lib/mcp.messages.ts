// expect: tier-constants-not-up
import { schema } from './schema/schema-stub.js';

export const found = schema;
