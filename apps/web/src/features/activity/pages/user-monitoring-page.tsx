import { ComingSoon } from '../../../ui/coming-soon';

export default function UserMonitoringPage() {
  return <ComingSoon title="User Monitoring" />;
}
