export * from './invitations.ts';
export * from './passwords.ts';
export * from './sessions.ts';
export * from './sign-in-throttle.ts';
