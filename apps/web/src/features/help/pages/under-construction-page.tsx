import { ComingSoon } from '../../../ui/coming-soon';

export default function UnderConstructionPage() {
  return <ComingSoon title="Admin Panel" />;
}
