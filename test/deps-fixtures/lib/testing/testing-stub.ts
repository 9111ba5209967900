export const testing = 'testing';
