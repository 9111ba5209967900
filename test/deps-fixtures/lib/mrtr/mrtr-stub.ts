export const mrtr = 'mrtr';
