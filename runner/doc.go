// Package runner executes a loaded suite against an agent: it calls the
// agent for every question (repeated when asked), scores the answers with
// the suite's scorers and builds the run record that models saves.
package runner
