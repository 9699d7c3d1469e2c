import { ComingSoon } from '../../../ui/coming-soon';

export default function RunReportPage() {
  return <ComingSoon title="After-action report" />;
}
