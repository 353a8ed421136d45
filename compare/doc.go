// Package compare decides what a run means against its history: it finds
// the baseline, compares the run with it under the strict or the ci gate
// (paired statistics, flakiness) and says which findings gate.
package compare
