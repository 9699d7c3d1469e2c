import { ComingSoon } from '../../../ui/coming-soon';

export default function ScenarioConfigPage() {
  return <ComingSoon title="Scenario Configurator" />;
}
