// @ts-nocheck -- a file of Fastify's own, with no types: the rule is about the import, not its use
// expect: http-framework-internals-in-their-rooms
import symbols from 'fastify/lib/symbols.js';

export const kRouteContext = symbols.kRouteContext;
