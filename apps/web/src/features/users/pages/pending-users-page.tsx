import { ComingSoon } from '../../../ui/coming-soon';

export default function PendingUsersPage() {
  return <ComingSoon title="Pending Approvals" />;
}
