// Package faults holds the fault-injection tests of evalrun (tests only):
// hostile agents (lone surrogates, secrets in stderr and URLs, floods,
// background and setsid children, a SIGKILLed evalrun) and hostile suites
// (nested 100,000 levels deep), each run through the real evalrun binary
// against a real PostgreSQL server. They assert that the run is saved,
// that no planted secret reaches any table or report format, that deep
// input is refused by the depth limit, and that no agent process outlives
// the run (checked through /proc). Peak RSS figures are logged (go test -v).
package faults
