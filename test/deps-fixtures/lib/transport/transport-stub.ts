export const transport = 'transport';
