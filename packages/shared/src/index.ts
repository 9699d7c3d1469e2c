export * from './api';
export * from './auth/password';
export * from './auth/auth.schema';
export * from './paging/paging';
