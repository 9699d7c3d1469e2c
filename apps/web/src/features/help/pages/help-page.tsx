import { ComingSoon } from '../../../ui/coming-soon';

export default function HelpPage() {
  return <ComingSoon title="Help & FAQ" />;
}
