// Fixtures for tests in every workspace (never imported by the product).
export { everyKindScenario } from './scenarios/every-kind.fixture';
