import { ComingSoon } from '../../../ui/coming-soon';

export default function DifficultyPage() {
  return <ComingSoon title="Difficulty Adjuster" />;
}
