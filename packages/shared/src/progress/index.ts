export * from './progress-rules';
export * from './skill-scale';
export * from './navigator-layer';
export * from './progress.schema';
