// Package pipeline is the evaltest side of evalrun's pipeline test
// (cmd/evalrun/pipeline_test.go): go test -c builds it, and the test runs
// it with the EVALTEST_* gate variables that match run's gate flags. It
// lives under testdata so that go test ./... never runs it.
package pipeline
