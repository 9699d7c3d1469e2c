/** The platform difficulty (1..5) the scenario picker recommends; scenarios join on it to recommend. */
export const DIFFICULTY_SETTING_KEY = 'difficulty';

/** The setup checklist steps an admin dismissed (a JSON array of item ids), for every admin. */
export const SETUP_DISMISSED_SETTING_KEY = 'setupChecklistDismissed';
/** Who must give a second factor at sign-in: 'off' (the default), 'admins' or 'everyone'. */
export const SECOND_FACTOR_POLICY_KEY = 'second_factor_policy';
