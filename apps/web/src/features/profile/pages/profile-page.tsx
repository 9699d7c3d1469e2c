import { ComingSoon } from '../../../ui/coming-soon';

export default function ProfilePage() {
  return <ComingSoon title="My Profile" />;
}
