// A scenario with a step of every kind, in file order with no branches, so one run meets each kind once:
// the browser tests play it right, partly right and wrong. Its intel uses every new artifact kind and marking.
export const ANALYST_STEPS_FIXTURE = (id: string) => `
id: ${id}
name: "Relay kit case (${id})"
type: Phishing
difficulty: 3
description: A voicemail lure leads to an adversary-in-the-middle relay kit; grade, pivot, weigh and report.
hint_cost: 0.25
steps:
  - id: first-move
    title: A clerk reports a voicemail email
    description: Dana opened the attachment and typed her password. What is your first move?
    hint: Think about everyone who got the message.
    mitre_attack: T1566.001
    artifacts:
      - kind: email
        title: Reported message
        tlp: GREEN
        content: |
          From: Voice Service <noreply@voice-msgcenter.example>
          Subject: [Voicemail] 1 new message

          Open the attached file to listen.
    options:
      - text: Find every recipient and purge the message everywhere
        feedback: Scoping comes first.
      - text: Reset Dana's password and stop there
        credit: 0.5
        feedback: Necessary, but the other recipients are still exposed.
      - text: Block the sender address and wait
        feedback: Copies already delivered stay in the mailboxes.
    correct_option: 0

  - id: contain
    kind: multi
    title: Contain the stolen session
    description: Which of these contain a session stolen by a relay? Select every one that applies.
    options:
      - text: Revoke Dana's sessions and refresh tokens
        correct: true
      - text: Send Dana a reminder about phishing
      - text: Block the relay domain at the proxy
        correct: true
      - text: Turn off MFA for Dana
        feedback: That weakens the account further.

  - id: order
    kind: rank
    title: Order the work
    description: Most urgent first.
    options:
      - Revoke the stolen session
      - Block the relay infrastructure
      - Write the after-action report

  - id: likelihood
    kind: estimate
    title: Will they come back?
    description: The kit's seller updates it weekly and the crew reuses lures.
    statement: The same crew targets our finance team again within 30 days.
    ask_confidence: true
    accept: [likely, very-likely]
    outcome: true
    feedback: Weekly updates and reused lures make a return likely.

  - id: source
    kind: grade-source
    title: Grade the forum post
    description: A post offers the relay kit for sale. Grade its source and information.
    artifacts:
      - kind: forum-post
        title: "[SELL] M365 relay kit"
        source: ledgerfox
        date: "2025-03-02 02:17 UTC"
        tlp: AMBER
        content: Reverse-proxy kit for Microsoft 365 sign-in. Captures the session cookie after MFA.
      - kind: report
        title: Vendor note on ledgerfox
        admiralty: B2
        tlp: CLEAR
        content: The seller ledgerfox has sold working kits before; two were seen in the wild.
    artifact: 0
    reliability: C
    credibility: 3

  - id: pivot
    kind: extract
    title: Pivot on the infrastructure
    description: From the passive DNS and the WHOIS record, give the relay domain and the address it resolved to.
    artifacts:
      - kind: dns
        title: Passive DNS for the relay
        tlp: AMBER+STRICT
        content: |
          rrname                         rrtype  rdata         first_seen  last_seen
          login.voice-msgcenter.example  A       203.0.113.77  2025-03-10  2025-03-11
      - kind: whois
        title: WHOIS voice-msgcenter.example
        content: |
          Domain Name: VOICE-MSGCENTER.EXAMPLE
          Creation Date: 2025-03-09T22:14:00Z
          Registrar: Example Registrar LLC
      - kind: stix
        title: Partner STIX bundle
        tlp: RED
        content: '{"type":"bundle","id":"bundle--1","objects":[{"type":"indicator","id":"indicator--1","name":"Relay host","pattern":"[domain-name:value = ''login.voice-msgcenter.example'']","valid_from":"2025-03-10T00:00:00Z"},{"type":"threat-actor","id":"threat-actor--1","name":"Ledger Fox crew"},{"type":"relationship","id":"relationship--1","relationship_type":"indicates","source_ref":"indicator--1","target_ref":"threat-actor--1"}]}'
    fields:
      - label: Relay domain
        type: domain
        accept: [login.voice-msgcenter.example]
      - label: Address it resolved to
        type: ip
        accept: [203.0.113.77]

  - id: weigh
    kind: ach
    title: Who is behind it?
    description: Weigh the evidence against each hypothesis.
    hypotheses:
      - A criminal crew renting the kit
      - A state actor
    evidence:
      - text: The kit is sold openly on a forum
        marks: [C, I]
      - text: The lure asks for a bank account change
        marks: [C, N]
    best: 0

  - id: bluf
    kind: write
    title: Brief the CFO
    description: The CFO wants to know what happened, in a few lines.
    prompt: Write a BLUF for the CFO, at most 60 words, marked for sharing.
    max_words: 60
    checks:
      tlp: true
      estimative_language: true
      must_mention: [T1557]
    rubric:
      - criterion: Bottom line first
        points: 2
      - criterion: States the likelihood with an ICD 203 term
        points: 2
    model_answer: "TLP:AMBER. A criminal crew stole Dana's session with a relay kit (T1557). It is likely they return within 30 days; we revoked the session and blocked the relay."
`;
