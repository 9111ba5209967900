export * from './legacy-session.js';
export * from './legacy-sessions.js';
