export const era = 'era';
