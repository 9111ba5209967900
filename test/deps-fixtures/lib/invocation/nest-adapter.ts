// expect: allowed (the adapter is the one file that imports Nest's internals)
import { GuardsConsumer } from '@nestjs/core/internal';

export const consumer = GuardsConsumer;
