export const registry = 'registry';
