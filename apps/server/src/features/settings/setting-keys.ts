/** The platform difficulty (1..5) the scenario picker recommends; scenarios join on it to recommend. */
export const DIFFICULTY_SETTING_KEY = 'difficulty';
