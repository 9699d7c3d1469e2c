/**
 * The 12 questions of Help & FAQ, answered for what the product does today. Keep every answer true:
 * when a feature changes, change its answer in the same change.
 */
export interface FaqEntry {
  id: string;
  question: string;
  /** Paragraphs, shown as plain text. */
  answer: string[];
}

export const FAQ: FaqEntry[] = [
  {
    id: 'what',
    question: 'What is Tradecraft?',
    answer: [
      'Tradecraft is a browser-based training range for cyber threat intelligence analysts. You work through branching scenarios built from public threat reports, dark-web chatter and intelligence feeds, make a decision at each step, and get immediate feedback and a score.',
      'Each step can be mapped to a MITRE ATT&CK technique, so your results show which adversary behaviours you recognise and which you still miss.',
    ],
  },
  {
    id: 'who',
    question: 'Who is it for?',
    answer: [
      'Trainees (the student role): analysts learning or sharpening triage, enrichment, attribution, scoping, containment and reporting.',
      'Administrators (the admin role): team leads and instructors who approve accounts, publish scenarios and follow how their trainees progress.',
    ],
  },
  {
    id: 'different',
    question: 'How is it different from other training?',
    answer: [
      'Instead of slides or multiple-choice quizzes, you make the decisions an analyst makes on a real case, and a wrong decision can lead the scenario somewhere worse. The built-in scenarios cite the public reports they are built on.',
      'Scoring happens on the server: the correct answers never reach your browser before you answer, so a score means what it says. And the whole range runs on your own server: your trainees and their results stay with you.',
    ],
  },
  {
    id: 'hardware',
    question: 'What hardware do I need?',
    answer: [
      'Trainees need only a current web browser, such as Chrome, Edge, Firefox or Safari, on a desktop, laptop, tablet or phone; nothing is installed on their machines.',
      'The range itself is one small Node.js server. By default it keeps everything in a single SQLite file; for larger groups it can use PostgreSQL instead.',
    ],
  },
  {
    id: 'security',
    question: 'How is my data kept secure?',
    answer: [
      'Passwords are stored only as argon2id hashes and must meet a strength rule. Sessions use an HttpOnly cookie, requests from other sites are refused, and three failed sign-ins in a row lock the account until an administrator re-enables it.',
      'New accounts wait for an administrator’s approval. Every permission is checked on the server. Sign-ins, sign-outs and failed attempts are logged for administrators, and every administrative action is written to an audit log.',
      'Uploaded pictures are checked from their bytes and re-encoded, which removes their metadata; uploaded scenario files are parsed safely and checked in full before they are accepted.',
    ],
  },
  {
    id: 'customise',
    question: 'Can we customise the scenarios?',
    answer: [
      'Yes. Administrators upload scenarios as YAML or JSON files on the Upload Scenario screen. A checker reads the whole file and lists every problem with its place (a missing field, a step nobody can reach, a technique id that is not in ATT&CK, a path that never finishes) before anything is published.',
      'Administrators can also remove scenarios in the Scenario Configurator and set the platform’s current difficulty in the Difficulty Adjuster. Each user can choose light or dark mode and an accent colour in Settings.',
    ],
  },
  {
    id: 'mitre',
    question: 'How does the MITRE ATT&CK mapping work?',
    answer: [
      'A scenario step can name the ATT&CK Enterprise technique or sub-technique it exercises (for example T1566.001, Spearphishing Attachment). Every id is checked against the ATT&CK dataset shipped with the range, so only real, current techniques are accepted.',
      'When you answer such a step correctly, that technique’s count goes up; the end of a run lists your MITRE ATT&CK score by technique.',
    ],
  },
  {
    id: 'feedback',
    question: 'What feedback do I get?',
    answer: [
      'Right after each answer you see whether it was correct and, if not, what the correct answer was, with the scenario author’s explanation where there is one. Some scenarios ask you to retry a step until you get it right.',
      'At the end you see your score, the time taken, your correct and incorrect answers, your ATT&CK techniques and the timeline of your decisions. Your dashboard keeps every run, and unfinished runs can be resumed.',
    ],
  },
  {
    id: 'team-leads',
    question: 'Can team leads track progress?',
    answer: [
      'Yes. Administrators see every trainee’s runs on the Training Progress screen, with the score as a percentage, the result (Pass at 70 % or more) and whether the run is complete.',
      'User Monitoring shows sign-ins, sign-outs and failed attempts, and can be exported as CSV; the audit log records every administrative action.',
    ],
  },
  {
    id: 'onboarding',
    question: 'How quickly can a new analyst get started?',
    answer: [
      'A new analyst registers with a name, email and password; an administrator approves the account from Pending Approvals (administrators are notified of new registrations). After that, signing in leads straight to the dashboard and the scenario list: there is nothing to install.',
    ],
  },
  {
    id: 'scale',
    question: 'Does it scale to a large team?',
    answer: [
      'One server with its SQLite file serves a team or a class. When a group outgrows one machine, the same code runs on PostgreSQL, and several server processes can then share the load behind a load balancer, because sessions, uploads and notifications are all kept in the database.',
      'Long lists such as the sign-in log, the audit log and training progress are searched, sorted and paged on the server, so they stay quick as they grow.',
    ],
  },
  {
    id: 'integration',
    question: 'Can it integrate with our other tools?',
    answer: [
      'Tradecraft has a JSON API, described in OpenAPI at /api/docs. Scenarios are plain YAML or JSON files you can keep in version control, the sign-in log exports as CSV and the audit log as an Excel spreadsheet.',
      'Accounts are Tradecraft’s own (email and password); there is no single sign-on or learning-management-system connector today.',
    ],
  },
];
