import { ComingSoon } from '../../../ui/coming-soon';

export default function ManageUsersPage() {
  return <ComingSoon title="Manage Users" />;
}
