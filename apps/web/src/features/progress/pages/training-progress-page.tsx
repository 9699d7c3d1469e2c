import { ComingSoon } from '../../../ui/coming-soon';

export default function TrainingProgressPage() {
  return <ComingSoon title="Training Progress" />;
}
