import { ComingSoon } from '../../../ui/coming-soon';

export default function UploadPage() {
  return <ComingSoon title="Upload Scenario" />;
}
