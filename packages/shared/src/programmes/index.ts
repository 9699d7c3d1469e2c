export * from './programme-rules';
export * from './programmes.schema';
