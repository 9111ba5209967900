export const auth = 'auth';
