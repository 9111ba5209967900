// @ts-nocheck
// No such file: depcruise cannot resolve it, so the rule must match the module name.
// expect: nest-internals-only-in-the-adapter
import { nothing } from '@nestjs/core/helpers/no-such-helper.js';

export const missing = nothing;
