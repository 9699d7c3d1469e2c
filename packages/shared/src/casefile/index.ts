export * from './casefile-rules';
export * from './casefile.schema';
