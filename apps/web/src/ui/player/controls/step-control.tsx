import type { PlayerStep, StepResult } from '@tradecraft/shared';
import { AchControl } from './ach-control';
import { ChoiceControl } from './choice-control';
import type { AnswerFields } from './control-props';
import { EstimateControl } from './estimate-control';
import { ExtractControl } from './extract-control';
import { GradeSourceControl } from './grade-source-control';
import { MultiControl } from './multi-control';
import { RankControl } from './rank-control';
import { WriteControl } from './write-control';

interface StepControlProps {
  step: PlayerStep;
  result: StepResult | null;
  busy: boolean;
  onSubmit: (answer: AnswerFields) => void;
}

/** The control of the step's kind; a result of another kind (never sent by the server) shows the question again. */
export function StepControl({ step, result, busy, onSubmit }: StepControlProps) {
  const props = { busy, onSubmit };
  switch (step.kind) {
    case 'choice':
      return <ChoiceControl step={step} result={result?.kind === 'choice' ? result : null} {...props} />;
    case 'multi':
      return <MultiControl step={step} result={result?.kind === 'multi' ? result : null} {...props} />;
    case 'rank':
      return <RankControl step={step} result={result?.kind === 'rank' ? result : null} {...props} />;
    case 'estimate':
      return <EstimateControl step={step} result={result?.kind === 'estimate' ? result : null} {...props} />;
    case 'grade-source':
      return <GradeSourceControl step={step} result={result?.kind === 'grade-source' ? result : null} {...props} />;
    case 'extract':
      return <ExtractControl step={step} result={result?.kind === 'extract' ? result : null} {...props} />;
    case 'ach':
      return <AchControl step={step} result={result?.kind === 'ach' ? result : null} {...props} />;
    case 'write':
      return <WriteControl step={step} result={result?.kind === 'write' ? result : null} {...props} />;
  }
}
