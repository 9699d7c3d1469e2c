export * from './casefile.schema';
