export const protocol = 'protocol';
