import { ComingSoon } from '../../../ui/coming-soon';

export default function ScenarioPickerPage() {
  return <ComingSoon title="Select a Scenario" />;
}
