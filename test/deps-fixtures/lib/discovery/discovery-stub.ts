export const discovery = 'discovery';
