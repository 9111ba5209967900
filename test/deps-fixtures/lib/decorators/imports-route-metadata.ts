// expect: allowed (Nest's route metadata keys sit apart from invocation/, in the constants tier)
import { routeArgs } from '../invocation/nest-route-metadata.js';

export const found = routeArgs;
