export { judgeAnswer, CORRECT_FEEDBACK, incorrectFeedback, type AnswerVerdict, type FeedbackStep } from './feedback';
export { MAX_ANSWER_TIME_MS, RUN_MESSAGES } from './run-messages';
export * from './runs.schema';
export * from './step-answers.schema';
export * from './credit';
export * from './grade-step';
export { shownOrder } from './shuffle';
export * from './verdict';
