export const context = 'context';
