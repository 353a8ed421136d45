// Package calibrate measures how far an LLM judge can be trusted: its
// agreement with human labels (Cohen's kappa) and its stability when it
// judges the same answers again.
package calibrate
