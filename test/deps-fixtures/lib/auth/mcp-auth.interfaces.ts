export type AuthOptions = { kind: 'auth' };
