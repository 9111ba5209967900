// expect: nest-internals-only-in-the-adapter
import { GuardsConsumer } from '@nestjs/core/internal';

export const consumer = GuardsConsumer;
