// Package runner loads and validates suite files, fingerprints their
// definitions, calls the agent under test for every question (command,
// worker, http, llm or Go function agents), scores the answers with the
// judges package and builds the run record that models saves.
package runner
