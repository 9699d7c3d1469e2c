import { ComingSoon } from '../../../ui/coming-soon';

export default function DashboardPage() {
  return <ComingSoon title="Progress Dashboard" />;
}
