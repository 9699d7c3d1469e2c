export * from './scenario.schema';
export {
  checkScenario,
  checkScenarioText,
  deriveScenarioId,
  formatPath,
  formatProblem,
  parseScenarioText,
  type ScenarioCheckResult,
  type ScenarioParseResult,
  type ScenarioProblem,
} from './check-scenario';
export { resolveNextStep, type FlowStep, type NextStep } from './step-flow';
