// Package wild1_test runs the binary gate simulation of one judge at
// --repeat 1, in a package of its own so that it fits its own test
// timeout.
package wild1_test

import (
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/gatesim/binarysim"
)

func TestRunBinary_GateSimulation(t *testing.T) {
	binarysim.Simulate(t, binarysim.BuildEvalrun(t), binarysim.Wild, 1)
}
