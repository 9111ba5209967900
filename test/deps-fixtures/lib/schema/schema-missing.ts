// @ts-nocheck
// No such package: depcruise cannot resolve it, so the rule must match the module name.
// expect: no-schema-libraries
import { nothing } from '@standard-schema/no-such-package';

export const missing = nothing;
