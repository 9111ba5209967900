// @ts-nocheck
// valibot is not installed: depcruise cannot resolve it, so the rule must match the module name.
// expect: no-schema-libraries
import { string } from 'valibot';

export const name = string();
