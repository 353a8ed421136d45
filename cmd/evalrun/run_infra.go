package main

import (
	"fmt"
	"io"

	"agentevals/compare"
	"agentevals/models"
	"agentevals/sanitize"
)

// writeInfrastructureFailure says when the run is marked as failed from
// infrastructure (every agent call or every judge call failed: connection
// refused, DNS, timeouts) and reports whether it was, so that run exits 1.
func writeInfrastructureFailure(w io.Writer, run *models.Run) bool {
	lines := compare.InfrastructureFailures(run)
	if len(lines) == 0 {
		return false
	}
	fmt.Fprintln(w, "evalrun: this run failed from infrastructure, not from the agent's answers:")
	for _, l := range lines {
		fmt.Fprintf(w, "  %s\n", sanitize.EscapeText(l))
	}
	fmt.Fprintln(w, "It is saved as evidence and marked \""+models.InfrastructureFailureKey+"\" in its summary: "+
		"an automatic baseline never uses it (pass --baseline RUN_ID to compare with it anyway). Exit 1.")
	return true
}
