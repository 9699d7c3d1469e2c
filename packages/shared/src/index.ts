export * from './api';
export * from './auth/password';
export * from './auth/auth.schema';
export * from './auth/roles';
export * from './paging/paging';
export * from './scenarios';
export * from './users/users.schema';
