export type Store = { kind: 'store' };
