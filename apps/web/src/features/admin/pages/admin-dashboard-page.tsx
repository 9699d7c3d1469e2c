import { ComingSoon } from '../../../ui/coming-soon';

export default function AdminDashboardPage() {
  return <ComingSoon title="Admin Dashboard" />;
}
