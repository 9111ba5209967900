export const sample = 'sample';
