export const root = 'root';
