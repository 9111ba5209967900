import { Injectable, Module } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { errors, jwtVerify, SignJWT, generateKeyPair, type CryptoKey, type JWTPayload } from 'jose';
import {
  InvalidTokenError,
  McpArg,
  McpAuth,
  McpComplete,
  McpModule,
  McpPrompt,
  McpScopes,
  McpTool,
  ToolContext,
  type McpAuthInfo,
  type McpModuleOptions,
  type McpTokenVerifier,
  type McpToolContext,
} from '../../lib/index.js';

export const RESOURCE = 'https://mcp.example.test/mcp';
export const ISSUER = 'https://auth.example.test';
export const METADATA_URL = 'https://mcp.example.test/.well-known/oauth-protected-resource/mcp';

const keys: { privateKey?: CryptoKey; publicKey?: CryptoKey } = {};

export async function makeKeys(): Promise<void> {
  const pair = await generateKeyPair('ES256');
  keys.privateKey = pair.privateKey;
  keys.publicKey = pair.publicKey;
}

/** Signs an access token; `overrides` change the standard claims. */
export async function signToken(overrides: JWTPayload & { scope?: string } = {}, expiresIn: string | number = '5m'): Promise<string> {
  const { scope = 'invoices:read', ...claims } = overrides;
  return new SignJWT({ scope, client_id: 'test-client', ...claims })
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuer((claims.iss as string) ?? ISSUER)
    .setAudience((claims.aud as string) ?? RESOURCE)
    .setSubject((claims.sub as string) ?? 'user-42')
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(keys.privateKey!);
}

/** Verifies JWTs with jose: signature, issuer and audience (RFC 8707: tokens for this resource only). */
@Injectable()
export class JoseTokenVerifier implements McpTokenVerifier {
  static seenRequests = 0;

  async verify(token: string, request: IncomingMessage): Promise<McpAuthInfo> {
    if (typeof request.headers === 'object') JoseTokenVerifier.seenRequests++;
    try {
      const { payload } = await jwtVerify(token, keys.publicKey!, { issuer: ISSUER, audience: RESOURCE });
      return {
        token,
        subject: payload.sub,
        clientId: typeof payload.client_id === 'string' ? payload.client_id : undefined,
        scopes: typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [],
        expiresAt: payload.exp,
        claims: payload,
      };
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new InvalidTokenError('The access token has expired');
      if (error instanceof errors.JWTClaimValidationFailed) throw new InvalidTokenError(`The access token's "${error.claim}" claim is not accepted`);
      throw error;
    }
  }
}

@Injectable()
export class InvoiceTools {
  @McpTool({ name: 'whoami', description: 'Tells who the token belongs to' })
  whoami(@McpAuth() auth: McpAuthInfo, @ToolContext() ctx: McpToolContext) {
    return { subject: auth.subject, clientId: auth.clientId, scopes: auth.scopes, sameAsContext: ctx.auth === auth, tokenSeen: auth.token.length > 0 };
  }

  @McpTool({ name: 'approve-invoice', description: 'Asks the user to confirm, then approves' })
  async approve(@McpArg('id') id: string, @ToolContext() ctx: McpToolContext) {
    const answer = await ctx.elicit(`Approve invoice ${id}?`, (schema) => schema.bool('ok', 'Approve'));
    return answer.isAccepted() && answer.getBool('ok') ? `approved ${id}` : 'not approved';
  }

  @McpTool({ name: 'list-invoices', description: 'Needs invoices:read' })
  @McpScopes('invoices:read')
  list() {
    return 'invoice list';
  }

  @McpTool({ name: 'pay-invoice', description: 'Needs invoices:write', hideWhenDenied: true })
  @McpScopes('invoices:write')
  pay(@McpArg('id') id: string) {
    return `paid ${id}`;
  }

  @McpTool({ name: 'void-invoice', description: 'Needs invoices:write, listed for every token (so it can ask for a step-up)' })
  @McpScopes('invoices:write')
  voidInvoice(@McpArg('id') id: string) {
    return `voided ${id}`;
  }
}

/** A prompt whose argument completes only for tokens with invoices:read. */
@Injectable()
export class InvoicePrompts {
  @McpPrompt({ name: 'invoice-note', description: 'Drafts a note about an invoice' })
  note(@McpArg('invoiceId') invoiceId: string) {
    return `A note about ${invoiceId}`;
  }

  @McpComplete({ prompt: 'invoice-note', argument: 'invoiceId' })
  @McpScopes('invoices:read')
  invoiceIds(value: string) {
    return ['inv-1', 'inv-2'].filter((id) => id.startsWith(value));
  }
}

export const AUTH_OPTIONS: McpModuleOptions['auth'] = {
  verifier: JoseTokenVerifier,
  resourceMetadata: {
    resource: RESOURCE,
    authorization_servers: [ISSUER],
    scopes_supported: ['invoices:read', 'invoices:write'],
    resource_name: 'Invoices',
  },
};

@Module({
  imports: [McpModule.forRoot({ name: 'auth-fixture', version: '1.0.0', auth: AUTH_OPTIONS })],
  providers: [InvoiceTools, InvoicePrompts],
})
export class AuthFixtureModule {}

/** Module-wide required scopes, the verifier given as an instance, through forRootAsync. */
@Module({
  imports: [
    McpModule.forRootAsync({
      useFactory: () => ({
        name: 'auth-required-scopes',
        version: '1.0.0',
        endpoint: '/rpc',
        auth: { ...AUTH_OPTIONS!, verifier: new JoseTokenVerifier(), requiredScopes: ['mcp:use'] },
      }),
    }),
  ],
  providers: [InvoiceTools],
})
export class RequiredScopesFixtureModule {}

/** No auth configured: the well-known documents are 404, @McpAuth() is undefined. */
@Injectable()
export class OpenTools {
  @McpTool({ name: 'open-whoami', description: 'No auth here' })
  whoami(@McpAuth() auth: McpAuthInfo | undefined) {
    return auth === undefined ? 'anonymous' : 'authenticated?!';
  }

  @McpTool({ name: 'open-scoped', description: 'Scoped without auth' })
  @McpScopes('x')
  scoped() {
    return 'never';
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'open-fixture', version: '1.0.0' })],
  providers: [OpenTools],
})
export class NoAuthFixtureModule {}
