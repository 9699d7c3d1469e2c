import { ComingSoon } from '../../../ui/coming-soon';

export default function SettingsPage() {
  return <ComingSoon title="Settings" />;
}
