import type { AnswerInput, PlayerStepOfKind, StepKind, StepResultOfKind } from '@tradecraft/shared';

/** The fields of an answer that a control fills in; the panel adds the step id and the time taken. */
export type AnswerFields = Omit<AnswerInput, 'stepId' | 'timeMs'>;

/**
 * What every answer control receives: its step as the trainee may see it and, once the first submission came
 * back, the revealed key (`result`). Without a result the control asks; with one it shows the key element by
 * element.
 */
export interface ControlProps<K extends StepKind> {
  step: PlayerStepOfKind<K>;
  result: StepResultOfKind<K> | null;
  busy: boolean;
  onSubmit: (answer: AnswerFields) => void;
}
