import { ComingSoon } from '../../../ui/coming-soon';

export default function AuditLogPage() {
  return <ComingSoon title="Admin Audit Log" />;
}
