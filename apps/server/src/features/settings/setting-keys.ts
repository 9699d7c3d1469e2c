/** The platform difficulty (1..5) the scenario picker recommends; scenarios join on it to recommend. */
export const DIFFICULTY_SETTING_KEY = 'difficulty';

/** The setup checklist steps an admin dismissed (a JSON array of item ids), for every admin. */
export const SETUP_DISMISSED_SETTING_KEY = 'setupChecklistDismissed';
