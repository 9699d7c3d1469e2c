import type { Migration } from 'kysely';
import * as createUsers from './2026_11_21_0001_create_users';
import * as createActivityAndAudit from './2026_11_21_0002_create_activity_and_audit';
import * as createScenariosAndRuns from './2026_11_21_0003_create_scenarios_and_runs';
import * as adminLogIndexes from './2026_11_21_0040_admin_log_indexes';
import * as trainingProgressIndexes from './2026_11_21_0050_training_progress_indexes';
import * as pageGrowthIndexes from './2026_11_21_0060_page_growth_indexes';
import * as signInLockout from './2026_11_23_0101_sign_in_lockout';
import * as analystSteps from './2026_11_23_0401_analyst_steps';
import * as oneRunInProgressAndPractice from './2026_11_23_0501_one_run_in_progress_and_practice';
import * as feedbackMarksAsWords from './2026_11_23_0601_feedback_marks_as_words';
import * as firstAdminAndHandledNotifications from './2026_11_23_0701_first_admin_and_handled_notifications';
import * as trigramSearch from './2026_11_23_0801_trigram_search';
import * as accountSecurity from './2026_11_23_1101_account_security';
import * as singleSignOn from './2026_11_23_1201_single_sign_on';
import * as apiTokens from './2026_11_23_1202_api_tokens';
import * as secondFactorDue from './2026_11_23_1203_second_factor_due';
import * as searchIndexesAndCounts from './2026_11_25_0001_search_indexes_and_counts';
import * as scenarioVersions from './2026_11_25_0100_scenario_versions';
import * as programmes from './2026_11_25_0301_programmes';
import * as loginEmails from './2026_11_26_0001_login_emails';
import * as peopleByRoleAndName from './2026_11_26_0002_people_by_role_and_name';
import * as programmesVersionsAndPathEdits from './2026_11_26_0100_programmes_versions_and_path_edits';
import * as manageUsersGrowth from './2026_11_26_0200_manage_users_growth';
import * as programmesLists from './2026_11_26_0300_programmes_lists';
import * as countsByQuarterHour from './2026_11_26_0400_counts_by_quarter_hour';
import * as scenarioLibraryChanges from './2026_11_26_0500_scenario_library_changes';
import * as auditLogNewestFirst from './2026_11_26_0600_audit_log_newest_first';
import * as secondStepFailuresAndReauthentication from './2026_11_27_0200_second_step_failures_and_reauthentication';
import * as ssoBrowserBindingAndLinks from './2026_11_27_0100_sso_browser_binding_and_links';
import * as xapiOutbox from './2026_11_27_0400_xapi_outbox';
import * as mailOutboxAndPreferences from './2026_11_27_0900_mail_outbox_and_preferences';
import * as caseFileNotesAndPins from './2026_11_27_0600_case_file_notes_and_pins';

/** Every migration, by name; names sort in the order they run. Add new ones at the end. */
export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_create_users': createUsers,
  '2026_11_21_0002_create_activity_and_audit': createActivityAndAudit,
  '2026_11_21_0003_create_scenarios_and_runs': createScenariosAndRuns,
  '2026_11_21_0040_admin_log_indexes': adminLogIndexes,
  '2026_11_21_0050_training_progress_indexes': trainingProgressIndexes,
  '2026_11_21_0060_page_growth_indexes': pageGrowthIndexes,
  '2026_11_23_0101_sign_in_lockout': signInLockout,
  '2026_11_23_0401_analyst_steps': analystSteps,
  '2026_11_23_0501_one_run_in_progress_and_practice': oneRunInProgressAndPractice,
  '2026_11_23_0601_feedback_marks_as_words': feedbackMarksAsWords,
  '2026_11_23_0701_first_admin_and_handled_notifications': firstAdminAndHandledNotifications,
  '2026_11_23_0801_trigram_search': trigramSearch,
  '2026_11_23_1101_account_security': accountSecurity,
  '2026_11_23_1201_single_sign_on': singleSignOn,
  '2026_11_23_1202_api_tokens': apiTokens,
  '2026_11_23_1203_second_factor_due': secondFactorDue,
  '2026_11_25_0001_search_indexes_and_counts': searchIndexesAndCounts,
  '2026_11_25_0100_scenario_versions': scenarioVersions,
  '2026_11_25_0301_programmes': programmes,
  '2026_11_26_0001_login_emails': loginEmails,
  '2026_11_26_0002_people_by_role_and_name': peopleByRoleAndName,
  '2026_11_26_0100_programmes_versions_and_path_edits': programmesVersionsAndPathEdits,
  '2026_11_26_0200_manage_users_growth': manageUsersGrowth,
  '2026_11_26_0300_programmes_lists': programmesLists,
  '2026_11_26_0400_counts_by_quarter_hour': countsByQuarterHour,
  '2026_11_26_0500_scenario_library_changes': scenarioLibraryChanges,
  '2026_11_26_0600_audit_log_newest_first': auditLogNewestFirst,
  '2026_11_27_0200_second_step_failures_and_reauthentication': secondStepFailuresAndReauthentication,
  '2026_11_27_0100_sso_browser_binding_and_links': ssoBrowserBindingAndLinks,
  '2026_11_27_0400_xapi_outbox': xapiOutbox,
  '2026_11_27_0600_case_file_notes_and_pins': caseFileNotesAndPins,
  '2026_11_27_0900_mail_outbox_and_preferences': mailOutboxAndPreferences,
};
