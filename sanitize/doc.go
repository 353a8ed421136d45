// Package sanitize makes untrusted text safe to store and to show. It is
// the one place that knows how: every string an agent, a judge, a suite or
// an upstream API hands to evalrun passes through it before it reaches a
// database column, a report or a terminal.
//
// Two things happen to such text:
//
//   - Repair: NUL characters, invalid UTF-8 and lone UTF-16 surrogates
//     (including JSON escapes such as \ud800, which PostgreSQL jsonb
//     rejects with SQLSTATE 22P02 and which would lose a whole run's
//     transaction) become U+FFFD.
//   - Redaction: credentials become [REDACTED]: values of sensitive
//     headers (Authorization, Cookie, X-Api-Key, …), of sensitive query
//     parameters and key=value pairs (api_key, token, secret, password, …),
//     URL passwords, the credential-shaped word after Bearer/Basic/Token/
//     Digest (also as a value: NAME=Bearer …), PEM private-key blocks, and
//     words shaped like well-known keys (sk-…, ghp_…, github_pat_…, xox…-,
//     glpat-…, npm_…, hf_…, AKIA…, AIza…, JWTs).
//
// The repairing and redacting functions report what they changed in a
// Report, so callers can record in the evidence that a value was repaired
// or redacted.
//
// Text shown rather than stored is escaped for where it goes: StripControl
// and EscapeText remove terminal control sequences, EscapeMarkdown also
// makes Markdown and HTML syntax inert.
//
// The package imports nothing of this module: judges, replay and models,
// which import nothing else of ours, may use it.
package sanitize
