export * from './accept-invitation.ts';
export * from './authenticate-session.ts';
export * from './change-password.ts';

export * from './create-invitation.ts';
export * from './create-session.ts';
export * from './end-session.ts';
export * from './end-user-sessions.ts';
export * from './find-invitations.ts';
export * from './passwords.ts';
export * from './prune-sessions.ts';
export * from './revoke-invitation.ts';
export * from './schemas.ts';
export * from './set-password.ts';
export * from './sign-in.ts';
export * from './sign-in-throttle.ts';
