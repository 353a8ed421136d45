// Package coarse3_test runs the binary gate simulation of one judge at
// --repeat 3, in a package of its own so that it fits its own test
// timeout.
package coarse3_test

import (
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/gatesim/binarysim"
)

func TestRunBinary_GateSimulation(t *testing.T) {
	binarysim.Simulate(t, binarysim.BuildEvalrun(t), binarysim.Coarse, 3)
}
