export const pipeline = 'pipeline';
