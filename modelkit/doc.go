// Package modelkit hands the model providers to a run's set-up: llm agents
// and the judge, built with provider's clients.
package modelkit
