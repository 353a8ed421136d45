// Package outcome scores what an agent did rather than what it said:
// verifier programs in any language and read-only state queries against
// the application's databases, bound to a run, with the setup and
// teardown steps run around every question.
package outcome
