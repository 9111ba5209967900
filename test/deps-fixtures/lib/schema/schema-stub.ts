export const schema = 'schema';
