import { Module } from '@nestjs/common';
import { AppModule } from './app.module.js';
import { SecureDemoModule } from './secure/secure.tools.js';

/**
 * The sample as served over HTTP (`npm start`): the AppModule plus the admin-only tools, whose
 * guard reads an HTTP header (stdio, `main-stdio.ts`, serves AppModule alone).
 */
@Module({ imports: [AppModule, SecureDemoModule] })
export class HttpAppModule {}
