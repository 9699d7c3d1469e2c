import { ComingSoon } from '../../../ui/coming-soon';

export default function SkillMapPage() {
  return <ComingSoon title="ATT&amp;CK skill map" />;
}
