// The prelude of a spec file the documentation shows for both vitest and jest (see docs/README.md, "Writing
// these pages"): it uses their common globals, which jest's types stand for here.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
/* test-globals */
