// Package stats holds the statistics the comparisons rest on: moments,
// Student's t and normal quantiles, and exact and multiple-testing
// p-values.
package stats
