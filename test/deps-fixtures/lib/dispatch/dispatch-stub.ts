export const dispatch = 'dispatch';
