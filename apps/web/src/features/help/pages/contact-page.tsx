import { ComingSoon } from '../../../ui/coming-soon';

export default function ContactPage() {
  return <ComingSoon title="Contact Us" />;
}
