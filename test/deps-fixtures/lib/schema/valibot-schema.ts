// expect: no-schema-libraries
import { string } from 'valibot';

export const name = string();
