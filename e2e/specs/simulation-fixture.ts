// A scenario of our own, published through the admin upload: a Retry, a branch to a named step (skipping
// `sandbox`), a fall-through, techniques on some steps, and intel of every kind the player draws.
export const SIMULATION_FIXTURE = (id: string) => `
id: ${id}
name: "Voicemail lure (${id})"
type: Phishing
difficulty: 2
description: A reported voicemail email leads to a stolen session and a changed bank account.
steps:
  - id: reported-email
    title: A clerk reports a "missed voicemail" email
    description: >-
      Dana in accounts payable reported the message below. She opened the attachment and typed her
      password into the page it showed. What is your first move?
    artifacts:
      - kind: email
        title: Message reported by the clerk
        source: Report phishing add-in
        date: "2025-03-11 08:02 UTC"
        content: |
          From: Voice Service <noreply@voice-msgcenter.example>
          To: dana.k@harrowpike.example
          Subject: [Voicemail] 1 new message from +1 (555) 0147 - 0:48 sec
          Date: Tue, 11 Mar 2025 07:41:09 +0000

          You received a new voice message.
          Open the attached file to listen to it in your browser.

          Attachment: VM_0147_Play.html (3 KB)
    hint: Think about everyone who got the message, not only Dana.
    mitre_attack: T1566.001
    options:
      - text: Open the attachment on your own workstation to see what it does
        next_step: null
        feedback: Never open a suspicious attachment outside a sandbox. Try again.
      - text: Find every recipient, purge the message everywhere and ask Dana what she entered
        next_step: sign-in-logs
        feedback: Scoping comes first, and Dana's password is probably gone.
      - text: Block the sender address and wait for more reports
        feedback: Blocking one address does nothing about copies already delivered.
    correct_option: 1

  - id: sandbox
    title: The sandbox report
    description: The attachment was detonated in the sandbox. How do you classify the page?
    artifacts:
      - kind: report
        title: Sandbox detonation summary
        source: Internal sandbox
        content: |
          1. Local HTML file redirects the browser.
          2. Landing host relays the real sign-in page, MFA prompt included.
          Verdict: credential and session relay page.
      - kind: forum-post
        title: "[SELL] M365 relay kit, MFA bypass, weekly updates"
        source: ledgerfox
        date: "2025-03-02 02:17 UTC"
        content: |
          Reverse-proxy kit for Microsoft 365 sign-in. Captures the session cookie after MFA.
          Voicemail and fax lures included. DM for price.
    mitre_attack: T1557
    options:
      - text: A simple fake login page
        feedback: It relays the real page, so MFA did not protect Dana.
      - text: An adversary-in-the-middle relay that steals the session cookie
        feedback: The relay keeps the cookie the real service issues after MFA.
    correct_option: 1

  - id: sign-in-logs
    title: Dana's sign-in log
    description: Two sign-ins two seconds apart, from two very different places. What happened?
    artifacts:
      - kind: log
        title: Identity provider sign-in log, dana.k
        source: Cloud identity sign-in logs
        date: "2025-03-11"
        content: |
          07:52:13Z user=dana.k app="Office 365" ip=198.51.100.24 (home ISP) result=success auth=password+MFA(push approved)
          07:52:15Z user=dana.k app="Office 365" ip=203.0.113.77 (VPS hosting provider) result=success auth=password+MFA(push approved)
          07:56:40Z user=dana.k app="Outlook Web" ip=203.0.113.77 (VPS hosting provider) result=success auth="existing session token"
    mitre_attack: T1550.004
    options:
      - text: The attacker replayed Dana's stolen session cookie from a VPS
        feedback: The second sign-in is the relay; the later ones reuse the stolen session.
      - text: Dana signed in from her phone, nothing to see
        feedback: A VPS hosting provider is not Dana's phone.
    correct_option: 0

  - id: infrastructure
    title: The relay infrastructure
    description: A feed entry and the team chat tell you more. What do you block?
    artifacts:
      - kind: feed
        title: Phishing infrastructure entry
        source: Commercial phishing feed
        date: "2025-03-11 09:10 UTC"
        content: Cluster of adversary-in-the-middle relay hosts imitating Microsoft 365 sign-in.
        indicators:
          - type: domain
            value: login.voice-msgcenter[.]example
            context: Relay host, first seen 2025-03-10
          - type: ipv4
            value: 203.0.113.77
            context: Session replay source
          - type: sha256
            value: 6f1c0b6a7d3e4f58a9b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0
            context: VM_0147_Play.html
      - kind: chat
        title: Team chat
        source: "#soc-shift"
        content: |
          [09:22] lead.mira: Dana's account is confirmed bad. What's your containment plan?
          [09:23] helpdesk.tom: I can reset her password right now
    mitre_attack: T1583.001
    options:
      - text: Only the sender address of the first email
        feedback: The sender is the least useful indicator here.
      - text: The relay domain, the replay address and the file hash, everywhere
        feedback: Block the whole cluster the feed ties together.
    correct_option: 1

  - id: report-out
    title: Close the case
    description: What goes in the after-action report?
    options:
      - text: The timeline, the indicators and the lessons learned
        feedback: A complete report helps the next analyst.
      - text: Nothing, the case is closed
        feedback: Undocumented cases repeat.
    correct_option: 0
`;
