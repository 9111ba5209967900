export const results = 'results';
