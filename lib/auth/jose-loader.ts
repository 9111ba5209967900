import { importOptionalPeer } from '../optional-peer.js';

// Kept out of the public declarations, so applications without jose still type-check.
export const JOSE_MISSING = 'McpModule auth: the ready JWT verifier needs the optional package "jose": npm install jose';

const importJose = () => import('jose');
/** The jose module, as the JWT verifier uses it. @internal */
export type JoseModule = Awaited<ReturnType<typeof importJose>>;

/** The jose module, imported only when the JWT verifier is used. @internal */
export function loadJose(importer: () => Promise<JoseModule> = importJose): Promise<JoseModule> {
  return importOptionalPeer(importer, JOSE_MISSING);
}
