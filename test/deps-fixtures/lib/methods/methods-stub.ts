export const methods = 'methods';
