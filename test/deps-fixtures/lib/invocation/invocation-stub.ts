export const invocation = 'invocation';
