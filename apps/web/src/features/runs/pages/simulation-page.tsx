import { ComingSoon } from '../../../ui/coming-soon';

export default function SimulationPage() {
  return <ComingSoon title="Simulation" />;
}
