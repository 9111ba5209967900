// expect: allowed (the other file that may import Nest's internals)
import { ROUTE_ARGS_METADATA } from '@nestjs/common/internal';

export const routeArgs = ROUTE_ARGS_METADATA;
