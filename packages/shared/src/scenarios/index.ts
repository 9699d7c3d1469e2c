export * from './scenario.schema';
export * from './step-kinds';
export {
  bestPath,
  correctIsStrictlyLongest,
  LONGEST_OPTION_LIMIT,
  type BestPath,
  checkScenario,
  checkScenarioText,
  deriveScenarioId,
  formatPath,
  formatProblem,
  parseScenarioText,
  type ScenarioCheckOptions,
  type ScenarioCheckResult,
  type ScenarioParseResult,
  type ScenarioProblem,
} from './check-scenario';
export { resolveNextStep, type FlowStep, type NextStep, type StepOutcome } from './step-flow';
