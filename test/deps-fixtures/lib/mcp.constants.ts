export const constants = 'constants';
