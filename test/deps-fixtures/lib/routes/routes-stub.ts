export const routes = 'routes';
