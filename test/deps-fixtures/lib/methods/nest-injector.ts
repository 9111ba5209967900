// expect: nest-internals-only-in-the-adapter (a deep path, through Nest's "./*.js" export)
import { Injector } from '@nestjs/core/injector/injector.js';

export const injector = Injector;
