/** Every sentence the run engine answers with, so the server and the player say the same thing. */
export const RUN_MESSAGES = {
  complete: 'Simulation Complete!',
  ended: 'Simulation Ended',
  runNotFound: 'Simulation run not found.',
  scenarioNotFound: 'Scenario not found.',
  scenarioDeleted: 'This scenario has been deleted.',
  scenarioChanged: 'This scenario has changed since the run started and its current step no longer exists.',
  notOwner: 'Only the trainee who started this run can play it.',
  finished: 'This run has already finished.',
  alreadyAnswered: 'This step has already been answered.',
  notCurrentStep: 'That step is not the current step of this run.',
  noSuchOption: 'That option does not exist on this step.',
  notAnswered: 'Answer the current step before moving on.',
  completedNotResumable: 'This run was completed. Start the scenario again to play a new run.',
  newerRunExists: 'A newer run of this scenario was started after this one, so this one stays in your history.',
  practiceWhilePlaying: 'Finish or end the run before practising its steps.',
  notPractisable: 'Only a step you missed in this run can be practised.',
  practiceNotFound: 'Practice step not found.',
  practiceAnswered: 'This practice step has already been answered.',
} as const;

/** The longest time one answer may report (a day); the player clamps to it. */
export const MAX_ANSWER_TIME_MS = 24 * 60 * 60 * 1000;
